#ifndef PMDA_DARWIN_HINV_H
#define PMDA_DARWIN_HINV_H

#include <stdint.h>

/* The hinv collector's state, which a collector that declares hinv_collector as a
 * dependency finds in its refresh's call->depends. */
struct hinv_state;

/* A host fact of the last refresh of h, each alone: 0 and the value, or
 * the PMAPI error of the source that lacks it (PM_ERR_AGAIN before the
 * first refresh). */
int hinv_page_size(const struct hinv_state *h, uint64_t *out);
int hinv_clock_hz(const struct hinv_state *h, uint32_t *out);
int hinv_memsize(const struct hinv_state *h, uint64_t *out);

#endif
