/*
 * Names by id (users, groups, terminals), each looked up once by the
 * refresh that first needs it, and a failed look-up again at a later
 * refresh, not at every value: the directory service behind getpwuid_r
 * can be slow, and pmcd waits for this agent's answer. That there is no
 * such name (-ENOENT) is known for good.
 */
#ifndef PMDA_DARWIN_NAME_CACHE_H
#define PMDA_DARWIN_NAME_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "id_index.h"

struct name_entry {
    uint32_t id;
    char *name;                     /* NULL: no name (yet) */
    int sts;                        /* the look-up's result: -ENOENT, there is none */
    unsigned int round;             /* the refresh of the last look-up */
};

struct name_cache {
    struct name_entry *entries;
    unsigned int n, cap;
    struct id_index by_id;          /* id -> entry */
    unsigned int indexed;           /* how many ids by_id is sized for */
};

/* How a cache looks a name up: a platform's user_name, group_name or tty_name. */
typedef int name_lookup(void *ctx, uint32_t id, char *buf, size_t len);

/* The name of id, looked up (at most once in refresh round) unless known:
 * NULL when there is none or the look-up failed. An id of ID_INDEX_NONE
 * has no name. */
const char *name_cache_get(struct name_cache *c, uint32_t id, unsigned int round, name_lookup *lookup, void *ctx);
/* The name of id as the last look-up left it, without looking it up. */
const char *name_cache_find(const struct name_cache *c, uint32_t id);
void name_cache_free(struct name_cache *c);

#endif
