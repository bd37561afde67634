#include "dvfs_decode.h"
#include "entry_set.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define HZ_FLOOR 10000000u          /* a table whose top is at least this is in Hz */

static uint32_t
le32(const unsigned char *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* The number N of "voltage-statesN" or "voltage-statesN-sram", or -1. */
static int
table_number(const char *path, int *sram)
{
    static const char prefix[] = "voltage-states";
    char *end;
    long n;

    if (strncmp(path, prefix, sizeof(prefix) - 1) != 0 || path[sizeof(prefix) - 1] < '0' ||
        path[sizeof(prefix) - 1] > '9')
        return -1;
    n = strtol(path + sizeof(prefix) - 1, &end, 10);
    *sram = strcmp(end, "-sram") == 0;
    return (*sram || *end == '\0') && n < 256 ? (int)n : -1;
}

static void
add_table(struct dvfs *d, unsigned int number, int sram, const struct plat_prop *p)
{
    struct dvfs_table *t = &d->table[d->ntables];
    uint32_t top = 0;

    if (p->kind != PLAT_PROP_DATA || p->len == 0 || p->len % 8 != 0 || p->len / 8 > DVFS_MAX_STATES ||
        d->ntables == DVFS_MAX_TABLES)
        return;
    t->number = number;
    t->sram = sram;
    t->n = p->len / 8;
    for (unsigned int i = 0; i < t->n; i++)
        if (le32(p->data + 8 * i) > top)
            top = le32(p->data + 8 * i);
    for (unsigned int i = 0; i < t->n; i++)
        t->khz[i] = top >= HZ_FLOOR ? le32(p->data + 8 * i) / 1000 : le32(p->data + 8 * i);
    d->ntables++;
}

static void
add_clusters(struct dvfs *d, const struct plat_prop *p)
{
    if (p->kind != PLAT_PROP_DATA)
        return;
    for (uint32_t at = 0; at + 8 <= p->len && d->nacc < DVFS_MAX_CLUSTERS; at += 8, d->nacc++) {
        d->acc[d->nacc].table = p->data[at];
        d->acc[d->nacc].cluster = p->data[at + 1];
    }
}

int
dvfs_decode(const struct plat_entry_set *set, struct dvfs *out)
{
    memset(out, 0, sizeof(*out));
    for (unsigned int i = 0; i < set->n && out->ntables == 0; i++) {
        const struct plat_entry *e = &set->entry[i];

        for (unsigned int k = 0; k < e->nprops; k++) {
            int sram, number = table_number(e->prop[k].path, &sram);

            if (number >= 0)
                add_table(out, (unsigned int)number, sram, &e->prop[k]);
            else if (strcmp(e->prop[k].path, "acc-clusters") == 0)
                add_clusters(out, &e->prop[k]);
        }
        if (out->ntables == 0)
            out->nacc = 0;
    }
    return out->ntables > 0 ? 0 : -ENOENT;
}

const struct dvfs_table *
dvfs_table(const struct dvfs *d, unsigned int number, int sram)
{
    for (unsigned int i = 0; i < d->ntables; i++)
        if (d->table[i].number == number && d->table[i].sram == sram)
            return &d->table[i];
    return NULL;
}

/* The ordinal-th of the tables acc-clusters lists that can hold need
 * states, those of exactly need entries first; NULL when there is no such
 * table or need is not known (acc-clusters names clusters by a number no
 * channel name carries: the states' count is what tells the tables apart). */
static const struct dvfs_table *
listed_table(const struct dvfs *d, unsigned int ordinal, unsigned int need)
{
    const struct dvfs_table *fit[DVFS_MAX_CLUSTERS];
    unsigned int nfit = 0, exact = 0;

    for (unsigned int i = 0; i < d->nacc; i++) {
        const struct dvfs_table *t = dvfs_table(d, d->acc[i].table, 1);

        exact |= t != NULL && need > 0 && t->n == need;
    }
    for (unsigned int i = 0; i < d->nacc; i++) {
        const struct dvfs_table *t = dvfs_table(d, d->acc[i].table, 1);

        if (t != NULL && t->n >= need && (!exact || t->n == need))
            fit[nfit++] = t;
    }
    return need > 0 && ordinal < nfit ? fit[ordinal] : NULL;
}

const struct dvfs_table *
dvfs_cpu_table(const struct dvfs *d, char letter, unsigned int ordinal, unsigned int need)
{
    const struct dvfs_table *t = NULL;

    if (d->nacc > 0)
        return listed_table(d, ordinal, need);
    if (letter == 'E')
        t = dvfs_table(d, 1, 1);
    else if (letter == 'P')
        t = dvfs_table(d, 5, 1);
    return t != NULL && t->n >= need ? t : NULL;
}

int
dvfs_gpu_table(const struct dvfs *d, struct dvfs_table *out)
{
    const struct dvfs_table *t = dvfs_table(d, 9, 0);

    if (t == NULL && (t = dvfs_table(d, 9, 1)) == NULL)
        return -ENOENT;
    memset(out, 0, sizeof(*out));
    out->number = t->number;
    for (unsigned int i = 0; i < t->n; i++)
        if (t->khz[i] != 0)
            out->khz[out->n++] = t->khz[i];
    return out->n > 0 ? 0 : -ENOENT;
}
