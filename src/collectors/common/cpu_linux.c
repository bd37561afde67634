#include "cpu_linux.h"

int
cpu_linux_fetch(const struct cpu_counters *c, const struct tick_rate *rate, enum cpu_linux_state state,
                pmAtomValue *atom)
{
    int sts;

    switch (state) {
    /* Linux's user and nice time less its guests'; XNU keeps no time apart
     * for guests (a virtual machine's vCPUs run on its process's threads, in
     * user and system time), so these are user and nice, and guest time 0. */
    case CPU_LINUX_VUSER: case CPU_LINUX_VNICE:
        sts = cpu_counters_msec(c, state == CPU_LINUX_VUSER ? CPU_USER : CPU_NICE, rate, &atom->ull);
        return sts < 0 ? sts : PMDA_FETCH_STATIC;
    case CPU_LINUX_GUEST: case CPU_LINUX_GUEST_NICE:
        atom->ull = 0;
        return PMDA_FETCH_STATIC;
    /* XNU counts ticks in four states only: waiting for I/O is idle time,
     * interrupts are system time, and no time stolen by a hypervisor is
     * counted. None can be told apart, and it offers no count of interrupts. */
    case CPU_LINUX_WAIT: case CPU_LINUX_IRQ_HARD: case CPU_LINUX_IRQ_SOFT: case CPU_LINUX_STEAL: case CPU_LINUX_INTR:
        return PM_ERR_APPVERSION;
    }
    return PM_ERR_PMID;
}
