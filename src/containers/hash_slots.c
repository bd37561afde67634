/*
 * Open addressing over fixed-size slots (hash_slots.h).
 */
#include "hash_slots.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int
empty(const void *slot)
{
    const void *first;

    memcpy(&first, slot, sizeof(first));
    return first == NULL;
}

static unsigned char *
at(const struct hash_slots *t, size_t i)
{
    return (unsigned char *)t->slot + i * t->size;
}

int
hash_slots_room(struct hash_slots *t, uint32_t (*hash_of)(const void *slot))
{
    struct hash_slots grown = { NULL, t->size, t->cap ? t->cap * 2 : 64, t->n };

    if (t->cap != 0 && 2 * (t->n + 1) <= t->cap)
        return 0;
    if ((grown.slot = calloc(grown.cap, grown.size)) == NULL)
        return -ENOMEM;
    for (size_t i = 0; i < t->cap; i++)
        if (!empty(at(t, i))) {
            size_t j = hash_of(at(t, i)) & (grown.cap - 1);

            while (!empty(at(&grown, j)))
                j = (j + 1) & (grown.cap - 1);
            memcpy(at(&grown, j), at(t, i), t->size);
        }
    free(t->slot);
    *t = grown;
    return 0;
}

void *
hash_slots_find(const struct hash_slots *t, uint32_t hash, int (*same)(const void *slot, const void *key),
                const void *key)
{
    size_t i = hash & (t->cap - 1);

    while (!empty(at(t, i)) && !same(at(t, i), key))
        i = (i + 1) & (t->cap - 1);
    return at(t, i);
}

static const char *
text_key(const void *slot)
{
    const char *key;

    memcpy(&key, slot, sizeof(key));
    return key;
}

uint32_t
hash_slots_text_hash(const void *slot)
{
    return hash_text(HASH_START, text_key(slot));
}

int
hash_slots_text_same(const void *slot, const void *key)
{
    return strcmp(text_key(slot), key) == 0;
}

uint32_t
hash_text(uint32_t h, const char *s)
{
    for (; s != NULL && *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}
