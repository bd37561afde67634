/*
 * Registry entries built in a test as the live readers build them, into
 * one builder: entry() starts one, the others add its properties, finish()
 * hands out the set. Header-only helpers for cmocka tests.
 */
#ifndef PMDA_DARWIN_REG_ENTRIES_H
#define PMDA_DARWIN_REG_ENTRIES_H

#include "entry_set.h"

static struct entry_builder b;

static inline void
entry(uint64_t id, uint64_t parent, const char *name, const char *class_name)
{
    assert_int_equal(entry_builder_entry(&b, id, parent, name, class_name), 0);
}

static inline void
number(const char *path, int64_t v)
{
    assert_int_equal(entry_builder_number(&b, path, (uint64_t)v), 0);
}

static inline void
flag(const char *path, int v)
{
    assert_int_equal(entry_builder_bool(&b, path, v), 0);
}

static inline void
text(const char *path, const char *value)
{
    assert_int_equal(entry_builder_string(&b, path, value), 0);
}

static inline void
bytes(const char *path, const unsigned char *data, size_t len)
{
    assert_int_equal(entry_builder_data(&b, path, data, len), 0);
}

static inline struct plat_entry_set
finish(void)
{
    struct plat_entry_set set;

    entry_builder_finish(&b, &set);
    return set;
}

#endif
