/*
 * Every counter's values through the day, per instance: a counter never
 * steps back, and never jumps by a wrap (a step per second far beyond any
 * it made before: the day's machine moves each counter by the same amount
 * every second).
 */
#ifndef PMDA_DARWIN_DAY_COUNTERS_H
#define PMDA_DARWIN_DAY_COUNTERS_H

#include "agent.h"

struct day_counters;

struct day_counters *counters_new(const pmID *pmids, unsigned int n);
void counters_free(struct day_counters *c);

/* Check the values of a fetch of the pmids given to counters_new, made at
 * second `round`; each problem is printed with what (if anything) was
 * wrong with the machine then. Returns how many problems. */
unsigned int counters_check(struct day_counters *c, const agent_result *res, unsigned int round,
                            const char *fault);

#endif
