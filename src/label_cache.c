/*
 * Instance label sets built once and copied (label_cache.h).
 */
#include "label_cache.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Distinct sets kept; past this (processes come and go, each with its own
 * pid label) the cache starts over, so that memory stays bounded. */
#define LABEL_CACHE_MAX 4096

struct label_slot {
    char *json;
    pmLabelSet *set;
};

static uint32_t
hash(const char *s)
{
    uint32_t h = 2166136261u;           /* FNV-1a */

    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

void
label_cache_free(struct label_cache *c)
{
    for (size_t i = 0; i < c->cap; i++)
        if (c->slot[i].json != NULL) {
            free(c->slot[i].json);
            pmFreeLabelSets(c->slot[i].set, 1);
        }
    free(c->slot);
    memset(c, 0, sizeof(*c));
}

/* Room for one more set: double the table (rehashing) when half full. */
static int
room(struct label_cache *c)
{
    size_t cap = c->cap ? c->cap * 2 : 64;
    struct label_slot *slots;

    if (c->cap != 0 && 2 * (c->n + 1) <= c->cap)
        return 0;
    if ((slots = calloc(cap, sizeof(*slots))) == NULL)
        return -1;
    for (size_t i = 0; i < c->cap; i++)
        if (c->slot[i].json != NULL) {
            size_t j = hash(c->slot[i].json) & (cap - 1);

            while (slots[j].json != NULL)
                j = (j + 1) & (cap - 1);
            slots[j] = c->slot[i];
        }
    free(c->slot);
    c->slot = slots;
    c->cap = cap;
    return 0;
}

/* The set built for json, building it if it is new; NULL without memory
 * or for JSON libpcp refuses. */
static const pmLabelSet *
built(struct label_cache *c, const char *json)
{
    struct label_slot *s;
    pmLabelSet *set = NULL;
    size_t i;

    if (c->cap != 0)
        for (i = hash(json) & (c->cap - 1); c->slot[i].json != NULL; i = (i + 1) & (c->cap - 1))
            if (strcmp(c->slot[i].json, json) == 0)
                return c->slot[i].set;
    if (c->n >= LABEL_CACHE_MAX)
        label_cache_free(c);
    if (room(c) < 0 || pmdaAddLabels(&set, "%s", json) < 0 || set == NULL)
        return NULL;
    for (i = hash(json) & (c->cap - 1); c->slot[i].json != NULL; i = (i + 1) & (c->cap - 1))
        ;
    s = &c->slot[i];
    if ((s->json = strdup(json)) == NULL) {
        pmFreeLabelSets(set, 1);
        return NULL;
    }
    s->set = set;
    c->n++;
    return set;
}

int
label_cache_fill(struct label_cache *c, const char *json, pmLabelSet *out)
{
    const pmLabelSet *set = built(c, json);

    if (set == NULL || set->nlabels <= 0 || set->json == NULL)
        return 0;
    out->json = malloc((size_t)set->jsonlen + 1);
    out->labels = malloc((size_t)set->nlabels * sizeof(*out->labels));
    if (out->json == NULL || out->labels == NULL) {
        free(out->json);
        free(out->labels);
        out->json = NULL;
        out->labels = NULL;
        return 0;
    }
    memcpy(out->json, set->json, set->jsonlen);
    out->json[set->jsonlen] = '\0';
    out->jsonlen = set->jsonlen;
    memcpy(out->labels, set->labels, (size_t)set->nlabels * sizeof(*out->labels));
    out->nlabels = set->nlabels;
    return set->nlabels;
}
