/*
 * The cost of the live path (bench/live-cost.sh): rounds of every request
 * pmcd may make, one second of the day's machine apart, without faults or
 * checks, and the OS calls each round made in the double.
 */
#ifndef PMDA_DARWIN_DAY_COST_H
#define PMDA_DARWIN_DAY_COST_H

#include "agent.h"

/* rounds rounds of requests_round (a fetch of every metric, every instance
 * domain, label and help text) through dp; prints the doubled calls per
 * round (none on a replay, which makes none). */
void day_cost(pmdaInterface *dp, unsigned int rounds);

#endif
