/*
 * What the performance-state collectors (pstate.c) tell other collectors.
 */
#ifndef PMDA_DARWIN_PSTATE_H
#define PMDA_DARWIN_PSTATE_H

#include <stdint.h>

/* The state of a performance-state collector: cpucluster_collector's is what
 * a collector that declares it as a dependency finds in its refresh's
 * call->depends. */
struct pstate_set;

/* How many times cluster 127 has refreshed: a collector that reads the
 * activity below tells by it whether the clusters were refreshed for the
 * same request (an instance request refreshes no dependency). */
unsigned long pstate_cluster_refreshes(const struct pstate_set *clusters);

/* The time CPU clusters spent in their clock states, summed, and the time
 * their counting covers (the longest of their totals), both since boot in
 * ns, as of the last refresh of cluster 127: of the cluster channel called
 * name ("PCPU1", "DIE_0_ECPU"), or with name NULL of every cluster of die
 * (-1: every die). The CPM channels count the same work as their CPU ones
 * and are left out. 0, or a negative error when there is no such cluster
 * (no IOReport "CPU Stats": Intel Macs); *active_ns and *elapsed_ns are 0
 * then. */
int pstate_cluster_activity(const struct pstate_set *clusters, int die, const char *name, uint64_t *active_ns,
                            uint64_t *elapsed_ns);

#endif
