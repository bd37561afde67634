/*
 * A decoder's key list: the numbers it reads from registry entries, each
 * field at its places in the order tried, written once as an X-macro
 * (battery_decode.h's BATTERY_KEYS, gpu_decode.h's GPU_KEYS, ...) whose
 * lines are LINE(field, key). The same list makes the decoder's field
 * enum (REG_FIELD_ENUM), its places (REG_PLACE) and its query's keys
 * (REG_KEY_PATH, queries.c); REG_KEY_NONE leaves a kind of line
 * out. A key is a query key: raw parts joined by '.' ("Dict.Key" for a
 * key inside a dictionary property). Portable.
 */
#ifndef PMDA_DARWIN_KEY_LIST_H
#define PMDA_DARWIN_KEY_LIST_H

#include <stddef.h>
#include <stdint.h>

#include "platform.h"

struct key_place {
    unsigned int field;
    const char *key;
};

#define REG_FIELD_ENUM(field, key) field,
#define REG_PLACE(field, key) { field, key },
#define REG_KEY_PATH(field, key) key,
#define REG_KEY_NONE(field, key)
#define REG_NPLACES(places) (sizeof(places) / sizeof((places)[0]))

/* Each field that *have lacks, from e's property at its first place that
 * has one: a number as the entry holds it (a signed reading as its 64-bit
 * two's complement), a boolean as 0 or 1; sets bit 1u << field of *have
 * for each field read. */
void read_key_places(const struct plat_entry *e, const struct key_place *places, size_t n, unsigned int *have,
                     uint64_t *value);

/* Whether *have lacks a field that places name. */
int key_places_wanted(const struct key_place *places, size_t n, unsigned int have);

#endif
