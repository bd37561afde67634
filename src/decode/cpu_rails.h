/*
 * The CPU's power from the SMC's per-rail power keys, for the chips whose
 * CPU rails someone measured on a real Mac (PLAT_QUERY_SMC_CPU_RAILS).
 * Portable and unit-tested.
 *
 * The M3 Max: the P0 cluster's core and misc rails "PC02" and "PC03", the
 * P1 cluster's "PC42" and "PC43", and the E cluster's "PP5b", in watts
 * (flt); their sum follows CPU load (about 0.04 W idle, 11.30 W under a
 * CPU stress, 0.26 W under a GPU stress) on a Mac15,10 under macOS 27.0
 * beta 26A428 (vladkens/macmon pull request 77, its author's hardware
 * validation). Which key is which rail differs between chips, so no other
 * chip is given these keys.
 */
#ifndef PMDA_DARWIN_CPU_RAILS_H
#define PMDA_DARWIN_CPU_RAILS_H

#include "platform.h"

#define CPU_RAILS_M3_MAX "PC02", "PC03", "PC42", "PC43", "PP5b"

/* Whether the CPU rails of the chip brand names are known. */
int cpu_rails_known(const char *brand);

/*
 * The CPU's watts on the chip machdep.cpu.brand_string names brand, from
 * its rail keys in set: 0; -ENOENT when the chip's rails are not known or
 * one of its keys is missing; -ERANGE when one is not a power (negative,
 * not finite); smc_decode's error for a key it cannot decode.
 */
int cpu_rails_watts(const char *brand, const struct plat_entry_set *set, double *watts);

#endif
