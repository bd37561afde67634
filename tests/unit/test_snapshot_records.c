/*
 * The platform struct descriptions (snapshot_records.c) drive the writer,
 * the replay, the schema and the docs. These tests walk the descriptions
 * themselves, so that a field added to one is covered with no code here:
 * every field survives write -> parse -> read, a failed group is written
 * as comments and fails on replay, the docs' key table is the generated
 * one, and every described key occurs in some fixture.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "snapshot_records.h"
#include "writer.h"

#define STRUCT_MAX 65536                /* larger than any platform struct */

/* Give every element of every field a value of its own, derived from n. */
static void
fill(const struct rec_desc *d, unsigned char *base, unsigned int n)
{
    for (unsigned int j = 0; j < d->nfields; j++) {
        const struct rec_field *f = &d->fields[j];

        for (size_t i = 0; i < rec_elements(f); i++) {
            unsigned char *at = base + f->offset + i * rec_element_size(f);
            unsigned int k = n * 1000 + j * 50 + (unsigned int)i + 1;     /* never 0: some fields divide */
            uint32_t v32 = 0x80000000u + k;
            uint64_t v64 = ((uint64_t)k << 40) + k;
            int32_t iv = -(int32_t)k;
            int64_t sec = 1700000000 + k;
            int32_t usec = (int32_t)(k % 1000000);

            switch (f->kind) {
            case SNAP_COUNTER32: case SNAP_GAUGE32: memcpy(at, &v32, 4); break;
            case SNAP_COUNTER64: case SNAP_GAUGE64: memcpy(at, &v64, 8); break;
            case SNAP_INT: memcpy(at, &iv, 4); break;
            case SNAP_TEXT: snprintf((char *)at, f->size, "text %u of %s", k, f->key); break;
            case SNAP_TIME: memcpy(at, &sec, 8); memcpy(at + 8, &usec, 4); break;
            case SNAP_REGISTRY: fail();             /* no described field is one */
            }
        }
    }
}

static void
same_fields(const struct rec_desc *d, const unsigned char *a, const unsigned char *b)
{
    for (unsigned int j = 0; j < d->nfields; j++) {
        const struct rec_field *f = &d->fields[j];

        if (f->kind == SNAP_TEXT)
            assert_string_equal((const char *)a + f->offset, (const char *)b + f->offset);
        else
            assert_memory_equal(a + f->offset, b + f->offset, rec_elements(f) * rec_element_size(f));
        if (f->status != REC_NO_STATUS)
            assert_memory_equal(a + f->status, b + f->status, sizeof(int));
    }
}

/* Write the record (plain, or as instance "x1"), parse it back, read it. */
static int
write_and_read(const struct rec_desc *d, const char *instance, const void *in, void *out, char *written,
               size_t size)
{
    char msg[SNAP_MSG_MAX];
    struct snap_field *schema = rec_schema(NULL, 0, 1);
    FILE *fp = fmemopen(written, size, "w");
    struct snap *s;
    int sts;

    assert_non_null(schema);
    assert_non_null(fp);
    fprintf(fp, "pmda-darwin-snapshot 1\nsample 1700000000\n");
    rec_write(fp, d, instance, in);
    fclose(fp);
    fp = fmemopen(written, strlen(written), "r");
    s = snap_read(fp, "records", schema, msg, sizeof(msg));
    fclose(fp);
    assert_non_null(s);
    assert_string_equal(snap_notes(s), "");          /* every written key is known */
    snap_set_position(s, 0);
    sts = rec_read(s, d, instance, out);
    snap_close(s);
    rec_schema_free(schema);
    return sts;
}

static void
every_described_field_round_trips(void **state)
{
    static unsigned char in[STRUCT_MAX], out[STRUCT_MAX];
    static char written[1 << 20];

    (void)state;
    for (unsigned int r = 0; r < rec_nall; r++) {
        const struct rec_desc *d = rec_all[r];

        for (int inst = 0; inst < 2; inst++) {
            if ((inst == 0 && d->instancing == REC_INSTANCED) || (inst == 1 && d->instancing == REC_PLAIN))
                continue;
            memset(in, 0, sizeof(in));
            memset(out, 0xa5, sizeof(out));
            fill(d, in, r);
            assert_int_equal(write_and_read(d, inst ? "x1" : NULL, in, out, written, sizeof(written)), 0);
            same_fields(d, in, out);
        }
    }
}

static void
a_failed_group_is_written_as_a_comment_and_fails_on_replay(void **state)
{
    static unsigned char in[STRUCT_MAX], out[STRUCT_MAX];
    static char written[1 << 20];
    unsigned int groups = 0;

    (void)state;
    for (unsigned int r = 0; r < rec_nall; r++) {
        const struct rec_desc *d = rec_all[r];
        const char *instance = d->instancing == REC_INSTANCED ? "x1" : NULL;

        for (unsigned int j = 0; j < d->nfields; j++) {
            const struct rec_field *f = &d->fields[j];
            int failed = -EIO, replayed;

            if (f->status == REC_NO_STATUS)
                continue;
            memset(in, 0, sizeof(in));
            fill(d, in, r);
            memcpy(in + f->status, &failed, sizeof(failed));
            assert_int_equal(write_and_read(d, instance, in, out, written, sizeof(written)), 0);
            assert_non_null(strstr(written, "failed (Input/output error)"));
            memcpy(&replayed, out + f->status, sizeof(replayed));
            assert_int_equal(replayed, -ENOENT);
            groups++;
        }
    }
    assert_true(groups >= 10);          /* vm, swap, the compressor sysctls, perflevel fields, ... */
}

#define DOC SOURCE_DIR "/docs/snapshot-format.md"
static const char doc_begin[] = "<!-- keys: generated from src/replay/snapshot_records.c -->\n";
static const char doc_end[] = "<!-- end of generated keys -->";
static char doc_text[1 << 18];

/* The docs, read into doc_text; *block points at the generated part, *after past it. */
static void
read_doc(char **block, char **after)
{
    FILE *fp = fopen(DOC, "r");
    size_t n;

    assert_non_null(fp);
    n = fread(doc_text, 1, sizeof(doc_text) - 1, fp);
    fclose(fp);
    doc_text[n] = '\0';
    assert_non_null(*block = strstr(doc_text, doc_begin));
    *block += strlen(doc_begin);
    assert_non_null(*after = strstr(*block, doc_end));
}

/* The table the docs must hold. With PMDA_DARWIN_UPDATE_DOCS=1 in the
 * environment, the test writes it into the docs instead of failing. */
static void
the_docs_list_every_key(void **state)
{
    static char generated[1 << 18];
    FILE *fp = fmemopen(generated, sizeof(generated), "w");
    char *block, *after;

    (void)state;
    fprintf(fp, "| key | kind | source on macOS |\n| --- | --- | --- |\n");
    rec_doc_table(fp);
    fclose(fp);
    read_doc(&block, &after);
    if (strncmp(block, generated, (size_t)(after - block)) == 0 && strlen(generated) == (size_t)(after - block))
        return;
    if (getenv("PMDA_DARWIN_UPDATE_DOCS") != NULL) {
        FILE *out = fopen(DOC, "w");

        assert_non_null(out);
        fprintf(out, "%.*s%s%s", (int)(block - doc_text), doc_text, generated, after);
        fclose(out);
        return;
    }
    fprintf(stderr, "docs/snapshot-format.md's key table is not the descriptions'; run\n"
            "  PMDA_DARWIN_UPDATE_DOCS=1 build/tests/test_snapshot_records\nto write it.\n");
    fail();
}

/* Whether some fixture line has the key (instances: any instance). */
static int
in_fixtures(const char *record, const char *field, int instanced)
{
    static const char *const files[] = { FIXTURES "/apple-silicon.snapshot", FIXTURES "/intel.snapshot" };
    char line[4096];

    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        FILE *fp = fopen(files[i], "r");
        int found = 0;

        assert_non_null(fp);
        while (!found && fgets(line, sizeof(line), fp) != NULL) {
            size_t fl = strlen(record);
            const char *rest = line + fl;

            if (strncmp(line, record, fl) != 0)
                continue;
            if (instanced && *rest == '[' && (rest = strchr(rest, ']')) != NULL)
                rest++;
            else if (instanced)
                continue;
            found = rest[0] == '.' && strncmp(rest + 1, field, strlen(field)) == 0 &&
                    (rest[1 + strlen(field)] == ' ');
        }
        fclose(fp);
        if (found)
            return 1;
    }
    return 0;
}

static void
every_described_key_is_in_a_fixture(void **state)
{
    struct snap_field *schema = rec_schema(NULL, 0, 1);

    (void)state;
    assert_non_null(schema);
    for (const struct snap_field *f = schema; f->record != NULL; f++) {
        if (!in_fixtures(f->record, f->field, f->instanced))
            fprintf(stderr, "no fixture has %s%s.%s\n", f->record, f->instanced ? "[...]" : "", f->field);
        assert_true(in_fixtures(f->record, f->field, f->instanced));
    }
    rec_schema_free(schema);
}

/* A copy-and-paste slip that points two keys at one member round-trips
 * happily; it cannot hide from this. Keys are unique across records too. */
static void
no_two_fields_share_bytes_or_keys(void **state)
{
    struct snap_field *schema = rec_schema(NULL, 0, 1);

    (void)state;
    for (unsigned int r = 0; r < rec_nall; r++) {
        const struct rec_desc *d = rec_all[r];

        for (unsigned int j = 0; j < d->nfields; j++)
            for (unsigned int k = j + 1; k < d->nfields; k++) {
                const struct rec_field *a = &d->fields[j], *b = &d->fields[k];
                size_t a_end = a->offset + rec_elements(a) * rec_element_size(a);
                size_t b_end = b->offset + rec_elements(b) * rec_element_size(b);

                if (a->offset < b_end && b->offset < a_end)
                    fprintf(stderr, "%s and %s overlap\n", a->key, b->key);
                assert_false(a->offset < b_end && b->offset < a_end);
            }
    }
    for (const struct snap_field *a = schema; a->record != NULL; a++)
        for (const struct snap_field *b = a + 1; b->record != NULL; b++)
            assert_false(strcmp(a->record, b->record) == 0 && strcmp(a->field, b->field) == 0 &&
                         a->instanced == b->instanced);
    rec_schema_free(schema);
}

/* The live source names hw.perflevelN sysctls with plat_perflevel_fields;
 * the snapshot keys of those values must be the same words. */
static void
perflevel_keys_are_the_sysctl_names(void **state)
{
    (void)state;
    for (int f = 0; f < PLAT_PL_N; f++) {
        int found = 0;

        for (unsigned int j = 0; j < rec_perflevel.nfields; j++)
            found |= strcmp(rec_perflevel.fields[j].key, plat_perflevel_fields[f]) == 0 &&
                     rec_perflevel.fields[j].offset == offsetof(struct plat_perflevel, value) + f * sizeof(uint64_t);
        assert_true(found);
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_described_field_round_trips),
        cmocka_unit_test(no_two_fields_share_bytes_or_keys),
        cmocka_unit_test(perflevel_keys_are_the_sysctl_names),
        cmocka_unit_test(a_failed_group_is_written_as_a_comment_and_fails_on_replay),
        cmocka_unit_test(the_docs_list_every_key),
        cmocka_unit_test(every_described_key_is_in_a_fixture),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
