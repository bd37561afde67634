/*
 * A hash table by open addressing over an array of fixed-size slots, for
 * the tables that find a thing again by its key at every request. A slot
 * is empty while its first member, a pointer, is NULL. Portable.
 */
#ifndef PMDA_DARWIN_HASH_SLOTS_H
#define PMDA_DARWIN_HASH_SLOTS_H

#include <stddef.h>
#include <stdint.h>

struct hash_slots {
    void *slot;                 /* cap slots of size bytes each */
    size_t size, cap, n;        /* zero-initialise with size set */
};

/* Room for one more: the table doubles (each slot placed again by
 * hash_of) when half full. 0, or -ENOMEM. */
int hash_slots_room(struct hash_slots *t, uint32_t (*hash_of)(const void *slot));

/* The slot holding what same() says is key, or the empty one where it
 * would go (the table must have room). */
void *hash_slots_find(const struct hash_slots *t, uint32_t hash, int (*same)(const void *slot, const void *key),
                      const void *key);

/* For tables keyed by text, the key being the slot's first member (a
 * char *): the slot's hash, and whether it holds key. */
uint32_t hash_slots_text_hash(const void *slot);
int hash_slots_text_same(const void *slot, const void *key);

/* FNV-1a over s (NULL: nothing), continuing from h: HASH_START to begin. */
#define HASH_START 2166136261u
uint32_t hash_text(uint32_t h, const char *s);

#endif
