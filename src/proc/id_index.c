#include "id_index.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static uint32_t
slot_of(const struct id_index *x, uint32_t key)
{
    return (key * 2654435761u) & x->mask;       /* Knuth's multiplicative hash */
}

int
id_index_reset(struct id_index *x, uint32_t n)
{
    uint32_t cap = 64;

    while (cap < 2 * n)
        cap *= 2;
    if (cap != x->mask + 1 || x->keys == NULL) {
        uint32_t *keys = realloc(x->keys, cap * sizeof(*keys)), *values;

        if (keys == NULL)
            return -ENOMEM;
        x->keys = keys;
        if ((values = realloc(x->values, cap * sizeof(*values))) == NULL) {
            free(x->keys);
            x->keys = NULL;
            x->mask = 0;
            return -ENOMEM;
        }
        x->values = values;
        x->mask = cap - 1;
    }
    memset(x->keys, 0xff, cap * sizeof(*x->keys));      /* every key ID_INDEX_NONE */
    return 0;
}

void
id_index_put(struct id_index *x, uint32_t key, uint32_t value)
{
    if (x->keys == NULL)
        return;
    for (uint32_t i = slot_of(x, key);; i = (i + 1) & x->mask)
        if (x->keys[i] == ID_INDEX_NONE || x->keys[i] == key) {
            x->keys[i] = key;
            x->values[i] = value;
            return;
        }
}

uint32_t
id_index_get(const struct id_index *x, uint32_t key)
{
    if (x->keys == NULL)
        return ID_INDEX_NONE;
    for (uint32_t i = slot_of(x, key);; i = (i + 1) & x->mask) {
        if (x->keys[i] == key)
            return x->values[i];
        if (x->keys[i] == ID_INDEX_NONE)
            return ID_INDEX_NONE;
    }
}

void
id_index_free(struct id_index *x)
{
    free(x->keys);
    free(x->values);
    memset(x, 0, sizeof(*x));
}
