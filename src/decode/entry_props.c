/*
 * Reading typed values out of registry entries: the helpers every decoder
 * of registry-shaped data shares. Portable.
 */
#include "entry_props.h"
#include "entry_set.h"

#include <stdio.h>
#include <string.h>

/* Compared part by part: no path is built and escaped at each look-up. */
const struct plat_prop *
entry_prop_in(const struct plat_entry *e, const char *dict, const char *key)
{
    for (unsigned int i = 0; i < e->nprops; i++)
        if (entry_path_is(e->prop[i].path, dict, key))
            return &e->prop[i];
    return NULL;
}

const struct plat_prop *
entry_prop_key(const struct plat_entry *e, const char *key)
{
    unsigned int from = 0;

    return entry_prop_key_from(e, key, &from);
}

const struct plat_prop *
entry_prop_key_from(const struct plat_entry *e, const char *key, unsigned int *from)
{
    unsigned int i = *from < e->nprops ? *from : 0;

    for (unsigned int n = 0; n < e->nprops; n++, i = i + 1 < e->nprops ? i + 1 : 0)
        if (entry_path_is_key(e->prop[i].path, key)) {
            *from = i + 1;
            return &e->prop[i];
        }
    return NULL;
}

int
entry_number(const struct plat_prop *p, uint64_t *out)
{
    if (p == NULL || p->kind != PLAT_PROP_NUMBER)
        return 0;
    *out = p->number;
    return 1;
}

/* A flag given as a boolean or a number: 0 or 1, or -1 when absent or text. */
int
entry_flag(const struct plat_prop *p)
{
    if (p == NULL || (p->kind != PLAT_PROP_BOOL && p->kind != PLAT_PROP_NUMBER))
        return -1;
    return p->number != 0;
}

/* A string property copied printable, or "" when absent or not a string. */
void
entry_text(const struct plat_prop *p, char *out, size_t outlen)
{
    size_t n = 0;

    if (p != NULL && p->kind == PLAT_PROP_STRING)
        for (const char *c = p->text; *c != '\0' && n + 1 < outlen; c++)
            out[n++] = (unsigned char)*c >= ' ' && *c != 0x7f ? *c : '?';
    out[n] = '\0';
}

void
entry_unique_name(const char *names, size_t stride, unsigned int n, const char *name, char *out, size_t len)
{
    size_t nlen = strlen(name);
    unsigned int seen = 0;

    for (unsigned int i = 0; i < n; i++, names += stride)
        if (strncmp(names, name, nlen) == 0 && (names[nlen] == '\0' || strncmp(names + nlen, " #", 2) == 0))
            seen++;
    if (seen == 0)
        entry_copy_text(out, len, name);
    else
        snprintf(out, len, "%.*s #%u", (int)(len - 12), name, seen + 1);
}

const struct plat_entry *
entry_named(const struct plat_entry_set *set, const char *name)
{
    for (unsigned int i = 0; i < set->n; i++)
        if (strcmp(set->entry[i].name, name) == 0)
            return &set->entry[i];
    return NULL;
}

const struct plat_entry *
entry_by_id(const struct plat_entry_set *set, uint64_t id)
{
    if (id == 0)
        return NULL;
    for (unsigned int i = 0; i < set->n; i++)
        if (set->entry[i].id == id)
            return &set->entry[i];
    return NULL;
}
