/*
 * The snapshot parser and replay: values, errors naming file and line,
 * interpolation, wrap, and replay past the last sample.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "snapshot_store.h"

static const struct snap_field schema[] = {
    { "host", "page_size", 0, SNAP_GAUGE64 },
    { "host", "model", 0, SNAP_TEXT },
    { "vm", "free_count", 0, SNAP_GAUGE32 },
    { "vm", "faults", 0, SNAP_COUNTER64 },
    { "cpu", "user", 0, SNAP_COUNTER32 },
    { "cpu", "user", 1, SNAP_COUNTER32 },
    { "cpu", "perflevel", 1, SNAP_INT },
    { "clock", "boot", 0, SNAP_TIME },
    { NULL, NULL, 0, 0 }
};

static struct snap *
parse(const char *text, char *msg, size_t msglen)
{
    FILE *fp = fmemopen((void *)text, strlen(text), "r");
    struct snap *s;

    assert_non_null(fp);
    s = snap_read(fp, "test.snapshot", schema, msg, msglen);
    fclose(fp);
    return s;
}

static const char good[] =
    "# comment\n"
    "pmda-darwin-snapshot 1\n"
    "host.page_size 16384\n"
    "host.model Mac14,2 with spaces\n"
    "clock.boot 1700000000.25\n"
    "cpu[cpu0].perflevel -1\n"
    "sample 1700000100.000000\n"
    "vm.free_count 100\n"
    "vm.faults 1000\n"
    "cpu.user 4294967000\n"
    "cpu[cpu0].user 10\n"
    "cpu[cpu1].user 20\n"
    "sample 1700000110\n"
    "vm.free_count 200\n"
    "vm.faults 2000\n"
    "cpu.user 400\n"                /* wrapped: +696 */
    "cpu[cpu0].user 110\n"
    "cpu[cpu1].user 220\n"
    "sample 1700000120\n"
    "vm.free_count 300\n"
    "vm.faults 4000\n"
    "cpu.user 1096\n"
    "cpu[cpu0].user 210\n"
    "cpu[cpu1].user 420\n";

static void
values_at_first_sample(void **state)
{
    char msg[SNAP_MSG_MAX] = "";
    struct snap *s = parse(good, msg, sizeof(msg));
    uint64_t v;
    int32_t i;
    const char *text;

    (void)state;
    assert_non_null(s);
    assert_int_equal(snap_nsamples(s), 3);
    assert_string_equal(snap_notes(s), "");
    assert_int_equal(snap_u64(s, "host.page_size", &v), 0);
    assert_int_equal(v, 16384);
    assert_int_equal(snap_text(s, "host.model", &text), 0);
    assert_string_equal(text, "Mac14,2 with spaces");
    assert_int_equal(snap_time(s, "clock.boot", &v), 0);
    assert_int_equal(v, 1700000000250000ULL);
    assert_int_equal(snap_int(s, "cpu[cpu0].perflevel", &i), 0);
    assert_int_equal(i, -1);
    assert_int_equal(snap_u64(s, "vm.free_count", &v), 0);
    assert_int_equal(v, 100);
    assert_string_equal(snap_instance(s, "cpu", 0), "cpu0");
    assert_string_equal(snap_instance(s, "cpu", 1), "cpu1");
    assert_null(snap_instance(s, "cpu", 2));
    snap_close(s);
}

static void
counters_interpolate_and_gauges_step(void **state)
{
    char msg[SNAP_MSG_MAX];
    struct snap *s = parse(good, msg, sizeof(msg));
    uint64_t v;

    (void)state;
    snap_set_position(s, 2500000);          /* a quarter into the first 10 s */
    assert_int_equal(snap_u64(s, "vm.faults", &v), 0);
    assert_int_equal(v, 1250);
    assert_int_equal(snap_u64(s, "vm.free_count", &v), 0);
    assert_int_equal(v, 100);               /* instant values do not interpolate */
    assert_int_equal(snap_u64(s, "cpu.user", &v), 0);
    assert_int_equal(v, 4294967000ULL + 174);  /* 696 / 4 */
    snap_set_position(s, 7500000);
    assert_int_equal(snap_u64(s, "cpu.user", &v), 0);
    assert_int_equal(v, (4294967000ULL + 522) & 0xffffffffULL);  /* wrapped in 32 bits */
    assert_int_equal(snap_now(s, &v), 0);
    assert_int_equal(v, 1700000107500000ULL);
    snap_close(s);
}

/* cpu2 appears at the second sample, cpu1 is gone by the last (a process
 * or disk that came or went). */
static const char came_and_went[] =
    "pmda-darwin-snapshot 1\n"
    "sample 100\n"
    "cpu[cpu0].user 0\n"
    "cpu[cpu1].user 0\n"
    "sample 110\n"
    "cpu[cpu0].user 100\n"
    "cpu[cpu1].user 50\n"
    "cpu[cpu2].user 1000\n"
    "sample 120\n"
    "cpu[cpu0].user 200\n"
    "cpu[cpu2].user 1400\n";

static void
an_instance_that_came_or_went_still_interpolates(void **state)
{
    char msg[SNAP_MSG_MAX];
    struct snap *s = parse(came_and_went, msg, sizeof(msg));
    uint64_t v;

    (void)state;
    assert_non_null(s);
    snap_set_position(s, 5000000);          /* cpu1 is in both samples either side */
    assert_int_equal(snap_u64(s, "cpu[cpu1].user", &v), 0);
    assert_int_equal(v, 25);                /* not the 0 recorded: a rate, not a step of 50 */
    snap_set_position(s, 12500000);         /* cpu2 from 1000 towards 1400 */
    assert_int_equal(snap_u64(s, "cpu[cpu2].user", &v), 0);
    assert_int_equal(v, 1100);
    assert_int_equal(snap_u64(s, "cpu[cpu1].user", &v), 0);
    assert_int_equal(v, 50);                /* gone from the next sample: as recorded */
    snap_set_position(s, 32500000);         /* the next lap: no lap to add, it starts over */
    assert_int_equal(snap_u64(s, "cpu[cpu2].user", &v), 0);
    assert_int_equal(v, 1100);
    assert_int_equal(snap_u64(s, "cpu[cpu0].user", &v), 0);
    assert_int_equal(v, 200 + 125);         /* in every sample: laps add up */
    snap_close(s);
}

static void
replay_past_the_end_keeps_counters_moving(void **state)
{
    char msg[SNAP_MSG_MAX];
    struct snap *s = parse(good, msg, sizeof(msg));
    uint64_t v;

    (void)state;
    snap_set_position(s, 20000000);         /* one full lap: back to sample 0 + lap */
    assert_int_equal(snap_u64(s, "vm.faults", &v), 0);
    assert_int_equal(v, 1000 + 3000);
    assert_int_equal(snap_u64(s, "vm.free_count", &v), 0);
    assert_int_equal(v, 100);
    snap_set_position(s, 45000000);         /* two laps and a half segment */
    assert_int_equal(snap_u64(s, "vm.faults", &v), 0);
    assert_int_equal(v, 1000 + 2 * 3000 + 500);
    assert_int_equal(snap_u64(s, "cpu[cpu1].user", &v), 0);
    assert_int_equal(v, 20 + 2 * 400 + 100);
    snap_close(s);
}

static void
malformed_values_fail_only_their_key(void **state)
{
    static const char text[] =
        "pmda-darwin-snapshot 1\n"
        "sample 10\n"
        "vm.free_count 4294967296\n"        /* too big for 32 bits */
        "vm.faults 12abc\n"                 /* not a number */
        "cpu.user 99999999999999999999999\n" /* too big for 64 bits */
        "host.page_size\n"                  /* no value */
        "cpu[cpu0].user 5\n"
        "cpu[cpu0].user 6\n";               /* twice in one sample */
    char msg[SNAP_MSG_MAX];
    struct snap *s = parse(text, msg, sizeof(msg));
    uint64_t v;

    (void)state;
    assert_non_null(s);
    assert_int_equal(snap_u64(s, "vm.free_count", &v), -EINVAL);
    assert_string_equal(snap_error(s),
                        "test.snapshot:3: vm.free_count: \"4294967296\" is out of range for a 32-bit unsigned number");
    assert_int_equal(snap_u64(s, "vm.faults", &v), -EINVAL);
    assert_non_null(strstr(snap_error(s), "test.snapshot:4: "));
    assert_int_equal(snap_u64(s, "cpu.user", &v), -EINVAL);
    assert_non_null(strstr(snap_error(s), "test.snapshot:5: "));
    assert_non_null(strstr(snap_error(s), "out of range"));
    assert_int_equal(snap_u64(s, "host.page_size", &v), -EINVAL);
    assert_non_null(strstr(snap_error(s), "test.snapshot:6: host.page_size has no value"));
    assert_int_equal(snap_u64(s, "cpu[cpu0].user", &v), -EINVAL);
    assert_non_null(strstr(snap_error(s), "test.snapshot:8: "));
    assert_non_null(strstr(snap_error(s), "first at line 7"));
    snap_close(s);
}

static void
garbage_and_unknown_keys_are_noted_not_fatal(void **state)
{
    static const char text[] =
        "pmda-darwin-snapshot 1\n"
        "this is garbage\n"
        "\x01\x02\x03\n"
        "vm.no_such_key 5\n"
        "sample 10\n"
        "vm.free_count 7\n";
    char msg[SNAP_MSG_MAX];
    struct snap *s = parse(text, msg, sizeof(msg));
    uint64_t v;

    (void)state;
    assert_non_null(s);
    assert_non_null(strstr(snap_notes(s), "test.snapshot:2: not a snapshot line"));
    assert_non_null(strstr(snap_notes(s), "test.snapshot:3: not a snapshot line"));
    assert_non_null(strstr(snap_notes(s), "test.snapshot:4: unknown key vm.no_such_key"));
    assert_int_equal(snap_u64(s, "vm.free_count", &v), 0);
    assert_int_equal(v, 7);
    snap_close(s);
}

static void
missing_keys_name_the_sample(void **state)
{
    static const char text[] =
        "pmda-darwin-snapshot 1\n"
        "sample 10\n"
        "vm.faults 1\n"
        "sample 20\n";                      /* truncated: the second sample lost its keys */
    char msg[SNAP_MSG_MAX];
    struct snap *s = parse(text, msg, sizeof(msg));
    uint64_t v;

    (void)state;
    assert_non_null(s);
    assert_int_equal(snap_u64(s, "vm.faults", &v), -ENOENT);
    assert_string_equal(snap_error(s), "test.snapshot: vm.faults is missing from the sample at line 4");
    assert_int_equal(snap_u64(s, "vm.free_count", &v), -ENOENT);
    /* failures accumulate until cleared, so a caller can report all of them */
    assert_string_equal(snap_error(s), "test.snapshot: vm.faults is missing from the sample at line 4; "
                        "test.snapshot: no vm.free_count in the snapshot");
    snap_clear_error(s);
    assert_int_equal(snap_u64(s, "vm.free_count", &v), -ENOENT);
    assert_string_equal(snap_error(s), "test.snapshot: no vm.free_count in the snapshot");
    snap_close(s);
}

static void
unusable_files_are_refused_with_a_reason(void **state)
{
    char msg[SNAP_MSG_MAX];

    (void)state;
    assert_null(parse("", msg, sizeof(msg)));
    assert_string_equal(msg, "test.snapshot: empty, or no \"pmda-darwin-snapshot 1\" line");
    assert_null(parse("hello\n", msg, sizeof(msg)));
    assert_non_null(strstr(msg, "test.snapshot:1: not a pmda-darwin snapshot"));
    assert_null(parse("pmda-darwin-snapshot 2\nsample 1\n", msg, sizeof(msg)));
    assert_non_null(strstr(msg, "version \"2\" is not supported"));
    assert_null(parse("pmda-darwin-snapshot 1\nvm.faults 1\n", msg, sizeof(msg)));
    assert_non_null(strstr(msg, "no \"sample\" line"));
    assert_null(parse("pmda-darwin-snapshot 1\nsample 20\nsample 10\n", msg, sizeof(msg)));
    assert_string_equal(msg, "test.snapshot:3: sample time is not later than the sample at line 2");
    assert_null(parse("pmda-darwin-snapshot 1\nsample soon\n", msg, sizeof(msg)));
    assert_non_null(strstr(msg, "test.snapshot:2: sample line needs a time"));
}

static void
an_unopenable_file_is_named_with_the_reason_and_the_user(void **state)
{
    char msg[SNAP_MSG_MAX], uid[32];

    (void)state;
    snprintf(uid, sizeof(uid), "uid %u:", (unsigned int)geteuid());
    assert_null(snap_open("/nonexistent/x.snapshot", schema, msg, sizeof(msg)));
    assert_non_null(strstr(msg, "/nonexistent/x.snapshot: cannot open snapshot: No such file or directory"));
    assert_non_null(strstr(msg, uid));
    assert_non_null(strstr(msg, "must be readable by that user"));
}

static void
wrong_kind_lookups_are_errors(void **state)
{
    char msg[SNAP_MSG_MAX];
    struct snap *s = parse(good, msg, sizeof(msg));
    uint64_t v;
    const char *t;
    int32_t i;

    (void)state;
    assert_int_equal(snap_u64(s, "host.model", &v), -EINVAL);
    assert_int_equal(snap_text(s, "vm.faults", &t), -EINVAL);
    assert_int_equal(snap_int(s, "vm.faults", &i), -EINVAL);
    assert_int_equal(snap_time(s, "vm.faults", &v), -EINVAL);
    snap_close(s);
}

static void
one_sample_replays_statically(void **state)
{
    char msg[SNAP_MSG_MAX];
    struct snap *s = parse("pmda-darwin-snapshot 1\nsample 5\nvm.faults 9\n", msg, sizeof(msg));
    uint64_t v;

    (void)state;
    snap_set_position(s, 123456789);
    assert_int_equal(snap_u64(s, "vm.faults", &v), 0);
    assert_int_equal(v, 9);
    snap_now(s, &v);
    assert_int_equal(v, 5000000 + 123456789);
    snap_close(s);
}

static void
fixtures_parse_cleanly(void **state)
{
    static const char *const files[] = { FIXTURES "/apple-silicon.snapshot", FIXTURES "/intel.snapshot" };

    (void)state;
    for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
        char msg[SNAP_MSG_MAX];
        static const struct snap_field any[] = { { NULL, NULL, 0, 0 } };
        struct snap *s = snap_open(files[f], any, msg, sizeof(msg));

        /* Against an empty schema every key is unknown: this proves the file
         * is well-formed line by line without duplicating the real schema. */
        assert_non_null(s);
        assert_true(snap_nsamples(s) >= 3);
        assert_null(strstr(snap_notes(s), "not a snapshot line"));
        snap_close(s);
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(values_at_first_sample),
        cmocka_unit_test(counters_interpolate_and_gauges_step),
        cmocka_unit_test(an_instance_that_came_or_went_still_interpolates),
        cmocka_unit_test(replay_past_the_end_keeps_counters_moving),
        cmocka_unit_test(malformed_values_fail_only_their_key),
        cmocka_unit_test(garbage_and_unknown_keys_are_noted_not_fatal),
        cmocka_unit_test(missing_keys_name_the_sample),
        cmocka_unit_test(unusable_files_are_refused_with_a_reason),
        cmocka_unit_test(an_unopenable_file_is_named_with_the_reason_and_the_user),
        cmocka_unit_test(wrong_kind_lookups_are_errors),
        cmocka_unit_test(one_sample_replays_statically),
        cmocka_unit_test(fixtures_parse_cleanly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
