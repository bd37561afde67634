/*
 * The clients of a day on a Mac, as pmcd sees them: each asks for its
 * metrics at its own interval. And the metrics of the agent's table by
 * name, semantics and type, for the day's checks.
 */
#ifndef PMDA_DARWIN_DAY_REQUESTS_H
#define PMDA_DARWIN_DAY_REQUESTS_H

#include "agent.h"
#include "collector.h"

#define DAY_DOMAIN 78

/* A request a client repeats: its name, every how many seconds, its pmids. */
struct day_client {
    const char *name;
    unsigned int period;
    pmID *pmids;
    unsigned int n;
};

/* The clients (pmlogger, pmie, pmchart), their pmids resolved against the
 * agent's table; returns how many. Names the table lacks are skipped, as
 * pmlogger skips a name pmcd does not know. */
unsigned int day_clients(struct day_client **out);
void day_clients_free(struct day_client *clients, unsigned int n);

/* The row of pmid in the agent's table (NULL: none). */
const struct metric_row *day_row(pmID pmid);

/* Every metric of the agent into pmids (at most max); with counters_only,
 * only those of counter semantics. Returns how many. */
unsigned int day_all_metrics(pmID *pmids, unsigned int max, int counters_only);

#endif
