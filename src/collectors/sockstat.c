/*
 * Cluster 15: sockets in use per protocol (net.inet.tcp.pcbcount,
 * net.inet.udp.pcbcount); each fails on its own.
 */
#include "collector.h"
#include "metric_units.h"
#include "sysctl_values.h"

#define FIRST_ITEM 155      /* items follow the PLAT_SOCKSTAT_* order */

static const struct metric_row rows[] = {
    { "network.sockstat.tcp.inuse", CLUSTER_SOCKSTAT, FIRST_ITEM + PLAT_SOCKSTAT_TCP, PM_TYPE_U32, COLLECTOR_NO_INDOM,
      PM_SEM_INSTANT, UNITS_NONE },
    { "network.sockstat.udp.inuse", CLUSTER_SOCKSTAT, FIRST_ITEM + PLAT_SOCKSTAT_UDP, PM_TYPE_U32, COLLECTOR_NO_INDOM,
      PM_SEM_INSTANT, UNITS_NONE },
};

SYSCTL_TABLE_COLLECTOR(sockstat_collector, "sockstat", PLAT_SYSCTL_SOCKSTAT, rows, FIRST_ITEM);
