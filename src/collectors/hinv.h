#ifndef PMDA_DARWIN_HINV_H
#define PMDA_DARWIN_HINV_H

#include <stdint.h>

/* The host facts of the last cluster 0 refresh, each alone: 0 and the
 * value, or the PMAPI error of the source that lacks it. Collectors that
 * convert with them declare cluster 0 as a dependency. */
int hinv_page_size(uint64_t *out);
int hinv_clock_hz(uint32_t *out);
int hinv_memsize(uint64_t *out);

#endif
