#include "delta_sum.h"
#include "array_grow.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct delta_member {
    char name[PLAT_NAME_MAX];
    uint64_t last[DELTA_SUM_MAX_VALUES];
    int present;
};

void
delta_sum_begin(struct delta_sum *d)
{
    for (unsigned int i = 0; i < d->n; i++)
        d->members[i].present = 0;
}

int
delta_sum_step(struct delta_sum *d, const char *name, const uint64_t *now, unsigned int nvalues, uint64_t *add)
{
    struct delta_member *m = NULL;
    int is_new = 0;

    if (nvalues > DELTA_SUM_MAX_VALUES)
        return -EINVAL;
    for (unsigned int i = 0; i < d->n && m == NULL; i++)
        if (strcmp(d->members[i].name, name) == 0)
            m = &d->members[i];
    if (m == NULL) {
        if (array_grow((void **)&d->members, &d->cap, d->n, sizeof(*d->members)) < 0)
            return -ENOMEM;
        m = &d->members[d->n++];
        memset(m, 0, sizeof(*m));
        snprintf(m->name, sizeof(m->name), "%s", name);
        is_new = 1;
    }
    for (unsigned int v = 0; v < nvalues; v++) {
        add[v] = is_new && d->primed ? 0 : now[v] - m->last[v];
        m->last[v] = now[v];
    }
    m->present = 1;
    return 0;
}

void
delta_sum_end(struct delta_sum *d)
{
    unsigned int kept = 0;

    for (unsigned int i = 0; i < d->n; i++)
        if (d->members[i].present)
            d->members[kept++] = d->members[i];
    d->n = kept;
    d->primed = 1;
}

void
delta_sum_free(struct delta_sum *d)
{
    free(d->members);
    memset(d, 0, sizeof(*d));
}
