/*
 * Linux's CPU states beyond macOS's four, which PCP's tools (pcp mpstat,
 * pcp pidstat, pcp dstat, pcp atop) read under Linux's names: the same
 * rows for all CPUs (cpu_total.c) and for each CPU (percpu.c), each with
 * the macOS quantity it means, or no value where macOS keeps none.
 */
#ifndef PMDA_DARWIN_CPU_LINUX_H
#define PMDA_DARWIN_CPU_LINUX_H

#include "collector.h"
#include "cpu_counters.h"
#include "metric_units.h"

/* The items of the states, then of the interrupt count (its row's name is
 * the collector's own). */
enum cpu_linux_item {
    CPU_LINUX_VUSER, CPU_LINUX_VNICE, CPU_LINUX_GUEST, CPU_LINUX_GUEST_NICE, CPU_LINUX_WAIT, CPU_LINUX_IRQ_HARD,
    CPU_LINUX_IRQ_SOFT, CPU_LINUX_STEAL, CPU_LINUX_INTR
};

/* Guest time: 0. XNU keeps no time apart for guests (a virtual machine's
 * vCPUs run on its process's threads, in user and system time). */
row_derive cpu_no_guest_time;

#define CPU_LINUX_ROW(prefix, name, item, cluster, indom, ...) \
    { prefix name, cluster, item, PM_TYPE_U64, indom, PM_SEM_COUNTER, UNITS_MSEC, __VA_ARGS__ }
/*
 * The rows of a CPU collector's Linux cluster, but the interrupt count's;
 * msec is the collector's derive function of a CPU time row (cpu_time_msec).
 * Linux's user and nice time less its guests' are user and nice time, as
 * no guest time is counted apart. XNU counts ticks in four states only:
 * waiting for I/O is idle time, interrupts are system time, and no time
 * stolen by a hypervisor is counted. None can be told apart: no source.
 */
#define CPU_LINUX_ROWS(prefix, cluster, indom, msec)                                                           \
    CPU_LINUX_ROW(prefix, "vuser", CPU_LINUX_VUSER, cluster, indom, .derive = msec, .index = CPU_USER),         \
    CPU_LINUX_ROW(prefix, "vnice", CPU_LINUX_VNICE, cluster, indom, .derive = msec, .index = CPU_NICE),         \
    CPU_LINUX_ROW(prefix, "guest", CPU_LINUX_GUEST, cluster, indom, .derive = cpu_no_guest_time),               \
    CPU_LINUX_ROW(prefix, "guest_nice", CPU_LINUX_GUEST_NICE, cluster, indom, .derive = cpu_no_guest_time),     \
    CPU_LINUX_ROW(prefix, "wait.total", CPU_LINUX_WAIT, cluster, indom, .derive = collector_no_source),         \
    CPU_LINUX_ROW(prefix, "irq.hard", CPU_LINUX_IRQ_HARD, cluster, indom, .derive = collector_no_source),       \
    CPU_LINUX_ROW(prefix, "irq.soft", CPU_LINUX_IRQ_SOFT, cluster, indom, .derive = collector_no_source),       \
    CPU_LINUX_ROW(prefix, "steal", CPU_LINUX_STEAL, cluster, indom, .derive = collector_no_source)

#endif
