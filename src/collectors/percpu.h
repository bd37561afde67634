#ifndef PMDA_DARWIN_PERCPU_H
#define PMDA_DARWIN_PERCPU_H

#include "cpu_counters.h"

/* A processor present at the last cluster 8 refresh and its extended tick counters. */
struct percpu_view {
    const char *name;
    const struct cpu_counters *counters;
};

/* The percpu collector's state, which a collector that declares percpu_collector
 * as a dependency finds in its refresh's call->depends. */
struct percpu_state;

/* The i-th processor of s: 0, or -1 past the end. Valid until the next
 * refresh. */
int percpu_at(const struct percpu_state *s, unsigned int i, struct percpu_view *out);

#endif
