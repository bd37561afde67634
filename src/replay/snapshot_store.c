/*
 * Snapshot store: parse once at open, answer look-ups at a replay position.
 * See snapshot_store.h for the contract and docs/snapshot-format.md for the format.
 */
#include "snapshot_store.h"
#include "error_text.h"
#include "hash_slots.h"
#include "entry_set.h"
#include "entry_codec.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SNAP_LINE_MAX 4096
#define HOLDS_TEXT(kind) ((kind) == SNAP_TEXT || (kind) == SNAP_REGISTRY)
#define SNAP_NOTES_MAX 4096
#define SNAP_MAX_SAMPLES 100000
#define SNAP_MAX_RECORDS 64            /* instanced records in a schema: fewer than 30 */

/* One key: its values per slot. Slot 0 holds the value given before the
 * first sample line (a default for every sample); slot i+1 holds sample i. */
/* A key's values, one slot per sample (and one for the lines before the
 * first): num, text, reg, line and key share one allocation, at num. A
 * snapshot has a million keys or more, so nothing here is per key that need
 * not be. */
struct snap_entry {
    char *key;
    const struct snap_field *field;
    int bad_line;               /* > 0: the key is unusable because of this line */
    char *bad_why;              /* why, when bad_line says so */
    uint64_t *num;
    char **text;                /* kinds that hold text */
    struct plat_prop *reg;  /* SNAP_REGISTRY: each slot's value, decoded once at load */
    int *line;                  /* line that set each slot; 0 = not set */
};

struct snap_instance {
    const char *record;         /* points into the schema */
    char *name;
};

struct record_range {
    const char *record;
    size_t start, n;
};

/* Names seen while loading, hashed to their position + 1 (0: empty), so
 * that a file of many keys loads in time linear in its lines. */
struct name_index {
    uint32_t *slots;
    size_t cap, n;
};

struct snap {
    char *name;
    const struct snap_field *schema;
    unsigned int nsamples;
    uint64_t *sample_usec;
    int *sample_line;
    struct snap_entry *entries;
    size_t nentries;
    size_t entries_cap;
    struct snap_instance *instances;    /* grouped by record after loading, each in file order */
    size_t ninstances;
    size_t instances_cap;
    struct record_range *records;      /* where each record's instances are, after loading */
    size_t nrecords;
    struct name_index entry_index, instance_index;     /* while loading: keys seen so far */
    struct name_index schema_index[2];                  /* while loading: the schema, plain and instanced */
    size_t *wild, nwild;                                /* while loading: the schema's '*' fields */
    struct record_range counted[SNAP_MAX_RECORDS];     /* while loading: instances of each record (n) */
    size_t ncounted;
    char notes[SNAP_NOTES_MAX];
    char error[SNAP_MSG_MAX];
    /* replay position */
    unsigned int pos_sample;
    uint64_t pos_frac_num;
    uint64_t pos_frac_den;
    uint64_t pos_cycle;
    uint64_t pos_now;
};

static void
set_msg(char *msg, size_t msglen, const char *fmt, ...)
{
    va_list ap;

    if (msg == NULL || msglen == 0)
        return;
    va_start(ap, fmt);
    vsnprintf(msg, msglen, fmt, ap);
    va_end(ap);
}

static void
add_note(struct snap *s, const char *fmt, ...)
{
    size_t used = strlen(s->notes);
    va_list ap;

    if (used + 2 >= sizeof(s->notes))
        return;                 /* notes are a summary; the first ones are enough */
    va_start(ap, fmt);
    vsnprintf(s->notes + used, sizeof(s->notes) - used - 1, fmt, ap);
    va_end(ap);
    used = strlen(s->notes);
    s->notes[used] = '\n';
    s->notes[used + 1] = '\0';
}

/* Failures accumulate ("; "-separated) until snap_clear_error, so that a
 * caller reading several keys can report every one that failed. */
static int
fail(struct snap *s, int err, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    error_text_append(s->error, sizeof(s->error), fmt, ap);
    va_end(ap);
    return err;
}

/* Unsigned decimal, whole string, with overflow detection. */
static int
parse_unsigned(const char *text, uint64_t limit, uint64_t *out)
{
    uint64_t value = 0;
    const char *p = text;

    if (*p == '\0')
        return -EINVAL;
    for (; *p != '\0'; p++) {
        unsigned int digit;

        if (!isdigit((unsigned char)*p))
            return -EINVAL;
        digit = (unsigned int)(*p - '0');
        if (value > (limit - digit) / 10)
            return -ERANGE;
        value = value * 10 + digit;
    }
    *out = value;
    return 0;
}

/* seconds[.fraction] to microseconds; more than 6 fraction digits are refused. */
static int
parse_time(const char *text, uint64_t *out)
{
    char whole[32];
    const char *dot = strchr(text, '.');
    size_t wlen = dot ? (size_t)(dot - text) : strlen(text);
    uint64_t sec, usec = 0;
    int sts;

    if (wlen == 0 || wlen >= sizeof(whole))
        return wlen == 0 ? -EINVAL : -ERANGE;
    memcpy(whole, text, wlen);
    whole[wlen] = '\0';
    if ((sts = parse_unsigned(whole, UINT64_MAX / 1000000 - 1, &sec)) < 0)
        return sts;
    if (dot != NULL) {
        const char *f = dot + 1;
        size_t flen = strlen(f);
        uint64_t scale = 1;

        if (flen == 0 || flen > 6)
            return -EINVAL;
        if ((sts = parse_unsigned(f, 999999, &usec)) < 0)
            return sts;
        for (size_t i = flen; i < 6; i++)
            scale *= 10;
        usec *= scale;
    }
    *out = sec * 1000000 + usec;
    return 0;
}

static int
parse_value(enum snap_kind kind, const char *text, uint64_t *num)
{
    switch (kind) {
    case SNAP_COUNTER32:
    case SNAP_GAUGE32:
        return parse_unsigned(text, UINT32_MAX, num);
    case SNAP_COUNTER64:
    case SNAP_GAUGE64:
        return parse_unsigned(text, UINT64_MAX, num);
    case SNAP_INT: {
        uint64_t magnitude;
        int negative = (text[0] == '-');
        int sts = parse_unsigned(text + negative, negative ? (uint64_t)INT32_MAX + 1 : INT32_MAX, &magnitude);

        if (sts == 0)
            *num = negative ? (uint64_t)(-(int64_t)magnitude) : magnitude;
        return sts;
    }
    case SNAP_TIME:
        return parse_time(text, num);
    case SNAP_TEXT:
        return 0;
    case SNAP_REGISTRY:
        return entry_value_check(text);
    }
    return -EINVAL;
}

static const char *
kind_name(enum snap_kind kind)
{
    switch (kind) {
    case SNAP_COUNTER32: return "a 32-bit unsigned counter";
    case SNAP_COUNTER64: return "a 64-bit unsigned counter";
    case SNAP_GAUGE32: return "a 32-bit unsigned number";
    case SNAP_GAUGE64: return "a 64-bit unsigned number";
    case SNAP_INT: return "a signed 32-bit number";
    case SNAP_TEXT: return "text";
    case SNAP_TIME: return "a time in seconds";
    case SNAP_REGISTRY: return "a registry value (number N, bool 0|1, string TEXT, data HEX)";
    }
    return "?";
}

/*
 * Split "record[instance].field" or "record.field". Returns 0 and fills the
 * parts (pointing into buf, which is modified), or -EINVAL.
 */
static int
split_key(char *buf, char **record, char **instance, char **field)
{
    char *p = buf;

    *instance = NULL;
    *record = p;
    while (*p != '\0' && (islower((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '_'))
        p++;
    if (p == *record)
        return -EINVAL;
    if (*p == '[') {
        *p++ = '\0';
        *instance = p;
        while (*p != '\0' && *p != ']') {
            if (!isgraph((unsigned char)*p) || *p == '[')
                return -EINVAL;
            p++;
        }
        if (*p != ']' || p == *instance)
            return -EINVAL;
        *p++ = '\0';
    }
    if (*p != '.')
        return -EINVAL;
    *p++ = '\0';
    *field = p;
    if (*p == '\0')
        return -EINVAL;
    for (; *p != '\0'; p++)         /* the schema decides which fields exist */
        if (!isgraph((unsigned char)*p) || *p == '[' || *p == ']')
            return -EINVAL;
    return 0;
}

static uint32_t
name_hash(const char *a, const char *b)
{
    return hash_text(hash_text(HASH_START, a) * 16777619u, b);     /* a, a NUL, and b */
}

/* The slot for (a, b) in x: the one holding it, or the empty one it would
 * take; same(pos) says whether position pos holds (a, b). */
static uint32_t *
name_slot(const struct name_index *x, const char *a, const char *b, int (*same)(const void *, size_t, const char *,
          const char *), const void *owner)
{
    size_t i = name_hash(a, b) & (x->cap - 1);

    while (x->slots[i] != 0 && !same(owner, x->slots[i] - 1, a, b))
        i = (i + 1) & (x->cap - 1);
    return &x->slots[i];
}

/* Room for one more name: double (rehashing with hash_of) when half full. */
static int
name_index_room(struct name_index *x, uint32_t (*hash_of)(const void *, size_t), const void *owner)
{
    size_t cap = x->cap ? x->cap * 2 : 1024;
    uint32_t *slots;

    if (x->cap != 0 && 2 * (x->n + 1) <= x->cap)
        return 0;
    if ((slots = calloc(cap, sizeof(*slots))) == NULL)
        return -ENOMEM;
    for (size_t i = 0; i < x->cap; i++)
        if (x->slots[i] != 0) {
            size_t j = hash_of(owner, x->slots[i] - 1) & (cap - 1);

            while (slots[j] != 0)
                j = (j + 1) & (cap - 1);
            slots[j] = x->slots[i];
        }
    free(x->slots);
    x->slots = slots;
    x->cap = cap;
    return 0;
}

static int
same_entry(const void *owner, size_t pos, const char *key, const char *unused)
{
    (void)unused;
    return strcmp(((const struct snap *)owner)->entries[pos].key, key) == 0;
}

static uint32_t
entry_hash(const void *owner, size_t pos)
{
    return name_hash(((const struct snap *)owner)->entries[pos].key, NULL);
}

static int
same_instance(const void *owner, size_t pos, const char *record, const char *name)
{
    const struct snap_instance *in = &((const struct snap *)owner)->instances[pos];

    return strcmp(in->record, record) == 0 && strcmp(in->name, name) == 0;
}

static uint32_t
instance_hash(const void *owner, size_t pos)
{
    const struct snap_instance *in = &((const struct snap *)owner)->instances[pos];

    return name_hash(in->record, in->name);
}

static int
is_wild(const struct snap_field *f)
{
    size_t len = strlen(f->field);

    return len > 0 && f->field[len - 1] == '*';
}

static int
same_field(const void *owner, size_t pos, const char *record, const char *field)
{
    const struct snap_field *f = &((const struct snap_field *)owner)[pos];

    return strcmp(f->record, record) == 0 && strcmp(f->field, field) == 0;
}

static uint32_t
field_hash(const void *owner, size_t pos)
{
    const struct snap_field *f = &((const struct snap_field *)owner)[pos];

    return name_hash(f->record, f->field);
}

/* The schema's fields by record and field, plain and instanced apart, for
 * every line's look-up; the few ending in '*' (any path below) are listed
 * apart and tried in order after. */
static int
index_schema(struct snap *s)
{
    size_t n = 0;

    while (s->schema[n].record != NULL)
        n++;
    if ((s->wild = malloc((n + 1) * sizeof(*s->wild))) == NULL)
        return -ENOMEM;
    for (size_t pos = 0; pos < n; pos++) {
        const struct snap_field *f = &s->schema[pos];
        struct name_index *x = &s->schema_index[f->instanced != 0];
        uint32_t *slot;

        if (is_wild(f)) {
            s->wild[s->nwild++] = pos;
            continue;
        }
        if (name_index_room(x, field_hash, s->schema) < 0)
            return -ENOMEM;
        if (*(slot = name_slot(x, f->record, f->field, same_field, s->schema)) == 0) {
            *slot = (uint32_t)pos + 1;      /* a field given twice: the first stands */
            x->n++;
        }
    }
    return 0;
}

static const struct snap_field *
schema_find(const struct snap *s, const char *record, const char *field, int instanced)
{
    const struct name_index *x = &s->schema_index[instanced != 0];
    uint32_t pos = x->cap != 0 ? *name_slot(x, record, field, same_field, s->schema) : 0;

    if (pos != 0)
        return &s->schema[pos - 1];
    for (size_t w = 0; w < s->nwild; w++) {
        const struct snap_field *f = &s->schema[s->wild[w]];
        size_t len = strlen(f->field);

        if ((f->instanced != 0) == (instanced != 0) && strcmp(f->record, record) == 0 &&
            strncmp(f->field, field, len - 1) == 0 && field[len - 1] != '\0')
            return f;
    }
    return NULL;
}

static struct snap_entry *
entry_find(struct snap *s, const char *key)
{
    uint32_t pos;

    if (s->entry_index.cap == 0)
        return NULL;
    pos = *name_slot(&s->entry_index, key, NULL, same_entry, s);
    return pos ? &s->entries[pos - 1] : NULL;
}

static struct snap_entry *
entry_add(struct snap *s, const char *key, const struct snap_field *field)
{
    size_t slots = (size_t)s->nsamples + 1, per_slot;
    struct snap_entry *e;
    char *block;

    if (s->nentries == s->entries_cap) {
        size_t cap = s->entries_cap ? s->entries_cap * 2 : 64;
        struct snap_entry *grown = realloc(s->entries, cap * sizeof(*grown));

        if (grown == NULL)
            return NULL;
        s->entries = grown;
        s->entries_cap = cap;
    }
    e = &s->entries[s->nentries];
    memset(e, 0, sizeof(*e));
    e->field = field;
    per_slot = sizeof(*e->num) + sizeof(*e->line) + (HOLDS_TEXT(field->kind) ? sizeof(*e->text) : 0) +
               (field->kind == SNAP_REGISTRY ? sizeof(*e->reg) : 0);
    if ((block = calloc(1, slots * per_slot + strlen(key) + 1)) == NULL)
        return NULL;
    e->num = (uint64_t *)(void *)block;
    block += slots * sizeof(*e->num);
    if (HOLDS_TEXT(field->kind)) {
        e->text = (char **)(void *)block;
        block += slots * sizeof(*e->text);
    }
    if (field->kind == SNAP_REGISTRY) {
        e->reg = (struct plat_prop *)(void *)block;
        block += slots * sizeof(*e->reg);
    }
    e->line = (int *)(void *)block;
    block += slots * sizeof(*e->line);
    e->key = strcpy(block, key);
    if (name_index_room(&s->entry_index, entry_hash, s) < 0) {
        free(e->num);
        return NULL;
    }
    *name_slot(&s->entry_index, key, NULL, same_entry, s) = (uint32_t)++s->nentries;
    s->entry_index.n++;
    return e;
}

/* One more instance of field's record, unless that makes more than the
 * agent reads: then the file is refused at this line, before it costs more
 * memory (-E2BIG, s->error says why). */
static int
instance_count(struct snap *s, const struct snap_field *field, int lineno)
{
    unsigned int most = field->most ? field->most : SNAP_MAX_INSTANCES;
    size_t k = 0;

    while (k < s->ncounted && strcmp(s->counted[k].record, field->record) != 0)
        k++;
    if (k == s->ncounted) {
        if (k == SNAP_MAX_RECORDS)
            return 0;
        s->counted[s->ncounted++] = (struct record_range){ .record = field->record };
    }
    if (++s->counted[k].n <= most)
        return 0;
    snprintf(s->error, sizeof(s->error), "%s:%d: more than %u %s instances, %s: refused", s->name, lineno, most,
             field->record, field->most ? "more than the agent reads" : "more than any Mac has");
    return -E2BIG;
}

static int
instance_note(struct snap *s, const struct snap_field *field, const char *name, int lineno)
{
    int sts;

    if (s->instance_index.cap != 0 && *name_slot(&s->instance_index, field->record, name, same_instance, s) != 0)
        return 0;
    if ((sts = instance_count(s, field, lineno)) < 0)
        return sts;
    if (name_index_room(&s->instance_index, instance_hash, s) < 0)
        return -ENOMEM;
    if (s->ninstances == s->instances_cap) {
        size_t cap = s->instances_cap ? s->instances_cap * 2 : 32;
        struct snap_instance *grown = realloc(s->instances, cap * sizeof(*grown));

        if (grown == NULL)
            return -ENOMEM;
        s->instances = grown;
        s->instances_cap = cap;
    }
    s->instances[s->ninstances].record = field->record;
    if ((s->instances[s->ninstances].name = strdup(name)) == NULL)
        return -ENOMEM;
    *name_slot(&s->instance_index, field->record, name, same_instance, s) = (uint32_t)++s->ninstances;
    s->instance_index.n++;
    return 0;
}

static void
poison(struct snap_entry *e, int line, const char *fmt, ...)
{
    va_list ap;
    char why[160];

    if (e->bad_line != 0)
        return;                 /* keep the first reason */
    e->bad_line = line;
    va_start(ap, fmt);
    vsnprintf(why, sizeof(why), fmt, ap);
    va_end(ap);
    e->bad_why = strdup(why);
}

static int
store_line(struct snap *s, unsigned int slot, int lineno, char *line)
{
    char *sep = line + strcspn(line, " \t");
    char *value = sep + strspn(sep, " \t");
    char keybuf[SNAP_KEY_MAX];
    char *record, *instance, *field;
    const struct snap_field *def;
    struct snap_entry *e;
    uint64_t num = 0;
    int sts;

    if ((size_t)(sep - line) >= sizeof(keybuf)) {
        add_note(s, "%s:%d: key too long, line ignored", s->name, lineno);
        return 0;
    }
    memcpy(keybuf, line, (size_t)(sep - line));
    keybuf[sep - line] = '\0';
    *sep = '\0';
    if (split_key(keybuf, &record, &instance, &field) < 0) {
        add_note(s, "%s:%d: not a snapshot line, ignored: %.60s", s->name, lineno, line);
        return 0;
    }
    if ((def = schema_find(s, record, field, instance != NULL)) == NULL) {
        add_note(s, "%s:%d: unknown key %s, ignored", s->name, lineno, line);
        return 0;
    }
    if (def->unread)
        return 0;
    if (instance != NULL && (sts = instance_note(s, def, instance, lineno)) < 0)
        return sts;
    if ((e = entry_find(s, line)) == NULL && (e = entry_add(s, line, def)) == NULL)
        return -ENOMEM;
    if (e->line[slot] != 0) {
        poison(e, lineno, "%s is given twice in one sample (first at line %d)", line, e->line[slot]);
        return 0;
    }
    e->line[slot] = lineno;
    if (!HOLDS_TEXT(def->kind) && *value == '\0') {
        poison(e, lineno, "%s has no value", line);
        return 0;
    }
    if ((sts = parse_value(def->kind, value, &num)) < 0) {
        poison(e, lineno, "%s: \"%.40s\" is %s %s", line, value,
               sts == -ERANGE ? "out of range for" : "not", kind_name(def->kind));
        return 0;
    }
    if (def->divisor && num == 0) {
        poison(e, lineno, "%s: 0 cannot be right: the agent divides by it", line);
        return 0;
    }
    e->num[slot] = num;
    if (HOLDS_TEXT(def->kind) && (e->text[slot] = strdup(value)) == NULL)
        return -ENOMEM;
    if (def->kind == SNAP_REGISTRY)
        return entry_value_decode(e->text[slot], &e->reg[slot]);    /* checked above: only -ENOMEM is left */
    return 0;
}

static void
chomp(char *line)
{
    size_t len = strlen(line);

    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r' ||
                       line[len - 1] == ' ' || line[len - 1] == '\t'))
        line[--len] = '\0';
}

static int
is_skippable(const char *line)
{
    return line[0] == '\0' || line[0] == '#';
}

/* First pass: the version line and the sample lines, so that the second
 * pass can size every key's slots. */
static int
scan_samples(struct snap *s, FILE *fp, char *msg, size_t msglen)
{
    char line[SNAP_LINE_MAX];
    int lineno = 0, have_version = 0;
    size_t cap = 0;

    while (fgets(line, sizeof(line), fp) != NULL) {
        lineno++;
        chomp(line);
        if (is_skippable(line))
            continue;
        if (!have_version) {
            uint64_t version;

            if (strncmp(line, "pmda-darwin-snapshot ", 21) != 0) {
                set_msg(msg, msglen, "%s:%d: not a pmda-darwin snapshot (the first line must be "
                        "\"pmda-darwin-snapshot %d\")", s->name, lineno, SNAP_FORMAT_VERSION);
                return -EINVAL;
            }
            if (parse_unsigned(line + 21, UINT32_MAX, &version) < 0 || version != SNAP_FORMAT_VERSION) {
                set_msg(msg, msglen, "%s:%d: snapshot format version \"%s\" is not supported "
                        "(this agent reads version %d)", s->name, lineno, line + 21, SNAP_FORMAT_VERSION);
                return -EINVAL;
            }
            have_version = 1;
            continue;
        }
        if (strncmp(line, "sample", 6) == 0 && (line[6] == ' ' || line[6] == '\0')) {
            uint64_t usec;
            const char *when = line + 6 + strspn(line + 6, " \t");

            if (parse_time(when, &usec) < 0) {
                set_msg(msg, msglen, "%s:%d: sample line needs a time in seconds since the epoch, "
                        "got \"%s\"", s->name, lineno, when);
                return -EINVAL;
            }
            if (s->nsamples > 0 && usec <= s->sample_usec[s->nsamples - 1]) {
                set_msg(msg, msglen, "%s:%d: sample time is not later than the sample at line %d",
                        s->name, lineno, s->sample_line[s->nsamples - 1]);
                return -EINVAL;
            }
            if (s->nsamples == SNAP_MAX_SAMPLES) {
                set_msg(msg, msglen, "%s:%d: more than %d samples", s->name, lineno, SNAP_MAX_SAMPLES);
                return -E2BIG;
            }
            if (s->nsamples == cap) {
                size_t ncap = cap ? cap * 2 : 8;
                uint64_t *t = realloc(s->sample_usec, ncap * sizeof(*t));
                int *l;

                if (t == NULL)
                    return -ENOMEM;
                s->sample_usec = t;
                if ((l = realloc(s->sample_line, ncap * sizeof(*l))) == NULL)
                    return -ENOMEM;
                s->sample_line = l;
                cap = ncap;
            }
            s->sample_usec[s->nsamples] = usec;
            s->sample_line[s->nsamples] = lineno;
            s->nsamples++;
        }
    }
    if (!have_version) {
        set_msg(msg, msglen, "%s: empty, or no \"pmda-darwin-snapshot %d\" line", s->name, SNAP_FORMAT_VERSION);
        return -EINVAL;
    }
    if (s->nsamples == 0) {
        set_msg(msg, msglen, "%s: no \"sample\" line, so there is nothing to replay", s->name);
        return -EINVAL;
    }
    return 0;
}

static int
load_values(struct snap *s, FILE *fp)
{
    char line[SNAP_LINE_MAX];
    int lineno = 0, seen_version = 0, sts;
    unsigned int slot = 0;

    while (fgets(line, sizeof(line), fp) != NULL) {
        int complete = strchr(line, '\n') != NULL || feof(fp);

        lineno++;
        if (!complete) {
            int c;

            add_note(s, "%s:%d: line longer than %d bytes, ignored", s->name, lineno, SNAP_LINE_MAX - 2);
            while ((c = fgetc(fp)) != EOF && c != '\n')
                ;
            continue;
        }
        chomp(line);
        if (is_skippable(line))
            continue;
        if (!seen_version) {
            seen_version = 1;
            continue;
        }
        if (strncmp(line, "sample", 6) == 0 && (line[6] == ' ' || line[6] == '\0')) {
            slot++;
            continue;
        }
        if ((sts = store_line(s, slot, lineno, line)) < 0)
            return sts;
    }
    return 0;
}

static int
compare_entries(const void *a, const void *b)
{
    return strcmp(((const struct snap_entry *)a)->key, ((const struct snap_entry *)b)->key);
}

static void
free_index(struct name_index *x)
{
    free(x->slots);
    memset(x, 0, sizeof(*x));
}

/* Instances grouped by record (each record in file order), and where each
 * record starts: snap_instance then finds the i-th of a record at once. */
static int
group_instances(struct snap *s)
{
    struct snap_instance *grouped = malloc((s->ninstances ? s->ninstances : 1) * sizeof(*grouped));
    size_t n = 0;

    if (grouped == NULL)
        return -ENOMEM;
    for (size_t i = 0; i < s->ninstances; i++) {
        struct record_range *grown;
        int seen = 0;

        for (size_t f = 0; f < s->nrecords && !seen; f++)
            seen = strcmp(s->records[f].record, s->instances[i].record) == 0;
        if (seen)
            continue;
        if ((grown = realloc(s->records, (s->nrecords + 1) * sizeof(*grown))) == NULL) {
            free(grouped);
            return -ENOMEM;
        }
        s->records = grown;
        s->records[s->nrecords] = (struct record_range){ s->instances[i].record, n, 0 };
        for (size_t k = i; k < s->ninstances; k++)
            if (strcmp(s->instances[k].record, s->instances[i].record) == 0)
                grouped[n++] = s->instances[k];
        s->records[s->nrecords].n = n - s->records[s->nrecords].start;
        s->nrecords++;
    }
    free(s->instances);
    s->instances = grouped;
    return 0;
}

struct snap *
snap_read(FILE *fp, const char *name, const struct snap_field *schema, char *msg, size_t msglen)
{
    struct snap *s = calloc(1, sizeof(*s));
    int sts;

    if (s == NULL || (s->name = strdup(name)) == NULL) {
        free(s);
        set_msg(msg, msglen, "%s: out of memory", name);
        return NULL;
    }
    s->schema = schema;
    if ((sts = scan_samples(s, fp, msg, msglen)) < 0) {
        if (sts == -ENOMEM)
            set_msg(msg, msglen, "%s: out of memory", name);
        snap_close(s);
        return NULL;
    }
    rewind(fp);
    if ((sts = index_schema(s)) < 0 || (sts = load_values(s, fp)) < 0) {
        if (sts == -E2BIG)
            set_msg(msg, msglen, "%s", s->error);
        else
            set_msg(msg, msglen, "%s: out of memory", name);
        snap_close(s);
        return NULL;
    }
    if (s->nentries > 0)        /* qsort and bsearch need a non-NULL array */
        qsort(s->entries, s->nentries, sizeof(*s->entries), compare_entries);
    free_index(&s->entry_index);
    free_index(&s->instance_index);
    free_index(&s->schema_index[0]);
    free_index(&s->schema_index[1]);
    free(s->wild);
    s->wild = NULL;
    if (group_instances(s) < 0) {
        set_msg(msg, msglen, "%s: out of memory", name);
        snap_close(s);
        return NULL;
    }
    snap_set_position(s, 0);
    return s;
}

struct snap *
snap_open(const char *path, const struct snap_field *schema, char *msg, size_t msglen)
{
    FILE *fp = fopen(path, "r");
    struct snap *s;

    if (fp == NULL) {
        int err = errno;
        const struct passwd *pw = getpwuid(geteuid());

        /* pmcd loads DSOs as root at start-up but as its own user (pcp)
         * after Install or a reload: say which user could not read it. */
        set_msg(msg, msglen, "%s: cannot open snapshot: %s (the agent runs as user %s, uid %u: the file, "
                "and every directory above it, must be readable by that user)", path, strerror(err),
                pw ? pw->pw_name : "?", (unsigned int)geteuid());
        return NULL;
    }
    s = snap_read(fp, path, schema, msg, msglen);
    fclose(fp);
    return s;
}

void
snap_close(struct snap *s)
{
    if (s == NULL)
        return;
    for (size_t i = 0; i < s->nentries; i++) {
        struct snap_entry *e = &s->entries[i];

        if (e->text != NULL)
            for (unsigned int j = 0; j <= s->nsamples; j++)
                free(e->text[j]);
        if (e->reg != NULL)
            for (unsigned int j = 0; j <= s->nsamples; j++)
                if (e->reg[j].kind == PLAT_PROP_DATA)
                    free((void *)e->reg[j].data);
        free(e->num);               /* and the rest of the entry's block */
        free(e->bad_why);
    }
    for (size_t i = 0; i < s->ninstances; i++)
        free(s->instances[i].name);
    free(s->instances);
    free(s->records);
    free_index(&s->entry_index);
    free_index(&s->instance_index);
    free_index(&s->schema_index[0]);
    free_index(&s->schema_index[1]);
    free(s->wild);
    s->wild = NULL;
    free(s->entries);
    free(s->sample_usec);
    free(s->sample_line);
    free(s->name);
    free(s);
}

const char *
snap_notes(const struct snap *s)
{
    return s->notes;
}

unsigned int
snap_nsamples(const struct snap *s)
{
    return s->nsamples;
}

const char *
snap_error(const struct snap *s)
{
    return s->error;
}

void
snap_clear_error(struct snap *s)
{
    s->error[0] = '\0';
}

void
snap_set_position(struct snap *s, uint64_t elapsed)
{
    uint64_t first = s->sample_usec[0];
    uint64_t span = s->sample_usec[s->nsamples - 1] - first;
    uint64_t rem;
    unsigned int r = 0;

    s->pos_now = first + elapsed;
    if (span == 0) {
        s->pos_sample = 0;
        s->pos_frac_num = 0;
        s->pos_frac_den = 1;
        s->pos_cycle = 0;
        return;
    }
    s->pos_cycle = elapsed / span;
    rem = elapsed % span;
    while (r + 2 < s->nsamples && s->sample_usec[r + 1] - first <= rem)
        r++;
    s->pos_sample = r;
    s->pos_frac_num = rem - (s->sample_usec[r] - first);
    s->pos_frac_den = s->sample_usec[r + 1] - s->sample_usec[r];
}

static struct snap_entry *
lookup(const struct snap *s, const char *key)
{
    struct snap_entry probe = { .key = (char *)key };

    if (s->nentries == 0)
        return NULL;
    return bsearch(&probe, s->entries, s->nentries, sizeof(*s->entries), compare_entries);
}

const struct snap_entry *
snap_find(const struct snap *s, const char *key)
{
    return lookup(s, key);
}

int
snap_missing(struct snap *s, const char *key)
{
    return fail(s, -ENOENT, "%s: no %s in the snapshot", s->name, key);
}

/* The slot holding a key's value in sample i: its own, else the header
 * default; 0 when there is none. */
static int
slot_present(const struct snap_entry *e, unsigned int sample, unsigned int *slot)
{
    if (e->line[sample + 1] != 0)
        *slot = sample + 1;
    else if (e->line[0] != 0)
        *slot = 0;
    else
        return 0;
    return 1;
}

/* slot_present, recording the failure. */
static int
slot_of(struct snap *s, const struct snap_entry *e, unsigned int sample, unsigned int *slot)
{
    if (slot_present(e, sample, slot))
        return 0;
    return fail(s, -ENOENT, "%s: %s is missing from the sample at line %d", s->name, e->key, s->sample_line[sample]);
}

/* A counter at the replay position: here and next are its values at the
 * samples either side, first and last at the recording's ends (each lap of
 * the replay adds last - first, so that it never goes back). An instance
 * missing from either end (a process, a disk that came or went) is given
 * first == last: it still moves towards the next sample, with no laps to
 * add, and starts over on the next lap. Stepping it instead would put the
 * whole interval's increase into one fetch. */
static uint64_t
counter_at_position(const struct snap *s, uint64_t mask, uint64_t here, uint64_t next, uint64_t first,
                    uint64_t last)
{
    uint64_t step = (next - here) & mask;
    uint64_t lap = (last - first) & mask;
    uint64_t part = (uint64_t)(((unsigned __int128)step * s->pos_frac_num) / s->pos_frac_den);

    return (here + part + lap * s->pos_cycle) & mask;
}

#define KIND(k) (1u << (k))
#define UNSIGNED_KINDS (KIND(SNAP_COUNTER32) | KIND(SNAP_COUNTER64) | KIND(SNAP_GAUGE32) | KIND(SNAP_GAUGE64))

/* e's slot at the current sample, when e is usable and of one of the kinds
 * (a KIND() mask); wanted names them. */
static int
locate(struct snap *s, const struct snap_entry *e, unsigned int kinds, const char *wanted, unsigned int *slot)
{
    if (e->bad_line != 0)
        return fail(s, -EINVAL, "%s:%d: %s", s->name, e->bad_line, e->bad_why ? e->bad_why : "out of memory");
    if (!(kinds & KIND(e->field->kind)))
        return fail(s, -EINVAL, "%s: %s is %s, not %s", s->name, e->key, kind_name(e->field->kind), wanted);
    return slot_of(s, e, s->pos_sample, slot);
}

/* What a counter interpolates towards: its slots in the next sample and at
 * the recording's ends (slot[1..3]); 0 when any of them lacks it. */
static int
neighbours_present(const struct snap *s, const struct snap_entry *e, unsigned int slot[4])
{
    return slot_present(e, s->pos_sample + 1, &slot[1]) && slot_present(e, 0, &slot[2]) &&
           slot_present(e, s->nsamples - 1, &slot[3]);
}

int
snap_u64_of(struct snap *s, const struct snap_entry *e, uint64_t *out)
{
    unsigned int slot[4];
    uint64_t mask;
    int sts;

    if ((sts = locate(s, e, UNSIGNED_KINDS, "an unsigned number", &slot[0])) < 0)
        return sts;
    if ((e->field->kind != SNAP_COUNTER32 && e->field->kind != SNAP_COUNTER64) || s->nsamples == 1) {
        *out = e->num[slot[0]];
        return 0;
    }
    mask = e->field->kind == SNAP_COUNTER32 ? UINT32_MAX : UINT64_MAX;
    if (neighbours_present(s, e, slot)) {
        *out = counter_at_position(s, mask, e->num[slot[0]], e->num[slot[1]], e->num[slot[2]], e->num[slot[3]]);
        return 0;
    }
    if (!e->field->instanced) {
        if ((sts = slot_of(s, e, s->pos_sample + 1, &slot[1])) < 0 || (sts = slot_of(s, e, 0, &slot[2])) < 0)
            return sts;
        return slot_of(s, e, s->nsamples - 1, &slot[3]);       /* say which sample lacks it */
    }
    *out = e->num[slot[0]];                                     /* an instance that came or went */
    if (slot_present(e, s->pos_sample + 1, &slot[1]))
        *out = counter_at_position(s, mask, *out, e->num[slot[1]], *out, *out);
    return 0;
}

/* A registry value's number in slot, when it is one. */
static int
entry_number(const struct snap_entry *e, unsigned int slot, uint64_t *out)
{
    if (e->reg[slot].kind != PLAT_PROP_NUMBER)
        return -EINVAL;
    *out = e->reg[slot].number;
    return 0;
}

int
snap_registry_of(struct snap *s, const struct snap_entry *e, int counter, struct plat_prop *out)
{
    unsigned int slot[4];
    uint64_t v[4];
    int sts;

    if ((sts = locate(s, e, KIND(SNAP_REGISTRY), "a registry value", &slot[0])) < 0)
        return sts;
    *out = e->reg[slot[0]];
    if (!counter || entry_number(e, slot[0], &v[0]) < 0 || s->nsamples == 1 ||
        !slot_present(e, s->pos_sample + 1, &slot[1]) || entry_number(e, slot[1], &v[1]) < 0)
        return 0;                   /* as recorded: nothing to move towards */
    if (!neighbours_present(s, e, slot) || entry_number(e, slot[2], &v[2]) < 0 || entry_number(e, slot[3], &v[3]) < 0)
        v[2] = v[3] = v[0];         /* a device that came or went: no laps */
    out->number = counter_at_position(s, UINT64_MAX, v[0], v[1], v[2], v[3]);
    return 0;
}

int
snap_int_of(struct snap *s, const struct snap_entry *e, int32_t *out)
{
    unsigned int slot;
    int sts;

    if ((sts = locate(s, e, KIND(SNAP_INT), "a signed number", &slot)) < 0)
        return sts;
    *out = (int32_t)(uint32_t)e->num[slot];
    return 0;
}

int
snap_text_of(struct snap *s, const struct snap_entry *e, const char **out)
{
    unsigned int slot;
    int sts;

    if ((sts = locate(s, e, KIND(SNAP_TEXT) | KIND(SNAP_REGISTRY), "text", &slot)) < 0)
        return sts;
    *out = e->text[slot];
    return 0;
}

int
snap_time_of(struct snap *s, const struct snap_entry *e, uint64_t *usec)
{
    unsigned int slot;
    int sts;

    if ((sts = locate(s, e, KIND(SNAP_TIME), "a time", &slot)) < 0)
        return sts;
    *usec = e->num[slot];
    return 0;
}

int
snap_has_of(const struct snap *s, const struct snap_entry *e)
{
    return e != NULL && e->bad_line == 0 && (e->line[s->pos_sample + 1] != 0 || e->line[0] != 0);
}

int
snap_absent_of(const struct snap *s, const struct snap_entry *e)
{
    unsigned int slot;

    return e->bad_line == 0 && !slot_present(e, s->pos_sample, &slot);
}

/* The readers by key: a look-up, then the reader of the entry. */
#define BY_KEY(name, type) \
    int name(struct snap *s, const char *key, type *out) { \
        const struct snap_entry *e = lookup(s, key); \
        return e != NULL ? name##_of(s, e, out) : snap_missing(s, key); }
BY_KEY(snap_u64, uint64_t)
BY_KEY(snap_int, int32_t)
BY_KEY(snap_text, const char *)
BY_KEY(snap_time, uint64_t)

int
snap_has(const struct snap *s, const char *key)
{
    return snap_has_of(s, lookup(s, key));
}

int
snap_now(struct snap *s, uint64_t *usec)
{
    *usec = s->pos_now;
    return 0;
}

const char *
snap_key_with_prefix(const struct snap *s, const char *prefix, size_t *cursor)
{
    size_t len = strlen(prefix), i = *cursor;

    if (i == 0) {                       /* the first key not before prefix: entries are sorted */
        size_t lo = 0, hi = s->nentries;

        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;

            if (strcmp(s->entries[mid].key, prefix) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        i = lo + 1;
    }
    if (i - 1 >= s->nentries || strncmp(s->entries[i - 1].key, prefix, len) != 0)
        return NULL;
    *cursor = i + 1;
    return s->entries[i - 1].key;
}

int
snap_first_line(const struct snap *s, const struct snap_entry *e)
{
    for (unsigned int slot = 0; slot <= s->nsamples; slot++)
        if (e->line[slot] != 0)
            return e->line[slot];   /* slots are in file order, and a slot is given once */
    return 0;
}

const char *
snap_instance(const struct snap *s, const char *record, unsigned int index)
{
    for (size_t f = 0; f < s->nrecords; f++)
        if (strcmp(s->records[f].record, record) == 0)
            return index < s->records[f].n ? s->instances[s->records[f].start + index].name : NULL;
    return NULL;
}
