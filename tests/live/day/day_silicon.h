/*
 * The processor side of the day's Apple Silicon machine: its CPUs in the
 * device tree, hw.perflevel*, the pmgr's DVFS tables and IOReport's
 * performance states of the CPU clusters, the CPU cores and the GPU.
 */
#ifndef PMDA_DARWIN_DAY_SILICON_H
#define PMDA_DARWIN_DAY_SILICON_H

/* IOReport's subgroups of the performance states, as the channels give them. */
#define SILICON_CLUSTERS "CPU Complex Performance States"
#define SILICON_CORES "CPU Core Performance States"
#define SILICON_GPU "GPU Performance States"

/* Describe it to a double just reset: ncpu CPUs, the first half
 * efficiency cores (as on M1 and M2), the rest performance cores. */
void silicon_build(unsigned int ncpu);

/* The hw.perflevel sysctls of ncpu CPUs (set again after a fault took one away). */
void silicon_sysctls(unsigned int ncpu);

/* Move the states to second `second`: each CPU busy busy_ticks of the hz
 * its ticks count a second, as host_processor_info says. */
void silicon_tick(unsigned int second, unsigned int busy_ticks, unsigned int hz);

/* A channel of each group (CPU Stats, GPU Stats), whose provider the
 * faults take away. */
unsigned int silicon_cpu_channel(void);
unsigned int silicon_gpu_channel(void);

/* From now on the GPU's channel reports kIOReportInvalidValue for one of
 * its states (invalid), or its residency again. */
void silicon_gpu_invalid(int invalid);

#endif
