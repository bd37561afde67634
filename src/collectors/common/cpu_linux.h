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

/* The states, then the interrupt count (its row's name is the collector's own). */
enum cpu_linux_state {
    CPU_LINUX_VUSER, CPU_LINUX_VNICE, CPU_LINUX_GUEST, CPU_LINUX_GUEST_NICE, CPU_LINUX_WAIT, CPU_LINUX_IRQ_HARD,
    CPU_LINUX_IRQ_SOFT, CPU_LINUX_STEAL, CPU_LINUX_NSTATES, CPU_LINUX_INTR = CPU_LINUX_NSTATES
};

/* The rows of a CPU collector's cluster, items 0 to CPU_LINUX_NSTATES - 1. */
#define CPU_LINUX_ROW(prefix, name, state, cluster, indom) \
    { prefix name, cluster, state, PM_TYPE_U64, indom, PM_SEM_COUNTER, UNITS_MSEC }
#define CPU_LINUX_ROWS(prefix, cluster, indom)                                        \
    CPU_LINUX_ROW(prefix, "vuser", CPU_LINUX_VUSER, cluster, indom),                  \
    CPU_LINUX_ROW(prefix, "vnice", CPU_LINUX_VNICE, cluster, indom),                  \
    CPU_LINUX_ROW(prefix, "guest", CPU_LINUX_GUEST, cluster, indom),                  \
    CPU_LINUX_ROW(prefix, "guest_nice", CPU_LINUX_GUEST_NICE, cluster, indom),        \
    CPU_LINUX_ROW(prefix, "wait.total", CPU_LINUX_WAIT, cluster, indom),              \
    CPU_LINUX_ROW(prefix, "irq.hard", CPU_LINUX_IRQ_HARD, cluster, indom),            \
    CPU_LINUX_ROW(prefix, "irq.soft", CPU_LINUX_IRQ_SOFT, cluster, indom),            \
    CPU_LINUX_ROW(prefix, "steal", CPU_LINUX_STEAL, cluster, indom)

/* The value of one state, or of the interrupt count, from a CPU's (or all
 * CPUs') counters, in milliseconds at the host's clock rate (hinv.h). */
int cpu_linux_fetch(const struct cpu_counters *c, const struct tick_rate *rate, enum cpu_linux_state state,
                    pmAtomValue *atom);

#endif
