/*
 * Reading typed values out of registry entries (plat_entry), for the
 * decoders of registry-shaped data. Portable.
 */
#ifndef PMDA_DARWIN_ENTRY_PROPS_H
#define PMDA_DARWIN_ENTRY_PROPS_H

#include <stddef.h>
#include <stdint.h>

#include "platform.h"

/* The property at the path of these raw (unescaped) parts (key may be
 * NULL: the dictionary's own path), or NULL. */
const struct plat_prop *entry_prop_in(const struct plat_entry *e, const char *dict, const char *key);

/* The property at a query's key (queries.c: raw parts joined by
 * '.', "Statistics.Bytes (Read)"), or NULL. */
const struct plat_prop *entry_prop_key(const struct plat_entry *e, const char *key);
/* The same, looking from property *from on and round to it (a path is
 * not recorded twice in an entry, so the answer is the same); *from is
 * left after the property found. Keys read in the order recorded are
 * found at the first look. */
const struct plat_prop *entry_prop_key_from(const struct plat_entry *e, const char *key, unsigned int *from);

/* A number property: 1 and *out, or 0 when absent or another kind. */
int entry_number(const struct plat_prop *p, uint64_t *out);

/* A flag given as a boolean or a number: 0 or 1, or -1 when absent or text. */
int entry_flag(const struct plat_prop *p);

/* A string property copied printable, or "" when absent or not a string. */
void entry_text(const struct plat_prop *p, char *out, size_t outlen);

/* The entry with this id, or NULL (also for id 0). */
const struct plat_entry *entry_by_id(const struct plat_entry_set *set, uint64_t id);
/* Instance names for things a Mac names alike (two dies' channels, two
 * sensors of one product name): name itself, or "name #k" when k - 1 of
 * the n names before it (each stride bytes after the one before, from
 * names) are name or "name #j". */
void entry_unique_name(const char *names, size_t stride, unsigned int n, const char *name, char *out, size_t len);

/* The first entry of set with that name, or NULL. */
const struct plat_entry *entry_named(const struct plat_entry_set *set, const char *name);

#endif
