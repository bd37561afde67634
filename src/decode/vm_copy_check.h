/*
 * Whether a reading of the VM statistics is older than the one before it.
 * host_statistics64 answers a process that is not Apple's, past its budget,
 * with the copy another such process stored last, and that copy is written
 * without a lock, so it can be older than an answer already given
 * (xnu-11417.101.15 osfmk/kern/host.c:626-639, :733-780, :968-971).
 */
#ifndef PMDA_DARWIN_VM_COPY_CHECK_H
#define PMDA_DARWIN_VM_COPY_CHECK_H

#include "platform.h"

/* The name of a counter of now below the same counter of before (the
 * counters are 64-bit, so a step back is never a wrap), or NULL. */
const char *vm_counter_stepped_back(const struct plat_vm *before, const struct plat_vm *now);

#endif
