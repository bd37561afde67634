/*
 * CPU tick counters kept 64-bit across the kernel's 32-bit wrap, shared by
 * the host-total and per-CPU collectors.
 */
#ifndef PMDA_DARWIN_CPU_COUNTERS_H
#define PMDA_DARWIN_CPU_COUNTERS_H

#include "convert.h"
#include "platform.h"

enum cpu_state_index { CPU_USER, CPU_NICE, CPU_SYS, CPU_IDLE, CPU_NSTATES };

struct cpu_counters {
    struct wrap32 state[CPU_NSTATES];
};

/* Feed one reading of the kernel's ticks into the extended counters. */
void cpu_counters_update(struct cpu_counters *c, const struct plat_cpu_ticks *t);

/* Milliseconds spent in one state, from the extended tick count. */
uint64_t cpu_counters_msec(const struct cpu_counters *c, enum cpu_state_index state, uint32_t hz);

#endif
