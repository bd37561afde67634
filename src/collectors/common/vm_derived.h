/*
 * Memory figures derived from vm_statistics64, with the definitions the help
 * text states. Portable, no PCP types; tests/unit/test_convert.c checks the
 * edges.
 */
#ifndef PMDA_DARWIN_VM_DERIVED_H
#define PMDA_DARWIN_VM_DERIVED_H

#include <stdint.h>

#include "platform.h"

/* App memory, as Activity Monitor defines it: anonymous (internal) pages
 * that are not purgeable. 0 if the kernel counts more purgeable than
 * anonymous pages (the counters are read at slightly different moments). */
uint64_t vm_app_pages(const struct plat_vm *vm);

/* Activity Monitor's "Memory Used": app + wired + compressor-occupied pages. */
uint64_t vm_used_pages(const struct plat_vm *vm);

/* Physical memory not in "Memory Used", in bytes: memsize minus used pages
 * times page_size, 0 if used exceeds it. */
uint64_t vm_available_bytes(const struct plat_vm *vm, uint64_t memsize, uint64_t page_size);

/* Pages stored in the compressor per page it occupies; -ERANGE when it
 * occupies none (the ratio is undefined), else 0 and *ratio. */
int vm_compression_ratio(const struct plat_vm *vm, double *ratio);

#endif
