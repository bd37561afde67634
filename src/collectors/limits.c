/*
 * Cluster 19: process and file limits, and the count of recycled vnodes.
 * Refreshed on its own (upstream read these only when cluster 12 was
 * fetched, so they were 0 when asked for alone).
 */
#include "collector.h"
#include "metric_units.h"
#include "sysctl_values.h"


/* Items follow the PLAT_LIMITS_* order of the sysctl family. */
static const struct metric_row rows[] = {
    { "kernel.limits.maxproc", PLAT_LIMITS_MAXPROC, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_DISCRETE, UNITS_NONE },
    { "kernel.limits.maxprocperuid", PLAT_LIMITS_MAXPROCPERUID, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_DISCRETE, UNITS_NONE },
    { "kernel.limits.maxfiles", PLAT_LIMITS_MAXFILES, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_DISCRETE, UNITS_NONE },
    { "kernel.limits.maxfilesperproc", PLAT_LIMITS_MAXFILESPERPROC, PM_TYPE_U32, COLLECTOR_NO_INDOM,
      PM_SEM_DISCRETE, UNITS_NONE },
    { "vfs.vnodes.recycled", PLAT_LIMITS_RECYCLED_VNODES, PM_TYPE_U64, COLLECTOR_NO_INDOM, PM_SEM_COUNTER, UNITS_NONE },
};

SYSCTL_TABLE_COLLECTOR(limits_collector, "limits", 19, PLAT_SYSCTL_LIMITS, rows, 0);
