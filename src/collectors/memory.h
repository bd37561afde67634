#ifndef PMDA_DARWIN_MEMORY_H
#define PMDA_DARWIN_MEMORY_H

#include "platform.h"

#define MEMORY_CLUSTER 1

/* What the last successful cluster 1 refresh read (each part with its own
 * status), or NULL. Collectors that derive from it declare cluster 1 as a
 * dependency. */
const struct plat_memory *memory_facts(void);

#endif
