#include "entry_set.h"
#include "array_grow.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* While building, a property's path and value are offsets into the arena
 * (which moves as it grows): kept here, made pointers by finish. */
struct entry_offsets {
    size_t path, value;
};

static struct entry_offsets *
offsets(struct entry_builder *b)
{
    return (struct entry_offsets *)(void *)(b->prop + b->prop_cap);
}

void
entry_builder_reset(struct entry_builder *b)
{
    b->n = 0;
    b->nprops = 0;
    b->used = 0;
}

void
entry_builder_free(struct entry_builder *b)
{
    free(b->entry);
    free(b->prop);
    free(b->arena);
    memset(b, 0, sizeof(*b));
}

/* Copy len bytes (and a NUL) into the arena; the offset, or -E2BIG / -ENOMEM. */
static int64_t
arena_add(struct entry_builder *b, const void *bytes, size_t len)
{
    size_t at = b->used;

    if (len >= REG_MAX_BYTES - b->used)
        return -E2BIG;
    if (b->used + len + 1 > b->arena_cap) {
        size_t cap = b->arena_cap ? b->arena_cap : 4096;
        unsigned char *grown;

        while (cap < b->used + len + 1)
            cap *= 2;
        if ((grown = realloc(b->arena, cap)) == NULL)
            return -ENOMEM;
        b->arena = grown;
        b->arena_cap = cap;
    }
    memcpy(b->arena + at, bytes, len);
    b->arena[at + len] = '\0';
    b->used += len + 1;
    return (int64_t)at;
}

int
entry_builder_has(const struct entry_builder *b, uint64_t id)
{
    for (unsigned int i = 0; i < b->n; i++)
        if (b->entry[i].id == id)
            return 1;
    return 0;
}

int
entry_builder_entry(struct entry_builder *b, uint64_t id, uint64_t parent, const char *name, const char *class_name)
{
    struct plat_entry *e;
    int sts;

    if (b->n >= REG_MAX_ENTRIES)
        return -E2BIG;
    if ((sts = array_grow((void **)&b->entry, &b->entry_cap, b->n, sizeof(*b->entry))) < 0)
        return sts;
    e = &b->entry[b->n++];
    memset(e, 0, sizeof(*e));
    e->id = id;
    e->parent = parent;
    entry_copy_text(e->name, sizeof(e->name), name);
    entry_copy_text(e->class_name, sizeof(e->class_name), class_name);
    return 0;
}

size_t
entry_copy_text(char *out, size_t len, const char *text)
{
    size_t n = 0;

    while (n + 1 < len && text[n] != '\0') {
        out[n] = text[n];
        n++;
    }
    out[n] = '\0';
    return n;
}

/* A new property of the current entry, with its path in the arena. */
static int
add_prop(struct entry_builder *b, const char *path, enum plat_prop_kind kind, struct plat_prop **out)
{
    int64_t at;

    if (b->n == 0)
        return -EINVAL;                 /* no entry to hold it */
    if (b->nprops >= REG_MAX_PROPS)
        return -E2BIG;
    if (b->nprops == b->prop_cap) {
        unsigned int cap = b->prop_cap ? 2 * b->prop_cap : 64;
        /* props and their offsets in one block: the offsets after the props */
        unsigned char *grown = malloc((size_t)cap * (sizeof(struct plat_prop) + sizeof(struct entry_offsets)));

        if (grown == NULL)
            return -ENOMEM;
        if (b->prop != NULL) {
            memcpy(grown, b->prop, b->nprops * sizeof(struct plat_prop));
            memcpy(grown + (size_t)cap * sizeof(struct plat_prop), offsets(b),
                   b->nprops * sizeof(struct entry_offsets));
            free(b->prop);
        }
        b->prop = (struct plat_prop *)(void *)grown;
        b->prop_cap = cap;
    }
    if ((at = arena_add(b, path, strlen(path))) < 0)
        return (int)at;
    *out = &b->prop[b->nprops];
    memset(*out, 0, sizeof(**out));
    (*out)->kind = kind;
    offsets(b)[b->nprops].path = (size_t)at;
    offsets(b)[b->nprops].value = 0;
    b->nprops++;
    b->entry[b->n - 1].nprops++;
    return 0;
}

int
entry_builder_number(struct entry_builder *b, const char *path, uint64_t value)
{
    struct plat_prop *p;
    int sts = add_prop(b, path, PLAT_PROP_NUMBER, &p);

    if (sts == 0)
        p->number = value;
    return sts;
}

int
entry_builder_float(struct entry_builder *b, const char *path, double value)
{
    struct plat_prop *p;
    int sts = add_prop(b, path, PLAT_PROP_FLOAT, &p);

    if (sts == 0)
        p->real = value;
    return sts;
}

int
entry_builder_bool(struct entry_builder *b, const char *path, int value)
{
    struct plat_prop *p;
    int sts = add_prop(b, path, PLAT_PROP_BOOL, &p);

    if (sts == 0)
        p->number = value != 0;
    return sts;
}

static int
add_bytes(struct entry_builder *b, const char *path, enum plat_prop_kind kind, const void *bytes, size_t len)
{
    struct plat_prop *p;
    int64_t at;
    int sts;

    if (len > UINT32_MAX)
        return -E2BIG;
    if ((sts = add_prop(b, path, kind, &p)) < 0)
        return sts;
    if ((at = arena_add(b, bytes, len)) < 0) {
        b->nprops--;                    /* drop the half-made property */
        b->entry[b->n - 1].nprops--;
        return (int)at;
    }
    b->prop[b->nprops - 1].len = (uint32_t)len;
    offsets(b)[b->nprops - 1].value = (size_t)at;
    return 0;
}

int
entry_builder_string(struct entry_builder *b, const char *path, const char *text)
{
    return add_bytes(b, path, PLAT_PROP_STRING, text, strlen(text));
}

int
entry_builder_data(struct entry_builder *b, const char *path, const unsigned char *bytes, size_t len)
{
    return add_bytes(b, path, PLAT_PROP_DATA, bytes, len);
}

void
entry_builder_finish(struct entry_builder *b, struct plat_entry_set *out)
{
    unsigned int first = 0;

    for (unsigned int i = 0; i < b->nprops; i++) {
        struct plat_prop *p = &b->prop[i];

        p->path = (const char *)b->arena + offsets(b)[i].path;
        if (p->kind == PLAT_PROP_STRING)
            p->text = (const char *)b->arena + offsets(b)[i].value;
        else if (p->kind == PLAT_PROP_DATA)
            p->data = b->arena + offsets(b)[i].value;
    }
    for (unsigned int e = 0; e < b->n; e++) {
        b->entry[e].prop = b->entry[e].nprops ? &b->prop[first] : NULL;
        first += b->entry[e].nprops;
    }
    out->n = b->n;
    out->entry = b->entry;
}

static const char upper_hex[] = "0123456789ABCDEF";

static int
must_escape(unsigned char c)
{
    return c <= ' ' || c >= 0x7f || c == '%' || c == '.' || c == '[' || c == ']' || c == '#';
}

int
entry_path_append(char *buf, size_t size, size_t at, const char *part, size_t part_len)
{
    if (at > 0) {
        if (at + 1 >= size)
            return -ENAMETOOLONG;
        buf[at++] = '.';
    }
    for (size_t i = 0; i < part_len; i++) {
        unsigned char c = (unsigned char)part[i];

        if (at + (must_escape(c) ? 3 : 1) >= size)
            return -ENAMETOOLONG;
        if (must_escape(c)) {
            buf[at++] = '%';
            buf[at++] = upper_hex[c >> 4];
            buf[at++] = upper_hex[c & 15];
        } else {
            buf[at++] = (char)c;
        }
    }
    buf[at] = '\0';
    return (int)at;
}

/* The rest of path after the escaped form of the raw part, or NULL when
 * path does not start with it. */
static const char *
after_part(const char *path, const char *part)
{
    for (; *part != '\0'; part++) {
        unsigned char c = (unsigned char)*part;

        if ((unsigned char)*path == c && c != '%' && c != '.') {
            path++;                     /* the same character: a path holds no escapable one but these */
            continue;
        }
        if (!must_escape(c) || path[0] != '%' || path[1] != upper_hex[c >> 4] || path[2] != upper_hex[c & 15])
            return NULL;
        path += 3;
    }
    return path;
}

int
entry_path_part(const char *path, char *out, size_t len)
{
    size_t n = 0;

    for (; *path != '\0' && *path != '.'; n++) {
        int hi, lo;

        if (n + 1 >= len)
            return -ENAMETOOLONG;
        if (*path == '%' && (hi = entry_hex_digit(path[1])) >= 0 && (lo = entry_hex_digit(path[2])) >= 0) {
            out[n] = (char)(hi << 4 | lo);
            path += 3;
        } else {
            out[n] = *path++;
        }
    }
    out[n] = '\0';
    return (int)n;
}

int
entry_path_is(const char *path, const char *dict, const char *key)
{
    path = after_part(path, dict);
    if (path != NULL && key != NULL)
        path = *path == '.' ? after_part(path + 1, key) : NULL;
    return path != NULL && *path == '\0';
}

/* What follows the escaped form of key (its parts joined by '.', as the
 * live reader records a wanted key) at the start of path, or NULL when
 * path does not start with it. */
static const char *
after_key(const char *path, const char *key)
{
    for (; *key != '\0'; key++) {
        unsigned char c = (unsigned char)*key;

        if ((unsigned char)*path == c && c != '%') {
            path++;                     /* the same character: a path holds no escapable one but '%' */
            continue;
        }
        if (c == '.' || !must_escape(c) || path[0] != '%' || path[1] != upper_hex[c >> 4] ||
            path[2] != upper_hex[c & 15])
            return NULL;
        path += 3;
    }
    return path;
}

int
entry_path_is_key(const char *path, const char *key)
{
    path = after_key(path, key);
    return path != NULL && *path == '\0';
}

int
query_is_registry(const struct plat_query *q)
{
    const char *colon = strchr(q->match, ':');

    return colon == NULL || colon[1] == '/';
}

int
entry_path_wanted(const char *const *keys, const char *path)
{
    if (keys == NULL)
        return 1;
    for (; *keys != NULL; keys++) {
        const char *rest = after_key(path, *keys);

        if (rest != NULL && (*rest == '\0' || *rest == '.'))     /* the key or a value inside it */
            return 1;
    }
    return 0;
}

int
entry_hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int
entry_builder_prop(struct entry_builder *b, const char *path, const struct plat_prop *p)
{
    switch (p->kind) {
    case PLAT_PROP_NUMBER: return entry_builder_number(b, path, p->number);
    case PLAT_PROP_BOOL: return entry_builder_bool(b, path, (int)p->number);
    case PLAT_PROP_FLOAT: return entry_builder_float(b, path, p->real);
    case PLAT_PROP_STRING: return entry_builder_string(b, path, p->text);
    case PLAT_PROP_DATA: return entry_builder_data(b, path, p->data, p->len);
    }
    return -EINVAL;
}

const struct plat_prop *
entry_prop(const struct plat_entry *e, const char *path)
{
    for (unsigned int i = 0; i < e->nprops; i++)
        if (strcmp(e->prop[i].path, path) == 0)
            return &e->prop[i];
    return NULL;
}
