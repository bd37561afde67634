/*
 * Cluster 102 of the processes family: names that PCP's Linux proc agent
 * serves and PCP's own process tools (pcp ps, pcp pidstat, pcp atop)
 * require before they print anything, each with Linux's type and units and
 * the macOS quantity it means, or no value where macOS keeps none (rows in
 * proc_processes.c).
 */
#include "proc_values.h"

enum { GUEST_TIME, RT_PRIORITY, RSS, VSIZE, POLICY, PROCESSOR, VMSTACK };

/* Mach's scheduling policies (osfmk/mach/policy.h) and Linux's classes as
 * the tools name them by number (SCHED_NORMAL 0, SCHED_FIFO 1, SCHED_RR 2). */
enum { MACH_TIMESHARE = 1, MACH_RR = 2, MACH_FIFO = 4 };
enum { LINUX_NORMAL = 0, LINUX_FIFO = 1, LINUX_RR = 2 };

void
proc_linux_want(struct proc_table *t, const struct metric_row *row)
{
    if (row->item == RT_PRIORITY || row->item == RSS || row->item == VSIZE || row->item == POLICY)
        proc_table_need(t, PROC_NEED_TASK);
}

/* The Mach policy of a thread instance, else of the process's new threads
 * (pti_policy: XNU gives every task but the kernel's timesharing). */
static int
mach_policy(const struct proc_entry *e, int32_t *out)
{
    if (e->thread) {
        if (e->thread->policy_status < 0)
            return collector_error(e->thread->policy_status);
        *out = e->thread->policy;
        return 0;
    }
    if (e->task_sts < 0)
        return proc_fetch_error(e->task_sts);
    if (e->task.policy_status < 0)
        return collector_error(e->task.policy_status);
    *out = e->task.policy;
    return 0;
}

int
proc_linux_fetch(const struct proc_table *t, const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    int32_t policy;
    int sts;
    const struct proc_entry *e = proc_visible(t, inst, PROC_PUBLIC, &sts);

    if (e == NULL)
        return sts;
    switch (row->item) {
    case GUEST_TIME:
        /* XNU keeps no time apart for guests: a virtual machine's vCPUs
         * (Hypervisor.framework) run on its process's threads and count
         * in its user and system time. */
        atom->ull = 0;
        return PMDA_FETCH_STATIC;
    case RSS: case VSIZE:
        if (e->task_sts < 0)
            return proc_fetch_error(e->task_sts);
        atom->ull = (row->item == RSS ? e->task.resident_size : e->task.virtual_size) / 1024;
        return PMDA_FETCH_STATIC;
    case POLICY:
        if ((sts = mach_policy(e, &policy)) < 0)
            return sts;
        switch (policy) {
        case MACH_TIMESHARE: atom->ul = LINUX_NORMAL; return PMDA_FETCH_STATIC;
        case MACH_FIFO: atom->ul = LINUX_FIFO; return PMDA_FETCH_STATIC;
        case MACH_RR: atom->ul = LINUX_RR; return PMDA_FETCH_STATIC;
        default: return PM_ERR_VALUE;
        }
    case RT_PRIORITY:
        /* 0 outside the real-time classes, as on Linux; inside them Mach's
         * priority is not on Linux's 1-99 scale, so no value. */
        if ((sts = mach_policy(e, &policy)) < 0)
            return sts;
        if (policy != MACH_TIMESHARE)
            return PMDA_FETCH_NOVALUES;
        atom->ul = 0;
        return PMDA_FETCH_STATIC;
    case PROCESSOR: case VMSTACK:
        return PM_ERR_APPVERSION;   /* macOS tells neither the CPU a thread last ran on nor a stack's size */
    default:
        return PM_ERR_PMID;
    }
}
