/*
 * Cluster 19: process, file and thread limits, and the count of recycled
 * vnodes, refreshed whenever one of them is asked for.
 */
#include "collector.h"
#include "metric_ids.h"
#include "metric_units.h"
#include "sysctl_values.h"

#define LIMIT(name, item, index) \
    { name, CLUSTER_LIMITS, item, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_DISCRETE, UNITS_NONE, SYSCTL_FIELD(index) }

static const struct metric_row rows[] = {
    LIMIT("kernel.limits.maxproc", 0, PLAT_LIMITS_MAXPROC),
    LIMIT("kernel.limits.maxprocperuid", 1, PLAT_LIMITS_MAXPROCPERUID),
    LIMIT("kernel.limits.maxfiles", 2, PLAT_LIMITS_MAXFILES),
    LIMIT("kernel.limits.maxfilesperproc", 3, PLAT_LIMITS_MAXFILESPERPROC),
    { "vfs.vnodes.recycled", CLUSTER_LIMITS, 4, PM_TYPE_U64, COLLECTOR_NO_INDOM, PM_SEM_COUNTER, UNITS_NONE,
      SYSCTL_FIELD(PLAT_LIMITS_RECYCLED_VNODES) },
    LIMIT("kernel.limits.maxthreads", 5, PLAT_LIMITS_MAXTHREADS),
    LIMIT("kernel.limits.maxtaskthreads", 6, PLAT_LIMITS_MAXTASKTHREADS),
};

SYSCTL_TABLE_COLLECTOR(limits_collector, "limits", PLAT_SYSCTL_LIMITS, rows);
