/*
 * Registry property values as a snapshot holds them: "number 42",
 * "float 41.5", "bool 1", "string Apple SSD", "data 45000000" (hex).
 */
#ifndef PMDA_DARWIN_ENTRY_CODEC_H
#define PMDA_DARWIN_ENTRY_CODEC_H

#include "entry_set.h"

/* Parse a value into the builder as the entry's property at path: 0, or
 * -EINVAL for text that is none of these. */
int entry_builder_parse(struct entry_builder *b, const char *path, const char *text);
/* The same value decoded into out: a string points into text, data is
 * allocated (the caller frees out->data). 0, -EINVAL or -ENOMEM. */
int entry_value_decode(const char *text, struct plat_prop *out);
/* 0 when text is a value entry_builder_parse takes, else -EINVAL. */
int entry_value_check(const char *text);

#endif
