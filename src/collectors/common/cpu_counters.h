/*
 * CPU tick counters kept 64-bit across the kernel's 32-bit wrap, shared by
 * the host-total and per-CPU collectors.
 */
#ifndef PMDA_DARWIN_CPU_COUNTERS_H
#define PMDA_DARWIN_CPU_COUNTERS_H

#include "collector.h"
#include "convert.h"
#include "platform.h"

enum cpu_state_index { CPU_USER, CPU_NICE, CPU_SYS, CPU_IDLE, CPU_NSTATES };

struct cpu_counters {
    struct wrap32 state[CPU_NSTATES];
};

/* Feed one reading of the kernel's ticks into the extended counters: 1 when
 * a state read below its last reading (an older copy, held: wrap32), else 0. */
int cpu_counters_update(struct cpu_counters *c, const struct plat_cpu_ticks *t);

/* The tick rate (hinv's kernel.all.hz) a collector read at its refresh: hz,
 * or the error of its read (status). */
struct tick_rate {
    uint32_t hz;
    int status;
};

/* A CPU time row's value: the milliseconds spent in state row->index (an
 * enum cpu_state_index), from the extended tick count at rate, into atom:
 * PMDA_FETCH_STATIC, or the rate's error. */
int cpu_time_msec(const struct cpu_counters *c, const struct metric_row *row, const struct tick_rate *rate,
                  pmAtomValue *atom);

#endif
