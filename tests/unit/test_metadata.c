/*
 * Metadata cannot drift: each agent's metric rows, its PMNS, its help and
 * the upstream compatibility table (tests/upstream/) must agree. Every test
 * runs once for the system agent (domain 78) and once for the proc agent
 * (domain 3).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "agent.h"
#include "collector.h"
#include "convert.h"
#include "help_text.h"

/* The agent under test and where its metadata lives. */
struct agent_files {
    const struct agent_desc *agent;
    unsigned int domain;
    const char *pmns_root, *compat, *differences;
    int min_metrics;
};

static const struct agent_files system_files = {
    &darwin_agent, 78, SOURCE_DIR "/pmns/root", SOURCE_DIR "/tests/upstream/darwin-compat.tsv",
    SOURCE_DIR "/tests/upstream/intended-differences.tsv", 58,
};
static const struct agent_files proc_files = {
    &proc_agent, 3, SOURCE_DIR "/pmns/proc/root", SOURCE_DIR "/tests/upstream/proc-compat.tsv",
    SOURCE_DIR "/tests/upstream/proc-intended-differences.tsv", 62,
};
static const struct agent_files *under_test;

#define DOMAIN (under_test->domain)
#define agent_collectors (under_test->agent->collectors)
#define agent_ncollectors (under_test->agent->ncollectors)

static int
for_each_row(int (*visit)(const struct collector *, const struct metric_row *, void *), void *arg)
{
    int failures = 0;

    for (unsigned int c = 0; c < agent_ncollectors; c++)
        for (unsigned int r = 0; r < agent_collectors[c]->nrows; r++)
            failures += visit(agent_collectors[c], &agent_collectors[c]->rows[r], arg);
    return failures;
}

static void
names_and_pmids_are_unique(void **state)
{
    int failures = 0;

    (void)state;
    for (unsigned int a = 0; a < agent_ncollectors; a++)
        for (unsigned int i = 0; i < agent_collectors[a]->nrows; i++)
            for (unsigned int b = a; b < agent_ncollectors; b++)
                for (unsigned int j = (a == b ? i + 1 : 0); j < agent_collectors[b]->nrows; j++) {
                    const struct metric_row *x = &agent_collectors[a]->rows[i], *y = &agent_collectors[b]->rows[j];

                    if (strcmp(x->name, y->name) == 0 || (x->cluster == y->cluster && x->item == y->item)) {
                        fprintf(stderr, "duplicate: %s and %s\n", x->name, y->name);
                        failures++;
                    }
                    if (a != b && x->cluster == y->cluster) {
                        fprintf(stderr, "cluster %u is in two families: %s and %s\n", x->cluster,
                                agent_collectors[a]->name, agent_collectors[b]->name);
                        failures++;
                    }
                }
    assert_int_equal(failures, 0);
}

static int
check_pmns_row(const struct collector *c, const struct metric_row *row, void *arg)
{
    pmID pmid;
    char *name = (char *)row->name;

    (void)c;
    (void)arg;
    if (pmLookupName(1, (const char **)&name, &pmid) != 1) {
        fprintf(stderr, "%s: in the metric table but not in the PMNS\n", row->name);
        return 1;
    }
    if (pmid != pmID_build(DOMAIN, row->cluster, row->item)) {
        fprintf(stderr, "%s: pmns says %s, the table says %u.%u.%u\n", row->name, pmIDStr(pmid),
                DOMAIN, row->cluster, row->item);
        return 1;
    }
    return 0;
}

static int pmns_extra;
static char **read_tsv(const char *path, size_t *nlines);
static void split(char *line, char **fields, int max);

/* Whether the upstream agent had name as an alias of a served PMID: the
 * PMNS may keep it (pmcd answers it with the PMID's metric). */
static int
upstream_alias(const char *name)
{
    size_t n;
    char **rows = read_tsv(under_test->compat, &n);
    int found = 0;

    for (size_t i = 1; i < n; i++) {
        char *f[2];
        pmID pmid;
        char *lookup = (char *)name;

        split(rows[i], f, 2);
        if (!found && strcmp(f[0], name) == 0 && pmLookupName(1, (const char **)&lookup, &pmid) == 1)
            found = strcmp(pmIDStr(pmid), f[1]) == 0;
        free(rows[i]);
    }
    free(rows);
    return found;
}

static void
pmns_leaf(const char *name)
{
    if (strncmp(name, "event.", 6) == 0)
        return;                 /* PCP adds its event.* names to every loaded PMNS */
    for (unsigned int c = 0; c < agent_ncollectors; c++)
        for (unsigned int r = 0; r < agent_collectors[c]->nrows; r++)
            if (strcmp(agent_collectors[c]->rows[r].name, name) == 0)
                return;
    if (upstream_alias(name))
        return;
    fprintf(stderr, "%s: in the PMNS but not in the metric table (nor an upstream alias)\n", name);
    pmns_extra++;
}

static void
table_and_pmns_agree(void **state)
{
    (void)state;
    assert_int_equal(pmLoadASCIINameSpace(under_test->pmns_root, 1), 0);
    assert_int_equal(for_each_row(check_pmns_row, NULL), 0);
    pmns_extra = 0;
    assert_true(pmTraversePMNS("", pmns_leaf) > 0);
    assert_int_equal(pmns_extra, 0);
    pmUnloadNameSpace();
}

static int
check_help_row(const struct collector *c, const struct metric_row *row, void *arg)
{
    const struct help_entry *h = help_find(arg, row->name);

    (void)c;
    if (h == NULL || strlen(h->text) < 40) {
        fprintf(stderr, "%s: %s\n", row->name, h ? "help text too short to explain it" : "no help text");
        return 1;
    }
    return 0;
}

static void
every_metric_and_indom_has_help_and_nothing_else_does(void **state)
{
    struct help_table help;
    char msg[256];
    int failures;

    (void)state;
    assert_int_equal(help_parse(under_test->agent->help_source, &help, msg, sizeof(msg)), 0);
    failures = for_each_row(check_help_row, &help);
    for (unsigned int c = 0; c < agent_ncollectors; c++)
        for (unsigned int k = 0; k < collector_nindoms(agent_collectors[c]); k++) {
            char key[32];

            snprintf(key, sizeof(key), "%u.%u", DOMAIN, agent_collectors[c]->indom[k].serial);
            if (help_find(&help, key) == NULL) {
                fprintf(stderr, "indom %s: no help text\n", key);
                failures++;
            }
        }
    for (size_t i = 0; i < help.nentries; i++) {
        const char *key = help.entries[i].key;
        int known = 0;

        for (unsigned int c = 0; c < agent_ncollectors && !known; c++) {
            char ikey[32];

            for (unsigned int r = 0; r < agent_collectors[c]->nrows && !known; r++)
                known = strcmp(agent_collectors[c]->rows[r].name, key) == 0;
            for (unsigned int k = 0; k < collector_nindoms(agent_collectors[c]); k++) {
                snprintf(ikey, sizeof(ikey), "%u.%u", DOMAIN, agent_collectors[c]->indom[k].serial);
                known |= strcmp(ikey, key) == 0;
            }
        }
        if (!known) {
            fprintf(stderr, "help entry %s names no metric or indom\n", key);
            failures++;
        }
    }
    help_free(&help);
    assert_int_equal(failures, 0);
}

/* Read a tab-separated file with a header line, skipping '#' comments. */
static char **
read_tsv(const char *path, size_t *nlines)
{
    FILE *fp = fopen(path, "r");
    char line[1024], **lines = NULL;
    size_t n = 0;

    assert_non_null(fp);
    while (fgets(line, sizeof(line), fp)) {
        if (line[0] == '#')
            continue;
        line[strcspn(line, "\n")] = '\0';
        lines = realloc(lines, (n + 1) * sizeof(*lines));
        lines[n++] = strdup(line);
    }
    fclose(fp);
    *nlines = n;
    return lines;
}

static void
split(char *line, char **fields, int max)
{
    for (int i = 0; i < max; i++) {
        fields[i] = line;
        line += strcspn(line, "\t");
        if (*line != '\0')
            *line++ = '\0';
    }
}

static const char *
sem_name(int sem)
{
    return sem == PM_SEM_COUNTER ? "counter" : sem == PM_SEM_INSTANT ? "instant" : "discrete";
}

struct compat {
    char **upstream;
    size_t nupstream;
    char **differences;
    size_t ndifferences;
};

/* 0 when the field matches upstream or the difference is listed with these values. */
static int
compare_field(const struct compat *cx, const char *name, const char *field, const char *upstream, const char *ours)
{
    if (strcmp(upstream, ours) == 0)
        return 0;
    for (size_t i = 1; i < cx->ndifferences; i++) {
        char copy[1024], *f[5];

        snprintf(copy, sizeof(copy), "%s", cx->differences[i]);
        split(copy, f, 5);
        if (strcmp(f[0], name) == 0 && strcmp(f[1], field) == 0 && strcmp(f[2], upstream) == 0 &&
            strcmp(f[3], ours) == 0 && strlen(f[4]) > 10)
            return 0;
    }
    fprintf(stderr, "%s: %s is %s upstream and %s here, and %s does not say why\n",
            name, field, upstream, ours, under_test->differences);
    return 1;
}

/* A row's units as the compatibility table writes them: the six numbers,
 * then PCP 7's extra unit and its scale when it has one. */
static void
units_text(const pmUnits *u, char *out, size_t size)
{
    snprintf(out, size, "%d,%d,%d,%u,%u,%u", u->dimSpace, u->dimTime, u->dimCount, u->scaleSpace, u->scaleTime,
             u->scaleCount);
#ifdef PM_UNIT_TEMPERATURE
    if (u->extraUnit != 0)
        snprintf(out + strlen(out), size - strlen(out), ",%d,%u", u->extraUnit, u->extraScale);
#endif
}

#ifdef PM_UNIT_TEMPERATURE
/* The names the table writes in PMDA_EXTRAUNITS; any other stays a name, and fails to match. */
#define UNIT_NAME(n) { #n, n }
static const struct {
    const char *name;
    int value;
} unit_names[] = {
    UNIT_NAME(PM_TIME_HOUR), UNIT_NAME(PM_UNIT_TEMPERATURE), UNIT_NAME(PM_TEMPERATURE_C),
    UNIT_NAME(PM_UNIT_VOLTAGE), UNIT_NAME(PM_VOLTAGE_mV), UNIT_NAME(PM_UNIT_CURRENT), UNIT_NAME(PM_CURRENT_mA),
};
#endif

/* Upstream's units as units_text writes a row's: against PCP 7's headers,
 * "PMDA_EXTRAUNITS(0,1,0,0,PM_TIME_HOUR,0,PM_UNIT_CURRENT,PM_CURRENT_mA)"
 * becomes "0,1,0,0,5,0,3,2". PCP 6 has no extra units: the text stays as
 * written, which only a listed difference matches. */
static void
upstream_units(const char *written, char *out, size_t size)
{
#ifdef PM_UNIT_TEMPERATURE
    static const char prefix[] = "PMDA_EXTRAUNITS(";
    char copy[256];
    size_t n = 0;

    if (strncmp(written, prefix, strlen(prefix)) == 0) {
        snprintf(copy, sizeof(copy), "%s", written + strlen(prefix));
        copy[strcspn(copy, ")")] = '\0';
        out[0] = '\0';
        for (char *field = strtok(copy, ","); field != NULL && n < size; field = strtok(NULL, ",")) {
            char number[16];

            for (size_t i = 0; i < sizeof(unit_names) / sizeof(unit_names[0]); i++)
                if (strcmp(field, unit_names[i].name) == 0) {
                    snprintf(number, sizeof(number), "%d", unit_names[i].value);
                    field = number;
                }
            n += (size_t)snprintf(out + n, size - n, "%s%s", n > 0 ? "," : "", field);
        }
        return;
    }
#endif
    snprintf(out, size, "%s", written);
}

static int
check_compat_row(const struct collector *c, const struct metric_row *row, void *arg)
{
    const struct compat *cx = arg;
    char pmid[32], indom[32], units[64], upstream[128], type[16];

    (void)c;
    snprintf(pmid, sizeof(pmid), "%u.%u.%u", DOMAIN, row->cluster, row->item);
    if (row->indom == COLLECTOR_NO_INDOM)
        snprintf(indom, sizeof(indom), "PM_INDOM_NULL");
    else
        snprintf(indom, sizeof(indom), "%u.%u", DOMAIN, row->indom);
    units_text(&row->units, units, sizeof(units));
    snprintf(type, sizeof(type), "%s", pmTypeStr(row->type));
    for (size_t i = 1; i < cx->nupstream; i++) {
        char copy[1024], *f[7];
        int failures = 0;

        snprintf(copy, sizeof(copy), "%s", cx->upstream[i]);
        split(copy, f, 7);
        if (strcmp(f[0], row->name) != 0)
            continue;
        if (strcmp(f[1], pmid) != 0) {
            fprintf(stderr, "%s: PMID %s here but %s upstream; PMIDs never change\n", row->name, pmid, f[1]);
            return 1;
        }
        failures += compare_field(cx, row->name, "type", f[2], type);
        failures += compare_field(cx, row->name, "indom", f[3], indom);
        failures += compare_field(cx, row->name, "semantics", f[4], sem_name(row->sem));
        upstream_units(f[5], upstream, sizeof(upstream));
        if (strcmp(upstream, units) != 0)     /* a difference: listed as upstream writes it */
            failures += compare_field(cx, row->name, "units", f[5], units);
        return failures;
    }
    if (row->cluster < 100) {
        fprintf(stderr, "%s: not an upstream metric, yet in upstream's cluster range\n", row->name);
        return 1;
    }
    return 0;
}

/* Each upstream name is served: as a row, or as an alias the PMNS keeps. */
static int
every_upstream_name_is_served(const struct compat *cx)
{
    int failures = 0;

    assert_int_equal(pmLoadASCIINameSpace(under_test->pmns_root, 1), 0);
    for (size_t i = 1; i < cx->nupstream; i++) {
        char copy[1024], *f[3];
        pmID pmid;
        char *name;

        snprintf(copy, sizeof(copy), "%s", cx->upstream[i]);
        split(copy, f, 3);
        if (strcmp(f[2], "NOSUPPORT") == 0)
            continue;                   /* in upstream's table but never in its PMNS (rpc.server.nqnfs.*) */
        name = f[0];
        if (pmLookupName(1, (const char **)&name, &pmid) != 1 || strcmp(pmIDStr(pmid), f[1]) != 0) {
            fprintf(stderr, "%s: upstream serves it as %s; this agent's PMNS does not\n", f[0], f[1]);
            failures++;
        }
    }
    pmUnloadNameSpace();
    return failures;
}

static void
upstream_names_pmids_and_metadata_match(void **state)
{
    struct compat cx;
    int failures;

    (void)state;
    cx.upstream = read_tsv(under_test->compat, &cx.nupstream);
    cx.differences = read_tsv(under_test->differences, &cx.ndifferences);
    assert_true(cx.nupstream > 60);
    failures = for_each_row(check_compat_row, &cx);
    failures += every_upstream_name_is_served(&cx);
    for (size_t i = 0; i < cx.nupstream; i++)
        free(cx.upstream[i]);
    for (size_t i = 0; i < cx.ndifferences; i++)
        free(cx.differences[i]);
    free(cx.upstream);
    free(cx.differences);
    assert_int_equal(failures, 0);
}

static int
count_row(const struct collector *c, const struct metric_row *row, void *arg)
{
    (void)c;
    (void)row;
    ++*(int *)arg;
    return 0;
}

static void
at_least_the_upstream_metrics_are_served(void **state)
{
    int n = 0;

    (void)state;
    for_each_row(count_row, &n);
    assert_true(n >= under_test->min_metrics);
}

/* A row bound to a field serves an unsigned integer at its type: a U32
 * row takes a field as it is (collector_field refuses a value that does
 * not fit) or a flag's 0 or 1, never a conversion that could overflow it;
 * a wrapping 32-bit counter is served as a U64 count from its struct
 * wrap32, text and a string
 * pointer as a string, a signed integer at a signed type, a double at a
 * floating-point type. */
static int
check_binding(const struct collector *c, const struct metric_row *row, void *arg)
{
    const struct field *f = &row->field;

    (void)arg;
    if (f->kind == FIELD_NONE)
        return 0;
    if (f->kind == FIELD_TEXT ? row->type == PM_TYPE_STRING :
        f->kind == FIELD_STRING ? row->type == PM_TYPE_STRING && f->size == sizeof(char *) :
        f->kind == FIELD_SIGNED ? (row->type == PM_TYPE_32 || row->type == PM_TYPE_64) && (f->size == 4 || f->size == 8) :
        f->kind == FIELD_DOUBLE ? (row->type == PM_TYPE_DOUBLE || row->type == PM_TYPE_FLOAT) && f->size == sizeof(double) :
        f->kind == FIELD_WRAP32 ? row->type == PM_TYPE_U64 && f->size == sizeof(struct wrap32) && f->arg_size == 4 :
        (row->type == PM_TYPE_U64 && (f->size == 4 || f->size == 8)) ||
        (row->type == PM_TYPE_U32 && (f->kind == FIELD_PLAIN || f->kind == FIELD_FLAG)))
        return 0;
    fprintf(stderr, "%s (%s): a %s row bound to a %u-byte field of kind %u\n", row->name, c->name,
            pmTypeStr(row->type), f->size, f->kind);
    return 1;
}

static void
bound_rows_fit_their_type(void **state)
{
    (void)state;
    assert_int_equal(for_each_row(check_binding, NULL), 0);
}

/* The core serves a row from its binding or its derive function; a row
 * with neither would have no value. */
static int
check_served(const struct collector *c, const struct metric_row *row, void *arg)
{
    (void)arg;
    if (row->field.kind != FIELD_NONE || row->derive != NULL)
        return 0;
    fprintf(stderr, "%s (%s): neither bound nor derived\n", row->name, c->name);
    return 1;
}

static void
every_row_is_bound_or_derived(void **state)
{
    (void)state;
    assert_int_equal(for_each_row(check_served, NULL), 0);
}

/* The indom_def of serial among c's, or NULL when c does not own it. */
static const struct indom_def *
owned(const struct collector *c, unsigned int serial)
{
    for (unsigned int k = 0; k < collector_nindoms(c); k++)
        if (c->indom[k].serial == serial)
            return &c->indom[k];
    return NULL;
}

/* Whether the member at offset, size bytes wide, lies in a struct of
 * struct_size bytes; says so of row when it does not. */
static int
outside(const struct collector *c, const struct metric_row *row, const char *what, unsigned int offset,
        unsigned int size, size_t struct_size)
{
    if ((size_t)offset + size <= struct_size)
        return 0;
    fprintf(stderr, "%s (%s): its %s at %u (%u bytes) is outside the %zu bytes it is read from\n", row->name,
            c->name, what, offset, size, struct_size);
    return 1;
}

/* The core reads a bound row in the struct collector_entry finds: an
 * instance's entry of a domain its collector owns with a table, or the
 * collector's state for a row with no indom. A binding, its status and its
 * unit's size lie inside that struct; a row whose indom another collector
 * owns, or whose domain has no table, cannot be bound (the core would read
 * the collector's state at an entry's offsets). Rows of a domain whose
 * entries a function finds are not checked (their size is not known here),
 * nor rows the collector's fetch serves (a domain with neither a table nor
 * an entry function). */
static int
check_bound_offsets(const struct collector *c, const struct metric_row *row, void *arg)
{
    const struct field *f = &row->field;
    const struct indom_def *def = row->indom == COLLECTOR_NO_INDOM ? NULL : owned(c, row->indom);
    size_t size = c->state_size;
    int failures = 0;

    (void)arg;
    if (f->kind == FIELD_NONE)
        return 0;
    if (row->indom != COLLECTOR_NO_INDOM && def == NULL) {
        fprintf(stderr, "%s (%s): bound, in indom %u, which its collector does not own\n", row->name, c->name,
                row->indom);
        return 1;
    }
    if (def != NULL && !collector_has_entries(def)) {
        fprintf(stderr, "%s (%s): bound in indom %u, which has no table to read it from\n", row->name,
                c->name, row->indom);
        return 1;
    }
    if (def != NULL && def->table.size == 0)
        return 0;
    if (def != NULL)
        size = def->table.size;
    failures += outside(c, row, "field", f->offset, f->kind == FIELD_TEXT ? 1 : f->size, size);
    if (f->status != FIELD_NO_STATUS)
        failures += outside(c, row, "status", f->status, sizeof(int), size);
    if (f->kind == FIELD_SCALED_KB)
        failures += outside(c, row, "unit's size", f->arg, f->arg_size, size);
    return failures;
}

static void
bound_rows_read_inside_their_entry(void **state)
{
    (void)state;
    assert_int_equal(for_each_row(check_bound_offsets, NULL), 0);
}

/* An indom's instance table lies in its collector's state: the count and
 * the array (or the pointer to it) inside the state, the instance inside
 * an entry. */
static void
instance_tables_lie_in_their_state(void **state)
{
    int failures = 0;

    (void)state;
    for (unsigned int i = 0; i < agent_ncollectors; i++) {
        const struct collector *c = agent_collectors[i];

        for (unsigned int k = 0; k < collector_nindoms(c); k++) {
            const struct instance_table *t = &c->indom[k].table;

            if (t->size == 0)
                continue;
            if ((size_t)t->count + sizeof(unsigned int) > c->state_size ||
                (size_t)t->entries + (t->pointer ? sizeof(void *) : t->size) > c->state_size ||
                (size_t)t->inst + sizeof(int) > t->size) {
                fprintf(stderr, "%s: the table of indom %u is outside its %zu-byte state\n", c->name,
                        c->indom[k].serial, c->state_size);
                failures++;
            }
        }
    }
    assert_int_equal(failures, 0);
}

static int
system_agent(void **state)
{
    (void)state;
    under_test = &system_files;
    return 0;
}

static int
proc_agent_files(void **state)
{
    (void)state;
    under_test = &proc_files;
    return 0;
}

int
main(void)
{
    /* PCP's derived metrics (the system's, loaded with any PMNS) are not the agent's names */
    setenv("PCP_DERIVED_CONFIG", "", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(names_and_pmids_are_unique),
        cmocka_unit_test(table_and_pmns_agree),
        cmocka_unit_test(every_metric_and_indom_has_help_and_nothing_else_does),
        cmocka_unit_test(upstream_names_pmids_and_metadata_match),
        cmocka_unit_test(at_least_the_upstream_metrics_are_served),
        cmocka_unit_test(bound_rows_fit_their_type),
        cmocka_unit_test(every_row_is_bound_or_derived),
        cmocka_unit_test(bound_rows_read_inside_their_entry),
        cmocka_unit_test(instance_tables_lie_in_their_state),
    };
    int failures = cmocka_run_group_tests_name("system agent (domain 78)", tests, system_agent, NULL);

    return failures + cmocka_run_group_tests_name("proc agent (domain 3)", tests, proc_agent_files, NULL);
}
