#include "cpu_linux.h"

int
cpu_linux_fetch(const struct cpu_counters *c, enum cpu_linux_state state, uint32_t hz, pmAtomValue *atom)
{
    switch (state) {
    /* Linux's user and nice time less its guests'; XNU keeps no time apart
     * for guests (a virtual machine's vCPUs run on its process's threads, in
     * user and system time), so these are user and nice, and guest time 0. */
    case CPU_LINUX_VUSER: atom->ull = cpu_counters_msec(c, CPU_USER, hz); break;
    case CPU_LINUX_VNICE: atom->ull = cpu_counters_msec(c, CPU_NICE, hz); break;
    case CPU_LINUX_GUEST: case CPU_LINUX_GUEST_NICE: atom->ull = 0; break;
    /* XNU counts ticks in four states only: waiting for I/O is idle time,
     * interrupts are system time, and no time stolen by a hypervisor is
     * counted. None can be told apart. */
    case CPU_LINUX_WAIT: case CPU_LINUX_IRQ_HARD: case CPU_LINUX_IRQ_SOFT: case CPU_LINUX_STEAL:
        return PM_ERR_APPVERSION;
    default:
        return PM_ERR_PMID;
    }
    return PMDA_FETCH_STATIC;
}
