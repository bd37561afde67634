/*
 * Conversions and derivations at their edges: units, counters, the memory
 * figures of src/collectors/common/vm_derived.c, the CPU level rules of src/collectors/common/cpu_topology.c,
 * and a row bound to a struct field (collector_field).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "collector.h"
#include "convert.h"
#include "cpu_ticks_sum.h"
#include "cpu_topology.h"
#include "metric_units.h"
#include "vm_copy_check.h"
#include "vm_derived.h"

static void
pages_to_kbytes_at_both_page_sizes(void **state)
{
    (void)state;
    assert_int_equal(pages_to_kbytes(1, 16384), 16);
    assert_int_equal(pages_to_kbytes(1, 4096), 4);
    assert_int_equal(pages_to_kbytes(0, 16384), 0);
    /* 2^32 - 1 pages of 16 KiB: more than 32 bits of kilobytes */
    assert_int_equal(pages_to_kbytes(UINT32_MAX, 16384), (uint64_t)UINT32_MAX * 16);
    /* a page size that is not a multiple of 1 KiB still converts exactly */
    assert_int_equal(pages_to_kbytes(3, 1536), 4);
    assert_int_equal(pages_to_kbytes(UINT64_MAX / 2, 1536), (uint64_t)(((unsigned __int128)(UINT64_MAX / 2) * 1536) / 1024));
}

static void
ticks_to_msec_without_overflow(void **state)
{
    (void)state;
    assert_int_equal(ticks_to_msec(0, 100), 0);
    assert_int_equal(ticks_to_msec(1, 100), 10);
    assert_int_equal(ticks_to_msec(12345, 100), 123450);
    assert_int_equal(ticks_to_msec(7, 128), 54);        /* 54.6875 truncated */
    assert_int_equal(ticks_to_msec(UINT32_MAX, 100), (uint64_t)UINT32_MAX * 10);
    /* ticks * 1000 would overflow; the split keeps it exact */
    assert_int_equal(ticks_to_msec(UINT64_MAX / 10, 100), (UINT64_MAX / 10 / 100) * 1000 + ((UINT64_MAX / 10) % 100) * 10);
}

static void
wrap32_extends_past_the_wrap(void **state)
{
    struct wrap32 w = { 0 };

    (void)state;
    assert_int_equal(wrap32_extend(&w, UINT32_MAX - 5), UINT32_MAX - 5);
    assert_int_equal(wrap32_extend(&w, UINT32_MAX), UINT32_MAX);
    assert_int_equal(wrap32_extend(&w, 4), (uint64_t)UINT32_MAX + 5);
    assert_int_equal(wrap32_extend(&w, 4), (uint64_t)UINT32_MAX + 5);   /* no change */
    /* the longest step still read as forward */
    assert_int_equal(wrap32_extend(&w, 4u + INT32_MAX), (uint64_t)UINT32_MAX + 5 + INT32_MAX);
}

/* A reading below the last by less than half the range is an older copy
 * (host_statistics past its rate limit gives another process's, xnu-11417.101.15
 * osfmk/kern/host.c:626-639, :733-780), not a wrap: the total holds, and
 * counts on from the highest reading once the counter passes it. */
static void
wrap32_holds_a_step_back(void **state)
{
    struct wrap32 w = { 0 };

    (void)state;
    assert_int_equal(wrap32_extend(&w, 1000), 1000);
    assert_int_equal(wrap32_extend(&w, 990), 1000);
    assert_true(w.held);
    assert_int_equal(wrap32_extend(&w, 995), 1000);
    assert_int_equal(wrap32_extend(&w, 1005), 1005);
    assert_false(w.held);
    assert_int_equal(wrap32_extend(&w, 4u + INT32_MAX), 4 + (uint64_t)INT32_MAX);
    assert_int_equal(wrap32_extend(&w, 1005), 4 + (uint64_t)INT32_MAX);     /* 2^31 - 1 back */
}

/* The host's ticks are the processors' added in 32 bits (xnu-11417.101.15
 * osfmk/kern/host.c:504-519). */
static void
cpu_ticks_add_wraps_as_the_kernel(void **state)
{
    struct plat_cpu_ticks sum = { .user = UINT32_MAX - 1, .sys = 7, .idle = 100, .nice = 0 };
    const struct plat_cpu_ticks cpu = { .user = 5, .sys = 3, .idle = UINT32_MAX, .nice = 0 };

    (void)state;
    cpu_ticks_add(&sum, &cpu);
    assert_int_equal(sum.user, 3);
    assert_int_equal(sum.sys, 10);
    assert_int_equal(sum.idle, 99);
    assert_int_equal(sum.nice, 0);
}

/* Only vm_statistics64's counters count: a gauge may go down. */
static void
vm_counter_stepped_back_names_the_counter(void **state)
{
    const struct plat_vm before = { .free_count = 5000, .faults = 100, .pageins = 7, .purges = 3 };
    struct plat_vm now = before;

    (void)state;
    assert_null(vm_counter_stepped_back(&before, &now));
    now.free_count = 4000;
    now.faults = 150;
    assert_null(vm_counter_stepped_back(&before, &now));
    now.purges = 2;
    assert_string_equal(vm_counter_stepped_back(&before, &now), "purges");
}

static void
loadavg_fixed_point(void **state)
{
    (void)state;
    assert_float_equal(loadavg_value(2048, 2048), 1.0, 1e-6);
    assert_float_equal(loadavg_value(5120, 2048), 2.5, 1e-6);
    assert_float_equal(loadavg_value(0, 2048), 0.0, 1e-6);
    assert_float_equal(loadavg_value(UINT32_MAX, 2048), 2097151.999, 1.0);
}

static void
uptime_edges(void **state)
{
    struct plat_clock c = { .boot_sec = 1000, .boot_usec = 900000, .now_sec = 1010, .now_usec = 100000 };
    uint32_t up;

    (void)state;
    assert_int_equal(uptime_seconds(&c, &up), 0);
    assert_int_equal(up, 9);                /* 9.2 s */
    c.now_sec = 999;
    assert_int_equal(uptime_seconds(&c, &up), -ERANGE);
    c.now_sec = 1000 + (int64_t)UINT32_MAX + 10;
    assert_int_equal(uptime_seconds(&c, &up), -ERANGE);
    c.boot_sec = INT64_MIN;                 /* a clock no Mac gives: refused, no overflow on the way */
    c.now_sec = INT64_MAX;
    c.now_usec = INT32_MIN;
    assert_int_equal(uptime_seconds(&c, &up), -ERANGE);
    c.boot_sec = INT64_MAX;
    c.now_sec = INT64_MIN;
    assert_int_equal(uptime_seconds(&c, &up), -ERANGE);
}

static void
app_and_used_memory(void **state)
{
    struct plat_vm vm = { .internal_page_count = 2600, .purgeable_count = 300, .wire_count = 400,
                          .compressor_page_count = 50 };

    (void)state;
    assert_int_equal(vm_app_pages(&vm), 2300);
    assert_int_equal(vm_used_pages(&vm), 2300 + 400 + 50);
    /* more purgeable than anonymous (read at different moments): no app memory, not a wrap */
    vm.purgeable_count = 2601;
    assert_int_equal(vm_app_pages(&vm), 0);
    assert_int_equal(vm_used_pages(&vm), 450);
    /* every 32-bit count at its maximum still adds up in 64 bits */
    vm = (struct plat_vm){ .internal_page_count = UINT32_MAX, .wire_count = UINT32_MAX,
                           .compressor_page_count = UINT32_MAX };
    assert_int_equal(vm_used_pages(&vm), 3ULL * UINT32_MAX);
}

static void
available_memory(void **state)
{
    struct plat_vm vm = { .internal_page_count = 1000, .wire_count = 24, .compressor_page_count = 0 };

    (void)state;
    assert_int_equal(vm_available_bytes(&vm, 16ULL << 20, 16384), (16ULL << 20) - 1024ULL * 16384);
    assert_int_equal(vm_available_bytes(&vm, 1024ULL * 16384, 16384), 0);      /* exactly used up */
    assert_int_equal(vm_available_bytes(&vm, 1000ULL * 16384, 16384), 0);      /* more used than there is */
    /* 2^24 pages of 2^40 bytes is 2^64 bytes, which wraps to 0 in 64 bits: none available, not all */
    vm = (struct plat_vm){ .internal_page_count = 1U << 24 };
    assert_int_equal(vm_available_bytes(&vm, 64ULL << 30, 1ULL << 40), 0);
}

static void
compression_ratio_and_an_empty_compressor(void **state)
{
    struct plat_vm vm = { .compressor_page_count = 50, .total_uncompressed_pages_in_compressor = 160 };
    double ratio = -1;

    (void)state;
    assert_int_equal(vm_compression_ratio(&vm, &ratio), 0);
    assert_float_equal(ratio, 3.2, 1e-12);
    vm.compressor_page_count = 0;
    ratio = -1;
    assert_int_equal(vm_compression_ratio(&vm, &ratio), -ERANGE);
    assert_float_equal(ratio, -1, 0);          /* left alone: no value is made up */
    vm = (struct plat_vm){ .compressor_page_count = 1, .total_uncompressed_pages_in_compressor = UINT64_MAX };
    assert_int_equal(vm_compression_ratio(&vm, &ratio), 0);
    assert_true(ratio > 1.8e19);
}

/* Levels and CPUs as real Macs have them (shared/real-macs/cpus): an
 * M1 MacBook Air's device tree (4 E, 4 P) with hw.perflevel0 "Performance"
 * 4 and perflevel1 "Efficiency" 4; an M5 Max's cluster types (12 M, 6 P)
 * with "Super" 6 and "Performance" 12, where matching a type's letter to
 * a level's name would call the P cores "Performance". */
static int
levels_of(const char *const *types, unsigned int n, const uint64_t *cpus, unsigned int nlevels, int *level)
{
    struct plat_cpu_cluster c[32];
    struct plat_perflevel l[PLAT_MAX_PERFLEVELS];

    memset(l, 0, sizeof(l));
    for (unsigned int i = 0; i < n; i++) {
        snprintf(c[i].cpu, sizeof(c[i].cpu), "cpu%u", i);
        snprintf(c[i].type, sizeof(c[i].type), "%s", types[i] ? types[i] : "");
    }
    for (unsigned int i = 0; i < nlevels; i++) {
        l[i].value[PLAT_PL_LOGICALCPU] = cpus[i];
        l[i].status[PLAT_PL_LOGICALCPU] = cpus[i] ? 0 : -ENOENT;
    }
    return cpu_levels_of_clusters(c, n, l, nlevels, level);
}

static void
cpu_levels_from_cluster_types(void **state)
{
    const char *const m1[] = { "E", "E", "E", "E", "P", "P", "P", "P" };
    const char *const m5max[] = { "M", "M", "M", "M", "M", "M", "M", "M", "M", "M", "M", "M",
                                  "P", "P", "P", "P", "P", "P" };
    const char *const odd[] = { "E", "X" }, *const lower[] = { "e", "p" }, *const none[] = { NULL, NULL };
    const uint64_t m1_levels[] = { 4, 4 }, m5max_levels[] = { 6, 12 }, two[] = { 1, 1 }, unknown[] = { 0, 0 };
    const uint64_t wrong[] = { 5, 3 }, one[] = { 8 };
    int level[32];

    (void)state;
    assert_int_equal(levels_of(m1, 8, m1_levels, 2, level), 0);
    assert_int_equal(level[0], 1);                                 /* E: the second level, "Efficiency" */
    assert_int_equal(level[7], 0);
    assert_int_equal(levels_of(m5max, 18, m5max_levels, 2, level), 0);
    assert_int_equal(level[0], 1);                                 /* M: "Performance", the second level */
    assert_int_equal(level[12], 0);                                /* P: "Super" */
    assert_int_equal(levels_of(m1, 8, unknown, 2, level), 0);      /* counts unread: the order alone */
    assert_int_equal(level[4], 0);
    assert_int_equal(levels_of(lower, 2, two, 2, level), 0);       /* case aside */
    assert_int_equal(level[0], 1);
    /* no guess: an unknown type, a level of another size, more levels than types, none */
    assert_int_equal(levels_of(odd, 2, two, 2, level), -1);
    assert_int_equal(level[0], -1);
    assert_int_equal(levels_of(m1, 8, wrong, 2, level), -1);
    assert_int_equal(level[4], -1);
    assert_int_equal(levels_of(m1, 4, m1_levels, 2, level), -1);   /* only E cores seen */
    assert_int_equal(levels_of(none, 2, two, 2, level), -1);
    assert_int_equal(levels_of(m1, 8, m1_levels, 0, level), -1);   /* no levels at all */
    /* one level (Intel): every CPU is in it, with or without a cluster type */
    assert_int_equal(levels_of(none, 2, one, 1, level), 0);
    assert_int_equal(level[1], 0);
}

static void
level_words(void **state)
{
    char word[16];

    (void)state;
    cpu_level_word("Performance", word, sizeof(word));
    assert_string_equal(word, "performance");
    cpu_level_word("Super Cores-2", word, sizeof(word));
    assert_string_equal(word, "supercores2");
    cpu_level_word("", word, sizeof(word));
    assert_string_equal(word, "");
    cpu_level_word("Efficiency", word, 5);     /* cut to fit, still terminated */
    assert_string_equal(word, "effi");
}

/* A platform struct as collectors bind them: a status beside each part. */
struct sample {
    int status;
    uint32_t pages;
    uint64_t bytes;
    uint64_t count;
    uint64_t page_size;
    uint64_t ns;
    uint32_t flags;
    const char *name;
    int32_t nice;
    int64_t offset;
    double watts;
};

static const struct metric_row bound[] = {
    { "pages", 0, 0, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, UNITS_NONE,
      FIELD_OF(struct sample, pages, status, FIELD_PLAIN) },
    { "kbytes", 0, 1, PM_TYPE_U64, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, UNITS_NONE,
      FIELD_SCALED_OF(struct sample, pages, offsetof(struct sample, status), page_size) },
    { "bytes", 0, 2, PM_TYPE_U64, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, UNITS_NONE,
      FIELD_OF(struct sample, bytes, status, FIELD_BYTES_KB) },
    { "count", 0, 3, PM_TYPE_U64, COLLECTOR_NO_INDOM, PM_SEM_COUNTER, UNITS_NONE,
      FIELD_ALWAYS(struct sample, count, FIELD_PLAIN) },
    { "ms", 0, 4, PM_TYPE_U64, COLLECTOR_NO_INDOM, PM_SEM_COUNTER, UNITS_NONE,
      FIELD_ALWAYS(struct sample, ns, FIELD_NS_MS) },
    { "up", 0, 5, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, UNITS_NONE,
      FIELD_FLAG_OF(struct sample, flags, 0x41) },
    { "name", 0, 6, PM_TYPE_STRING, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, UNITS_NONE,
      FIELD_ALWAYS(struct sample, name, FIELD_STRING) },
    { "nice", 0, 7, PM_TYPE_32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, UNITS_NONE,
      FIELD_ALWAYS(struct sample, nice, FIELD_SIGNED) },
    { "offset", 0, 8, PM_TYPE_32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, UNITS_NONE,
      FIELD_ALWAYS(struct sample, offset, FIELD_SIGNED) },
    { "watts", 0, 9, PM_TYPE_FLOAT, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, UNITS_NONE,
      FIELD_ALWAYS(struct sample, watts, FIELD_DOUBLE) },
};

static void
bound_rows_read_their_field_and_status(void **state)
{
    struct sample v = { 0, 3000000000u, 10239, UINT64_MAX, 16384, 2999999, 0x41, "Wi-Fi", -20, INT64_C(-3000000000), 2.5 };
    pmAtomValue atom;

    (void)state;
    assert_int_equal(collector_field(&bound[0], &v, &atom), PMDA_FETCH_STATIC);
    assert_int_equal(atom.ul, 3000000000u);
    assert_int_equal(collector_field(&bound[1], &v, &atom), PMDA_FETCH_STATIC);
    assert_int_equal(atom.ull, 3000000000ull * 16);         /* past 32 bits: widened first */
    v.page_size = 4096;
    assert_int_equal(collector_field(&bound[1], &v, &atom), PMDA_FETCH_STATIC);
    assert_int_equal(atom.ull, 3000000000ull * 4);
    v.page_size = 0;                                        /* no unit size known: no value, not 0 */
    assert_int_equal(collector_field(&bound[1], &v, &atom), PM_ERR_AGAIN);
    assert_int_equal(collector_field(&bound[2], &v, &atom), PMDA_FETCH_STATIC);
    assert_int_equal(atom.ull, 9);                          /* whole KiB, rounded down */
    assert_int_equal(collector_field(&bound[3], &v, &atom), PMDA_FETCH_STATIC);
    assert_true(atom.ull == UINT64_MAX);
    assert_int_equal(collector_field(&bound[4], &v, &atom), PMDA_FETCH_STATIC);
    assert_int_equal(atom.ull, 2);                          /* whole ms, rounded down */
    assert_int_equal(collector_field(&bound[5], &v, &atom), PMDA_FETCH_STATIC);
    assert_int_equal(atom.ul, 1);
    v.flags = 0x40;                                         /* one of the mask's bits is not all of them */
    assert_int_equal(collector_field(&bound[5], &v, &atom), PMDA_FETCH_STATIC);
    assert_int_equal(atom.ul, 0);
    assert_int_equal(collector_field(&bound[6], &v, &atom), PMDA_FETCH_STATIC);
    assert_string_equal(atom.cp, "Wi-Fi");
    v.name = NULL;                                          /* no string: no value, not "" */
    assert_int_equal(collector_field(&bound[6], &v, &atom), PMDA_FETCH_NOVALUES);
    assert_int_equal(collector_field(&bound[7], &v, &atom), PMDA_FETCH_STATIC);
    assert_int_equal(atom.l, -20);
    assert_int_equal(collector_field(&bound[8], &v, &atom), PM_ERR_AGAIN);     /* past 32 bits: never cut */
    v.offset = -7;
    assert_int_equal(collector_field(&bound[8], &v, &atom), PMDA_FETCH_STATIC);
    assert_int_equal(atom.l, -7);
    assert_int_equal(collector_field(&bound[9], &v, &atom), PMDA_FETCH_STATIC);
    assert_true(atom.f == 2.5f);

    /* a failed part: its status's error, a missing source told apart from a failure */
    v.status = -ENOENT;
    assert_int_equal(collector_field(&bound[0], &v, &atom), PM_ERR_APPVERSION);
    v.status = -EIO;
    assert_int_equal(collector_field(&bound[2], &v, &atom), PM_ERR_AGAIN);
    assert_int_equal(collector_field(&bound[3], &v, &atom), PMDA_FETCH_STATIC);   /* no status */
}

/* A 32-bit kernel counter the refresh extends into the collector's state
 * (collector_extend) and the core serves from there, with its status. */
struct counted {
    int status;
    struct wrap32 drops;
};
struct counted_source {
    uint32_t other, drops;
};

static const struct metric_row counted_rows[] = {
    { "drops", 0, 0, PM_TYPE_U64, COLLECTOR_NO_INDOM, PM_SEM_COUNTER, UNITS_NONE,
      FIELD_WRAP32_OF(struct counted, drops, offsetof(struct counted, status), struct counted_source, drops) },
};

static void
wrapping_counters_are_served_from_the_state(void **state)
{
    struct counted c = { 0 };
    struct counted_source source = { 7, UINT32_MAX - 1 };
    pmAtomValue atom;

    (void)state;
    collector_extend(counted_rows, 1, &source, &c);
    assert_int_equal(collector_field(&counted_rows[0], &c, &atom), PMDA_FETCH_STATIC);
    assert_true(atom.ull == UINT32_MAX - 1);
    source.drops = 3;                                       /* 5 on, past the wrap */
    collector_extend(counted_rows, 1, &source, &c);
    assert_int_equal(collector_field(&counted_rows[0], &c, &atom), PMDA_FETCH_STATIC);
    assert_true(atom.ull == (uint64_t)UINT32_MAX + 4);
    c.status = PM_ERR_PERMISSION;                           /* counters withheld: no value */
    assert_int_equal(collector_field(&counted_rows[0], &c, &atom), PM_ERR_PERMISSION);
}

/* A collector's instances as it keeps them: a pointer to entries
 * (INSTANCES_AT) or an array in the state (INSTANCES_IN). */
struct thing {
    uint64_t value;
    int inst;
};
struct things {
    struct thing *at;
    unsigned int nat;
    struct thing in[3];
    unsigned int nin;
};

static void
the_core_finds_an_instance_in_its_table(void **state)
{
    struct thing kept[] = { { 10, 7 }, { 20, 3 } };
    struct things s = { kept, 2, { { 30, 0 }, { 40, 5 }, { 50, 9 } }, 2 };
    const struct indom_def at = { .table = INSTANCES_AT(struct things, at, nat, struct thing, inst) };
    const struct indom_def in = { .table = INSTANCES_IN(struct things, in, nin, struct thing, inst) };
    const struct indom_def none = { 0 };

    (void)state;
    assert_ptr_equal(collector_entry(&at, &s, 3), &kept[1]);
    assert_ptr_equal(collector_entry(&at, &s, 7), &kept[0]);
    assert_null(collector_entry(&at, &s, 5));
    assert_ptr_equal(collector_entry(&in, &s, 5), &s.in[1]);
    assert_null(collector_entry(&in, &s, 9));               /* past the count: gone at the last refresh */
    assert_ptr_equal(collector_entry(&none, &s, 5), &s);    /* no table: the state */
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pages_to_kbytes_at_both_page_sizes),
        cmocka_unit_test(bound_rows_read_their_field_and_status),
        cmocka_unit_test(the_core_finds_an_instance_in_its_table),
        cmocka_unit_test(wrapping_counters_are_served_from_the_state),
        cmocka_unit_test(ticks_to_msec_without_overflow),
        cmocka_unit_test(wrap32_extends_past_the_wrap),
        cmocka_unit_test(wrap32_holds_a_step_back),
        cmocka_unit_test(cpu_ticks_add_wraps_as_the_kernel),
        cmocka_unit_test(vm_counter_stepped_back_names_the_counter),
        cmocka_unit_test(loadavg_fixed_point),
        cmocka_unit_test(uptime_edges),
        cmocka_unit_test(app_and_used_memory),
        cmocka_unit_test(available_memory),
        cmocka_unit_test(compression_ratio_and_an_empty_compressor),
        cmocka_unit_test(cpu_levels_from_cluster_types),
        cmocka_unit_test(level_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
