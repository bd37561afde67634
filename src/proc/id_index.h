/*
 * A map from a 32-bit id (a pid, an instance id) to a position in an
 * array, rebuilt at every refresh: open addressing, no deletion, sized
 * for twice the ids it will hold so that a lookup is a probe or two.
 */
#ifndef PMDA_DARWIN_ID_INDEX_H
#define PMDA_DARWIN_ID_INDEX_H

#include <stdint.h>

#define ID_INDEX_NONE UINT32_MAX

struct id_index {
    uint32_t *keys, *values;
    uint32_t mask;                  /* capacity - 1; capacity 0 until the first reset */
};

/* Empty the index, sized for up to n ids; 0 or -ENOMEM (then it stays empty). */
int id_index_reset(struct id_index *x, uint32_t n);
/* Map key to value (key must not be ID_INDEX_NONE; n ids at most). */
void id_index_put(struct id_index *x, uint32_t key, uint32_t value);
/* The value of key, or ID_INDEX_NONE. */
uint32_t id_index_get(const struct id_index *x, uint32_t key);
void id_index_free(struct id_index *x);

#endif
