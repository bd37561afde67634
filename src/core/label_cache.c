/*
 * Instance label sets built once and copied (label_cache.h).
 */
#include "label_cache.h"

#include <stdlib.h>
#include <string.h>

/* Distinct sets kept, so that memory stays bounded: past this (processes
 * come and go, each with its own pid label) a new set is not kept. */
#define LABEL_CACHE_MAX 4096

struct label_slot {
    char *json;                     /* first: NULL in an empty slot */
    pmLabelSet *set;
};

void
label_cache_init(struct label_cache *c)
{
    memset(c, 0, sizeof(*c));
    c->table.size = sizeof(struct label_slot);
}

void
label_cache_free(struct label_cache *c)
{
    struct label_slot *slot = c->table.slot;

    for (size_t i = 0; i < c->table.cap; i++)
        if (slot[i].json != NULL) {
            free(slot[i].json);
            pmFreeLabelSets(slot[i].set, 1);
        }
    free(slot);
    label_cache_init(c);
}

/* The set built for json, building it if it is new; NULL when the cache is
 * full, without memory, or for JSON libpcp refuses. */
static const pmLabelSet *
built(struct label_cache *c, const char *json)
{
    uint32_t hash = hash_text(HASH_START, json);
    struct label_slot *s;
    pmLabelSet *set = NULL;

    if (c->table.cap != 0 && (s = hash_slots_find(&c->table, hash, hash_slots_text_same, json))->json != NULL)
        return s->set;
    if (c->table.n >= LABEL_CACHE_MAX)
        return NULL;
    if (hash_slots_room(&c->table, hash_slots_text_hash) < 0 || pmdaAddLabels(&set, "%s", json) < 0 || set == NULL)
        return NULL;
    s = hash_slots_find(&c->table, hash, hash_slots_text_same, json);
    if ((s->json = strdup(json)) == NULL) {
        pmFreeLabelSets(set, 1);
        return NULL;
    }
    s->set = set;
    c->table.n++;
    return set;
}

/* The labels of from (json and labels) copied into out: how many, or 0
 * without memory (out then holds none). */
static int
copy_labels(const pmLabelSet *from, pmLabelSet *out)
{
    out->json = malloc((size_t)from->jsonlen + 1);
    out->labels = malloc((size_t)from->nlabels * sizeof(*out->labels));
    if (out->json == NULL || out->labels == NULL) {
        free(out->json);
        free(out->labels);
        out->json = NULL;
        out->labels = NULL;
        return 0;
    }
    memcpy(out->json, from->json, from->jsonlen);
    out->json[from->jsonlen] = '\0';
    out->jsonlen = from->jsonlen;
    memcpy(out->labels, from->labels, (size_t)from->nlabels * sizeof(*out->labels));
    out->nlabels = from->nlabels;
    return from->nlabels;
}

int
label_cache_fill(struct label_cache *c, const char *json, pmLabelSet *out)
{
    const pmLabelSet *set = built(c, json);

    if (set == NULL)
        return -1;
    if (set->nlabels <= 0 || set->json == NULL)
        return 0;
    return copy_labels(set, out);
}

int
label_cache_new(struct label_cache *c, const char *json, pmLabelSet **out)
{
    const pmLabelSet *set = built(c, json);
    pmLabelSet *copy;

    if (set == NULL || set->nlabels <= 0 || set->json == NULL || set->hash != NULL)
        return -1;              /* (a compound name's hash is not copied) */
    if ((copy = malloc(sizeof(*copy))) == NULL)
        return -1;
    *copy = *set;               /* inst, hash and flags as pmdaAddLabels left them */
    if (copy_labels(set, copy) == 0) {
        free(copy);
        return -1;
    }
    *out = copy;
    return copy->nlabels;
}
