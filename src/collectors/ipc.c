/*
 * Cluster 21: socket and mbuf settings (kern.ipc.*) and the count of sockets
 * made defunct.
 */
#include "collector.h"
#include "metric_units.h"
#include "sysctl_values.h"

/* Items follow the PLAT_IPC_* order of the sysctl family. */
static const struct metric_row rows[] = {
    { "ipc.mbuf.clusters", CLUSTER_IPC, PLAT_IPC_NMBCLUSTERS, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_DISCRETE, UNITS_COUNT },
    { "ipc.maxsockbuf", CLUSTER_IPC, PLAT_IPC_MAXSOCKBUF, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_DISCRETE,
      PMDA_PMUNITS(1, 0, 0, PM_SPACE_BYTE, 0, 0) },
    { "ipc.somaxconn", CLUSTER_IPC, PLAT_IPC_SOMAXCONN, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_DISCRETE, UNITS_COUNT },
    { "ipc.socket.defunct", CLUSTER_IPC, PLAT_IPC_SODEFUNCT_CALLS, PM_TYPE_U64, COLLECTOR_NO_INDOM, PM_SEM_COUNTER, UNITS_COUNT },
};

SYSCTL_TABLE_COLLECTOR(ipc_collector, "ipc", PLAT_SYSCTL_IPC, rows, 0);
