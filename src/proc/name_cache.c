#include "name_cache.h"
#include "array_grow.h"
#include "platform.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define FIRST_ROOM 32u                  /* ids the index is first sized for */

/* A new entry for id, the index grown (every id put again) when full. */
static struct name_entry *
add(struct name_cache *c, uint32_t id)
{
    if (c->n == c->indexed) {
        unsigned int room = c->indexed ? 2 * c->indexed : FIRST_ROOM;

        if (id_index_reset(&c->by_id, room) < 0)
            return NULL;
        c->indexed = room;
        for (unsigned int i = 0; i < c->n; i++)
            id_index_put(&c->by_id, c->entries[i].id, i);
    }
    if (array_grow((void **)&c->entries, &c->cap, c->n, sizeof(*c->entries)) < 0)
        return NULL;
    c->entries[c->n] = (struct name_entry){ .id = id };
    id_index_put(&c->by_id, id, c->n);
    return &c->entries[c->n++];
}

static struct name_entry *
entry_of(const struct name_cache *c, uint32_t id)
{
    uint32_t i = id == ID_INDEX_NONE ? ID_INDEX_NONE : id_index_get(&c->by_id, id);

    return i < c->n ? &c->entries[i] : NULL;
}

const char *
name_cache_find(const struct name_cache *c, uint32_t id)
{
    const struct name_entry *e = entry_of(c, id);

    return e ? e->name : NULL;
}

const char *
name_cache_get(struct name_cache *c, uint32_t id, unsigned int round, name_lookup *lookup, void *ctx)
{
    char buf[PLAT_NAME_MAX];
    struct name_entry *e = entry_of(c, id);

    if (e != NULL && (e->name != NULL || e->sts == -ENOENT || e->round == round))
        return e->name;
    if (id == ID_INDEX_NONE || (e == NULL && (e = add(c, id)) == NULL))
        return NULL;
    e->round = round;
    if ((e->sts = lookup(ctx, id, buf, sizeof(buf))) == 0 && (e->name = strdup(buf)) == NULL)
        e->sts = -ENOMEM;
    return e->name;
}

void
name_cache_free(struct name_cache *c)
{
    for (unsigned int i = 0; i < c->n; i++)
        free(c->entries[i].name);
    free(c->entries);
    id_index_free(&c->by_id);
    *c = (struct name_cache){ 0 };
}
