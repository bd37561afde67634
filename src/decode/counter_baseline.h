/*
 * Counters read from a source that can start over (a new IOReport
 * subscription, whose provider may have registered again and counted from
 * 0, or not), so that what the agent exports never steps back or jumps: a
 * counter the new source reads below the old one's last reading continues
 * from the last value given (what happened between the two readings is not
 * counted); one it reads at or above is the same counter, and goes on as
 * read. Counters are found by a key (a channel and state); a key met
 * again within one reading is the next one of that name (an Ultra's
 * second die repeats its channels' names). Portable.
 */
#ifndef PMDA_DARWIN_COUNTER_BASELINE_H
#define PMDA_DARWIN_COUNTER_BASELINE_H

#include "hash_slots.h"

#include <stdint.h>

struct counter_baseline {
    struct hash_slots table;        /* of struct counter_slot (counter_baseline.c) */
    unsigned long reading;          /* counts counter_baseline_reading() */
    unsigned int source;            /* counts counter_baseline_new_source() */
};

/* Zero-initialised, it is empty: every counter passes as read. */
void counter_baseline_init(struct counter_baseline *b);
void counter_baseline_free(struct counter_baseline *b);

/* The values that follow come from a new source: each counter known
 * before continues from its last value at its next reading. */
void counter_baseline_new_source(struct counter_baseline *b);

/* A new reading begins: the keys of the last one are met for the first
 * time again. */
void counter_baseline_reading(struct counter_baseline *b);

/* The value to give for the counter key (shorter than COUNTER_KEY_MAX)
 * that reads raw: 0, -ENAMETOOLONG, or -ENOMEM (then nothing is
 * remembered of it). */
#define COUNTER_KEY_MAX 1024
int counter_baseline_value(struct counter_baseline *b, const char *key, uint64_t raw, uint64_t *out);

#endif
