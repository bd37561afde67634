/*
 * Instance label sets. libpcp parses a label set's JSON anew for every
 * instance of every request (pmdaAddLabels: an 8 KB buffer cleared and a
 * parse, about 29,000 instructions each); the agent builds each distinct
 * set once and copies it into the requests that need it.
 */
#ifndef PMDA_DARWIN_LABEL_CACHE_H
#define PMDA_DARWIN_LABEL_CACHE_H

#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include "hash_slots.h"

/* Start from label_cache_init; label_cache_free releases it. */
struct label_cache {
    struct hash_slots table;        /* of json text and the set built from it */
};

/* Put the labels of the JSON object json into out, which a label callback
 * was handed: a copy of the set built for that JSON (built now if it is
 * new). Returns how many labels out holds (0 when json holds none or
 * memory ran out), or -1 when the cache is full and out is untouched. */
int label_cache_fill(struct label_cache *c, const char *json, pmLabelSet *out);

/* A new set (*out, NULL before) holding a copy of the set built for json:
 * how many labels it holds, or -1 (out untouched) when json holds none,
 * the cache is full or memory ran out. */
int label_cache_new(struct label_cache *c, const char *json, pmLabelSet **out);

void label_cache_init(struct label_cache *c);
void label_cache_free(struct label_cache *c);

#endif
