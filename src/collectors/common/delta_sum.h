/*
 * Counters summed over a set of members that changes (the CPUs of a
 * performance level, the interfaces of network.all) without the sum going
 * backwards when a member leaves: each round adds what the members present
 * in both rounds accrued since the previous one. In the first round a
 * member adds its whole value; a member first seen later adds from then on.
 */
#ifndef PMDA_DARWIN_DELTA_SUM_H
#define PMDA_DARWIN_DELTA_SUM_H

#include <stdint.h>

#include "platform.h"

#define DELTA_SUM_MAX_VALUES 16

struct delta_member;

struct delta_sum {
    struct delta_member *members;
    unsigned int n, cap;
    int primed;
};

/* Start a round. */
void delta_sum_begin(struct delta_sum *d);

/* Feed one member's nvalues (at most DELTA_SUM_MAX_VALUES) current counter
 * values; add[] receives what to add to the sums. 0, or -ENOMEM. */
int delta_sum_step(struct delta_sum *d, const char *name, const uint64_t *now, unsigned int nvalues, uint64_t *add);

/* End a round: members not fed in it are forgotten. */
void delta_sum_end(struct delta_sum *d);

void delta_sum_free(struct delta_sum *d);

#endif
