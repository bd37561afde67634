/*
 * Building a plat_entry_set: the one way both sources (the live IORegistry
 * reader and the snapshot replay) turn registry entries into plain data,
 * and the text form a property value has in a snapshot. Portable.
 *
 * Key paths: a property's key, then for a nested dictionary each key below
 * it, for an array each element's index, joined by '.'. Within a part,
 * '%', '.', '[', ']', '#', and every byte that is not printable ASCII or
 * is a space are written %XX (two upper-case hex digits), so that a path is
 * one word and splits back unambiguously: "Statistics.Bytes%20(Read)".
 */
#ifndef PMDA_DARWIN_ENTRY_SET_H
#define PMDA_DARWIN_ENTRY_SET_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "platform.h"

/* Bounds on one answer, far above what a Mac's registry holds for a query. */
#define REG_MAX_ENTRIES 4096
#define REG_MAX_PROPS 65536
#define REG_MAX_BYTES (16u << 20)
#define REG_PATH_MAX 512

struct entry_builder {
    struct plat_entry *entry;
    unsigned int n, entry_cap;
    struct plat_prop *prop;
    unsigned int nprops, prop_cap;
    unsigned char *arena;           /* paths, strings and bytes, by offset until finish */
    size_t used, arena_cap;
};

/* Forget the entries of the previous answer (keeps the memory). */
void entry_builder_reset(struct entry_builder *b);
void entry_builder_free(struct entry_builder *b);

/* Text copied into out (len bytes, len > 0), cut to fit, always ended:
 * the length copied. (The names of every entry and channel go through it:
 * snprintf costs ten times as much.) */
size_t entry_copy_text(char *out, size_t len, const char *text);

/* Start an entry; the properties added next are its own. -E2BIG past the bounds. */
int entry_builder_entry(struct entry_builder *b, uint64_t id, uint64_t parent, const char *name, const char *class_name);
/* Whether an entry with this id was started since the last reset (shared ancestors are recorded once). */
int entry_builder_has(const struct entry_builder *b, uint64_t id);
int entry_builder_number(struct entry_builder *b, const char *path, uint64_t value);
int entry_builder_bool(struct entry_builder *b, const char *path, int value);
int entry_builder_float(struct entry_builder *b, const char *path, double value);
int entry_builder_string(struct entry_builder *b, const char *path, const char *text);
int entry_builder_data(struct entry_builder *b, const char *path, const unsigned char *bytes, size_t len);

/* The entries built so far, valid until the next reset. */
void entry_builder_finish(struct entry_builder *b, struct plat_entry_set *out);

/* Append part to the path of length at in buf (a '.' first unless at is
 * 0), escaped; returns the new length, or -ENAMETOOLONG. */
int entry_path_append(char *buf, size_t size, size_t at, const char *part, size_t part_len);

/* The first part of path, unescaped, into out: its length, or
 * -ENAMETOOLONG. */
int entry_path_part(const char *path, char *out, size_t len);

/* A hex digit's value (either case), or -1. */
int entry_hex_digit(char c);

/* Whether path is that of the raw parts dict and key (NULL: dict alone),
 * as entry_path_append would write it. */
int entry_path_is(const char *path, const char *dict, const char *key);

/* Whether path is the escaped form of a query's key (raw parts joined by
 * '.': "Statistics.Bytes (Read)"). */
int entry_path_is_key(const char *path, const char *key);

/* Whether q asks the IORegistry itself (a class, or a plane path
 * "Plane:/path"), whose keys are property keys; the other sources
 * (platform.h: "SMC:", "HID:", ...) read their keys their own way. */
int query_is_registry(const struct plat_query *q);

/* Whether a property at path is one that keys (a query's wanted keys, '.'
 * between a dictionary and a key inside it; NULL: every key) ask for: the
 * live reader records nothing else. */
int entry_path_wanted(const char *const *keys, const char *path);

/* Add a decoded value (entry_codec.h) as the entry's property at path. */
int entry_builder_prop(struct entry_builder *b, const char *path, const struct plat_prop *p);

/* The property at path, or NULL. */
const struct plat_prop *entry_prop(const struct plat_entry *e, const char *path);

#endif
