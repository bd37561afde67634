/*
 * What the performance-state families (pstate.c) tell other families.
 */
#ifndef PMDA_DARWIN_PSTATE_H
#define PMDA_DARWIN_PSTATE_H

#include <stdint.h>

/* The time the CPU clusters of this letter ('E', 'P', 'M'; 0: all of
 * them) spent in their clock states, summed, and the time their counting
 * covers (the longest of their totals), both since boot in ns, as of the
 * last refresh of cluster 127: 0, or a negative error when there is no such
 * cluster (no IOReport "CPU Stats": Intel Macs). Valid after a cluster 127
 * refresh, which a family that uses it declares as a dependency. */
int pstate_cluster_activity(char letter, uint64_t *active_ns, uint64_t *elapsed_ns);

#endif
