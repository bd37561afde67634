/*
 * The proc agent's cluster and instance domain numbers, in one place (its
 * own domain).
 */
#ifndef PMDA_DARWIN_PROC_IDS_H
#define PMDA_DARWIN_PROC_IDS_H

/* The proc agent (its own domain): upstream darwin_proc's clusters, then
 * those beyond it from 100. */
enum proc_cluster {
    PROC_CLUSTER_CONTROL = 0,
    PROC_CLUSTER_PSINFO = 1,
    PROC_CLUSTER_RUNQ = 2,
    PROC_CLUSTER_ID = 3,
    PROC_CLUSTER_MEMORY = 4,
    PROC_CLUSTER_IO = 5,
    PROC_CLUSTER_FD = 6,
    PROC_CLUSTER_QOS = 7,
    PROC_CLUSTER_NET = 8,
    PROC_CLUSTER_EXTRA = 100,
    PROC_CLUSTER_THREAD = 101,
    PROC_CLUSTER_LINUX = 102,
};

enum proc_indom {
    PROC_INDOM = 0,             /* processes, and threads beside them */
};

#endif
