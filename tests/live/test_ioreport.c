/*
 * ioreport.c on the double: the "Energy Model" channels as registry
 * entries, one subscription until it gives no sample, a sample per read; a
 * libIOReport that is missing or lacks a function, a group without
 * channels (Intel Macs, VMs), a refused subscription, a failed sample,
 * libIOReport's sentinels, providers that register again under a live
 * subscription; and the channel lists of real Macs through the live layer
 * into the decoder.
 */
#include "harness.h"
#include "real_macs.h"
#include "ane_decode.h"
#include "energy_decode.h"
#include "pstate_decode.h"
#include "bandwidth_decode.h"
#include "entry_props.h"
#include "entry_set.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ENERGY (&plat_queries[PLAT_QUERY_ENERGY])

/* Every channel of a recorded list gets its own value, so that a sum shows
 * which channels went into it. */
static int64_t
millijoules(unsigned int i)
{
    return 1000 * (int64_t)(i + 1);
}

static struct plat_entry_set
read_energy(struct platform *p, int expect)
{
    struct plat_entry_set set = { 0 };

    assert_int_equal(p->query(p->ctx, ENERGY, &set), expect);
    return set;
}

static const struct plat_entry *
channel_named(const struct plat_entry_set *set, const char *name)
{
    for (unsigned int i = 0; i < set->n; i++)
        if (strcmp(set->entry[i].name, name) == 0)
            return &set->entry[i];
    fail_msg("no entry named %s", name);
    return NULL;
}

/* The index of the second entry of that name. */
static unsigned int
second_named(const struct plat_entry_set *set, const char *name)
{
    for (unsigned int i = 0, seen = 0; i < set->n; i++)
        if (strcmp(set->entry[i].name, name) == 0 && ++seen == 2)
            return i;
    fail_msg("no second entry named %s", name);
    return 0;
}

static uint64_t
value_of(const struct plat_entry *e)
{
    uint64_t v = 0;

    assert_true(entry_number(entry_prop(e, "value"), &v));
    return v;
}

static void
assert_text(const struct plat_entry *e, const char *path, const char *text)
{
    const struct plat_prop *prop = entry_prop(e, path);

    assert_non_null(prop);
    assert_int_equal(prop->kind, PLAT_PROP_STRING);
    assert_string_equal(prop->text, text);
}

static void
assert_joules(double got, double want)
{
    if (got < want * (1 - 1e-12) || got > want * (1 + 1e-12))
        fail_msg("%.12g J, not %.12g J", got, want);
}

/* The source keeps nothing after its close: no library handle, no CF
 * object (the double keeps its channels outside CF). */
static int
teardown(void **state)
{
    live_test_teardown(state);
    assert_int_equal(dbl_dl_handles(), 0);
    assert_int_equal(dbl_held().cf, 0);
    return 0;
}

static void
test_channels_of_the_energy_model_group(void **state)
{
    struct platform *p = *state;
    struct plat_entry_set set;

    dbl_ioreport_simple("Energy Model", "CPU Energy", NULL, "mJ", 4200);
    dbl_ioreport_simple("CPU Stats", "ECPU", "CPU Core Performance States", "24Mticks", 9);
    dbl_ioreport_simple("Energy Model", "GPU Energy", "GPU", "nJ", 1500000000);
    set = read_energy(p, 0);
    assert_int_equal(set.n, 2);
    assert_string_equal(set.entry[0].name, "CPU Energy");
    assert_string_equal(set.entry[0].class_name, "IOReportChannel");
    assert_text(&set.entry[0], "subgroup", "");
    assert_text(&set.entry[0], "unit", "mJ");
    assert_int_equal(value_of(&set.entry[0]), 4200);
    assert_string_equal(set.entry[1].name, "GPU Energy");
    assert_text(&set.entry[1], "subgroup", "GPU");
    assert_text(&set.entry[1], "unit", "nJ");
    assert_int_equal(value_of(&set.entry[1]), 1500000000);
}

/* State names from an M2's ECPU00 channel (shared/real-macs/ioreport,
 * socpowerbud issue 8): each residency under "state.NAME". */
static void
test_state_channels_give_their_residencies(void **state)
{
    struct platform *p = *state;
    unsigned int ch = dbl_ioreport_states("Energy Model", "ECPU00", "CPU Core Performance States", "24Mticks");
    struct plat_entry_set set;
    uint64_t v;

    dbl_ioreport_state(ch, "DOWN", 7);
    dbl_ioreport_state(ch, "IDLE", 1200);
    dbl_ioreport_state(ch, "V0P5", 340);
    set = read_energy(p, 0);
    assert_int_equal(set.n, 1);
    assert_null(entry_prop(&set.entry[0], "value"));
    assert_true(entry_number(entry_prop_in(&set.entry[0], "state", "DOWN"), &v));
    assert_int_equal(v, 7);
    assert_true(entry_number(entry_prop_in(&set.entry[0], "state", "IDLE"), &v));
    assert_int_equal(v, 1200);
    assert_true(entry_number(entry_prop_in(&set.entry[0], "state", "V0P5"), &v));
    assert_int_equal(v, 340);
}

static void
test_each_read_samples_the_one_subscription(void **state)
{
    struct platform *p = *state;
    unsigned int cpu = dbl_ioreport_simple("Energy Model", "CPU Energy", NULL, "mJ", 4200);
    struct plat_entry_set set;

    set = read_energy(p, 0);
    assert_int_equal(value_of(&set.entry[0]), 4200);
    dbl_ioreport_set(cpu, 9100);
    set = read_energy(p, 0);
    assert_int_equal(value_of(&set.entry[0]), 9100);
    assert_int_equal(dbl_calls("IOReportCreateSubscription"), 1);
    assert_int_equal(dbl_calls("IOReportCreateSamples"), 2);
}

/* A channel that carries values no more gives its name, subgroup and unit
 * and nothing else: no "value", no "state.*". */
static void
assert_no_value(const struct plat_entry *e)
{
    if (e->nprops != 2)
        fail_msg("\"%s\" has %u properties, not only its subgroup and unit: \"%s\" first", e->name, e->nprops,
                 e->nprops > 0 ? e->prop[0].path : "");
    assert_non_null(entry_prop(e, "subgroup"));
    assert_non_null(entry_prop(e, "unit"));
}

/* kIOReportInvalidValue (INT64_MIN, xnu-11417.101.15
 * iokit/IOKit/IOReportTypes.h:40-50) is what a provider reports for a
 * value it does not have, and what libIOReport gives for one it cannot
 * read: no value for that channel this round (9.2e15 J, read as a count),
 * the others read as ever. */
static void
test_an_invalid_value_is_no_value(void **state)
{
    struct platform *p = *state;
    unsigned int cpu = dbl_ioreport_simple("Energy Model", "CPU Energy", NULL, "mJ", INT64_MIN);
    struct plat_entry_set set;

    dbl_ioreport_simple("Energy Model", "GPU Energy", NULL, "nJ", 1500000000);
    set = read_energy(p, 0);
    assert_int_equal(set.n, 2);
    assert_no_value(channel_named(&set, "CPU Energy"));
    assert_error_has(p, "IOReport IOReport:energy: \"CPU Energy\": no value (kIOReportInvalidValue)");
    assert_int_equal(value_of(channel_named(&set, "GPU Energy")), 1500000000);
    dbl_ioreport_set(cpu, 4200);
    set = read_energy(p, 0);
    assert_int_equal(value_of(channel_named(&set, "CPU Energy")), 4200);
}

/* A state channel is whole or nothing: one residency that is
 * kIOReportInvalidValue, or states without names (libIOReport names them
 * all from their IDs or none), leave the channel without states, rather
 * than a share of its time that the decoders would take for all of it. */
static void
test_a_state_channel_without_every_state_has_none(void **state)
{
    struct platform *p = *state;
    unsigned int invalid = dbl_ioreport_states("Energy Model", "ECPU00", NULL, "24Mticks");
    unsigned int unnamed = dbl_ioreport_states("Energy Model", "ECPU01", NULL, "24Mticks");
    struct plat_entry_set set;

    dbl_ioreport_state(invalid, "IDLE", 1200);
    dbl_ioreport_state(invalid, "V0P5", INT64_MIN);
    dbl_ioreport_state(unnamed, NULL, 1200);
    dbl_ioreport_state(unnamed, NULL, 340);
    set = read_energy(p, 0);
    assert_int_equal(set.n, 2);
    assert_no_value(channel_named(&set, "ECPU00"));
    assert_no_value(channel_named(&set, "ECPU01"));
    assert_error_has(p, "\"ECPU00\": no value (kIOReportInvalidValue)");
    assert_error_has(p, "\"ECPU01\": no value (a state without a name)");
}

/* A channel's provider that registers again under a new entry ID (xnu-11417.101.15
 * iokit/Kernel/IOReporter.cpp:174) leaves the subscription without a
 * sample for good: the next read gives it back, makes it again from a
 * channel list copied anew, and reads that at once. A provider that counts
 * from 0 again goes on from the last value (the time between is lost); one
 * that counted on is served as it reads: none steps back, none jumps. */
static void
test_a_subscription_whose_provider_registered_again_is_made_again(void **state)
{
    static const struct {
        int64_t raw;                    /* what the provider reads when it is back */
        uint64_t given;
    } back[] = { { 100, 4200 }, { 9000, 9000 } };   /* from 0 again; on as before */

    (void)state;
    for (unsigned int k = 0; k < sizeof(back) / sizeof(back[0]); k++) {
        struct platform p;
        unsigned int cpu, ecpu;
        struct plat_entry_set set;
        struct dbl_held held;
        uint64_t idle;

        live_setup(&p);
        cpu = dbl_ioreport_simple("Energy Model", "CPU Energy", NULL, "mJ", 4200);
        ecpu = dbl_ioreport_states("Energy Model", "ECPU00", NULL, "24Mticks");
        dbl_ioreport_state(ecpu, "IDLE", 1200);
        read_energy(&p, 0);
        held = dbl_held();
        dbl_ioreport_provider_gone(cpu);
        dbl_ioreport_provider_back(cpu);
        dbl_ioreport_set(cpu, back[k].raw);
        set = read_energy(&p, 0);
        assert_int_equal(value_of(channel_named(&set, "CPU Energy")), back[k].given);
        assert_true(entry_number(entry_prop_in(channel_named(&set, "ECPU00"), "state", "IDLE"), &idle));
        assert_int_equal(idle, 1200);
        dbl_ioreport_set(cpu, back[k].raw + 250);
        set = read_energy(&p, 0);
        assert_int_equal(value_of(channel_named(&set, "CPU Energy")), back[k].given + 250);
        assert_int_equal(dbl_calls("IOReportCreateSubscription"), 2);
        assert_int_equal(dbl_held().cf, held.cf);
        live_teardown(&p);
        assert_int_equal(dbl_held().cf, 0);
    }
}

/* A subscription that dies at every sample after it was made again (a
 * provider that keeps registering again, or a library that keeps giving
 * no sample) is made again after waits that grow to the cap, not at every
 * read; one that outlives its wait is made good at once when it dies. */
static void
test_a_subscription_that_keeps_dying_is_made_again_ever_less_often(void **state)
{
    struct platform *p = *state;
    unsigned int made;

    dbl_ioreport_simple("Energy Model", "CPU Energy", NULL, "mJ", 4200);
    read_energy(p, 0);
    for (uint64_t t = 0; t < WATCHED; t += SECOND_NS) {
        struct plat_entry_set set;

        dbl_fail("IOReportCreateSamples", 1, 1);     /* the standing subscription's sample */
        (void)p->query(p->ctx, ENERGY, &set);
        dbl_clock_advance(SECOND_NS);
    }
    made = dbl_calls("IOReportCreateSubscription") - 1;
    assert_true(made > 2);
    assert_true(made <= 2 + WATCHED / PLAT_RETRY_CAP_NS + 6);  /* 1, 2, 4 ... 32 s, then once a cap */
    dbl_fail("IOReportCreateSamples", 1, 0);           /* the last round's fault, if no sample took it: none */
    dbl_clock_advance(PLAT_RETRY_CAP_NS);
    read_energy(p, 0);                                  /* made again: waits a cap before the next */
    for (uint64_t t = 0; t <= PLAT_RETRY_CAP_NS; t += SECOND_NS) {
        read_energy(p, 0);
        dbl_clock_advance(SECOND_NS);
    }
    dbl_fail("IOReportCreateSamples", 1, 1);
    read_energy(p, 0);
    assert_int_equal(dbl_calls("IOReportCreateSubscription") - 1, made + 2);
}

static int
energy_status(struct platform *p)
{
    struct plat_entry_set set;

    return p->query(p->ctx, ENERGY, &set);
}

/* While the provider stays away the subscription is made again at the
 * rate every failing private source is asked again (a wait that grows to
 * the cap), each read failing meanwhile (EIO: PM_ERR_AGAIN, not
 * "unsupported") and saying why; once it is back, a read within the cap
 * has the values. */
static void
test_a_lost_subscription_is_made_again_at_a_bounded_rate(void **state)
{
    struct platform *p = *state;
    unsigned int cpu = dbl_ioreport_simple("Energy Model", "CPU Energy", NULL, "mJ", 4200);
    unsigned int tries, samples;
    struct plat_entry_set set;
    uint64_t back;

    read_energy(p, 0);
    dbl_ioreport_provider_gone(cpu);
    samples = dbl_calls("IOReportCreateSamples");
    tries = assert_backs_off(p, energy_status, -5, "IOReportCopyChannelsInGroup", WATCHED);
    assert_error_has(p, "IOReport IOReport:energy: no sample");
    assert_true(tries > 1);
    assert_int_equal(dbl_calls("IOReportCreateSubscription"), 1);     /* none while the channel is not listed */
    assert_int_equal(dbl_calls("IOReportCreateSamples") - samples, 1);   /* the dead one's, once */
    dbl_ioreport_provider_back(cpu);
    back = dbl_clock_ns();
    while (energy_status(p) != 0) {
        assert_true(dbl_clock_ns() - back <= PLAT_RETRY_CAP_NS);
        dbl_clock_advance(PLAT_RETRY_FIRST_NS);
    }
    set = read_energy(p, 0);
    assert_int_equal(value_of(channel_named(&set, "CPU Energy")), 4200);
}

/* Every peer checks each sample for NULL. A subscription that gives none
 * is made again and read at once; a second NULL within the retry interval
 * fails that read only, and the next one after it works. */
static void
test_a_failed_sample_is_taken_again_from_a_new_subscription(void **state)
{
    struct platform *p = *state;
    struct plat_entry_set set;

    dbl_ioreport_simple("Energy Model", "CPU Energy", NULL, "mJ", 4200);
    dbl_fail("IOReportCreateSamples", 1, 1);
    set = read_energy(p, 0);
    assert_int_equal(value_of(&set.entry[0]), 4200);
    assert_int_equal(dbl_calls("IOReportCreateSubscription"), 2);
    dbl_fail("IOReportCreateSamples", 1, 1);
    read_energy(p, -5);                 /* EIO */
    assert_error_has(p, "IOReport IOReport:energy: no sample");
    dbl_clock_advance(PLAT_RETRY_FIRST_NS);
    set = read_energy(p, 0);
    assert_int_equal(value_of(&set.entry[0]), 4200);
}

static void
reregistering_round(struct platform *p)
{
    dbl_ioreport_provider_gone(0);
    dbl_ioreport_provider_back(0);
    dbl_clock_advance(PLAT_RETRY_CAP_NS);
    read_energy(p, 0);
}

/* Subscriptions made again and again hold nothing more than one. */
static void
test_subscriptions_made_again_hold_nothing_more(void **state)
{
    real_ioreport_channels(real_macs_file("ioreport/m5max-mac17-7-macos27.0-energy-model-channels.tsv"),
                           millijoules);
    assert_steady(*state, reregistering_round, 50);
}

static void
test_without_the_library_energy_is_unsupported(void **state)
{
    struct platform *p = *state;

    dbl_ioreport_simple("Energy Model", "CPU Energy", NULL, "mJ", 4200);
    dbl_fail("dlopen", 0, 1);
    for (int round = 0; round < 2; round++) {
        read_energy(p, -2);             /* ENOENT */
        assert_error_has(p, "IOReport: /usr/lib/libIOReport.dylib: dlopen(/usr/lib/libIOReport.dylib");
        assert_error_has(p, "(no such file)");
    }
    assert_int_equal(dbl_calls("dlopen"), 1);
}

/* A libIOReport without one of the functions, whichever: unsupported at
 * the first read and at every later one, the library given back. */
static void
test_a_library_missing_any_function_is_unsupported_at_every_read(void **state)
{
    static const char *const functions[] = {
        "IOReportCopyChannelsInGroup", "IOReportCreateSubscription", "IOReportCreateSamples",
        "IOReportChannelGetChannelName", "IOReportChannelGetSubGroup", "IOReportChannelGetUnitLabel",
        "IOReportChannelGetFormat", "IOReportSimpleGetIntegerValue", "IOReportStateGetCount",
        "IOReportStateGetNameForIndex", "IOReportStateGetResidency",
    };

    (void)state;
    for (size_t f = 0; f < sizeof(functions) / sizeof(functions[0]); f++) {
        struct platform p;
        char missing[128];
        unsigned int ch;

        live_setup(&p);
        dbl_ioreport_simple("Energy Model", "CPU Energy", NULL, "mJ", 4200);
        ch = dbl_ioreport_states("Energy Model", "PCPU", NULL, "24Mticks");
        dbl_ioreport_state(ch, "IDLE", 10);
        dbl_dl_missing(functions[f]);
        snprintf(missing, sizeof(missing), "IOReport: %s is missing", functions[f]);
        for (int round = 0; round < 3; round++) {
            read_energy(&p, -2);
            assert_error_has(&p, missing);
        }
        assert_int_equal(dbl_dl_handles(), 0);
        live_teardown(&p);
    }
}

/* Intel Macs and VMs have no "Energy Model": whether IOReport answers NULL
 * or a dictionary without channels, nothing is subscribed (every peer
 * checks first), and the group is not asked again. */
static void
test_a_group_without_channels_is_not_subscribed(void **state)
{
    (void)state;
    for (int as_null = 0; as_null < 2; as_null++) {
        struct platform p;

        live_setup(&p);
        dbl_ioreport_empty_group(as_null);
        dbl_ioreport_simple("CPU Stats", "ECPU", NULL, "24Mticks", 1);
        for (int round = 0; round < 2; round++) {
            read_energy(&p, -2);
            assert_error_has(&p, "IOReport: no channels in \"Energy Model\"");
        }
        assert_int_equal(dbl_calls("IOReportCopyChannelsInGroup"), 1);
        assert_int_equal(dbl_calls("IOReportCreateSubscription"), 0);
        live_teardown(&p);
        assert_int_equal(dbl_held().cf, 0);
    }
}

/* A group IOReport lists but will not subscribe (SiliconScope issues 14,
 * 30): unsupported, not asked again. */
static void
test_a_refused_subscription_is_not_asked_again(void **state)
{
    struct platform *p = *state;

    dbl_ioreport_simple("Energy Model", "CPU Energy", NULL, "mJ", 4200);
    dbl_fail("IOReportCreateSubscription", 1, 1);
    for (int round = 0; round < 2; round++) {
        read_energy(p, -2);
        assert_error_has(p, "IOReport: no subscription to \"Energy Model\"");
    }
    assert_int_equal(dbl_calls("IOReportCreateSubscription"), 1);
}

/* Out of memory for IOReport's key, then for the group's name: that read
 * fails, the next one asks again. */
static void
test_strings_that_cannot_be_made_are_tried_again(void **state)
{
    static const char *const says[] = { "IOReport: out of memory", "IOReport \"Energy Model\": out of memory" };

    (void)state;
    for (unsigned int nth = 1; nth <= 2; nth++) {
        struct platform p;

        live_setup(&p);
        dbl_ioreport_simple("Energy Model", "CPU Energy", NULL, "mJ", 4200);
        dbl_fail("CFStringCreateWithCString", nth, 1);
        read_energy(&p, -12);           /* ENOMEM */
        assert_error_has(&p, says[nth - 1]);
        read_energy(&p, 0);
        live_teardown(&p);
    }
}

static void
test_an_unknown_group_is_refused(void **state)
{
    struct platform *p = *state;
    const struct plat_query q = { "IOReport:thermal", 0, NULL, 0 };
    struct plat_entry_set set;

    assert_int_equal(p->query(p->ctx, &q, &set), -22);     /* EINVAL */
    assert_error_has(p, "IOReport: no group for IOReport:thermal");
}

/* The M1 Ultra on macOS 27.0 (shared/real-macs/ioreport, all-smi's
 * fixture): no "CPU Energy", but "DIE_0_CPU Energy" and "DIE_1_CPU Energy";
 * 130 DTL names twice, once per die; "GPU Energy" in nJ last of 321. */
static void
test_an_ultra_reports_its_cpu_energy_as_the_sum_of_its_dies(void **state)
{
    struct platform *p = *state;
    struct energy_channel list[512], few[64];
    struct plat_entry_set set;
    struct energy e;
    unsigned int n = real_ioreport_channels(
        real_macs_file("ioreport/m1ultra-mac13-2-macos27.0-energy-model-channels.tsv"), millijoules);
    unsigned int second;
    double cpu, gpu, ane, dram;

    set = read_energy(p, 0);
    assert_int_equal(set.n, n);
    cpu = 1e-3 * (double)(value_of(channel_named(&set, "DIE_0_CPU Energy")) +
                          value_of(channel_named(&set, "DIE_1_CPU Energy")));
    gpu = 1e-9 * (double)value_of(channel_named(&set, "GPU Energy"));
    ane = 1e-3 * (double)(value_of(channel_named(&set, "ANE0_0")) + value_of(channel_named(&set, "ANE0_1")));
    dram = 1e-3 * (double)(value_of(channel_named(&set, "DRAM0_0")) + value_of(channel_named(&set, "DRAM0_1")));

    energy_decode(&set, &e, few, 64);   /* a list shorter than the channels: the units are whole */
    assert_int_equal(e.n, 64);
    assert_int_equal(e.have, (1u << ENERGY_CPU) | (1u << ENERGY_GPU) | (1u << ENERGY_ANE) | (1u << ENERGY_DRAM));
    assert_joules(e.unit[ENERGY_CPU], cpu);
    assert_joules(e.unit[ENERGY_GPU], gpu);
    assert_joules(e.unit[ENERGY_ANE], ane);
    assert_joules(e.unit[ENERGY_DRAM], dram);

    energy_decode(&set, &e, list, 512); /* every channel its own, the second die's DTLs too */
    assert_int_equal(e.n, n);
    second = second_named(&set, "ECPUDTL00");
    assert_string_equal(list[second].name, "ECPUDTL00 #2");
    assert_joules(list[second].joules, 1e-3 * (double)value_of(&set.entry[second]));
}

/* The M5 Max on macOS 27.0: a plain "CPU Energy" beside MCPU0, MCPU1 and
 * PCPU (not summed again), "GPU Energy" in nJ last of 364. */
static void
test_an_m5_max_reports_its_units_from_its_own_channels(void **state)
{
    struct platform *p = *state;
    struct energy_channel list[128];
    struct plat_entry_set set;
    struct energy e;

    real_ioreport_channels(real_macs_file("ioreport/m5max-mac17-7-macos27.0-energy-model-channels.tsv"),
                           millijoules);
    set = read_energy(p, 0);
    energy_decode(&set, &e, list, 128);
    assert_joules(e.unit[ENERGY_CPU], 1e-3 * (double)value_of(channel_named(&set, "CPU Energy")));
    assert_joules(e.unit[ENERGY_GPU], 1e-9 * (double)value_of(channel_named(&set, "GPU Energy")));
    assert_joules(e.unit[ENERGY_ANE], 1e-3 * (double)value_of(channel_named(&set, "ANE0")));
    assert_joules(e.unit[ENERGY_DRAM], 1e-3 * (double)value_of(channel_named(&set, "DRAM0")));
}

static void
energy_round(struct platform *p)
{
    read_energy(p, 0);
}

/* Samples go back each read: over many, nothing more is held than after
 * the first (the subscription and its channels). */
static void
test_reads_hold_nothing_more_than_the_subscription(void **state)
{
    real_ioreport_channels(real_macs_file("ioreport/m5max-mac17-7-macos27.0-energy-model-channels.tsv"),
                           millijoules);
    assert_steady(*state, energy_round, 200);
}

#define T(name) cmocka_unit_test_setup_teardown(name, live_test_setup, teardown)

/* The complex channels of an M4 Pro on macOS 27 beta, as macmon printed
 * one sample of them (shared/real-macs/ioreport, macmon issue 66), whole
 * lines only: each "NAME (UNIT) = [("STATE", TICKS), ...]" a state channel
 * of "CPU Stats". Returns how many. */
static unsigned int
m4_pro_complex_channels(void)
{
    FILE *f = fopen(real_macs_file("ioreport/m4pro-mac16-8-macos27.0b-macmon66-cpu-residency-partial.txt"), "r");
    static const char prefix[] = "CPU Stats :: CPU Complex Performance States :: ";
    char line[2048];
    unsigned int n = 0;

    assert_non_null(f);
    while (fgets(line, sizeof(line), f) != NULL) {
        char *name = line + sizeof(prefix) - 1, *unit, *s;
        unsigned int ch;

        line[strcspn(line, "\r\n")] = '\0';
        if (strncmp(line, prefix, sizeof(prefix) - 1) != 0 || line[strlen(line) - 1] != ']')
            continue;
        unit = strchr(name, '(');
        unit[-1] = '\0';
        *strchr(unit, ')') = '\0';
        ch = dbl_ioreport_states("CPU Stats", name, "CPU Complex Performance States", unit + 1);
        for (s = unit + strlen(unit) + 1; (s = strstr(s, "(\"")) != NULL;) {
            char *q = strchr(s + 2, '"');

            *q = '\0';
            dbl_ioreport_state(ch, s + 2, strtoll(q + 2, NULL, 10));
            s = q + 1;
        }
        n++;
    }
    fclose(f);
    return n;
}

/* "CPU Stats" holds more than the families read (M5 Max, 26.5.2:
 * "CPU Complex Voltage State Time" beside the performance states): each
 * query subscribes its one subgroup, once, and samples it at each read;
 * the clusters' residencies come through as macmon printed them. */
static void
test_each_cpu_subgroup_is_its_own_subscription(void **state)
{
    struct platform *p = *state;
    static const enum plat_query_id queries[] = {
        PLAT_QUERY_CPU_CLUSTERS, PLAT_QUERY_CPU_CORES, PLAT_QUERY_GPU_STATES, PLAT_QUERY_ENERGY,
    };
    static const unsigned int expect[] = { 3, 1, 1, 1 };
    unsigned int clusters = m4_pro_complex_channels(), core, gpu;
    struct pstate_channel ch;
    struct plat_entry_set set;

    assert_int_equal(clusters, 3);
    dbl_ioreport_simple("CPU Stats", " v2", "CPU Complex Voltage State Time", "24Mticks", 5);
    core = dbl_ioreport_states("CPU Stats", "ECPU00", "CPU Core Performance States", "24Mticks");
    dbl_ioreport_state(core, "IDLE", 60952780612142);
    dbl_ioreport_state(core, "V0P5", 8887097121286);
    gpu = dbl_ioreport_states("GPU Stats", "GPUPH", "GPU Performance States", "24Mticks");
    dbl_ioreport_state(gpu, "OFF", 100);
    dbl_ioreport_state(gpu, "P1", 7);
    dbl_ioreport_simple("Energy Model", "CPU Energy", NULL, "mJ", 4200);
    for (int round = 0; round < 2; round++)
        for (size_t q = 0; q < sizeof(queries) / sizeof(queries[0]); q++) {
            assert_int_equal(p->query(p->ctx, &plat_queries[queries[q]], &set), 0);
            assert_int_equal(set.n, expect[q]);
        }
    assert_int_equal(dbl_calls("IOReportCreateSubscription"), 4);
    assert_int_equal(dbl_calls("IOReportCreateSamples"), 8);
    assert_int_equal(p->query(p->ctx, &plat_queries[PLAT_QUERY_CPU_CLUSTERS], &set), 0);
    assert_string_equal(set.entry[0].name, "PCPU");
    assert_int_equal(pstate_channel(&set.entry[0], PSTATE_CLUSTER, &ch), 0);
    assert_int_equal(ch.need, 19);
    assert_int_equal(ch.idle, 2331234);
    assert_int_equal(ch.active[5], 267841);
    assert_int_equal(pstate_channel(&set.entry[1], PSTATE_CLUSTER, &ch), 0);         /* PCPM: the states run */
    assert_true(ch.ran);
    assert_int_equal(pstate_channel(&set.entry[2], PSTATE_CLUSTER, &ch), -ENOENT);   /* PCPM_IDLE */
}

/* Intel Macs and VMs have no "CPU Stats": absent, not subscribed. */
static void
test_without_cpu_stats_the_clusters_are_absent(void **state)
{
    struct platform *p = *state;
    struct plat_entry_set set;

    dbl_ioreport_simple("Energy Model", "CPU Energy", NULL, "mJ", 4200);
    assert_int_equal(p->query(p->ctx, &plat_queries[PLAT_QUERY_CPU_CLUSTERS], &set), -ENOENT);
    assert_error_has(p, "no channels in \"CPU Stats\"");
    assert_int_equal(dbl_calls("IOReportCreateSubscription"), 0);
}

/* The memory bandwidth histograms are the power manager's group's "DCS
 * BW" subgroup: "PMP" up to the M4, "PMP0" on the M5 (SiliconScope issue
 * 30), each Mac having one of them; the group's other subgroups ("AF BW",
 * the same requestors' fabric traffic) are not subscribed. Buckets named
 * as an M4 Max's (SiliconScope's histograms in shared/real-macs/ioreport). */
static void
test_bandwidth_is_read_from_either_name_of_the_group(void **state)
{
    static const char *const group[] = { "PMP", "PMP0" };

    (void)state;
    for (size_t g = 0; g < sizeof(group) / sizeof(group[0]); g++) {
        struct platform p;
        struct plat_entry_set set;
        struct bandwidth_channel ch;
        unsigned int agx;

        live_setup(&p);
        dbl_ioreport_simple(group[g], "AGX RD", "AF BW", "", 5);
        agx = dbl_ioreport_states(group[g], "AGX RD+WR", "DCS BW", "");
        dbl_ioreport_state(agx, "1GB/s", 319);
        dbl_ioreport_state(agx, "2GB/s", 16);
        assert_int_equal(p.query(p.ctx, &plat_queries[PLAT_QUERY_BANDWIDTH], &set), 0);
        assert_int_equal(set.n, 1);
        assert_int_equal(bandwidth_channel(&set.entry[0], &ch), 0);
        assert_string_equal(ch.requestor, "AGX");
        assert_int_equal(ch.residency[1], 16);
        assert_int_equal(dbl_calls("IOReportCopyChannelsInGroup"), g + 1);
        assert_int_equal(dbl_calls("IOReportCreateSubscription"), 1);
        live_teardown(&p);
        assert_int_equal(dbl_held().cf, 0);
    }
}

/* The M1 on macOS 11 has no "DCS BW" but a PMP "Bandwidth" subgroup of
 * the same histograms per requestor ("DCS RD", "GPU WR"), beside the
 * group's other subgroups ("Energy Counters" "ANE", not read here): names
 * and subgroups as the M1's legend has them
 * (shared/real-macs/ioreport/m1-macbookair10-1-macos11.0.1-*). */
static void
test_an_m1s_bandwidth_subgroup_is_read(void **state)
{
    struct platform *p = *state;
    struct plat_entry_set set;
    unsigned int dcs;

    dbl_ioreport_simple("PMP", "ANE", "Energy Counters", "mJ", 7);
    dcs = dbl_ioreport_states("PMP", "DCS RD", "Bandwidth", "");
    dbl_ioreport_state(dcs, "1GB/s", 24);
    assert_int_equal(p->query(p->ctx, &plat_queries[PLAT_QUERY_BANDWIDTH], &set), 0);
    assert_int_equal(set.n, 1);
    assert_string_equal(set.entry[0].name, "DCS RD");
    assert_int_equal(dbl_calls("IOReportCreateSubscription"), 1);
}

/* The memory controllers' byte counters are "AMC Stats" "Perf Counters"
 * alone (not its "DSID Group Stats": the M1's legend in
 * shared/real-macs/ioreport); a counter libIOReport gives INT64_MIN for,
 * as every one of an M3 Max's on the macOS 27 beta (SiliconScope issue
 * 14), is a channel without a value; a group that cannot be subscribed
 * (issue 46) is absent, said so. */
static void
test_memory_traffic_is_the_amc_perf_counters(void **state)
{
    struct platform p;
    struct plat_entry_set set;
    uint64_t bytes;

    (void)state;
    live_setup(&p);
    dbl_ioreport_simple("AMC Stats", "DSID 0 Hits", "DSID Group Stats", "", 3);
    dbl_ioreport_simple("AMC Stats", "DCS RD", "Perf Counters", "", 4096);
    dbl_ioreport_simple("AMC Stats", "DCS WR", "Perf Counters", "", INT64_MIN);
    assert_int_equal(p.query(p.ctx, &plat_queries[PLAT_QUERY_MEMORY_TRAFFIC], &set), 0);
    assert_int_equal(set.n, 2);
    assert_int_equal(bandwidth_bytes(&set.entry[0], &bytes), 0);
    assert_int_equal(bytes, 4096);
    assert_string_equal(set.entry[1].name, "DCS WR");
    assert_int_equal(bandwidth_bytes(&set.entry[1], &bytes), -ENODATA);
    assert_error_has(&p, "\"DCS WR\": no value (kIOReportInvalidValue)");
    live_teardown(&p);
    live_setup(&p);
    dbl_ioreport_simple("AMC Stats", "DCS RD", "Perf Counters", "", 4096);
    dbl_fail("IOReportCreateSubscription Perf Counters", 1, 1);
    assert_int_equal(p.query(p.ctx, &plat_queries[PLAT_QUERY_MEMORY_TRAFFIC], &set), -ENOENT);
    assert_error_has(&p, "no subscription to \"AMC Stats\"");
    live_teardown(&p);
    assert_int_equal(dbl_held().cf, 0);
}

/* Intel Macs and VMs have none of its places: no channels, said of the
 * last one asked ("PMP" "Bandwidth"). */
static void
test_without_the_power_manager_bandwidth_is_absent(void **state)
{
    struct platform *p = *state;
    struct plat_entry_set set;

    dbl_ioreport_simple("Energy Model", "CPU Energy", NULL, "mJ", 4200);
    assert_int_equal(p->query(p->ctx, &plat_queries[PLAT_QUERY_BANDWIDTH], &set), -ENOENT);
    assert_error_has(p, "no channels in \"PMP\"");
    assert_int_equal(dbl_calls("IOReportCopyChannelsInGroup"), 3);
    assert_int_equal(dbl_calls("IOReportCreateSubscription"), 0);
}

/* The Neural Engine's controller: IOReport's "ANE" group, subgroup "IOP
 * State", a state channel "status" with a "Running" state on an M3 Pro
 * under macOS 26.6 (wieslawsoltes/ActivityMonitor pull request 39). Only
 * "Running" is named there; "Off" stands here for its other states, whose
 * names were not published: every state counts in the total whatever its
 * name. Its unit label was not published either (empty here): only the
 * ratio of the residencies is used. */
static void
test_the_neural_engines_controller_states_are_read(void **state)
{
    struct platform *p = *state;
    unsigned int ch = dbl_ioreport_states("ANE", "status", "IOP State", "");
    struct plat_entry_set set = { 0 };
    uint64_t running, total;

    dbl_ioreport_state(ch, "Off", 300);
    dbl_ioreport_state(ch, "Running", 100);
    assert_int_equal(p->query(p->ctx, &plat_queries[PLAT_QUERY_ANE_STATES], &set), 0);
    assert_int_equal(ane_residency(&set, &running, &total), 0);
    assert_int_equal(running, 100);
    assert_int_equal(total, 400);
}

/* An M1's Neural Engine driver reports no "ANE" group: its "H11ANE" group's
 * "H11ANE Power State" channels "ANE Power" and "ANE Fast" are simple
 * channels (the legend in shared/real-macs/ioreport, M1 on macOS 11.0.1),
 * so the engine's running share is absent there. */
static void
test_an_m1_has_no_neural_engine_controller_states(void **state)
{
    struct platform *p = *state;
    struct plat_entry_set set = { 0 };

    dbl_ioreport_simple("H11ANE", "ANE Power", "H11ANE Power State", "", 0);
    dbl_ioreport_simple("H11ANE", "ANE Fast", "H11ANE Power State", "", 0);
    assert_int_equal(p->query(p->ctx, &plat_queries[PLAT_QUERY_ANE_STATES], &set), -ENOENT);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_channels_of_the_energy_model_group), T(test_state_channels_give_their_residencies),
        T(test_each_read_samples_the_one_subscription), T(test_an_invalid_value_is_no_value), T(test_a_state_channel_without_every_state_has_none),
        cmocka_unit_test(test_a_subscription_whose_provider_registered_again_is_made_again),
        T(test_a_subscription_that_keeps_dying_is_made_again_ever_less_often),
        T(test_a_lost_subscription_is_made_again_at_a_bounded_rate),
        T(test_a_failed_sample_is_taken_again_from_a_new_subscription), T(test_subscriptions_made_again_hold_nothing_more),
        T(test_without_the_library_energy_is_unsupported),
        cmocka_unit_test(test_a_library_missing_any_function_is_unsupported_at_every_read),
        cmocka_unit_test(test_a_group_without_channels_is_not_subscribed),
        T(test_a_refused_subscription_is_not_asked_again), cmocka_unit_test(test_strings_that_cannot_be_made_are_tried_again),
        T(test_an_unknown_group_is_refused), T(test_an_ultra_reports_its_cpu_energy_as_the_sum_of_its_dies),
        T(test_an_m5_max_reports_its_units_from_its_own_channels),
        T(test_the_neural_engines_controller_states_are_read), T(test_an_m1_has_no_neural_engine_controller_states),
        T(test_reads_hold_nothing_more_than_the_subscription),
        T(test_each_cpu_subgroup_is_its_own_subscription), T(test_without_cpu_stats_the_clusters_are_absent),
        cmocka_unit_test(test_bandwidth_is_read_from_either_name_of_the_group),
        T(test_without_the_power_manager_bandwidth_is_absent), T(test_an_m1s_bandwidth_subgroup_is_read),
        cmocka_unit_test(test_memory_traffic_is_the_amc_perf_counters),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
