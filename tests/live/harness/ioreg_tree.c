#include "ioreg_tree.h"
#include "entry_set.h"
#include "dbl.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WORDS 6
#define MAX_OPEN 64                 /* containers open at once, the entry's properties first */

/* A parent link, made once every entry is in: a parent may come later in
 * the tree than its child (the second store of a Fusion container). */
struct link {
    unsigned int entry;
    char plane[32];
    int top;
    uint64_t parent;
};

/* An entry loaded: its id and its index in the double. */
struct loaded {
    uint64_t id;
    unsigned int index;
};

struct loader {
    const char *path;
    unsigned int line;
    char *err;
    size_t errlen;
    struct loaded *entry;
    unsigned int n, cap;
    struct link *links;
    unsigned int nlinks, links_cap;
    void *open[MAX_OPEN];           /* the containers values go into: [0] the entry's properties */
    int is_array[MAX_OPEN];
    unsigned int depth;             /* 0: no entry yet */
};

static int
fail(struct loader *l, const char *fmt, ...)
{
    size_t at = (size_t)snprintf(l->err, l->errlen, "%s:%u: ", l->path, l->line);
    va_list ap;

    va_start(ap, fmt);
    if (at < l->errlen)
        vsnprintf(l->err + at, l->errlen - at, fmt, ap);
    va_end(ap);
    return -1;
}

/* A word's text in place: %XX is the byte XX, "%" alone the empty text. */
static int
unescape(char *word)
{
    char *out = word;

    if (strcmp(word, "%") == 0) {
        word[0] = '\0';
        return 0;
    }
    for (const char *in = word; *in != '\0'; out++) {
        if (*in != '%') {
            *out = *in++;
            continue;
        }
        if (entry_hex_digit(in[1]) < 0 || entry_hex_digit(in[2]) < 0)
            return -1;
        *out = (char)(entry_hex_digit(in[1]) << 4 | entry_hex_digit(in[2]));
        in += 3;
    }
    *out = '\0';
    return 0;
}

/* The line's words, unescaped; their count, or -1 for a bad escape. */
static int
split(char *line, char **words)
{
    int n = 0;

    line[strcspn(line, "\n")] = '\0';
    for (char *w = line; w != NULL && *w != '\0' && n < MAX_WORDS;) {
        char *space = strchr(w, ' ');

        if (space != NULL)
            *space = '\0';
        words[n++] = w;
        w = space ? space + 1 : NULL;
    }
    for (int i = 1; i < n; i++)
        if (unescape(words[i]) < 0)
            return -1;
    return n;
}

static int
parse_u64(const char *text, int base, uint64_t *out)
{
    char *end;

    errno = 0;
    *out = strtoull(text, &end, base);
    return text[0] != '\0' && text[0] != '-' && *end == '\0' && errno == 0 ? 0 : -1;
}

static int
grow(void **array, unsigned int *cap, unsigned int n, size_t size)
{
    void *grown;

    if (n < *cap)
        return 0;
    if ((grown = realloc(*array, (*cap ? 2 * *cap : 64) * size)) == NULL)
        return -1;
    *array = grown;
    *cap = *cap ? 2 * *cap : 64;
    return 0;
}

static int
start_entry(struct loader *l, char **w, int n)
{
    uint64_t id;
    void *props;

    if (n != 5 || parse_u64(w[1], 16, &id) < 0)
        return fail(l, "not \"entry ID NAME LOCATION CLASS\"");
    if (l->depth > 1)
        return fail(l, "an entry before the \"end\" of a container");
    if (grow((void **)&l->entry, &l->cap, l->n, sizeof(*l->entry)) < 0)
        return fail(l, "out of memory");
    props = dbl_cf_dict();
    l->entry[l->n].id = id;
    l->entry[l->n++].index = dbl_reg_entry(id, w[2], w[3], w[4], props);  /* the double keeps props: filled below */
    l->open[0] = props;
    l->is_array[0] = 0;
    l->depth = 1;
    return 0;
}

static int
add_link(struct loader *l, char **w, int n)
{
    struct link *k;

    if (n != 3 || strlen(w[1]) >= sizeof(k->plane))
        return fail(l, "not \"parent PLANE ID\"");
    if (grow((void **)&l->links, &l->links_cap, l->nlinks, sizeof(*l->links)) < 0)
        return fail(l, "out of memory");
    k = &l->links[l->nlinks];
    k->entry = l->entry[l->n - 1].index;
    strcpy(k->plane, w[1]);
    k->top = strcmp(w[2], "top") == 0;
    if (!k->top && parse_u64(w[2], 16, &k->parent) < 0)
        return fail(l, "parent \"%s\": not an id", w[2]);
    l->nlinks++;
    return 0;
}

/* The value of a property line (a container: an empty one), or NULL. */
static void *
make_value(const char *kind, char **w, int n)
{
    uint64_t number;

    if (strcmp(kind, "dict") == 0 || strcmp(kind, "array") == 0)
        return n != 2 ? NULL : kind[0] == 'd' ? dbl_cf_dict() : dbl_cf_array();
    if (n != 3)
        return NULL;
    if (strcmp(kind, "number") == 0)
        return parse_u64(w[2], 10, &number) == 0 ? dbl_cf_number((int64_t)number) : NULL;
    if (strcmp(kind, "bool") == 0)
        return strcmp(w[2], "0") == 0 || strcmp(w[2], "1") == 0 ? dbl_cf_bool(w[2][0] == '1') : NULL;
    if (strcmp(kind, "string") == 0)
        return dbl_cf_string(w[2]);
    if (strcmp(kind, "data") == 0) {
        size_t len = strlen(w[2]) / 2;
        unsigned char *bytes = malloc(len ? len : 1);
        void *data = NULL;
        size_t i = 0;

        while (bytes != NULL && i < len && entry_hex_digit(w[2][2 * i]) >= 0 && entry_hex_digit(w[2][2 * i + 1]) >= 0) {
            bytes[i] = (unsigned char)(entry_hex_digit(w[2][2 * i]) << 4 | entry_hex_digit(w[2][2 * i + 1]));
            i++;
        }
        if (bytes != NULL && i == len && strlen(w[2]) % 2 == 0)
            data = dbl_cf_data(bytes, len);
        free(bytes);
        return data;
    }
    return NULL;
}

static int
add_property(struct loader *l, char **w, int n)
{
    void *value, *into;

    if (l->depth == 0)
        return fail(l, "a property before the first entry");
    if ((value = make_value(w[0], w, n)) == NULL)
        return fail(l, "not a property: \"%s\" with %d words", w[0], n);
    into = l->open[l->depth - 1];
    if (l->is_array[l->depth - 1])
        dbl_cf_append(into, value);
    else
        dbl_cf_put(into, w[1], value);      /* the container keeps value: filled below if it is one */
    if (strcmp(w[0], "dict") == 0 || strcmp(w[0], "array") == 0) {
        if (l->depth == MAX_OPEN)
            return fail(l, "containers nested more than %d deep", MAX_OPEN);
        l->is_array[l->depth] = w[0][0] == 'a';
        l->open[l->depth++] = value;
    }
    return 0;
}

static int
read_line(struct loader *l, char *line)
{
    char *w[MAX_WORDS];
    int n;

    if (l->line == 1)
        return strcmp(line, "ioreg-tree 1\n") == 0 ? 0 : fail(l, "not an ioreg-tree of version 1");
    if (line[0] == '#' || line[0] == '\n')
        return 0;
    if ((n = split(line, w)) < 0)
        return fail(l, "a word with a bad %%XX escape");
    if (strcmp(w[0], "entry") == 0)
        return start_entry(l, w, n);
    if (l->depth == 0)
        return fail(l, "\"%s\" before the first entry", w[0]);
    if (strcmp(w[0], "parent") == 0)
        return add_link(l, w, n);
    if (strcmp(w[0], "superclass") == 0 && n == 2) {
        dbl_reg_superclass(l->entry[l->n - 1].index, w[1]);
        return 0;
    }
    if (strcmp(w[0], "unmatched") == 0 && n == 1) {
        dbl_reg_unmatched(l->entry[l->n - 1].index);
        return 0;
    }
    if (strcmp(w[0], "end") == 0 && n == 1) {
        if (l->depth < 2)
            return fail(l, "an \"end\" without a container");
        l->depth--;
        return 0;
    }
    return add_property(l, w, n);
}

static int
index_of(const struct loader *l, uint64_t id, unsigned int *index)
{
    for (unsigned int i = 0; i < l->n; i++)
        if (l->entry[i].id == id) {
            *index = l->entry[i].index;
            return 0;
        }
    return -1;
}

static int
attach_all(struct loader *l)
{
    for (unsigned int i = 0; i < l->nlinks; i++) {
        const struct link *k = &l->links[i];
        unsigned int parent = DBL_REG_ROOT;

        if (!k->top && index_of(l, k->parent, &parent) < 0)
            return fail(l, "parent 0x%llx is not an entry of the tree", (unsigned long long)k->parent);
        dbl_reg_attach(k->entry, k->plane, parent);
    }
    return 0;
}

int
ioreg_tree_read(FILE *fp, const char *name, char *err, size_t errlen)
{
    struct loader l = { .path = name, .err = err, .errlen = errlen };
    char *line = NULL;
    size_t size = 0;
    int sts = 0;

    while (sts == 0 && getline(&line, &size, fp) != -1) {
        l.line++;
        sts = read_line(&l, line);
    }
    if (sts == 0 && l.line == 0)
        sts = fail(&l, "empty");
    else if (sts == 0 && l.depth > 1)
        sts = fail(&l, "a container without its \"end\"");
    if (sts == 0)
        sts = attach_all(&l);
    free(line);
    free(l.entry);
    free(l.links);
    return sts;
}

int
ioreg_tree_load(const char *path, char *err, size_t errlen)
{
    FILE *fp = fopen(path, "r");
    int sts;

    if (fp == NULL) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    sts = ioreg_tree_read(fp, path, err, errlen);
    fclose(fp);
    return sts;
}
