/*
 * Writing records and registry values in the snapshot format: the writer's
 * half of the record descriptions (src/replay/snapshot_records.c reads
 * them), outside the agents.
 */
#include "writer.h"

#include <inttypes.h>
#include <stdint.h>
#include <string.h>

static void
write_one(FILE *fp, const struct rec_field *f, const char *key, const unsigned char *at)
{
    uint32_t v32;
    uint64_t v64;
    int32_t iv;
    int64_t sec;

    switch (f->kind) {
    case SNAP_COUNTER32:
    case SNAP_GAUGE32:
        memcpy(&v32, at, sizeof(v32));
        fprintf(fp, "%s %" PRIu32 "\n", key, v32);
        break;
    case SNAP_COUNTER64:
    case SNAP_GAUGE64:
        memcpy(&v64, at, sizeof(v64));
        fprintf(fp, "%s %" PRIu64 "\n", key, v64);
        break;
    case SNAP_INT:
        memcpy(&iv, at, sizeof(iv));
        fprintf(fp, "%s %" PRId32 "\n", key, iv);
        break;
    case SNAP_TEXT:
        if (!((f->flags & REC_ABSENT_IS_EMPTY) && at[0] == '\0'))
            fprintf(fp, "%s %s\n", key, (const char *)at);
        break;
    case SNAP_TIME:
        memcpy(&sec, at, sizeof(sec));
        memcpy(&iv, at + 8, sizeof(iv));
        fprintf(fp, "%s %" PRId64 ".%06" PRId32 "\n", key, sec, iv);
        break;
    case SNAP_REGISTRY:
        break;                          /* registry entries are not described records */
    }
}

void
rec_write(FILE *fp, const struct rec_desc *d, const char *instance, const void *in)
{
    const unsigned char *base = in;
    char key[PLAT_NAME_MAX + 96];
    size_t prefix = rec_key_prefix(key, sizeof(key), d, instance);

    for (unsigned int k = 0; k < d->nfields; k++) {
        const struct rec_field *f = &d->fields[k];
        int status = 0;

        if (f->status != REC_NO_STATUS)
            memcpy(&status, base + f->status, sizeof(status));
        for (unsigned int i = 0; i < rec_elements(f); i++) {
            rec_field_key(key, sizeof(key), prefix, f, i);
            if (status < 0)
                fprintf(fp, "# %s failed (%s)\n", key, strerror(-status));
            else
                write_one(fp, f, key, base + f->offset + i * rec_element_size(f));
        }
    }
}

void
reg_write_value(FILE *fp, const struct plat_prop *p)
{
    switch (p->kind) {
    case PLAT_PROP_NUMBER:
        fprintf(fp, "number %" PRIu64, p->number);
        break;
    case PLAT_PROP_BOOL:
        fprintf(fp, "bool %d", p->number != 0);
        break;
    case PLAT_PROP_FLOAT:
        fprintf(fp, "float %.17g", p->real);
        break;
    case PLAT_PROP_STRING:
        /* a snapshot line ends at a newline: keep such strings on one line */
        fputs("string ", fp);
        for (const char *c = p->text; *c != '\0'; c++)
            fputc(*c == '\n' || *c == '\r' ? ' ' : *c, fp);
        break;
    case PLAT_PROP_DATA:
        fputs("data ", fp);
        for (uint32_t i = 0; i < p->len; i++)
            fprintf(fp, "%02x", p->data[i]);
        break;
    }
    fputc('\n', fp);
}
