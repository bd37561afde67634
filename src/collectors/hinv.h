#ifndef PMDA_DARWIN_HINV_H
#define PMDA_DARWIN_HINV_H

#include "platform.h"

/* Host facts from the last successful cluster 0 refresh, or NULL. Collectors
 * that convert with them declare cluster 0 as a dependency. */
const struct plat_host *hinv_host_facts(void);

#endif
