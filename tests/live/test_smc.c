/*
 * smc.c on the double: the temperature and fan keys of every SMC key dump
 * in the corpus read back as the dump has them, each key's info asked
 * once, and what a Mac without an SMC (a VM), a refused connection (macOS
 * 27's "not permitted"), an SMC busy around sleep and wake or a passing
 * SMC error makes of a read, and how often the SMC is asked then.
 */
#include "harness.h"
#include "real_macs.h"
#include "entry_props.h"
#include "entry_set.h"
#include "thermal_decode.h"
#include "cpu_rails.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define TEMPERATURES (&plat_queries[PLAT_QUERY_SMC_TEMPERATURES])
#define FANS (&plat_queries[PLAT_QUERY_SMC_FANS])
#define POWER (&plat_queries[PLAT_QUERY_SMC_POWER])

#define IO_TIMEOUT ((int)0xe00002d6)    /* kIOReturnTimeout, IOReturn.h */

static const unsigned char sp78_41[] = { 0x29, 0x40 };     /* 41.25 °C */

/* The AppleSMC service, as every Mac but a VM has it. */
static void
applesmc(void)
{
    dbl_reg_attach(dbl_reg_entry(0x100000400, "SMC", "0", "AppleSMC", NULL), "IOService", DBL_REG_ROOT);
}

static struct plat_entry_set
read_keys(struct platform *p, const struct plat_query *q, int expect)
{
    struct plat_entry_set set = { 0 };

    assert_int_equal(p->query(p->ctx, q, &set), expect);
    return set;
}

static unsigned int
nkeys(const char *const *keys)
{
    unsigned int n = 0;

    while (keys[n] != NULL)
        n++;
    return n;
}

/* Each key of the query the dump has is an entry with the dump's type and
 * bytes (none where it cannot be read); no other key is. */
static void
assert_as_dumped(const char *dump, const struct plat_entry_set *set, const struct plat_query *q)
{
    unsigned int found = 0;

    for (const char *const *key = q->keys; *key != NULL; key++) {
        const struct plat_entry *e = entry_named(set, *key);
        const struct plat_prop *type, *bytes;
        unsigned char want[32];
        unsigned int len;
        char kind[5];

        if (!real_smc_key(*key, kind, want, &len)) {
            if (e != NULL)
                fail_msg("%s: %s is not in the dump, yet read", dump, *key);
            continue;
        }
        if (e == NULL)
            fail_msg("%s: %s is in the dump, not read", dump, *key);
        found++;
        type = entry_prop(e, "type");
        bytes = entry_prop(e, "bytes");
        assert_non_null(type);
        assert_string_equal(type->text, kind);
        assert_int_equal(bytes != NULL ? bytes->len : 0, len);
        if (len > 0)
            assert_memory_equal(bytes->data, want, len);
    }
    assert_int_equal(set->n, found);
}

/* Whether the last dump loaded has any key of q. */
static int
dumped_any(const struct plat_query *q)
{
    unsigned char bytes[32];
    unsigned int len;
    char kind[5];

    for (const char *const *key = q->keys; *key != NULL; key++)
        if (real_smc_key(*key, kind, bytes, &len))
            return 1;
    return 0;
}

static void
test_every_dumped_smc_reads_back_as_dumped(void **state)
{
    const char *folder = real_macs_file("smc");
    DIR *dir = opendir(folder);
    unsigned int dumps = 0;
    struct dirent *d;

    (void)state;
    assert_non_null(dir);
    while ((d = readdir(dir)) != NULL) {
        struct platform p;
        char path[4096];

        if (strstr(d->d_name, ".txt") == NULL)
            continue;
        snprintf(path, sizeof(path), "%s/%s", folder, d->d_name);
        live_setup(&p);
        applesmc();
        if (real_smc_keys(path) > 0) {      /* smcread dumps; not the M3 Max's power watch */
            static const enum plat_query_id queries[] = {
                PLAT_QUERY_SMC_TEMPERATURES, PLAT_QUERY_SMC_FANS, PLAT_QUERY_SMC_POWER, PLAT_QUERY_SMC_CPU_DIE,
                PLAT_QUERY_SMC_CPU_RAILS,
            };

            for (size_t q = 0; q < sizeof(queries) / sizeof(queries[0]); q++) {
                const struct plat_query *query = &plat_queries[queries[q]];
                struct plat_entry_set set = read_keys(&p, query, dumped_any(query) ? 0 : -ENOENT);

                assert_as_dumped(d->d_name, &set, query);
            }
            dumps++;
        }
        live_teardown(&p);
    }
    closedir(dir);
    assert_true(dumps > 0);
}

/* What the whole Mac draws (PSTR), as two dumps give it: an iMac13,1's
 * sp96 071C is 0x071c / 64 = 28.4375 W; the iMac Pro's flt, whose bytes
 * 67 26 b0 42 are the little-endian float 0x42b02667, 88.075 W. */
static void
test_system_power_of_sp96_and_flt_dumps(void **state)
{
    static const struct {
        const char *dump;
        double watts;
    } macs[] = { { "smc/imac13_1.txt", 28.4375 }, { "smc/imacpro1_1.txt", 88.0750 } };

    (void)state;
    for (size_t i = 0; i < sizeof(macs) / sizeof(macs[0]); i++) {
        const char *dump = real_macs_file(macs[i].dump);    /* skips here, before the source is open */
        struct platform p;
        struct plat_entry_set set;
        double watts;

        live_setup(&p);
        applesmc();
        assert_true(real_smc_keys(dump) > 0);
        set = read_keys(&p, &plat_queries[PLAT_QUERY_SMC_POWER], 0);
        assert_int_equal(set.n, 1);
        assert_int_equal(smc_entry_value(entry_named(&set, "PSTR"), &watts), 0);
        assert_true(fabs(watts - macs[i].watts) < 0.001);
        live_teardown(&p);
    }
}

/* An M3 Max's CPU rails (cpu_rails.h) read through smc.c and added up.
 * Synthetic: its owner published only the rails' sum, about 11.30 W under
 * a CPU stress (shared/real-macs/smc, macmon pull request 77); the five
 * flt values here are made up to add up to it. */
static void
test_an_m3_max_cpu_is_the_sum_of_its_rails(void **state)
{
    static const struct {
        const char *key;
        float watts;
    } rails[] = { { "PC02", 4.0f }, { "PC03", 0.5f }, { "PC42", 4.0f }, { "PC43", 0.5f }, { "PP5b", 2.3f } };
    const double stated = 11.30;
    struct platform *p = *state;
    struct plat_entry_set set;
    double watts;

    applesmc();
    for (size_t i = 0; i < sizeof(rails) / sizeof(rails[0]); i++)
        dbl_smc_key(rails[i].key, "flt ", &rails[i].watts, sizeof(rails[i].watts));   /* little-endian */
    set = read_keys(p, &plat_queries[PLAT_QUERY_SMC_CPU_RAILS], 0);
    assert_int_equal(set.n, sizeof(rails) / sizeof(rails[0]));
    assert_int_equal(cpu_rails_watts("Apple M3 Max", &set, &watts), 0);
    assert_true(fabs(watts - stated) < 1e-5);
    assert_int_equal(cpu_rails_watts("Apple M4 Max", &set, &watts), -ENOENT);
}

/* An M5 Pro's SMC as iSMC listed it (shared/real-macs/hid, iSMC issue 31):
 * its CPU cores' and GPU's keys are read, and the CPU die is its hottest
 * core, the GPU die its GPU key. */
static void
test_an_apple_silicon_smc_gives_its_cpu_and_gpu(void **state)
{
    struct platform *p = *state;
    unsigned int n = real_ismc_flt_keys(real_macs_file("hid/mac17-9-m5pro-ismc31.txt"));
    double cpu = 0, gpu = 0, v;
    struct sensor s[128];
    struct plat_entry_set set;
    unsigned int ns;

    applesmc();
    for (unsigned int i = 0; i < n; i++) {
        const char *description;

        real_ismc_flt_key(i, &description, &v);
        if (strncmp(description, "CPU ", 4) == 0 && v > cpu)
            cpu = v;
        if (strncmp(description, "GPU ", 4) == 0 && v > gpu)
            gpu = v;
    }
    set = read_keys(p, TEMPERATURES, 0);
    sensors_from_smc(&set, s, sizeof(s) / sizeof(s[0]), &ns);
    assert_int_equal(sensors_hottest_role(s, ns, SMC_CPU_DIE, &v), 0);
    assert_true(v == cpu);
    assert_int_equal(sensors_hottest_role(s, ns, SMC_GPU_DIE, &v), 0);
    assert_true(v == gpu);
}

/* Each key's size and type are asked once, the keys the SMC lacks too:
 * later reads ask only the bytes of the keys it has. */
static void
test_each_keys_info_is_asked_once(void **state)
{
    struct platform *p = *state;
    unsigned int before;

    applesmc();
    dbl_smc_key("TC0P", "sp78", sp78_41, 2);
    dbl_smc_key("TA0P", "sp78", sp78_41, 2);
    read_keys(p, TEMPERATURES, 0);
    assert_int_equal(dbl_calls("IOConnectCallStructMethod"), nkeys(TEMPERATURES->keys) + 2);
    before = dbl_calls("IOConnectCallStructMethod");
    read_keys(p, TEMPERATURES, 0);
    assert_int_equal(dbl_calls("IOConnectCallStructMethod") - before, 2);
}

/* Only 0x84 says a key does not exist; a collision, a timeout or a failed
 * call passes, and the key is asked again at the next read. */
static void
test_a_passing_smc_error_is_not_a_missing_key(void **state)
{
    struct platform *p = *state;
    struct plat_entry_set set;

    applesmc();
    dbl_smc_key("TC0D", "sp78", sp78_41, 2);
    dbl_smc_key("TC0P", "sp78", sp78_41, 2);
    dbl_smc_key("TA0P", "sp78", sp78_41, 2);
    dbl_fail("IOConnectCallStructMethod", 1, IO_TIMEOUT);     /* TC0D's info, the query's first key */
    dbl_smc_fail("TC0P", 1, SMC_COLLISION);                   /* its info */
    dbl_smc_fail("TA0P", 2, SMC_TIMEOUT);                     /* its bytes */
    set = read_keys(p, TEMPERATURES, 0);
    assert_null(entry_named(&set, "TC0D"));
    assert_null(entry_named(&set, "TC0P"));
    assert_non_null(entry_named(&set, "TA0P"));
    assert_null(entry_prop(entry_named(&set, "TA0P"), "bytes"));
    set = read_keys(p, TEMPERATURES, 0);
    assert_int_equal(set.n, 3);
    for (unsigned int i = 0; i < set.n; i++)
        assert_memory_equal(entry_prop(&set.entry[i], "bytes")->data, sp78_41, 2);
}

static void
test_a_key_that_cannot_be_read_has_a_type_and_no_bytes(void **state)
{
    struct platform *p = *state;
    struct plat_entry_set set;

    applesmc();
    dbl_smc_key("TC0P", "sp78", sp78_41, 2);
    dbl_smc_unreadable("TC0P", SMC_NOT_READABLE);
    set = read_keys(p, TEMPERATURES, 0);
    assert_int_equal(set.n, 1);
    assert_string_equal(entry_prop(&set.entry[0], "type")->text, "sp78");
    assert_null(entry_prop(&set.entry[0], "bytes"));
}

/* A VM (or a Mac whose SMC is not published) has no AppleSMC: every read
 * says so, and the registry is asked once. */
static void
test_without_an_smc_every_read_says_it_is_absent(void **state)
{
    struct platform *p = *state;

    for (int round = 0; round < 3; round++) {
        read_keys(p, round % 2 ? FANS : TEMPERATURES, -2);    /* ENOENT */
        assert_error_has(p, "SMC: no AppleSMC service");
    }
    assert_int_equal(dbl_calls("IOServiceGetMatchingService"), 1);
}

/* A connection refused: every read says why, and nothing is held. */
static void
test_a_refused_connection_says_why_at_every_read(void **state)
{
    struct platform *p = *state;

    applesmc();
    dbl_smc_key("TC0P", "sp78", sp78_41, 2);
    dbl_fail("IOServiceOpen", 1, D_KERN_FAILURE);
    for (int round = 0; round < 3; round++) {
        read_keys(p, TEMPERATURES, -13);                     /* EACCES */
        assert_error_has(p, "SMC: IOServiceOpen(AppleSMC): (os/kern) failure");
    }
    assert_int_equal(dbl_calls("IOServiceOpen"), 1);
    assert_int_equal(dbl_held().io, 0);
}

static int
read_temperatures(struct platform *p)
{
    struct plat_entry_set set;

    return p->query(p->ctx, TEMPERATURES, &set);
}

/* macOS 27 refuses an unprivileged open (crystalidea/macs-fan-control
 * 908): every read says "not permitted", and the open is asked again at
 * the bounded rate, not at every read. */
static void
test_an_open_not_permitted_says_so_and_is_asked_again_at_a_bounded_rate(void **state)
{
    struct platform *p = *state;

    applesmc();
    dbl_smc_key("TC0P", "sp78", sp78_41, 2);
    dbl_fail("IOServiceOpen", 0, D_IO_NOT_PERMITTED);
    assert_backs_off(p, read_temperatures, -1, "IOServiceOpen", WATCHED);     /* EPERM */
    assert_error_has(p, "SMC: IOServiceOpen(AppleSMC): (iokit/common) not permitted");
    assert_int_equal(dbl_held().io, 0);
}

/* Asleep or waking, the SMC answers busy: reads say so, the connection is
 * closed (one that went bad for good would never answer again) and opened
 * again at the bounded rate; within the cap after it wakes, the keys read
 * again. */
static void
test_an_smc_busy_around_sleep_and_wake_is_read_again_after_it(void **state)
{
    struct platform *p = *state;
    struct plat_entry_set set = { 0 };
    uint64_t waited = 0;

    applesmc();
    dbl_smc_key("TC0P", "sp78", sp78_41, 2);
    read_keys(p, TEMPERATURES, 0);
    dbl_smc_sleep_wake(WATCHED + SECOND_NS);            /* awake when the reads below end */
    assert_int_equal(read_temperatures(p), -16);       /* EBUSY: the keys' reads */
    assert_error_has(p, "SMC: busy: (iokit/common) Device Busy");
    assert_int_equal(dbl_held().io, 0);                 /* closed */
    assert_backs_off(p, read_temperatures, -16, "IOServiceOpen", WATCHED);
    assert_error_has(p, "SMC: IOServiceOpen(AppleSMC): (iokit/common) Device Busy");
    while (p->query(p->ctx, TEMPERATURES, &set) < 0) {
        if ((waited += SECOND_NS) > PLAT_RETRY_CAP_NS)
            fail_msg("the SMC not read within %llu s of waking", (unsigned long long)(PLAT_RETRY_CAP_NS / SECOND_NS));
        dbl_clock_advance(SECOND_NS);
    }
    assert_memory_equal(entry_prop(entry_named(&set, "TC0P"), "bytes")->data, sp78_41, 2);
}

/* A passing SMC error (0x80, a collision: another program talks to the
 * SMC, as Stats does at every update) on the system power's one key is
 * an answer from an SMC that is awake, not a busy one: that key has no
 * bytes this read, and the temperatures read a moment later are read.
 * (PSTR as shared/real-macs/smc/imac13_1.txt has it.) */
static void
test_a_passing_error_of_one_query_refuses_no_other(void **state)
{
    static const unsigned char pstr[] = { 0x07, 0x1c };
    struct platform *p = *state;
    struct plat_entry_set set;

    applesmc();
    dbl_smc_key("TC0P", "sp78", sp78_41, 2);
    dbl_smc_key("PSTR", "sp96", pstr, 2);
    read_keys(p, POWER, 0);
    dbl_smc_fail("PSTR", 1, SMC_COLLISION);             /* its bytes */
    set = read_keys(p, POWER, 0);
    assert_null(entry_prop(entry_named(&set, "PSTR"), "bytes"));
    set = read_keys(p, TEMPERATURES, 0);
    assert_memory_equal(entry_prop(entry_named(&set, "TC0P"), "bytes")->data, sp78_41, 2);
}

/* An open while the Mac wakes is refused busy: it is made again after. */
static void
test_an_open_refused_busy_is_made_again_after_wake(void **state)
{
    struct platform *p = *state;

    applesmc();
    dbl_smc_key("TC0P", "sp78", sp78_41, 2);
    dbl_smc_sleep_wake(PLAT_RETRY_FIRST_NS);
    read_keys(p, TEMPERATURES, -16);
    assert_error_has(p, "SMC: IOServiceOpen(AppleSMC): (iokit/common) Device Busy");
    dbl_clock_advance(PLAT_RETRY_FIRST_NS);
    assert_int_equal(read_keys(p, TEMPERATURES, 0).n, 1);
    assert_int_equal(dbl_calls("IOServiceOpen"), 2);
    assert_int_equal(dbl_held().io, 1);
}

static void
test_an_smc_without_any_of_the_keys_says_so(void **state)
{
    struct platform *p = *state;

    applesmc();
    dbl_smc_key("BNum", "ui8 ", "\x01", 1);
    read_keys(p, FANS, -2);
    assert_error_has(p, "SMC: none of the keys of SMC:fans");
}

/* Every key both queries name fits the cache of key infos: all of them
 * read, at every read. */
static void
test_every_key_of_both_queries_is_read(void **state)
{
    struct platform *p = *state;
    const struct plat_query *queries[] = { TEMPERATURES, FANS };

    applesmc();
    for (int q = 0; q < 2; q++)
        for (const char *const *key = queries[q]->keys; *key != NULL; key++)
            dbl_smc_key(*key, "sp78", sp78_41, 2);
    for (int round = 0; round < 3; round++)
        for (int q = 0; q < 2; q++)
            assert_int_equal(read_keys(p, queries[q], 0).n, nkeys(queries[q]->keys));
}

static void
smc_round(struct platform *p)
{
    read_keys(p, TEMPERATURES, 0);
    read_keys(p, FANS, 0);
}

/* An M5 Pro's SMC on macOS 27 has the fan mode as the lowercase F<n>md,
 * a ui8 of value 0, and no F<n>Md (shared/real-macs/smc/m5pro-mac17-9-
 * macos27.0-macwake16-fan-mode-keys-partial.txt; exelban/stats pull request
 * 3051: "M5 uses F%dmd"). Its window holds no FNum: the poster's two fans. */
static void
test_an_m5_smc_gives_the_fan_mode_from_its_lowercase_key(void **state)
{
    struct platform *p = *state;
    struct plat_entry_set set;
    struct fans fans;

    applesmc();
    dbl_smc_key(FAN_COUNT_KEY, "ui8 ", "\x02", 1);
    dbl_smc_key("F0md", "ui8 ", "\x00", 1);
    dbl_smc_key("F1md", "ui8 ", "\x00", 1);
    set = read_keys(p, FANS, 0);
    assert_int_equal(fans_decode(&set, &fans), 0);
    assert_int_equal(fans.count, 2);
    for (unsigned int f = 0; f < fans.count; f++) {
        assert_int_equal(fans.have[f], 1u << FAN_MODE);
        assert_true(fans.value[f][FAN_MODE] == 0);
    }
}

/* One connection for the source's life, closed with it (the teardown
 * checks that no port is left). */
static void
test_reads_hold_one_connection(void **state)
{
    applesmc();
    real_smc_keys(real_macs_file("smc/macpro7_1.txt"));
    assert_steady(*state, smc_round, 500);
    assert_int_equal(dbl_held().io, 1);
}

#define T(name) cmocka_unit_test_setup_teardown(name, live_test_setup, live_test_teardown)

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_dumped_smc_reads_back_as_dumped),
        cmocka_unit_test(test_system_power_of_sp96_and_flt_dumps),
        T(test_an_m3_max_cpu_is_the_sum_of_its_rails), T(test_an_apple_silicon_smc_gives_its_cpu_and_gpu),
        T(test_each_keys_info_is_asked_once),
        T(test_a_passing_smc_error_is_not_a_missing_key), T(test_a_key_that_cannot_be_read_has_a_type_and_no_bytes),
        T(test_without_an_smc_every_read_says_it_is_absent), T(test_a_refused_connection_says_why_at_every_read),
        T(test_an_open_not_permitted_says_so_and_is_asked_again_at_a_bounded_rate),
        T(test_an_smc_busy_around_sleep_and_wake_is_read_again_after_it),
        T(test_an_open_refused_busy_is_made_again_after_wake), T(test_a_passing_error_of_one_query_refuses_no_other),
        T(test_an_smc_without_any_of_the_keys_says_so), T(test_every_key_of_both_queries_is_read),
        T(test_an_m5_smc_gives_the_fan_mode_from_its_lowercase_key), T(test_reads_hold_one_connection),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
