/*
 * A platform in front of another (a snapshot) that makes one call fail
 * with a chosen errno, or answer with every field zero, and notes which
 * calls a request made. Its targets
 * come from platform.h's call lists, each sysctl family and each registry
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
    FAULT_SYSCTLS,                                          /* + the family */
    FAULT_REGISTRY = FAULT_SYSCTLS + PLAT_SYSCTL_NFAMILIES, /* + the query */
    FAULT_NTARGETS = FAULT_REGISTRY + PLAT_REGQ_N
};
#undef FAULT_TARGET

struct fault_platform {
    struct platform p;              /* the one to hand the agent */
    struct platform inner;
    int target;                     /* the target that fails, or -1 */
    int sts;                        /* with this negative errno; 0: it answers, every field zero;
                                     * FAULT_LARGEST: the fields the replay describes at their largest */
    int injected;                   /* the last call made was the fault */
    unsigned char made[FAULT_NTARGETS];     /* targets called since fault_platform_zero */
};

#define FAULT_LARGEST 1

/* Whether target's answer is described field by field, so that
 * FAULT_LARGEST changes it. */
int fault_has_values(unsigned int target);

/* Stand in front of inner, which f takes over: closing f closes it. */
void fault_platform_wrap(struct fault_platform *f, const struct platform *inner);
void fault_platform_zero(struct fault_platform *f);
/* The target's name: the call's, with the family or the query's match. */
const char *fault_target_name(unsigned int target, char *buf, size_t len);

#endif
