/*
 * Everything pmcd may ask an agent, in rounds: every metric fetched in one
 * request, every instance domain listed, every label and help text. For
 * the fault matrix and the agent fuzzer; no test framework in here.
 */
#ifndef PMDA_DARWIN_AGENT_REQUESTS_H
#define PMDA_DARWIN_AGENT_REQUESTS_H

#include "agent.h"

/* What a fetch gave one metric: the error, or its values' count and digest. */
struct outcome {
    int sts;
    int numval;
    uint64_t digest;
};

/* The agent's metrics (at most max) into pmids; returns how many. */
unsigned int requests_metrics(pmdaExt *ext, pmID *pmids, unsigned int max);

/* Fetch the n metrics of list in one request; their outcomes into out
 * (unless NULL), with instance ids in the digest if with_instances. */
void requests_fetch(pmdaInterface *dp, const pmID *list, unsigned int n, struct outcome *out, int with_instances);

/* One round of every request, the fetch's outcomes into out (unless NULL). */
void requests_round(pmdaInterface *dp, const pmID *pmids, unsigned int n, struct outcome *out, int with_instances);

#endif
