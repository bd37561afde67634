/*
 * Counters that continue across a new source (counter_baseline.h).
 */
#include "counter_baseline.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct counter_slot {
    char *key;                      /* first: hash_slots' text keys */
    uint64_t offset;                /* added to what the source reads, modulo 2^64 */
    uint64_t last;                  /* the value given last */
    unsigned long reading;          /* when it was given */
    unsigned int source;            /* the source offset belongs to */
};

void
counter_baseline_init(struct counter_baseline *b)
{
    memset(b, 0, sizeof(*b));
    b->table.size = sizeof(struct counter_slot);
}

void
counter_baseline_free(struct counter_baseline *b)
{
    for (size_t i = 0; i < b->table.cap; i++)
        free(((struct counter_slot *)b->table.slot)[i].key);
    free(b->table.slot);
    counter_baseline_init(b);
}

void
counter_baseline_new_source(struct counter_baseline *b)
{
    b->source++;
}

void
counter_baseline_reading(struct counter_baseline *b)
{
    b->reading++;
}

/* The slot of key's first occurrence not yet given in this reading (key
 * "#2", "#3", ... after the first), or the empty one where it goes; its
 * text in k. */
static struct counter_slot *
slot_of(struct counter_baseline *b, const char *key, char *k, size_t len)
{
    struct counter_slot *s = NULL;

    snprintf(k, len, "%s", key);
    for (unsigned int nth = 2; b->table.cap != 0; nth++) {
        s = hash_slots_find(&b->table, hash_text(HASH_START, k), hash_slots_text_same, k);
        if (s->key == NULL || s->reading != b->reading)
            return s;
        snprintf(k, len, "%s #%u", key, nth);
    }
    return s;
}

int
counter_baseline_value(struct counter_baseline *b, const char *key, uint64_t raw, uint64_t *out)
{
    char k[COUNTER_KEY_MAX + 16];
    struct counter_slot *s;

    if (strlen(key) >= COUNTER_KEY_MAX)
        return -ENAMETOOLONG;
    if ((s = slot_of(b, key, k, sizeof(k))) == NULL || s->key == NULL) {
        if (hash_slots_room(&b->table, hash_slots_text_hash) < 0)
            return -ENOMEM;
        s = hash_slots_find(&b->table, hash_text(HASH_START, k), hash_slots_text_same, k);
        if ((s->key = strdup(k)) == NULL)
            return -ENOMEM;
        s->offset = 0;              /* first met: as the source reads it */
        s->source = b->source;
        b->table.n++;
    } else if (s->source != b->source) {
        if (raw < s->last - s->offset)
            s->offset = s->last - raw;  /* counted from 0 again: its first reading is the last value given */
        s->source = b->source;          /* at or above the old one's last reading: the same counter */
    }
    s->last = *out = raw + s->offset;
    s->reading = b->reading;
    return 0;
}
