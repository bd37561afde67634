/*
 * Cluster 19: process, file and thread limits, and the count of recycled
 * vnodes, refreshed whenever one of them is asked for.
 */
#include "collector.h"
#include "metric_units.h"
#include "sysctl_values.h"

/* Items follow the PLAT_LIMITS_* order of the sysctl family. */
static const struct metric_row rows[] = {
    { "kernel.limits.maxproc", CLUSTER_LIMITS, PLAT_LIMITS_MAXPROC, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_DISCRETE, UNITS_NONE },
    { "kernel.limits.maxprocperuid", CLUSTER_LIMITS, PLAT_LIMITS_MAXPROCPERUID, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_DISCRETE, UNITS_NONE },
    { "kernel.limits.maxfiles", CLUSTER_LIMITS, PLAT_LIMITS_MAXFILES, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_DISCRETE, UNITS_NONE },
    { "kernel.limits.maxfilesperproc", CLUSTER_LIMITS, PLAT_LIMITS_MAXFILESPERPROC, PM_TYPE_U32, COLLECTOR_NO_INDOM,
      PM_SEM_DISCRETE, UNITS_NONE },
    { "vfs.vnodes.recycled", CLUSTER_LIMITS, PLAT_LIMITS_RECYCLED_VNODES, PM_TYPE_U64, COLLECTOR_NO_INDOM, PM_SEM_COUNTER, UNITS_NONE },
    { "kernel.limits.maxthreads", CLUSTER_LIMITS, PLAT_LIMITS_MAXTHREADS, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_DISCRETE, UNITS_NONE },
    { "kernel.limits.maxtaskthreads", CLUSTER_LIMITS, PLAT_LIMITS_MAXTASKTHREADS, PM_TYPE_U32, COLLECTOR_NO_INDOM,
      PM_SEM_DISCRETE, UNITS_NONE },
};

SYSCTL_TABLE_COLLECTOR(limits_collector, "limits", PLAT_SYSCTL_LIMITS, rows, 0);
