/*
 * Help text in newhelp's format ("@ name one-line" then the long text), parsed
 * into a table. Portable; the module serves it through its text callback and
 * the metadata test checks it against the metric table.
 */
#ifndef PMDA_DARWIN_HELP_TEXT_H
#define PMDA_DARWIN_HELP_TEXT_H

#include <stddef.h>

struct help_entry {
    const char *key;        /* metric name, or "78.N" for an instance domain */
    const char *oneline;
    const char *text;       /* long text; the one-line text when none is given */
};

struct help_table {
    struct help_entry *entries;
    size_t nentries;
    char *storage;
};

/* Returns 0, or -EINVAL with msg naming the line (a duplicate or empty entry,
 * text before the first entry), or -ENOMEM. */
int help_parse(const char *source, struct help_table *out, char *msg, size_t msglen);

const struct help_entry *help_find(const struct help_table *t, const char *key);

void help_free(struct help_table *t);

#endif
