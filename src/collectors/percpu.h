#ifndef PMDA_DARWIN_PERCPU_H
#define PMDA_DARWIN_PERCPU_H

#include "cpu_counters.h"

/* A processor present at the last cluster 8 refresh and its extended tick counters. */
struct percpu_view {
    const char *name;
    const struct cpu_counters *counters;
};

/* The i-th of them: 0, or -1 past the end. Valid until the next refresh. */
int percpu_at(unsigned int i, struct percpu_view *out);

#endif
