/*
 * The docs' key table (docs/snapshot-format.md), generated from the record
 * descriptions.
 */
#include "writer.h"

#include <string.h>

static const char *
doc_kind(enum snap_kind kind)
{
    switch (kind) {
    case SNAP_COUNTER32: return "32-bit counter";
    case SNAP_COUNTER64: return "64-bit counter";
    case SNAP_GAUGE32: return "32-bit";
    case SNAP_GAUGE64: return "64-bit";
    case SNAP_INT: return "signed";
    case SNAP_TEXT: return "text";
    case SNAP_TIME: return "time";
    case SNAP_REGISTRY: return "registry value";
    }
    return "?";
}

static const char *
source_of(const struct rec_desc *d, unsigned int j)
{
    while (j > 0 && d->fields[j].source == NULL)
        j--;
    return d->fields[j].source != NULL ? d->fields[j].source : "";
}

#define DIVISOR_NOTE(f) (((f)->flags & REC_DIVISOR) ? ", not 0" : "")

/* The row's source, and on a record's first instanced row how many
 * instances a file may have. */
static const char *
row_source(const struct rec_desc *d, int inst, unsigned int start, unsigned int j, char *buf, size_t len)
{
    if (inst && start == 0 && d->most != 0)
        snprintf(buf, len, "%s; at most %u instances in a file", source_of(d, j), d->most);
    else
        snprintf(buf, len, "%s", source_of(d, j));
    return buf;
}

/* One row per run of fields with the same kind, flags and source: the first key
 * in full, the others from their last dot. A record read both host-wide
 * and per instance gets rows for each. */
void
rec_doc_table(FILE *fp)
{
    for (unsigned int r = 0; r < rec_nall; r++) {
        const struct rec_desc *d = rec_all[r];

        for (int inst = 0; inst < 2; inst++) {
            if ((inst == 0 && d->instancing == REC_INSTANCED) || (inst == 1 && d->instancing == REC_PLAIN))
                continue;
            unsigned int start = 0;
            char source[512];

            for (unsigned int j = 0; j < d->nfields; j++) {
                const struct rec_field *f = &d->fields[j];
                char key[128];

                rec_field_key(key, sizeof(key), rec_key_prefix(key, sizeof(key), d, inst ? d->instance_doc : NULL), f, 0);
                if (f->count > 1)
                    key[strlen(key) - 1] = 'N';
                if (j == 0 || f->source != NULL || f->kind != d->fields[j - 1].kind ||
                    f->flags != d->fields[j - 1].flags) {
                    if (j > 0)
                        fprintf(fp, " | %s%s | %s |\n", doc_kind(d->fields[j - 1].kind),
                                DIVISOR_NOTE(&d->fields[j - 1]), row_source(d, inst, start, j - 1, source, sizeof(source)));
                    fprintf(fp, "| `%s`", key);
                    start = j;
                } else {
                    fprintf(fp, ", `%s`", strrchr(key, '.'));
                }
            }
            fprintf(fp, " | %s%s | %s |\n", doc_kind(d->fields[d->nfields - 1].kind),
                    DIVISOR_NOTE(&d->fields[d->nfields - 1]),
                    row_source(d, inst, start, d->nfields - 1, source, sizeof(source)));
        }
    }
    for (int group = 0; group < PLAT_SYSCTL_NGROUPS; group++) {
        unsigned int n;
        const struct plat_sysctl_def *defs = plat_sysctl_defs((enum plat_sysctl_group)group, &n);

        for (int counter = 0; counter < 2; counter++) {
            const char *sep = "| ";

            for (unsigned int i = 0; i < n; i++)
                if (rec_sysctl_is_counter((enum plat_sysctl_group)group, i) == counter &&
                    !rec_sysctl_listed_before((enum plat_sysctl_group)group, defs[i].name)) {
                    fprintf(fp, "%s`sysctl.%s`", sep, defs[i].name);
                    sep = ", ";
                }
            if (sep[0] == ',')
                fprintf(fp, " | %s | those sysctls |\n", counter ? "64-bit counter" : "64-bit");
        }
    }
}
