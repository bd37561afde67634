#include "help_text.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int
compare_entries(const void *a, const void *b)
{
    return strcmp(((const struct help_entry *)a)->key, ((const struct help_entry *)b)->key);
}

static char *
skip_blanks(char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

/* Trim trailing newlines and blanks of the text that ends at end (exclusive). */
static void
trim_end(char *start, char *end)
{
    while (end > start && (end[-1] == '\n' || end[-1] == ' ' || end[-1] == '\t'))
        end--;
    *end = '\0';
}

int
help_parse(const char *source, struct help_table *out, char *msg, size_t msglen)
{
    size_t cap = 0, lineno = 0;
    char *p, *pending_text_start = NULL;
    struct help_entry *current = NULL;

    memset(out, 0, sizeof(*out));
    if ((out->storage = strdup(source)) == NULL)
        return -ENOMEM;
    p = out->storage;
    while (*p != '\0') {
        char *line = p, *nl = strchr(p, '\n');

        lineno++;
        p = nl ? nl + 1 : line + strlen(line);
        if (line[0] != '@') {
            if (current == NULL && line[0] != '#' && line[0] != '\n' && line[0] != '\0') {
                snprintf(msg, msglen, "help line %zu: text before the first \"@ name\" line", lineno);
                help_free(out);
                return -EINVAL;
            }
            continue;
        }
        if (current != NULL && pending_text_start != NULL)
            trim_end(pending_text_start, line);
        if (nl != NULL)
            *nl = '\0';
        if (out->nentries == cap) {
            struct help_entry *grown;

            cap = cap ? cap * 2 : 64;
            if ((grown = realloc(out->entries, cap * sizeof(*grown))) == NULL) {
                help_free(out);
                return -ENOMEM;
            }
            out->entries = grown;
        }
        current = &out->entries[out->nentries++];
        line = skip_blanks(line + 1);
        current->key = line;
        line += strcspn(line, " \t");
        if (*line != '\0')
            *line++ = '\0';
        current->oneline = skip_blanks(line);
        if (current->key[0] == '\0' || current->oneline[0] == '\0') {
            snprintf(msg, msglen, "help line %zu: an entry needs a name and a one-line text", lineno);
            help_free(out);
            return -EINVAL;
        }
        pending_text_start = p;
        current->text = p;
    }
    if (current != NULL)
        trim_end(pending_text_start, p);
    for (size_t i = 0; i < out->nentries; i++)
        if (out->entries[i].text[0] == '\0')
            out->entries[i].text = out->entries[i].oneline;
    if (out->nentries > 1)      /* none: entries is NULL, which qsort may not be given */
        qsort(out->entries, out->nentries, sizeof(*out->entries), compare_entries);
    for (size_t i = 1; i < out->nentries; i++)
        if (strcmp(out->entries[i - 1].key, out->entries[i].key) == 0) {
            snprintf(msg, msglen, "help: %s has two entries", out->entries[i].key);
            help_free(out);
            return -EINVAL;
        }
    return 0;
}

const struct help_entry *
help_find(const struct help_table *t, const char *key)
{
    struct help_entry probe = { .key = key };

    if (t->nentries == 0)
        return NULL;            /* entries is NULL, which bsearch may not be given */
    return bsearch(&probe, t->entries, t->nentries, sizeof(*t->entries), compare_entries);
}

void
help_free(struct help_table *t)
{
    free(t->entries);
    free(t->storage);
    memset(t, 0, sizeof(*t));
}
