/*
 * Cluster 21: socket and mbuf settings (kern.ipc.*) and the count of sockets
 * made defunct.
 */
#include "collector.h"
#include "metric_ids.h"
#include "metric_units.h"
#include "sysctl_values.h"

static const struct metric_row rows[] = {
    { "ipc.mbuf.clusters", CLUSTER_IPC, 0, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_DISCRETE, UNITS_COUNT,
      SYSCTL_FIELD(PLAT_IPC_NMBCLUSTERS) },
    { "ipc.maxsockbuf", CLUSTER_IPC, 1, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_DISCRETE,
      PMDA_PMUNITS(1, 0, 0, PM_SPACE_BYTE, 0, 0), SYSCTL_FIELD(PLAT_IPC_MAXSOCKBUF) },
    { "ipc.somaxconn", CLUSTER_IPC, 2, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_DISCRETE, UNITS_COUNT,
      SYSCTL_FIELD(PLAT_IPC_SOMAXCONN) },
    { "ipc.socket.defunct", CLUSTER_IPC, 3, PM_TYPE_U64, COLLECTOR_NO_INDOM, PM_SEM_COUNTER, UNITS_COUNT,
      SYSCTL_FIELD(PLAT_IPC_SODEFUNCT_CALLS) },
};

SYSCTL_TABLE_COLLECTOR(ipc_collector, "ipc", PLAT_SYSCTL_IPC, rows);
