#include "name_cache.h"
#include "array_grow.h"
#include "platform.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

const char *
name_cache_get(struct name_cache *c, uint32_t id, unsigned int round, name_lookup *lookup, void *ctx)
{
    char buf[PLAT_NAME_MAX];
    struct name_entry *e;
    unsigned int i = 0;

    while (i < c->n && c->entries[i].id != id)
        i++;
    e = i < c->n ? &c->entries[i] : NULL;
    if (e != NULL && (e->name != NULL || e->sts == -ENOENT || e->round == round))
        return e->name;
    if (e == NULL) {
        if (array_grow((void **)&c->entries, &c->cap, c->n, sizeof(*c->entries)) < 0)
            return NULL;
        e = &c->entries[c->n++];
        *e = (struct name_entry){ .id = id };
    }
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
    *c = (struct name_cache){ 0 };
}
