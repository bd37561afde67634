/*
 * Entry points of the agent core besides darwin_init, for tests and tools
 * that drive the module in-process.
 */
#ifndef PMDA_DARWIN_AGENT_H
#define PMDA_DARWIN_AGENT_H

#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include "platform.h"

/* The PMDA fetch result: pmdaResult since PCP 7, pmResult before (CMake
 * detects which; the struct layouts differ, so code must use this name). */
#ifdef HAVE_PMDA_RESULT
typedef pmdaResult agent_result;
#else
typedef pmResult agent_result;
#endif

struct collector;

/* What one agent is: its collectors, help text and optional store. The core
 * serves whichever description agent_setup is given. */
struct agent_desc {
    const char *name;                           /* in the log: "darwin", "proc" */
    const struct collector *const *collectors;
    unsigned int ncollectors;
    const char *help_source;                    /* newhelp format, embedded at build time */
    /* Optional: a store request; without it every store is refused. */
    int (*store)(agent_result *result, pmdaExt *pmda);
    int processes;                              /* makes the per-process platform calls */
};

/* The system metrics (darwin_init) and the process metrics (the proc daemon). */
extern const struct agent_desc darwin_agent;
extern const struct agent_desc proc_agent;

/*
 * Set up the agent on an interface that pmdaDSO (or pmdaDaemon) prepared:
 * tables, callbacks, pmdaInit. With platform NULL the source is chosen as
 * source_open() says; otherwise the given source is used as is (tests).
 * Returns dp->status after pmdaInit, or a negative error.
 */
int agent_setup(pmdaInterface *dp, const struct agent_desc *desc, const struct platform *platform);

/* A daemon answers pmcd's first exchange at once, before reading a source
 * (a replayed snapshot of 10,000 processes takes seconds to load, and pmcd
 * gives an agent 3): agent_setup_unopened() sets up as agent_setup() with
 * no source yet, and agent_open_source() opens the one source_open() says,
 * after pmdaConnect. */
int agent_setup_unopened(pmdaInterface *dp, const struct agent_desc *desc);
void agent_open_source(void);

/* The state the core holds for collector c of the agent set up (NULL for
 * none): for tests that ask a row's value of a collector directly. */
const void *agent_collector_state(const struct collector *c);

/* Release everything agent_setup and the refreshes allocated. */
void agent_teardown(void);

void darwin_init(pmdaInterface *dp);

#endif
