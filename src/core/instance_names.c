/*
 * Instance ids by name, with the unseen names bounded (instance_names.h).
 */
#include "instance_names.h"
#include "hash_slots.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct name_slot {
    char *name;                     /* first: NULL in an empty slot */
    int inst;
    uint64_t seen;                  /* the refresh that last saw it */
};

struct names {
    struct names *next;
    pmInDom indom;
    struct hash_slots table;        /* of struct name_slot */
    uint64_t refresh;               /* names_begin calls so far: 0, never begun */
    int next_inst;
    pmdaInstid *active;             /* seen this refresh; names are the slots' */
    unsigned int nactive, cap;
};

static struct names *tables;

static struct names *
table_of(pmInDom indom, int create)
{
    struct names *t;

    for (t = tables; t != NULL; t = t->next)
        if (t->indom == indom)
            return t;
    if (!create || (t = calloc(1, sizeof(*t))) == NULL)
        return NULL;
    t->indom = indom;
    t->table.size = sizeof(struct name_slot);
    t->next = tables;
    tables = t;
    return t;
}

static int
latest_first(const void *a, const void *b)
{
    uint64_t x = ((const struct name_slot *)a)->seen, y = ((const struct name_slot *)b)->seen;

    return x < y ? 1 : x > y ? -1 : 0;
}

/* Past NAMES_KEPT unseen names, forget the longest unseen until half that
 * many remain. The names the last two refreshes saw stay: pmcd's instance
 * table lists the last one's, and a refresh that failed part way saw only
 * some of the names before it. Without memory nothing is forgotten, this
 * time. */
static void
forget_unseen(struct names *t)
{
    struct name_slot *slot = t->table.slot, *all;
    struct hash_slots kept = { NULL, sizeof(struct name_slot), 0, 0 };
    size_t n = 0, recent = 0, keep;

    for (size_t i = 0; i < t->table.cap; i++)
        recent += slot[i].name != NULL && slot[i].seen + 1 >= t->refresh;
    keep = recent + NAMES_KEPT / 2;
    if (t->table.n <= recent + NAMES_KEPT || (all = malloc(t->table.n * sizeof(*all))) == NULL)
        return;
    for (size_t i = 0; i < t->table.cap; i++)
        if (slot[i].name != NULL)
            all[n++] = slot[i];
    qsort(all, n, sizeof(*all), latest_first);
    for (size_t i = 0; i < keep; i++) {
        if (hash_slots_room(&kept, hash_slots_text_hash) < 0) {
            free(kept.slot);
            free(all);
            return;
        }
        *(struct name_slot *)hash_slots_find(&kept, hash_slots_text_hash(&all[i]), hash_slots_text_same,
                                             all[i].name) = all[i];
        kept.n++;
    }
    for (size_t i = keep; i < n; i++)
        free(all[i].name);
    free(t->table.slot);
    t->table = kept;
    free(all);
}

void
names_begin(pmInDom indom)
{
    struct names *t = table_of(indom, 1);

    if (t == NULL)
        return;                     /* names_add says it */
    forget_unseen(t);
    t->refresh++;
    t->nactive = 0;
}

/* Whether a name remembered other than name matches it up to its first space. */
static int
clashes(const struct names *t, const char *name)
{
    const struct name_slot *slot = t->table.slot;
    size_t n = strcspn(name, " ");

    for (size_t i = 0; i < t->table.cap; i++)
        if (slot[i].name != NULL && strcspn(slot[i].name, " ") == n && strncmp(slot[i].name, name, n) == 0)
            return 1;               /* not name itself: it is not in the table */
    return 0;
}

int
names_add(pmInDom indom, const char *name)
{
    struct names *t = table_of(indom, 0);
    uint32_t hash = hash_text(HASH_START, name);
    struct name_slot *s;

    if (t == NULL)
        return -EINVAL;             /* not begun, or no memory to begin */
    if (t->table.cap == 0 || (s = hash_slots_find(&t->table, hash, hash_slots_text_same, name))->name == NULL) {
        char *copy;

        if (clashes(t, name))
            return -EEXIST;
        if (t->next_inst == INT_MAX)
            return -ENOSPC;
        if (hash_slots_room(&t->table, hash_slots_text_hash) < 0 || (copy = strdup(name)) == NULL)
            return -ENOMEM;
        s = hash_slots_find(&t->table, hash, hash_slots_text_same, name);
        *s = (struct name_slot){ copy, t->next_inst++, t->refresh - 1 };
        t->table.n++;
    }
    if (s->seen != t->refresh) {    /* a name given twice in a refresh is one instance */
        if (t->nactive == t->cap) {
            unsigned int cap = t->cap ? 2 * t->cap : 16;
            pmdaInstid *grown = realloc(t->active, cap * sizeof(*grown));

            if (grown == NULL)
                return -ENOMEM;
            t->active = grown;
            t->cap = cap;
        }
        t->active[t->nactive++] = (pmdaInstid){ s->inst, s->name };
        s->seen = t->refresh;
    }
    return s->inst;
}

int
names_instances(pmInDom indom, pmdaInstid **set)
{
    struct names *t = table_of(indom, 0);

    *set = t != NULL ? t->active : NULL;
    return t != NULL ? (int)t->nactive : 0;
}

void
names_forget(pmInDom indom)
{
    struct names **link = &tables, *t;

    while (*link != NULL && (*link)->indom != indom)
        link = &(*link)->next;
    if ((t = *link) == NULL)
        return;
    for (size_t i = 0; i < t->table.cap; i++)
        free(((struct name_slot *)t->table.slot)[i].name);
    free(t->table.slot);
    free(t->active);
    *link = t->next;
    free(t);
}
