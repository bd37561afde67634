/*
 * A platform that passes the proc agent's calls through to another (a
 * snapshot) and counts and times them, so that tests and the benchmark can
 * show what a request cost in platform calls, apart from the source's time.
 */
#ifndef PMDA_DARWIN_COUNTING_PLATFORM_H
#define PMDA_DARWIN_COUNTING_PLATFORM_H

#include "platform.h"

enum counted_call {
    CALL_PROCS, CALL_TASK, CALL_RUSAGE, CALL_ARGS, CALL_PATH, CALL_CWD, CALL_FDS, CALL_THREADS,
    CALL_SOCKETS, CALL_NAMES, CALL_OTHER, CALL_N
};

struct counting_platform {
    struct platform p;              /* the one to hand the agent */
    struct platform inner;
    unsigned long calls[CALL_N];
    unsigned long threads_listed;   /* threads in proc_threads answers: one more call each on a Mac */
    uint64_t source_ns;             /* time spent in the wrapped source's answers */
};

/* Wrap inner (which c takes over: closing c closes it). Only the calls the
 * proc agent makes are passed through; the others are NULL. */
void counting_platform_wrap(struct counting_platform *c, const struct platform *inner);
unsigned long counting_platform_total(const struct counting_platform *c);
void counting_platform_zero(struct counting_platform *c);

#endif
