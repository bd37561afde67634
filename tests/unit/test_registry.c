/*
 * The IORegistry seam's portable half: key-path escaping, the entry
 * builder both sources use, property values in their snapshot text form,
 * the CPU cluster-type decoder, the decoders' key lists' reader, and registry entries replayed from a
 * snapshot (including version 1's cluster-type keys and a malformed value).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "platform.h"
#include "replay.h"
#include "registry_decode.h"
#include "key_list.h"
#include "entry_props.h"
#include "entry_set.h"
#include "entry_codec.h"
#include "writer.h"

static void
paths_escape_what_would_split_them(void **state)
{
    char buf[64];
    int n;

    (void)state;
    n = entry_path_append(buf, sizeof(buf), 0, "Statistics", 10);
    n = entry_path_append(buf, sizeof(buf), (size_t)n, "Bytes (Read)", 12);
    assert_string_equal(buf, "Statistics.Bytes%20(Read)");
    assert_int_equal(n, (int)strlen(buf));
    entry_path_append(buf, sizeof(buf), 0, "a.b%c[d]#\xc3\xa9", 11);
    assert_string_equal(buf, "a%2Eb%25c%5Bd%5D%23%C3%A9");
    assert_int_equal(entry_path_append(buf, 8, 0, "abcdefgh", 8), -ENAMETOOLONG);
    assert_int_equal(entry_path_append(buf, 8, 0, "abc def", 7), -ENAMETOOLONG);     /* the escape would not fit */
}

static void
the_builder_keeps_every_value_across_growth(void **state)
{
    struct entry_builder b = { 0 };
    struct plat_entry_set set;
    static const unsigned char bytes[] = { 0x45, 0x00, 0xff };
    char path[32];

    (void)state;
    assert_int_equal(entry_builder_number(&b, "x", 1), -EINVAL);             /* no entry yet */
    assert_int_equal(entry_builder_entry(&b, 0x100000111, 0x100000110, "cpu0", "IOPlatformDevice"), 0);
    assert_int_equal(entry_builder_data(&b, "cluster-type", bytes, sizeof(bytes)), 0);
    assert_int_equal(entry_builder_string(&b, "name", "a name"), 0);
    assert_int_equal(entry_builder_bool(&b, "on", 7), 0);
    assert_int_equal(entry_builder_entry(&b, 2, 0, "second", "C"), 0);
    for (unsigned int i = 0; i < 5000; i++) {                               /* grow arena and arrays */
        snprintf(path, sizeof(path), "n.%u", i);
        assert_int_equal(entry_builder_number(&b, path, UINT64_MAX - i), 0);
    }
    entry_builder_finish(&b, &set);
    assert_int_equal(set.n, 2);
    assert_int_equal(set.entry[0].id, 0x100000111);
    assert_int_equal(set.entry[0].parent, 0x100000110);
    assert_string_equal(set.entry[0].class_name, "IOPlatformDevice");
    assert_int_equal(set.entry[0].nprops, 3);
    assert_int_equal(entry_prop(&set.entry[0], "cluster-type")->len, 3);
    assert_memory_equal(entry_prop(&set.entry[0], "cluster-type")->data, bytes, 3);
    assert_string_equal(entry_prop(&set.entry[0], "name")->text, "a name");
    assert_int_equal(entry_prop(&set.entry[0], "on")->number, 1);
    assert_null(entry_prop(&set.entry[0], "n.0"));                            /* the other entry's */
    assert_int_equal(set.entry[1].nprops, 5000);
    assert_int_equal(entry_prop(&set.entry[1], "n.4999")->number, UINT64_MAX - 4999);
    entry_builder_reset(&b);
    entry_builder_finish(&b, &set);
    assert_int_equal(set.n, 0);
    entry_builder_free(&b);
}

static void
the_builder_has_bounds(void **state)
{
    struct entry_builder b = { 0 };

    (void)state;
    for (unsigned int i = 0; i < REG_MAX_ENTRIES; i++)
        assert_int_equal(entry_builder_entry(&b, i, 0, "e", "C"), 0);
    assert_int_equal(entry_builder_entry(&b, 0, 0, "e", "C"), -E2BIG);
    entry_builder_free(&b);
}

static void
values_round_trip_through_their_text(void **state)
{
    static const char *const good[] = {
        "number 0", "number 18446744073709551615", "bool 0", "bool 1", "string Apple SSD", "string",
        "data 4500", "data",
    };
    static const char *const bad[] = {
        "number -1", "number 18446744073709551616", "number", "number 1x", "bool 2", "data 450",
        "data zz", "text hello", "", "numbers 1",
    };
    struct entry_builder b = { 0 };
    struct plat_entry_set set;
    char out[128];

    (void)state;
    assert_int_equal(entry_builder_entry(&b, 1, 0, "e", "C"), 0);
    for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
        assert_int_equal(entry_value_check(good[i]), 0);
        assert_int_equal(entry_builder_parse(&b, "p", good[i]), 0);
    }
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(entry_value_check(bad[i]), -EINVAL);
        assert_int_equal(entry_builder_parse(&b, "p", bad[i]), -EINVAL);
    }
    entry_builder_finish(&b, &set);
    for (unsigned int i = 0; i < set.entry[0].nprops; i++) {
        FILE *fp = fmemopen(out, sizeof(out), "w");

        reg_write_value(fp, &set.entry[0].prop[i]);
        fclose(fp);
        out[strcspn(out, "\n")] = '\0';
        /* "string" and "data" with nothing after them are written with a space */
        assert_true(strcmp(out, good[i]) == 0 || (strncmp(out, good[i], strlen(good[i])) == 0 &&
                                                  strcmp(out + strlen(good[i]), " ") == 0));
    }
    entry_builder_free(&b);
}

static void
cluster_types_of_numbered_cpus(void **state)
{
    struct entry_builder b = { 0 };
    struct plat_entry_set set;
    struct plat_cpu_cluster c[4];
    unsigned int n;

    (void)state;
    entry_builder_entry(&b, 1, 0, "cpu0", "IOPlatformDevice");
    entry_builder_number(&b, "logical-cpu-id", 5);
    entry_builder_data(&b, "cluster-type", (const unsigned char *)"P\0", 2);
    entry_builder_entry(&b, 2, 0, "cpu1", "IOPlatformDevice");
    entry_builder_number(&b, "logical-cpu-id", 1);
    entry_builder_data(&b, "cluster-type", (const unsigned char *)"E", 1);      /* no NUL */
    entry_builder_entry(&b, 3, 0, "cpu2", "IOPlatformDevice");                 /* no cluster type: skipped */
    entry_builder_number(&b, "logical-cpu-id", 2);
    entry_builder_entry(&b, 4, 0, "cpu3", "IOPlatformDevice");                 /* id as data, not XNU's number: skipped */
    entry_builder_data(&b, "logical-cpu-id", (const unsigned char *)"\x03\x00\x00\x00", 4);
    entry_builder_data(&b, "cluster-type", (const unsigned char *)"E\0", 2);
    entry_builder_entry(&b, 5, 0, "cpu4", "IOPlatformDevice");                 /* type unprintable: skipped */
    entry_builder_number(&b, "logical-cpu-id", 4);
    entry_builder_data(&b, "cluster-type", (const unsigned char *)"\x01", 1);
    entry_builder_finish(&b, &set);
    assert_int_equal(reg_cpu_clusters(&set, c, 4, &n), 0);
    assert_int_equal(n, 2);
    assert_string_equal(c[0].cpu, "cpu5");
    assert_string_equal(c[0].type, "P");
    assert_string_equal(c[1].cpu, "cpu1");
    assert_string_equal(c[1].type, "E");
    assert_int_equal(reg_cpu_clusters(&set, c, 1, &n), 0);                   /* no more than room */
    assert_int_equal(n, 1);
    entry_builder_reset(&b);
    entry_builder_finish(&b, &set);
    assert_int_equal(reg_cpu_clusters(&set, c, 4, &n), -ENOENT);             /* Intel: none */
    entry_builder_free(&b);
}

/* A look-up from a property on finds a key recorded before it too (round
 * to the start), and leaves the next look-up after what it found. */
static void
a_key_is_found_from_any_property_on(void **state)
{
    struct entry_builder b = { 0 };
    struct plat_entry_set set;
    unsigned int from = 2;

    (void)state;
    entry_builder_entry(&b, 1, 0, "disk", "IOBlockStorageDriver");
    entry_builder_number(&b, "Statistics.Bytes%20(Read)", 7);
    entry_builder_number(&b, "Statistics.Bytes%20(Write)", 8);
    entry_builder_number(&b, "Whole", 1);
    entry_builder_finish(&b, &set);
    assert_ptr_equal(entry_prop_key_from(&set.entry[0], "Statistics.Bytes (Read)", &from), &set.entry[0].prop[0]);
    assert_int_equal(from, 1);
    assert_ptr_equal(entry_prop_key_from(&set.entry[0], "Statistics.Bytes (Write)", &from), &set.entry[0].prop[1]);
    assert_int_equal(from, 2);
    assert_null(entry_prop_key_from(&set.entry[0], "Statistics.Bytes", &from));     /* a prefix is not the key */
    assert_int_equal(from, 2);
    assert_ptr_equal(entry_prop_key(&set.entry[0], "Whole"), &set.entry[0].prop[2]);
    entry_builder_free(&b);
}

static uint64_t fixed_now;

static uint64_t
fixed_clock(void)
{
    return fixed_now;
}

/* A platform replaying snapshot text from its start. The file is parsed
 * whole at open, so it is removed at once. */
static void
open_text(struct platform *p, const char *text)
{
    char path[] = "/tmp/pmda-darwin-registry-XXXXXX", msg[512];
    int fd = mkstemp(path);

    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    assert_int_equal(platform_snapshot_open(p, path, msg, sizeof(msg)), 0);
    unlink(path);
    fixed_now = 1;
    platform_snapshot_set_clock(p, fixed_clock);
}

static void
registry_entries_replay_and_come_and_go(void **state)
{
    static const char text[] =
        "pmda-darwin-snapshot 1\n"
        "ioreg[IODeviceTree:/cpus#0x10].class IOPlatformDevice\n"
        "ioreg[IODeviceTree:/cpus#0x10].name cpu0\n"
        "ioreg[IODeviceTree:/cpus#0x10].parent 0xf\n"
        "ioreg[IODeviceTree:/cpus#0x10].prop.logical-cpu-id number 0\n"
        "ioreg[IODeviceTree:/cpus#0x10].prop.cluster-type data 4500\n"
        "ioreg[IOBlockStorageDriver#0x20].class IOBlockStorageDriver\n"
        "sample 100\n"
        "ioreg[IODeviceTree:/cpus#0x11].class IOPlatformDevice\n"
        "ioreg[IODeviceTree:/cpus#0x11].prop.logical-cpu-id number 1\n"
        "ioreg[IODeviceTree:/cpus#0x11].prop.cluster-type data 5000\n"
        "ioreg[IODeviceTree:/cpus#0x11].prop.cpu-id number 7\n"
        "sample 105\n"
        "sample 110\n";
    struct platform p;
    struct plat_entry_set set;
    struct plat_topology t;

    (void)state;
    open_text(&p, text);
    assert_string_equal(platform_snapshot_notes(&p), "");
    assert_int_equal(p.query(p.ctx, &plat_queries[PLAT_QUERY_CPUS], &set), 0);
    assert_int_equal(set.n, 2);
    assert_int_equal(set.entry[0].id, 0x10);
    assert_int_equal(set.entry[0].parent, 0xf);
    assert_string_equal(set.entry[0].name, "cpu0");
    assert_int_equal(set.entry[1].id, 0x11);
    assert_int_equal(entry_prop(&set.entry[1], "logical-cpu-id")->number, 1);
    assert_null(entry_prop(&set.entry[1], "cpu-id"));    /* the CPUs' query does not ask for it */
    memset(&t, 0, sizeof(t));
    assert_int_equal(p.topology(p.ctx, &t), 0);
    assert_int_equal(t.clusters_status, 0);
    assert_int_equal(t.nclusters, 2);
    assert_string_equal(t.cluster[1].cpu, "cpu1");
    assert_string_equal(t.cluster[1].type, "P");
    fixed_now = 1 + 6000000;                           /* the second sample: 0x11 is gone */
    assert_int_equal(p.query(p.ctx, &plat_queries[PLAT_QUERY_CPUS], &set), 0);
    assert_int_equal(set.n, 1);
    assert_int_equal(set.entry[0].id, 0x10);
    p.close(p.ctx);
}

/* A replayed entry has the properties its query asks for, as the live
 * reader records them, whatever else an imported dump holds: a key names a
 * property, or with '.' a key inside a dictionary property, and all that
 * lies below it. */
static void
replay_answers_only_the_keys_a_query_asks_for(void **state)
{
    static const char text[] =
        "pmda-darwin-snapshot 1\n"
        "ioreg[IOBlockStorageDriver#0x20].class IOBlockStorageDriver\n"
        "ioreg[IOBlockStorageDriver#0x20].prop.Statistics.Bytes%20(Read) number 7\n"
        "ioreg[IOBlockStorageDriver#0x20].prop.Statistics%20Extra number 8\n"
        "ioreg[IOBlockStorageDriver#0x20].prop.Device%20Characteristics.Medium%20Type string Solid State\n"
        "ioreg[IOBlockStorageDriver#0x20].prop.Device%20Characteristics.Serial%20Number string X1\n"
        "ioreg[IOBlockStorageDriver#0x20].prop.Size number 500277792768\n"
        "ioreg[IOBlockStorageDriver#0x20].prop.Size2 number 1\n"
        "ioreg[SMC:fans#0x1].class SMCKey\n"
        "ioreg[SMC:fans#0x1].name F0Ac\n"
        "ioreg[SMC:fans#0x1].prop.type string fpe2\n"
        "sample 100\n";
    struct platform p;
    struct plat_entry_set set;

    (void)state;
    open_text(&p, text);
    assert_int_equal(p.query(p.ctx, &plat_queries[PLAT_QUERY_DISKS], &set), 0);
    assert_int_equal(set.n, 1);
    assert_int_equal(entry_prop(&set.entry[0], "Statistics.Bytes%20(Read)")->number, 7);
    assert_string_equal(entry_prop(&set.entry[0], "Device%20Characteristics.Medium%20Type")->text, "Solid State");
    assert_int_equal(entry_prop(&set.entry[0], "Size")->number, 500277792768ull);
    assert_null(entry_prop(&set.entry[0], "Statistics%20Extra"));
    assert_null(entry_prop(&set.entry[0], "Device%20Characteristics.Serial%20Number"));
    assert_null(entry_prop(&set.entry[0], "Size2"));
    assert_int_equal(set.entry[0].nprops, 3);
    /* an SMC query's keys name SMC keys, not properties: its entries keep theirs */
    assert_int_equal(p.query(p.ctx, &plat_queries[PLAT_QUERY_SMC_FANS], &set), 0);
    assert_string_equal(entry_prop(&set.entry[0], "type")->text, "fpe2");
    p.close(p.ctx);
}

static void
a_malformed_registry_value_is_named_with_its_line(void **state)
{
    static const char text[] = "pmda-darwin-snapshot 1\n"
                               "ioreg[IODeviceTree:/cpus#0x10].class IOPlatformDevice\n"
                               "ioreg[IODeviceTree:/cpus#0x10].prop.cluster-type data 4\n"
                               "sample 100\n";
    struct platform p;
    struct plat_entry_set set;
    struct plat_host h;

    (void)state;
    open_text(&p, text);
    assert_int_equal(p.query(p.ctx, &plat_queries[PLAT_QUERY_CPUS], &set), -EINVAL);
    assert_non_null(strstr(p.error(p.ctx), ":3: "));
    assert_non_null(strstr(p.error(p.ctx), "registry value"));
    assert_int_equal(p.host(p.ctx, &h), 0);              /* other calls answer for themselves: */
    assert_int_equal(h.page_status, -ENOENT);               /* each host fact is missing */
    assert_int_equal(h.model_status, -ENOENT);
    p.close(p.ctx);
}

/* A decoder's key list (key_list.h): each field from the first
 * of its places that holds a number or a flag, a key with characters a
 * path escapes found by its raw form, a field already read left as it is. */
static void
a_key_list_reads_each_field_at_its_first_place(void **state)
{
    enum { BYTES, FLAG, TEXT };
    static const struct key_place places[] = {
        { BYTES, "Statistics.Bytes (Read)" }, { BYTES, "Other" }, { FLAG, "Missing" }, { FLAG, "Flag" },
        { TEXT, "Text" },
    };
    struct entry_builder b = { 0 };
    struct plat_entry_set set;
    char path[64];
    uint64_t value[3] = { 0 };
    unsigned int have = 0;
    int len;

    (void)state;
    len = entry_path_append(path, sizeof(path), 0, "Statistics", strlen("Statistics"));
    assert_true(len > 0);
    assert_true(entry_path_append(path, sizeof(path), (size_t)len, "Bytes (Read)", strlen("Bytes (Read)")) > 0);
    assert_int_equal(entry_builder_entry(&b, 1, 0, "driver", "IOBlockStorageDriver"), 0);
    assert_int_equal(entry_builder_number(&b, path, 7), 0);
    assert_int_equal(entry_builder_number(&b, "Other", 9), 0);
    assert_int_equal(entry_builder_bool(&b, "Flag", 1), 0);
    assert_int_equal(entry_builder_string(&b, "Text", "not a number"), 0);
    entry_builder_finish(&b, &set);

    read_key_places(&set.entry[0], places, REG_NPLACES(places), &have, value);
    assert_int_equal(have, 1u << BYTES | 1u << FLAG);
    assert_int_equal(value[BYTES], 7);
    assert_int_equal(value[FLAG], 1);
    assert_true(key_places_wanted(places, REG_NPLACES(places), have));    /* the text gave no number */

    value[BYTES] = 42;
    read_key_places(&set.entry[0], places, REG_NPLACES(places), &have, value);
    assert_int_equal(value[BYTES], 42);
    entry_builder_free(&b);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(paths_escape_what_would_split_them),
        cmocka_unit_test(the_builder_keeps_every_value_across_growth),
        cmocka_unit_test(the_builder_has_bounds),
        cmocka_unit_test(values_round_trip_through_their_text),
        cmocka_unit_test(cluster_types_of_numbered_cpus),
        cmocka_unit_test(a_key_list_reads_each_field_at_its_first_place),
        cmocka_unit_test(a_key_is_found_from_any_property_on),
        cmocka_unit_test(registry_entries_replay_and_come_and_go),
        cmocka_unit_test(replay_answers_only_the_keys_a_query_asks_for),
        cmocka_unit_test(a_malformed_registry_value_is_named_with_its_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
