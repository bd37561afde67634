/*
 * The host's CPU ticks from the per-processor ones, added up as the kernel
 * adds them for HOST_CPU_LOAD_INFO.
 */
#ifndef PMDA_DARWIN_CPU_TICKS_SUM_H
#define PMDA_DARWIN_CPU_TICKS_SUM_H

#include "platform.h"

/* Add one processor's ticks into sum, each state in 32 bits that wrap
 * (xnu-11417.101.15 osfmk/kern/host.c:504-519 adds processor.c:735-747's
 * per-processor ticks into the natural_t totals). */
void cpu_ticks_add(struct plat_cpu_ticks *sum, const struct plat_cpu_ticks *cpu);

#endif
