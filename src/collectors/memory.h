#ifndef PMDA_DARWIN_MEMORY_H
#define PMDA_DARWIN_MEMORY_H

#include <pcp/pmapi.h>

#include "platform.h"

#define MEMORY_CLUSTER 1

/* What the last successful cluster 1 refresh read (each part with its own
 * status), or NULL. Collectors that derive from it declare cluster 1 as a
 * dependency. */
const struct plat_memory *memory_facts(void);

/* vm.swapusage's total, used or available space in kilobytes, or the swap
 * read's error: swap.* and its Linux names in cluster 101 share this. */
enum memory_swap_part { MEMORY_SWAP_TOTAL, MEMORY_SWAP_USED, MEMORY_SWAP_AVAIL };
int memory_swap_kbytes(enum memory_swap_part part, pmAtomValue *atom);

#endif
