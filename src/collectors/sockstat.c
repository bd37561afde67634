/*
 * Cluster 15: sockets in use per protocol (net.inet.tcp.pcbcount,
 * net.inet.udp.pcbcount); each fails on its own.
 */
#include "collector.h"
#include "metric_ids.h"
#include "metric_units.h"
#include "sysctl_values.h"

static const struct metric_row rows[] = {
    { "network.sockstat.tcp.inuse", CLUSTER_SOCKSTAT, 155, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, UNITS_NONE,
      SYSCTL_FIELD(PLAT_SOCKSTAT_TCP) },
    { "network.sockstat.udp.inuse", CLUSTER_SOCKSTAT, 156, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, UNITS_NONE,
      SYSCTL_FIELD(PLAT_SOCKSTAT_UDP) },
};

SYSCTL_TABLE_COLLECTOR(sockstat_collector, "sockstat", PLAT_SYSCTL_SOCKSTAT, rows);
