/*
 * What every collector shares: logging a part's failure once, label and
 * instance text from what macOS gives, the error a fetch returns, and the
 * value of a row bound to a field.
 */
#include "collector.h"
#include "convert.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

void
collector_note_parts(const struct refresh_call *call, const char *part, unsigned int failed_mask,
                     unsigned int *logged_mask, const char *detail)
{
    const char *open = part != NULL ? " (" : "", *close = part != NULL ? ")" : "";

    if (failed_mask == *logged_mask)
        return;
    if (part == NULL)
        part = "";
    if (failed_mask != 0)
        pmNotifyErr(LOG_WARNING, "darwin: %s%s%s%s: some metrics unavailable: %s", call->collector, open, part,
                    close, detail[0] != '\0' ? detail : "the source gave no reason");
    else
        pmNotifyErr(LOG_INFO, "darwin: %s%s%s%s: all metrics available again", call->collector, open, part, close);
    *logged_mask = failed_mask;
}

int
collector_failing(int platform_status)
{
    return platform_status < 0 && collector_error(platform_status) != PM_ERR_APPVERSION;
}

int
collector_error(int platform_status)
{
    if (platform_status >= 0 || platform_status == PM_ERR_APPVERSION || platform_status == PM_ERR_PERMISSION ||
        platform_status == PM_ERR_AGAIN || platform_status == PM_ERR_INST)
        return platform_status;
    if (platform_status == -ENOENT || platform_status == -ENOTSUP || platform_status == -EOPNOTSUPP ||
        platform_status == -ENOSYS)
        return PM_ERR_APPVERSION;
    if (platform_status == -EPERM || platform_status == -EACCES)
        return PM_ERR_PERMISSION;
    return PM_ERR_AGAIN;
}

void
collector_label_text(const char *s, char *out, size_t len)
{
    size_t n = 0;

    for (; *s != '\0' && n + 1 < len; s++)
        if (*s != '"' && *s != '\\' && (unsigned char)*s >= ' ')
            out[n++] = *s;
    out[n] = '\0';
}

void
collector_instance_name(const char *s, char *out, size_t len)
{
    size_t n = 0;

    for (; *s != '\0' && n + 1 < len; s++)
        out[n++] = *s == ' ' ? '_' : *s;
    out[n] = '\0';
}

/* The unsigned integer of size bytes (4 or 8) at at. */
static uint64_t
unsigned_at(const char *at, unsigned int size)
{
    if (size == sizeof(uint32_t)) {
        uint32_t narrow;

        memcpy(&narrow, at, sizeof(narrow));
        return narrow;
    }
    uint64_t wide;

    memcpy(&wide, at, sizeof(wide));
    return wide;
}

/* A signed field of 4 or 8 bytes at at, at the row's type (32 or 64); a
 * value a 32 row cannot hold is PM_ERR_AGAIN, never a cut number. */
static int
signed_field(const struct metric_row *row, const char *at, pmAtomValue *atom)
{
    int64_t value;

    if (row->field.size == sizeof(int32_t)) {
        int32_t narrow;

        memcpy(&narrow, at, sizeof(narrow));
        value = narrow;
    } else {
        memcpy(&value, at, sizeof(value));
    }
    if (row->type == PM_TYPE_32) {
        if (value < INT32_MIN || value > INT32_MAX)
            return PM_ERR_AGAIN;
        atom->l = (int32_t)value;
    } else
        atom->ll = value;
    return PMDA_FETCH_STATIC;
}

int
collector_field(const struct metric_row *row, const void *entry, pmAtomValue *atom)
{
    const struct field *f = &row->field;
    const char *at = entry;
    uint64_t value;

    if (f->status != FIELD_NO_STATUS && f->bit == FIELD_STATUS_INT) {
        int status;

        memcpy(&status, at + f->status, sizeof(status));
        if (status < 0)
            return collector_error(status);
    } else if (f->status != FIELD_NO_STATUS) {
        unsigned int have;

        memcpy(&have, at + f->status, sizeof(have));
        if (!((have >> f->bit) & 1u))
            return PMDA_FETCH_NOVALUES;
    }
    switch (f->kind) {
    case FIELD_TEXT:
        atom->cp = (char *)(uintptr_t)(at + f->offset);
        return PMDA_FETCH_STATIC;
    case FIELD_STRING:
        memcpy(&atom->cp, at + f->offset, sizeof(atom->cp));
        return atom->cp != NULL ? PMDA_FETCH_STATIC : PMDA_FETCH_NOVALUES;
    case FIELD_SIGNED:
        return signed_field(row, at + f->offset, atom);
    case FIELD_DOUBLE: {
        double d;

        memcpy(&d, at + f->offset, sizeof(d));
        if (row->type == PM_TYPE_FLOAT)
            atom->f = (float)d;
        else
            atom->d = d;
        return PMDA_FETCH_STATIC;
    }
    }
    if (f->kind == FIELD_WRAP32) {
        struct wrap32 w;

        memcpy(&w, at + f->offset, sizeof(w));
        value = w.total;
    } else
        value = unsigned_at(at + f->offset, f->size);
    switch (f->kind) {
    case FIELD_SCALED_KB: {
        uint64_t unit = unsigned_at(at + f->arg, f->arg_size);

        if (unit == 0)
            return PM_ERR_AGAIN;        /* no unit size: no value rather than 0 */
        value = blocks_to_kbytes(value, unit);
        break;
    }
    case FIELD_BYTES_KB: value /= 1024; break;
    case FIELD_NS_MS: value /= NS_PER_MS; break;
    case FIELD_FLAG: value = (value & f->arg) == f->arg; break;
    }
    if (row->type == PM_TYPE_U32) {
        if (value > UINT32_MAX)
            return PM_ERR_AGAIN;        /* never a cut number */
        atom->ul = (uint32_t)value;
    } else
        atom->ull = value;
    return PMDA_FETCH_STATIC;
}

int
collector_no_source(const void *state, const void *entry, const struct metric_row *row, unsigned int inst,
                    pmAtomValue *atom)
{
    (void)state;
    (void)entry;
    (void)row;
    (void)inst;
    (void)atom;
    return PM_ERR_APPVERSION;
}

const void *
collector_entry(const struct indom_def *def, const void *state, unsigned int inst)
{
    const struct instance_table *t = &def->table;
    const char *entries = (const char *)state + t->entries;
    unsigned int count;

    if (t->size == 0)
        return def->entry != NULL ? def->entry(state, inst) : state;
    if (t->pointer) {
        const void *array;

        memcpy(&array, entries, sizeof(array));
        entries = array;
    }
    memcpy(&count, (const char *)state + t->count, sizeof(count));
    for (unsigned int i = 0; i < count; i++) {
        const char *e = entries + (size_t)i * t->size;
        int id;

        memcpy(&id, e + t->inst, sizeof(id));
        if ((unsigned int)id == inst)
            return e;
    }
    return NULL;
}

void
collector_extend(const struct metric_row *rows, unsigned int nrows, const void *source, void *entry)
{
    for (unsigned int i = 0; i < nrows; i++) {
        struct wrap32 w;
        uint32_t raw;

        if (rows[i].field.kind != FIELD_WRAP32)
            continue;
        memcpy(&raw, (const char *)source + rows[i].field.arg, sizeof(raw));
        memcpy(&w, (char *)entry + rows[i].field.offset, sizeof(w));
        wrap32_extend(&w, raw);
        memcpy((char *)entry + rows[i].field.offset, &w, sizeof(w));
    }
}
