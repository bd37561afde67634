/*
 * Cluster 102 of the processes collector: names that PCP's Linux proc agent
 * serves and PCP's own process tools (pcp ps, pcp pidstat, pcp atop)
 * require before they print anything, each with Linux's type and units and
 * the macOS quantity it means, or no value where macOS keeps none (rows in
 * proc_processes.c; the sizes are bound there).
 */
#include "proc_values.h"

/* Mach's scheduling policies (xnu-11417.101.15 osfmk/mach/policy.h:90-92) and Linux's classes as
 * the tools name them by number (SCHED_NORMAL 0, SCHED_FIFO 1, SCHED_RR 2). */
enum { MACH_TIMESHARE = 1, MACH_RR = 2, MACH_FIFO = 4 };
enum { LINUX_NORMAL = 0, LINUX_FIFO = 1, LINUX_RR = 2 };

static const struct {
    int32_t mach;
    uint32_t linux_class;
} classes[] = { { MACH_TIMESHARE, LINUX_NORMAL }, { MACH_FIFO, LINUX_FIFO }, { MACH_RR, LINUX_RR } };

/* A value from the Mach policy of a thread instance, else of the process's
 * new threads (pti_policy: XNU gives every task but the kernel's
 * timesharing). */
static int
from_policy(const struct metric_row *row, const struct proc_entry *e, int (*value)(int32_t, pmAtomValue *),
            pmAtomValue *atom)
{
    int sts;

    if (e->thread == NULL && (sts = proc_status(row, e)) < 0)
        return sts;
    sts = e->thread ? e->thread->policy_status : e->task.policy_status;
    if (sts < 0)
        return collector_error(sts);
    return value(e->thread ? e->thread->policy : e->task.policy, atom);
}

/* Linux's class of a Mach policy. */
static int
linux_class(int32_t policy, pmAtomValue *atom)
{
    for (unsigned int i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
        if (classes[i].mach == policy) {
            atom->ul = classes[i].linux_class;
            return PMDA_FETCH_STATIC;
        }
    return PM_ERR_VALUE;
}

/* 0 outside the real-time classes, as on Linux; inside them Mach's priority
 * is not on Linux's 1-99 scale, so no value. */
static int
linux_rt_priority(int32_t policy, pmAtomValue *atom)
{
    if (policy != MACH_TIMESHARE)
        return PMDA_FETCH_NOVALUES;
    atom->ul = 0;
    return PMDA_FETCH_STATIC;
}

int
proc_guest_time(const void *table, const void *entry, const struct metric_row *row, unsigned int inst,
                pmAtomValue *atom)
{
    (void)table;
    (void)entry;
    (void)row;
    (void)inst;
    /* XNU keeps no time apart for guests: a virtual machine's vCPUs
     * (Hypervisor.framework) run on its process's threads and count in its
     * user and system time. */
    atom->ull = 0;
    return PMDA_FETCH_STATIC;
}

int
proc_policy(const void *table, const void *entry, const struct metric_row *row, unsigned int inst,
            pmAtomValue *atom)
{
    (void)table;
    (void)inst;
    return from_policy(row, entry, linux_class, atom);
}

int
proc_rt_priority(const void *table, const void *entry, const struct metric_row *row, unsigned int inst,
                 pmAtomValue *atom)
{
    (void)table;
    (void)inst;
    return from_policy(row, entry, linux_rt_priority, atom);
}
