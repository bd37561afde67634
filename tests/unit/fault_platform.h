/*
 * A platform in front of another (a snapshot) that makes one call fail
 * with a chosen errno, or answer wrongly (every field zero, the largest
 * values, its instances renamed at every call, its registry properties of
 * the wrong kinds or its registry parents in a cycle), and counts the
 * calls a request made and times the source's answers (so that tests and
 * the benchmarks show what a request costs in calls). Its targets
 * come from platform.h's call lists, each sysctl group and each registry
 * query on its own, so a new platform call is a new target without an
 * edit here.
 */
#ifndef PMDA_DARWIN_FAULT_PLATFORM_H
#define PMDA_DARWIN_FAULT_PLATFORM_H

#include "platform.h"

#define FAULT_TARGET(call, ...) FAULT_##call,
enum fault_target {
    PLATFORM_CALLS(FAULT_TARGET) PLATFORM_PROCESS_CALLS(FAULT_TARGET) PLATFORM_PROCESS_TEXT_CALLS(FAULT_TARGET)
    PLATFORM_NAME_CALLS(FAULT_TARGET)
    FAULT_SYSCTLS,                                          /* + the group */
    FAULT_QUERY = FAULT_SYSCTLS + PLAT_SYSCTL_NGROUPS, /* + the query */
    FAULT_NTARGETS = FAULT_QUERY + PLAT_QUERY_N
};
#undef FAULT_TARGET

struct fault_platform {
    struct platform p;              /* the one to hand the agent */
    struct platform inner;
    int target;                     /* the target that fails, or -1 */
    int sts;                        /* with this negative errno, or a wrong answer: enum fault_answer */
    int injected;                   /* the last call made was the fault */
    unsigned long calls[FAULT_NTARGETS];    /* calls of each target since fault_platform_zero */
    unsigned long threads_listed;   /* threads in proc_threads answers: one more call each on a Mac */
    uint64_t source_ns;             /* time spent in the wrapped source's answers */
    unsigned int renames;           /* FAULT_RENAMED calls so far: each renames anew */
    void *copy[FAULT_NTARGETS];     /* a wrong answer's arrays, the fault's own until the next call */
    void *props[FAULT_NTARGETS];    /* and its registry properties */
};

enum fault_answer {
    FAULT_ZERO = 0,                 /* every field zero: empty sets and strings, 0 where the agent divides */
    FAULT_LARGEST,                  /* the fields the replay describes at their largest */
    FAULT_RENAMED,                  /* every instance under a new name (and registry id) at every call */
    FAULT_WRONG_KINDS,              /* every registry property of another kind than the reader expects */
    FAULT_CYCLES,                   /* registry parents in a cycle through every entry */
};

/* Whether a wrong answer of this kind changes target's answer. */
int fault_applies(unsigned int target, int answer);
/* What the fault does: the errno's text, or the wrong answer's name. */
const char *fault_kind_name(int sts);

/* Stand in front of inner, which f takes over: closing f closes it. */
void fault_platform_wrap(struct fault_platform *f, const struct platform *inner);
/* Start counting and timing again. */
void fault_platform_zero(struct fault_platform *f);
/* The process calls counted: the process list, socket owners, each
 * process's and the user, group and tty names. */
unsigned long fault_platform_process_calls(const struct fault_platform *f);
/* The target's name: the call's, with the group or the query's match. */
const char *fault_target_name(unsigned int target, char *buf, size_t len);

#endif
