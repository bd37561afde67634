/*
 * The performance-state collectors, the energy collector's frozen channels
 * and the memory bandwidth collector, through the agent as pmcd drives it, over a fake Apple Silicon machine
 * (synthetic numbers, chosen so that each expected value is exact: a
 * 24 MHz tick is 1000/24 ns, so 24 million ticks are one second).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent_harness.h"
#include "ioreport_channels.h"
#include "metric_ids.h"
#include "real_macs_file.h"
#include "entry_set.h"

#define SECOND 24000000ull              /* 24 MHz ticks */
#define M1_LEGEND "ioreport/m1-macbookair10-1-macos11.0.1-ioreportlegend-amc-pmp-h11ane.txt"
#define M3_MAX_27 "ioreport/m3max-macos27.0b-siliconscope14-amc-stats-int64min-partial.txt"
#define LEGEND_MAX 128                  /* channels, and so requestors, a test reads */

static struct entry_builder builder[PLAT_QUERY_N];

static void
entry_in(enum plat_query_id q, uint64_t id, const char *name, const char *class_name)
{
    assert_int_equal(entry_builder_entry(&builder[q], id, 0, name, class_name), 0);
}

/* A table of clocks in MHz, stored in Hz as an M1's are. */
static void
table(const char *key, const uint32_t *mhz, unsigned int n)
{
    unsigned char raw[64] = { 0 };

    for (unsigned int i = 0; i < n; i++) {
        uint32_t hz = mhz[i] * 1000000u;

        for (int k = 0; k < 4; k++)
            raw[8 * i + k] = (unsigned char)(hz >> (8 * k));
    }
    assert_int_equal(entry_builder_data(&builder[PLAT_QUERY_PMGR], key, raw, 8 * n), 0);
}

static void
channel(enum plat_query_id q, uint64_t id, const char *name)
{
    state_channel(&builder[q], id, name, "24Mticks");
}

static void
state(enum plat_query_id q, const char *name, uint64_t ticks)
{
    channel_state(&builder[q], name, ticks);
}

static void
answer(enum plat_query_id q)
{
    entry_builder_finish(&builder[q], &fake.reg[q]);
}

/* E: 600 and 1200 MHz; P: 1000, 2000, 3000 MHz; GPU: 400 and 800 MHz
 * after the 0 entry that is no state. */
static void
tables(void)
{
    static const uint32_t e[] = { 600, 1200 }, p[] = { 1000, 2000, 3000 }, gpu[] = { 0, 400, 800 };

    entry_builder_reset(&builder[PLAT_QUERY_PMGR]);
    entry_in(PLAT_QUERY_PMGR, 1, "pmgr", "AppleARMIODevice");
    table("voltage-states1-sram", e, 2);
    table("voltage-states5-sram", p, 3);
    table("voltage-states9", gpu, 3);
    answer(PLAT_QUERY_PMGR);
}

/* ECPU: 1 s at 600 MHz, 2 s at 1200, 3 s idle; PCPU: 1 s at 3000 MHz,
 * 1 s idle, active seconds more at 3000 (for the energy tests), and down
 * for 2 s plus the elapsed seconds given. */
static void
clusters(uint64_t active_seconds, uint64_t elapsed_seconds)
{
    entry_builder_reset(&builder[PLAT_QUERY_CPU_CLUSTERS]);
    channel(PLAT_QUERY_CPU_CLUSTERS, 1, "ECPU");
    state(PLAT_QUERY_CPU_CLUSTERS, "DOWN", 0);
    state(PLAT_QUERY_CPU_CLUSTERS, "IDLE", 3 * SECOND);
    state(PLAT_QUERY_CPU_CLUSTERS, "V0P1", SECOND);
    state(PLAT_QUERY_CPU_CLUSTERS, "V1P0", 2 * SECOND);
    channel(PLAT_QUERY_CPU_CLUSTERS, 2, "PCPU");
    state(PLAT_QUERY_CPU_CLUSTERS, "DOWN", (2 + elapsed_seconds - active_seconds) * SECOND);
    state(PLAT_QUERY_CPU_CLUSTERS, "IDLE", SECOND);
    state(PLAT_QUERY_CPU_CLUSTERS, "V0P2", 0);
    state(PLAT_QUERY_CPU_CLUSTERS, "V1P1", 0);
    state(PLAT_QUERY_CPU_CLUSTERS, "V2P0", (1 + active_seconds) * SECOND);
    channel(PLAT_QUERY_CPU_CLUSTERS, 3, "PCPM_IDLE");        /* no cluster: idle or not */
    state(PLAT_QUERY_CPU_CLUSTERS, "IDLE", SECOND);
    answer(PLAT_QUERY_CPU_CLUSTERS);
}

static int
setup(void **state_)
{
    (void)state_;
    fake_platform_init(&fake);
    tables();
    clusters(0, 0);
    entry_builder_reset(&builder[PLAT_QUERY_CPU_CORES]);
    channel(PLAT_QUERY_CPU_CORES, 1, "ECPU0");
    state(PLAT_QUERY_CPU_CORES, "IDLE", SECOND);
    state(PLAT_QUERY_CPU_CORES, "V1P0", SECOND / 2);
    answer(PLAT_QUERY_CPU_CORES);
    entry_builder_reset(&builder[PLAT_QUERY_GPU_STATES]);
    channel(PLAT_QUERY_GPU_STATES, 1, "BSTGPUPH");
    state(PLAT_QUERY_GPU_STATES, "OFF", SECOND);
    channel(PLAT_QUERY_GPU_STATES, 2, "GPUPH");
    state(PLAT_QUERY_GPU_STATES, "OFF", 5 * SECOND);
    state(PLAT_QUERY_GPU_STATES, "P1", SECOND);
    state(PLAT_QUERY_GPU_STATES, "P2", SECOND);
    answer(PLAT_QUERY_GPU_STATES);
    return harness_start();
}

static void
clusters_count_time_cycles_and_clocks(void **state_)
{
    (void)state_;
    assert_int_equal(harness_inst_value("kernel.cpucluster.active", PM_TYPE_U64, "ECPU"), 3000000000);
    assert_int_equal(harness_inst_value("kernel.cpucluster.idle", PM_TYPE_U64, "ECPU"), 3000000000);
    assert_int_equal(harness_inst_value("kernel.cpucluster.cycles", PM_TYPE_U64, "ECPU"), 600000000 + 2 * 1200000000ll);
    assert_int_equal(harness_inst_value("kernel.cpucluster.cycles", PM_TYPE_U64, "PCPU"), 3000000000);
    assert_int_equal(harness_inst_value("kernel.cpucluster.down", PM_TYPE_U64, "PCPU"), 2000000000);
    assert_int_equal(harness_inst_value("kernel.cpucluster.clock.max", PM_TYPE_U32, "ECPU"), 1200);
    assert_int_equal(harness_inst_value("kernel.cpucluster.clock.min", PM_TYPE_U32, "PCPU"), 1000);
    assert_int_equal(harness_inst(INDOM_CPU_CLUSTER, "PCPM_IDLE"), -1);
    assert_int_equal(harness_inst_value("kernel.cpucore.cycles", PM_TYPE_U64, "ECPU0"), 600000000);
    assert_int_equal(harness_u64("gpu.pstate.active"), 2000000000);
    assert_int_equal(harness_u64("gpu.pstate.down"), 5000000000);
    assert_int_equal(harness_u64("gpu.pstate.cycles"), 400000000 + 800000000);
    assert_int_equal(harness_u32("gpu.pstate.clock.min"), 400);
}

/* The two clusters' instance labels, as pmcd hands them out: the one named
 * first's, then the other's, each merged into one JSON object. */
static void
labels_of_two(const char *first, char *first_labels, char *other_labels, size_t len)
{
    pmLabelSet *sets = NULL;
    int n = harness_dp.version.seven.label((int)pmInDom_build(78, INDOM_CPU_CLUSTER), PM_LABEL_INSTANCES, &sets,
                                           harness_ext());

    assert_int_equal(n, 2);
    for (int i = 0; i < n; i++) {
        pmLabelSet *one = &sets[i];
        char *out = (int)one->inst == harness_inst(INDOM_CPU_CLUSTER, first) ? first_labels : other_labels;

        out[0] = '\0';
        pmMergeLabelSets(&one, 1, out, (int)len, NULL, NULL);
    }
    pmFreeLabelSets(sets, n);
}

/* Each cluster carries its level's labels, from its CPUs' cluster type. */
static void
clusters_carry_their_level(void **state_)
{
    char e[256], p[256];

    (void)state_;
    assert_true(harness_inst_value("kernel.cpucluster.active", PM_TYPE_U64, "ECPU") > 0);
    labels_of_two("ECPU", e, p, sizeof(e));
    assert_string_equal(e, "{\"perflevel\":\"efficiency\",\"perflevel_index\":1}");
    assert_string_equal(p, "{\"perflevel\":\"performance\",\"perflevel_index\":0}");
}

/* An Ultra's clusters, one set per die, carry their die beside their level. */
static void
an_ultras_clusters_carry_their_die(void **state_)
{
    char e[256], p[256];

    (void)state_;
    entry_builder_reset(&builder[PLAT_QUERY_CPU_CLUSTERS]);
    channel(PLAT_QUERY_CPU_CLUSTERS, 1, "DIE_0_ECPU");
    state(PLAT_QUERY_CPU_CLUSTERS, "V0P1", SECOND);
    channel(PLAT_QUERY_CPU_CLUSTERS, 2, "DIE_1_PCPU");
    state(PLAT_QUERY_CPU_CLUSTERS, "V2P0", SECOND);
    answer(PLAT_QUERY_CPU_CLUSTERS);
    assert_int_equal(harness_inst_value("kernel.cpucluster.cycles", PM_TYPE_U64, "DIE_1_PCPU"), 3000000000);
    labels_of_two("DIE_0_ECPU", e, p, sizeof(e));
    assert_string_equal(e, "{\"die\":0,\"perflevel\":\"efficiency\",\"perflevel_index\":1}");
    assert_string_equal(p, "{\"die\":1,\"perflevel\":\"performance\",\"perflevel_index\":0}");
}

/* One sample of the clusters' subgroup per fetch, the tables once, and
 * nothing of the cores or the GPU unless asked. */
static void
each_collector_samples_only_when_asked(void **state_)
{
    (void)state_;
    for (int i = 0; i < 3; i++)
        assert_true(harness_inst_value("kernel.cpucluster.cycles", PM_TYPE_U64, "PCPU") > 0);
    assert_int_equal(fake.calls.query[PLAT_QUERY_CPU_CLUSTERS], 3);
    assert_int_equal(fake.calls.query[PLAT_QUERY_PMGR], 1);
    assert_int_equal(fake.calls.query[PLAT_QUERY_CPU_CORES], 0);
    assert_int_equal(fake.calls.query[PLAT_QUERY_GPU_STATES], 0);
    assert_int_equal(fake.calls.query[PLAT_QUERY_ENERGY], 0);
}

/* An Intel Mac: no tables, no "CPU Stats", no "GPU Stats". */
static void
an_intel_mac_has_none(void **state_)
{
    pmAtomValue v[4];

    (void)state_;
    fake.reg[PLAT_QUERY_PMGR].n = 0;
    fake.reg[PLAT_QUERY_CPU_CLUSTERS].n = 0;
    fake.reg[PLAT_QUERY_GPU_STATES].n = 0;
    assert_int_equal(harness_fetch("kernel.cpucluster.cycles", PM_TYPE_U64, v, 4, NULL), 0);
    assert_int_equal(harness_fetch("gpu.pstate.active", PM_TYPE_U64, v, 1, NULL), PM_ERR_APPVERSION);
}

/* Without a table the times still count; the cycles and clocks have none. */
static void
without_tables_the_times_still_count(void **state_)
{
    pmAtomValue v[1];

    (void)state_;
    fake.reg[PLAT_QUERY_PMGR].n = 0;
    assert_int_equal(harness_inst_value("kernel.cpucluster.active", PM_TYPE_U64, "PCPU"), 1000000000);
    assert_int_equal(harness_fetch("gpu.pstate.cycles", PM_TYPE_U64, v, 1, NULL), PM_ERR_APPVERSION);
    assert_int_equal(harness_fetch("gpu.pstate.clock.max", PM_TYPE_U32, v, 1, NULL), PM_ERR_APPVERSION);
    assert_int_equal(harness_u64("gpu.pstate.active"), 2000000000);
}

/* A state beyond its table: that channel's cycles have no value, its
 * times do, and the other clusters' cycles too. */
static void
a_state_beyond_the_table_has_no_cycles(void **state_)
{
    pmAtomValue v[2];
    int inst[2];

    (void)state_;
    entry_builder_reset(&builder[PLAT_QUERY_CPU_CLUSTERS]);
    channel(PLAT_QUERY_CPU_CLUSTERS, 1, "ECPU");
    state(PLAT_QUERY_CPU_CLUSTERS, "V0", SECOND);
    state(PLAT_QUERY_CPU_CLUSTERS, "V1", SECOND);
    state(PLAT_QUERY_CPU_CLUSTERS, "V2", SECOND);            /* a third clock of a two-entry table */
    channel(PLAT_QUERY_CPU_CLUSTERS, 2, "PCPU");
    state(PLAT_QUERY_CPU_CLUSTERS, "V2P0", SECOND);
    answer(PLAT_QUERY_CPU_CLUSTERS);
    assert_int_equal(harness_fetch("kernel.cpucluster.cycles", PM_TYPE_U64, v, 2, inst), 1);
    assert_int_equal(inst[0], harness_inst(INDOM_CPU_CLUSTER, "PCPU"));
    assert_int_equal(v[0].ull, 3000000000);
    assert_int_equal(harness_inst_value("kernel.cpucluster.active", PM_TYPE_U64, "ECPU"), 3000000000);
}

/*
 * An M4 Pro's P clusters on macOS 27 beta (macmon issue 66), PCPU and PCPM,
 * list 19 clock states, and no table of the fixture's fits them. Fetched
 * round after round (as pmlogger does for days), each is logged once when
 * that starts, not at every fetch while the two take turns; and once when
 * it ends, here when the clusters are the fixture's again: PCPU fits a
 * table, PCPM is gone.
 */
static void
each_channel_without_a_table_is_logged_once(void **state_)
{
    enum { ROUNDS = 100 };
    static const char residency[] = "ioreport/m4pro-mac16-8-macos27.0b-macmon66-cpu-residency-partial.txt";
    unsigned int started, fits, gone, later, without = 0, with = 0;
    pmAtomValue v[4];

    (void)state_;
    fake.reg[PLAT_QUERY_CPU_CLUSTERS] = macmon_channels(&builder[PLAT_QUERY_CPU_CLUSTERS], residency,
                                                       "CPU Stats :: CPU Complex Performance States :: ");
    harness_log_start();
    for (int i = 0; i < ROUNDS; i++)
        without += harness_fetch("kernel.cpucluster.cycles", PM_TYPE_U64, v, 4, NULL) == PM_ERR_APPVERSION;
    started = harness_log_lines("no DVFS table fits");
    clusters(0, 0);
    for (int i = 0; i < ROUNDS; i++)
        with += harness_fetch("kernel.cpucluster.cycles", PM_TYPE_U64, v, 4, NULL) == 2;
    fits = harness_log_lines("a DVFS table fits PCPU again");
    gone = harness_log_lines("PCPM, which no DVFS table fitted, is gone");
    later = harness_log_lines("no DVFS table fits");
    harness_log_stop();
    assert_int_equal(without, ROUNDS);                      /* no cycles for either */
    assert_int_equal(with, ROUNDS);                         /* ECPU's and PCPU's */
    assert_int_equal(started, 2);
    assert_int_equal(fits, 1);
    assert_int_equal(gone, 1);
    assert_int_equal(later, started);
}

/* A cluster's channel without states this round (IOReport gave a sentinel
 * for one, and the live source leaves the channel without any) has no
 * values, not 0 s of work that would step its counters back; the other
 * clusters keep theirs; a round where no cluster has states has no
 * values at all. */
static void
a_cluster_without_states_has_no_value(void **state_)
{
    pmAtomValue v[4];
    int inst[4];

    (void)state_;
    entry_builder_reset(&builder[PLAT_QUERY_CPU_CLUSTERS]);
    channel(PLAT_QUERY_CPU_CLUSTERS, 1, "ECPU");
    state(PLAT_QUERY_CPU_CLUSTERS, "IDLE", 3 * SECOND);
    state(PLAT_QUERY_CPU_CLUSTERS, "V0P1", SECOND);
    channel(PLAT_QUERY_CPU_CLUSTERS, 2, "PCPU");
    answer(PLAT_QUERY_CPU_CLUSTERS);
    assert_int_equal(harness_fetch("kernel.cpucluster.active", PM_TYPE_U64, v, 4, inst), 1);
    assert_int_equal(inst[0], harness_inst(INDOM_CPU_CLUSTER, "ECPU"));
    assert_int_equal(v[0].ull, 1000000000);
    entry_builder_reset(&builder[PLAT_QUERY_CPU_CLUSTERS]);
    channel(PLAT_QUERY_CPU_CLUSTERS, 1, "ECPU");
    answer(PLAT_QUERY_CPU_CLUSTERS);
    assert_int_equal(harness_fetch("kernel.cpucluster.active", PM_TYPE_U64, v, 4, inst), 0);
}

/* A failing "CPU Stats" sample fails the clusters' values only: energy,
 * which reads their activity, carries on. */
static void
a_failing_cluster_sample_leaves_energy(void **state_)
{
    pmAtomValue v[1];

    (void)state_;
    entry_builder_reset(&builder[PLAT_QUERY_ENERGY]);
    entry_in(PLAT_QUERY_ENERGY, 1, "CPU Energy", "IOReportChannel");
    assert_int_equal(entry_builder_string(&builder[PLAT_QUERY_ENERGY], "unit", "mJ"), 0);
    assert_int_equal(entry_builder_number(&builder[PLAT_QUERY_ENERGY], "value", 5000), 0);
    answer(PLAT_QUERY_ENERGY);
    fake.reg_sts[PLAT_QUERY_CPU_CLUSTERS] = -EIO;
    assert_int_equal(harness_fetch("kernel.cpucluster.active", PM_TYPE_U64, v, 1, NULL), 0);
    assert_int_equal(harness_fetch("power.energy.cpu", PM_TYPE_DOUBLE, v, 1, NULL), 1);
    assert_true(v[0].d > 4.999 && v[0].d < 5.001);
}

/* The energy channels named so, at these millijoules. */
static void
channels_at(const char *const *names, const uint64_t *value, unsigned int n)
{
    entry_builder_reset(&builder[PLAT_QUERY_ENERGY]);
    for (unsigned int i = 0; i < n; i++) {
        entry_in(PLAT_QUERY_ENERGY, i + 1, names[i], "IOReportChannel");
        assert_int_equal(entry_builder_string(&builder[PLAT_QUERY_ENERGY], "unit", "mJ"), 0);
        assert_int_equal(entry_builder_number(&builder[PLAT_QUERY_ENERGY], "value", value[i]), 0);
    }
    answer(PLAT_QUERY_ENERGY);
}

/* CPU Energy, GPU Energy and ANE at these millijoules. */
static void
energy(uint64_t cpu, uint64_t gpu, uint64_t ane)
{
    static const char *const names[] = { "CPU Energy", "GPU Energy", "ANE" };
    const uint64_t value[] = { cpu, gpu, ane };

    channels_at(names, value, 3);
}

static int
energy_of(const char *name, pmAtomValue *v)
{
    return harness_fetch(name, PM_TYPE_DOUBLE, v, 1, NULL);
}

/* macOS 27's stalled counters: "CPU Energy" stands still for 11 s while
 * the clusters work 2 s, so it and power.energy.cpu have no value, not
 * 0 W, until it moves again; the GPU's and the ANE's (which may rest) keep
 * theirs. A counter that stands still while the clusters rest is not
 * judged. */
static void
a_cpu_counter_that_stands_still_while_the_cpu_works_is_unavailable(void **state_)
{
    pmAtomValue v[1], values[3];
    int channel_inst, inst[3], n;

    (void)state_;
    energy(1000, 2000, 0);
    assert_int_equal(energy_of("power.energy.cpu", v), 1);  /* seen first */
    clusters(0, 11);
    energy(1000, 2500, 0);
    assert_int_equal(energy_of("power.energy.cpu", v), 1);  /* still: but the clusters rested */
    clusters(2, 11);
    assert_int_equal(energy_of("power.energy.cpu", v), 1);  /* working, but for less than 10 s since */
    clusters(2, 22);
    energy(1000, 3000, 0);
    assert_int_equal(energy_of("power.energy.cpu", v), PM_ERR_AGAIN);   /* 11 s still, 2 s of work: stalled */
    assert_int_equal(energy_of("power.energy.gpu", v), 1);
    assert_true(v[0].d > 2.999 && v[0].d < 3.001);
    assert_int_equal(energy_of("power.energy.ane", v), 1);  /* the ANE at rest keeps its 0 */
    channel_inst = harness_inst(INDOM_ENERGY_CHANNEL, "CPU_Energy");
    assert_true(channel_inst >= 0);
    n = harness_fetch("power.energy.channel", PM_TYPE_DOUBLE, values, 3, inst);
    assert_int_equal(n, 2);                             /* GPU and ANE: CPU Energy has none */
    for (int i = 0; i < n; i++)
        assert_int_not_equal(inst[i], channel_inst);
    energy(1200, 3000, 0);
    assert_int_equal(energy_of("power.energy.cpu", v), 1);  /* it moves again */
    assert_true(v[0].d > 1.199 && v[0].d < 1.201);
}

/* An Ultra's CPU energy is the sum of its dies' channels: a round where
 * one of them has no value (IOReport gave kIOReportInvalidValue, and the
 * live source leaves the channel without one) has no CPU energy, not one
 * die's share, which would step the counter back; the GPU keeps its value.
 * pmcd's log says so once when it starts and once when it ends. */
static void
a_unit_short_of_a_channel_has_no_value(void **state_)
{
    static const char *const names[] = { "DIE_0_CPU Energy", "DIE_1_CPU Energy", "GPU Energy" };
    static const uint64_t before[] = { 1000, 2000, 500 }, after[] = { 1100, 2100, 600 };
    pmAtomValue v[1];
    unsigned int starts, ends;
    int cpu[3], gpu[2];

    (void)state_;
    channels_at(names, before, 3);
    assert_int_equal(energy_of("power.energy.cpu", v), 1);
    assert_true(v[0].d > 2.999 && v[0].d < 3.001);
    entry_builder_reset(&builder[PLAT_QUERY_ENERGY]);
    for (unsigned int i = 0; i < 3; i++) {
        entry_in(PLAT_QUERY_ENERGY, i + 1, names[i], "IOReportChannel");
        assert_int_equal(entry_builder_string(&builder[PLAT_QUERY_ENERGY], "unit", "mJ"), 0);
        if (i != 1)
            assert_int_equal(entry_builder_number(&builder[PLAT_QUERY_ENERGY], "value", after[i]), 0);
    }
    answer(PLAT_QUERY_ENERGY);
    harness_log_start();
    for (int round = 0; round < 2; round++) {
        cpu[round] = energy_of("power.energy.cpu", v);
        gpu[round] = energy_of("power.energy.gpu", v);
    }
    channels_at(names, after, 3);
    cpu[2] = energy_of("power.energy.cpu", v);
    starts = harness_log_lines("energy: some metrics unavailable");
    ends = harness_log_lines("energy: all metrics available again");
    harness_log_stop();
    for (int round = 0; round < 2; round++) {
        assert_int_equal(cpu[round], PM_ERR_AGAIN);
        assert_int_equal(gpu[round], 1);
    }
    assert_int_equal(cpu[2], 1);
    assert_true(v[0].d > 3.199 && v[0].d < 3.201);
    assert_int_equal(starts, 1);
    assert_int_equal(ends, 1);
}

/* Reads that fail say nothing of whether a counter moved meanwhile: after
 * them (an IOReport subscription lost for 11 s while the clusters worked,
 * then made again, whose first reading is the counter's last value), the
 * channel is seen anew, not judged to stand still. */
static void
a_counter_is_not_judged_across_failed_reads(void **state_)
{
    pmAtomValue v[1];

    (void)state_;
    energy(1000, 2000, 0);
    assert_int_equal(energy_of("power.energy.cpu", v), 1);
    fake.reg_sts[PLAT_QUERY_ENERGY] = -EIO;
    clusters(2, 22);
    assert_int_equal(energy_of("power.energy.cpu", v), PM_ERR_AGAIN);
    fake.reg_sts[PLAT_QUERY_ENERGY] = 0;
    assert_int_equal(energy_of("power.energy.cpu", v), 1);
    assert_true(v[0].d > 0.999 && v[0].d < 1.001);
}

/* E and P clusters, with this much P work (in half seconds) and time (in
 * seconds) so far: ECPU rests, PCPU works, PCPU1 stays powered down, PCPM
 * (the states PCPU ran in) counts PCPU's work again. */
static void
three_clusters(uint64_t p_active_halves, uint64_t elapsed_seconds)
{
    uint64_t p_active = p_active_halves * SECOND / 2;

    entry_builder_reset(&builder[PLAT_QUERY_CPU_CLUSTERS]);
    channel(PLAT_QUERY_CPU_CLUSTERS, 1, "ECPU");
    state(PLAT_QUERY_CPU_CLUSTERS, "IDLE", (10 + elapsed_seconds) * SECOND);
    state(PLAT_QUERY_CPU_CLUSTERS, "V0P1", SECOND);
    for (uint64_t id = 2; id <= 3; id++) {
        channel(PLAT_QUERY_CPU_CLUSTERS, id, id == 2 ? "PCPU" : "PCPM");
        state(PLAT_QUERY_CPU_CLUSTERS, "IDLE", (10 + elapsed_seconds) * SECOND - p_active);
        state(PLAT_QUERY_CPU_CLUSTERS, "V0P2", SECOND + p_active);
    }
    channel(PLAT_QUERY_CPU_CLUSTERS, 4, "PCPU1");
    state(PLAT_QUERY_CPU_CLUSTERS, "DOWN", (11 + elapsed_seconds) * SECOND);
    state(PLAT_QUERY_CPU_CLUSTERS, "V0P2", 0);
    answer(PLAT_QUERY_CPU_CLUSTERS);
}

/* The channels of the energy collector that have a value now, by name. */
static int
has_value(const char *channel_name)
{
    pmAtomValue v[8];
    int inst[8], n = harness_fetch("power.energy.channel", PM_TYPE_DOUBLE, v, 8, inst);

    for (int i = 0; i < n; i++)
        if (inst[i] == harness_inst(INDOM_ENERGY_CHANNEL, channel_name))
            return 1;
    return 0;
}

/* A cluster's total is judged by that cluster's own work: PACC0_CPU (the
 * power manager's name for PCPU's) stands still while PCPU works and is
 * unavailable; PACC1_CPU (PCPU1, down) and EACC_CPU (ECPU,
 * resting) stand still with good reason; a core's accumulator is never
 * judged (its core may be down while its cluster works). PCPM's count of
 * PCPU's work is not added in again: 0.6 s of work in 12 s is below the
 * 1 s that judging takes. */
static void
a_cluster_counter_is_judged_by_its_own_cluster(void **state_)
{
    static const char *const names[] = { "EACC_CPU", "PACC0_CPU", "PACC1_CPU", "PACC0_CPU3" };
    static const uint64_t still[] = { 500, 700, 900, 1100 };

    (void)state_;
    three_clusters(0, 0);
    channels_at(names, still, 4);
    assert_true(has_value("PACC0_CPU"));
    three_clusters(0, 12);
    assert_true(has_value("PACC0_CPU"));               /* 12 s still, PCPU rests */
    three_clusters(1, 13);                              /* PCPU and PCPM: 0.5 s each; the sum would be 1 s */
    assert_true(has_value("PACC0_CPU"));
    three_clusters(24, 24);
    assert_false(has_value("PACC0_CPU"));
    assert_true(has_value("EACC_CPU"));
    assert_true(has_value("PACC1_CPU"));
    assert_true(has_value("PACC0_CPU3"));
}

/* Unknown work judges nothing and keeps the baseline: a failed CPU Stats
 * sample in between, or an instance request (which refreshes energy
 * without the clusters), leaves a still counter available when the
 * clusters rested. */
static void
unknown_work_judges_nothing(void **state_)
{
    pmInResult *in = NULL;
    pmAtomValue v[1];

    (void)state_;
    energy(1000, 2000, 0);
    assert_int_equal(energy_of("power.energy.cpu", v), 1);  /* baseline: clusters(0, 0) */
    fake.reg_sts[PLAT_QUERY_CPU_CLUSTERS] = -EIO;
    assert_int_equal(energy_of("power.energy.cpu", v), 1);  /* work unknown: nothing judged */
    fake.reg_sts[PLAT_QUERY_CPU_CLUSTERS] = 0;
    clusters(0, 11);
    assert_int_equal(energy_of("power.energy.cpu", v), 1);  /* 11 s still, the clusters rested */
    clusters(2, 22);
    assert_int_equal(harness_dp.version.seven.instance(pmInDom_build(78, INDOM_ENERGY_CHANNEL), PM_IN_NULL, NULL,
                                                       &in, harness_ext()), 0);
    for (int i = 0; i < in->numinst; i++)
        free(in->namelist[i]);          /* pmdaInstance copies the names; pmcd frees them */
    free(in->instlist);
    free(in->namelist);
    free(in);
    /* the fetch refreshes the clusters: 2 s of work */
    assert_int_equal(energy_of("power.energy.cpu", v), PM_ERR_AGAIN);
}

/* Every channel of a real M5 Max's "Energy Model" (macOS 27.0, the 364 of
 * shared/real-macs/ioreport, all-smi's list) is an instance: none is cut. */
/* Every channel of a real "Energy Model" list (shared/real-macs/ioreport),
 * the n-th at n joules (1000 n mJ: every list's per-channel unit is mJ but
 * the GPU's nJ and the PCIe ports' uJ, scaled as labelled); the count. */
static unsigned int
channel_list(const char *file)
{
    FILE *f = fopen(real_macs_file(file), "r");
    char line[256];
    unsigned int n = 0;

    assert_non_null(f);
    entry_builder_reset(&builder[PLAT_QUERY_ENERGY]);
    while (fgets(line, sizeof(line), f) != NULL) {
        char *tab = strchr(line, '\t');

        if (line[0] == '#' || tab == NULL)
            continue;
        *tab = '\0';
        tab[strcspn(tab + 1, "\r\n") + 1] = '\0';
        entry_in(PLAT_QUERY_ENERGY, ++n, line, "IOReportChannel");
        assert_int_equal(entry_builder_string(&builder[PLAT_QUERY_ENERGY], "unit", tab + 1), 0);
        assert_int_equal(entry_builder_number(&builder[PLAT_QUERY_ENERGY], "value", 1000 * n), 0);
    }
    fclose(f);
    answer(PLAT_QUERY_ENERGY);
    return n;
}

static void
every_energy_channel_of_an_m5_max_is_served(void **state_)
{
    pmAtomValue v[400];

    (void)state_;
    assert_int_equal(channel_list("ioreport/m5max-mac17-7-macos27.0-energy-model-channels.tsv"), 364);
    assert_int_equal(harness_fetch("power.energy.channel", PM_TYPE_DOUBLE, v, 400, NULL), 364);
}

/* A reading of the power manager's "DCS BW" histograms: EACC0's combined
 * channel (buckets 1, 2, 3 GB/s) and, named as macOS 27 names it, AGX's
 * reads (bucket 1 GB/s alone: no second bucket to be short of). */
static void
bandwidth_reading(uint64_t eacc0_1, uint64_t eacc0_3, uint64_t agx_1)
{
    entry_builder_reset(&builder[PLAT_QUERY_BANDWIDTH]);
    channel(PLAT_QUERY_BANDWIDTH, 1, "EACC0 RD+WR");
    state(PLAT_QUERY_BANDWIDTH, "1GB/s", eacc0_1);
    state(PLAT_QUERY_BANDWIDTH, "2GB/s", 0);
    state(PLAT_QUERY_BANDWIDTH, "3GB/s", eacc0_3);
    channel(PLAT_QUERY_BANDWIDTH, 2, "DIE0 AGX RD");
    state(PLAT_QUERY_BANDWIDTH, "1GB/s", agx_1);
    answer(PLAT_QUERY_BANDWIDTH);
}

/* A metric's value for one requestor, failing when it has none. */
static pmAtomValue
requestor_value(const char *metric, int type, const char *requestor)
{
    pmAtomValue v[LEGEND_MAX];
    int inst[LEGEND_MAX], n = harness_fetch(metric, type, v, LEGEND_MAX, inst);

    assert_true(n <= LEGEND_MAX);
    for (int i = 0; i < n; i++)
        if (inst[i] == harness_inst(INDOM_BANDWIDTH_REQUESTOR, requestor))
            return v[i];
    fail_msg("%s has no value for %s", metric, requestor);
    return v[0];
}

static double
bandwidth_of(const char *metric, const char *requestor)
{
    return requestor_value(metric, PM_TYPE_DOUBLE, requestor).d;
}

/* The mean between two fetches, per requestor and direction: none at the
 * first fetch, then EACC0's 1 s at 1 GB/s and 1 s at 3 GB/s are 2 GB/s
 * (its top bucket: saturated), AGX's reads 1 GB/s; AGX has no combined
 * channel and nobody a write channel: no values for those. */
static void
bandwidth_is_the_mean_between_fetches(void **state_)
{
    pmAtomValue v[4];

    (void)state_;
    bandwidth_reading(SECOND, 0, SECOND);
    assert_int_equal(harness_fetch("mem.bandwidth.read_write", PM_TYPE_DOUBLE, v, 4, NULL), 0);
    assert_true(harness_inst(INDOM_BANDWIDTH_REQUESTOR, "EACC0") >= 0);
    assert_true(harness_inst(INDOM_BANDWIDTH_REQUESTOR, "AGX") >= 0);
    bandwidth_reading(2 * SECOND, SECOND, 3 * SECOND);
    assert_float_equal(bandwidth_of("mem.bandwidth.read_write", "EACC0"), 2e9, 1e-3);
    bandwidth_reading(3 * SECOND, SECOND, 4 * SECOND);
    assert_float_equal(bandwidth_of("mem.bandwidth.read", "AGX"), 1e9, 1e-3);
    bandwidth_reading(4 * SECOND, 2 * SECOND, 5 * SECOND);
    assert_int_equal(harness_inst_value("mem.bandwidth.saturated", PM_TYPE_U32, "EACC0"), 1);
    assert_int_equal(harness_fetch("mem.bandwidth.write", PM_TYPE_DOUBLE, v, 4, NULL), 0);
}

/* The channels in another order (a subscription made again lists them as
 * it will): each reading still goes to its own requestor and direction. */
static void
channels_that_change_places_keep_their_readings(void **state_)
{
    (void)state_;
    bandwidth_reading(SECOND, 0, SECOND);
    harness_fetch("mem.bandwidth.read_write", PM_TYPE_DOUBLE, NULL, 0, NULL);
    entry_builder_reset(&builder[PLAT_QUERY_BANDWIDTH]);
    channel(PLAT_QUERY_BANDWIDTH, 1, "DIE0 AGX RD");
    state(PLAT_QUERY_BANDWIDTH, "1GB/s", 2 * SECOND);
    channel(PLAT_QUERY_BANDWIDTH, 2, "EACC0 RD+WR");
    state(PLAT_QUERY_BANDWIDTH, "1GB/s", SECOND);
    state(PLAT_QUERY_BANDWIDTH, "2GB/s", 0);
    state(PLAT_QUERY_BANDWIDTH, "3GB/s", SECOND);
    answer(PLAT_QUERY_BANDWIDTH);
    assert_float_equal(bandwidth_of("mem.bandwidth.read_write", "EACC0"), 3e9, 1e-3);
}

/* A residency libIOReport could not give (the live reader leaves the
 * channel without states) is no value, logged once as it starts and once
 * as it ends; an Intel Mac has no requestors. */
static void
a_channel_without_a_value_has_none_until_it_has_two(void **state_)
{
    pmAtomValue v[4];
    unsigned int unavailable, available;

    (void)state_;
    bandwidth_reading(SECOND, 0, SECOND);
    assert_int_equal(harness_fetch("mem.bandwidth.read_write", PM_TYPE_DOUBLE, v, 4, NULL), 0);
    harness_log_start();
    entry_builder_reset(&builder[PLAT_QUERY_BANDWIDTH]);
    channel(PLAT_QUERY_BANDWIDTH, 1, "EACC0 RD+WR");
    answer(PLAT_QUERY_BANDWIDTH);
    assert_int_equal(harness_fetch("mem.bandwidth.read_write", PM_TYPE_DOUBLE, v, 4, NULL), 0);
    bandwidth_reading(2 * SECOND, 0, SECOND);
    assert_int_equal(harness_fetch("mem.bandwidth.read_write", PM_TYPE_DOUBLE, v, 4, NULL), 0);
    bandwidth_reading(3 * SECOND, 0, SECOND);
    assert_int_equal(harness_fetch("mem.bandwidth.read_write", PM_TYPE_DOUBLE, v, 4, NULL), 1);
    assert_float_equal(v[0].d, 1e9, 1e-3);
    unavailable = harness_log_lines("bandwidth: some metrics unavailable");
    available = harness_log_lines("bandwidth: all metrics available again");
    harness_log_stop();
    assert_int_equal(unavailable, 1);
    assert_int_equal(available, 1);
    fake.reg[PLAT_QUERY_BANDWIDTH].n = 0;
    assert_int_equal(harness_fetch("mem.bandwidth.read_write", PM_TYPE_DOUBLE, v, 4, NULL), 0);
    assert_int_equal(harness_inst(INDOM_BANDWIDTH_REQUESTOR, "EACC0"), -1);
}


struct legend_channel {
    char name[PLAT_ENTRY_NAME_MAX];
    unsigned int buckets;
};

/* The channels of a subgroup of a group in the M1's legend, from its
 * "(id, type, name)" triples: a state channel's count is bits 32-47 of
 * its type (the file's header says how the type is packed). */
static unsigned int
m1_legend(const char *group_name, const char *subgroup_name, struct legend_channel *out, unsigned int max)
{
    char group[128], subgroup[128];
    FILE *f = fopen(real_macs_file(M1_LEGEND), "r");
    char *line = NULL;
    size_t cap = 0;
    unsigned int n = 0;

    assert_non_null(f);
    snprintf(group, sizeof(group), "{\"IOReportGroupName\"=\"%s\"", group_name);
    snprintf(subgroup, sizeof(subgroup), "\"IOReportSubGroupName\"=\"%s\"", subgroup_name);
    while (getline(&line, &cap, f) > 0) {
        for (char *g = strstr(line, group); g != NULL; g = strstr(g + 1, group)) {
            char *next = strstr(g + 1, group), *sub = strstr(g, subgroup);
            unsigned long long id, type;
            int used;

            if (sub == NULL || (next != NULL && sub > next))
                continue;
            for (char *c = strstr(g, "=(("); c != NULL && c < sub; c = strstr(c + 1, "),(")) {
                assert_true(n < max);
                if (sscanf(c + 3, "%llu,%llu,\"%63[^\"]\"%n", &id, &type, out[n].name, &used) < 3)
                    continue;
                out[n].buckets = (unsigned int)(type >> 32 & 0xffff);
                n++;
            }
        }
    }
    free(line);
    fclose(f);
    return n;
}

/* A reading of those channels: each with ticks in its lowest bucket and
 * in its top one. The legend holds no state names: the buckets are named
 * as the M4 Max's are ("1GB/s" up, SiliconScope's histograms). */
static void
m1_bandwidth_reading(const struct legend_channel *c, unsigned int n, uint64_t ticks)
{
    char label[32];

    entry_builder_reset(&builder[PLAT_QUERY_BANDWIDTH]);
    for (unsigned int i = 0; i < n; i++) {
        channel(PLAT_QUERY_BANDWIDTH, i + 1, c[i].name);
        for (unsigned int k = 1; k <= c[i].buckets; k++) {
            snprintf(label, sizeof(label), "%uGB/s", k);
            state(PLAT_QUERY_BANDWIDTH, label, k == 1 || k == c[i].buckets ? ticks : 0);
        }
    }
    answer(PLAT_QUERY_BANDWIDTH);
}

/* The M1 (macOS 11) has no "DCS BW" but a "Bandwidth" subgroup of the
 * same histograms, reads and writes per requestor ("DCS RD", "GPU WR",
 * "ANE RD"), beside channels with no direction ("ECPU DCS", "GPU DCS"),
 * which are not bandwidth per requestor and no fault: each read and write
 * is served (the mean of the lowest and top buckets, equal time in each
 * between fetches),
 * and nothing is logged as unavailable. */
static void
an_m1s_bandwidth_subgroup_is_served(void **state_)
{
    struct legend_channel c[LEGEND_MAX];
    unsigned int n = m1_legend("PMP", "Bandwidth", c, LEGEND_MAX), served = 0, unavailable;

    (void)state_;
    assert_true(n > 0);
    harness_log_start();
    m1_bandwidth_reading(c, n, SECOND);
    harness_fetch("mem.bandwidth.read", PM_TYPE_DOUBLE, NULL, 0, NULL);
    for (unsigned int i = 0; i < n; i++) {
        size_t len = strlen(c[i].name);
        int read = len > 3 && strcmp(c[i].name + len - 3, " RD") == 0;
        char requestor[PLAT_ENTRY_NAME_MAX];

        if (!read && (len <= 3 || strcmp(c[i].name + len - 3, " WR") != 0))
            continue;
        snprintf(requestor, sizeof(requestor), "%.*s", (int)(len - 3), c[i].name);
        m1_bandwidth_reading(c, n, (served + 2) * SECOND);     /* each fetch is a refresh */
        assert_float_equal(bandwidth_of(read ? "mem.bandwidth.read" : "mem.bandwidth.write", requestor),
                           (1 + c[i].buckets) / 2.0 * 1e9, 1e-3);
        served++;
    }
    unavailable = harness_log_lines("bandwidth: some metrics unavailable");
    harness_log_stop();
    assert_true(served > 0 && served < n);
    assert_int_equal(unavailable, 0);
}

/* A reading of byte counters named as names[0..n) ("AMC Stats" "Perf
 * Counters"): the k-th (from 0) has counted (k + 1) * step bytes, or, with
 * sentinel set, holds that value instead; no_value leaves the value out,
 * as the live layer does where libIOReport gave none. */
enum counter_value { COUNTED_BYTES, SENTINEL, NO_VALUE };
static void
counters_reading(const struct legend_channel *c, unsigned int n, uint64_t step, enum counter_value kind,
                 int64_t sentinel)
{
    struct entry_builder *b = &builder[PLAT_QUERY_MEMORY_TRAFFIC];

    entry_builder_reset(b);
    for (unsigned int i = 0; i < n; i++) {
        assert_int_equal(entry_builder_entry(b, i + 1, 0, c[i].name, "IOReportChannel"), 0);
        assert_int_equal(entry_builder_string(b, "subgroup", "Perf Counters"), 0);
        if (kind != NO_VALUE)
            assert_int_equal(entry_builder_number(b, "value", kind == SENTINEL ? (uint64_t)sentinel : (i + 1) * step),
                             0);
    }
    answer(PLAT_QUERY_MEMORY_TRAFFIC);
}

/* The requestor of a counter named "<requestor> RD" or "... WR", as an
 * instance name (spaces as '_'); 0 for any other name. */
static int
counter_requestor(const char *name, char *requestor, size_t len, int *read)
{
    size_t n = strlen(name);

    *read = n > 3 && strcmp(name + n - 3, " RD") == 0;
    if (!*read && (n <= 3 || strcmp(name + n - 3, " WR") != 0))
        return 0;
    snprintf(requestor, len, "%.*s", (int)(n - 3), name);
    for (char *s = requestor; *s != '\0'; s++)
        if (*s == ' ')
            *s = '_';
    return 1;
}

/* The M1's "AMC Stats" "Perf Counters", by its legend's names ("DCS RD",
 * "GFX WR", "PCPU DCS RD", ... and "DCS CAS", "DCS", which count no
 * requestor's bytes), where the Mac has no bandwidth histograms: each
 * read and write counter is served as it is, per requestor, and nothing
 * is logged. */
static void
an_m1s_byte_counters_are_served_per_requestor(void **state_)
{
    static const uint64_t step = 1000003;
    struct legend_channel c[LEGEND_MAX];
    unsigned int n = m1_legend("AMC Stats", "Perf Counters", c, LEGEND_MAX), served = 0, unavailable;

    (void)state_;
    assert_true(n > 0);
    harness_log_start();
    counters_reading(c, n, step, COUNTED_BYTES, 0);
    for (unsigned int i = 0; i < n; i++) {
        char requestor[PLAT_ENTRY_NAME_MAX];
        int read;

        if (!counter_requestor(c[i].name, requestor, sizeof(requestor), &read))
            continue;
        assert_int_equal(requestor_value(read ? "mem.bandwidth.read_bytes" : "mem.bandwidth.write_bytes",
                                         PM_TYPE_U64, requestor).ull,
                         (i + 1) * step);
        served++;
    }
    unavailable = harness_log_lines("some metrics unavailable");
    harness_log_stop();
    assert_true(served > 0 && served < n);
    assert_int_equal(unavailable, 0);
}

/* The M3 Max's "AMC Stats" on the macOS 27 beta (SiliconScope issue 14:
 * its channel names, every value INT64_MIN), beside working "DCS BW"
 * histograms: the counters have no value, neither as the sentinel nor as
 * the live layer gives them (no value at all), and that is logged once as
 * it starts and once as it ends, when they count again; the histograms
 * still give their mean. */
static void
counters_that_read_int64_min_have_no_value(void **state_)
{
    struct legend_channel c[LEGEND_MAX];
    char line[512];
    unsigned int n = 0, unavailable, available;
    int64_t sentinel;
    FILE *f = fopen(real_macs_file(M3_MAX_27), "r");

    (void)state_;
    assert_non_null(f);
    while (fgets(line, sizeof(line), f) != NULL && n < LEGEND_MAX) {
        char *gap = strstr(line, "  ");

        if (line[0] == '#' || line[0] == '[' || strstr(line, " Simple ") == NULL || gap == NULL)
            continue;
        snprintf(c[n++].name, sizeof(c[0].name), "%.*s", (int)(gap - line), line);
    }
    fclose(f);
    real_macs_line(M3_MAX_27, 1, "INT64_MIN (", line, sizeof(line));
    sentinel = strtoll(strstr(line, "INT64_MIN (") + 11, NULL, 10);
    assert_true(n > 0 && sentinel == INT64_MIN);
    harness_log_start();
    bandwidth_reading(SECOND, 0, SECOND);
    harness_fetch("mem.bandwidth.read_write", PM_TYPE_DOUBLE, NULL, 0, NULL);
    for (unsigned int round = 0; round < 4; round++) {
        counters_reading(c, n, 0, round % 2 ? NO_VALUE : SENTINEL, sentinel);
        assert_int_equal(harness_fetch("mem.bandwidth.read_bytes", PM_TYPE_U64, NULL, 0, NULL), 0);
    }
    counters_reading(c, n, 1, COUNTED_BYTES, 0);
    assert_true(harness_fetch("mem.bandwidth.read_bytes", PM_TYPE_U64, NULL, 0, NULL) > 0);
    bandwidth_reading(6 * SECOND, 5 * SECOND, SECOND);
    assert_float_equal(bandwidth_of("mem.bandwidth.read_write", "EACC0"), 2e9, 1e-3);
    unavailable = harness_log_lines("bandwidth (AMC Stats): some metrics unavailable");
    available = harness_log_lines("bandwidth (AMC Stats): all metrics available again");
    harness_log_stop();
    assert_int_equal(unavailable, 1);
    assert_int_equal(available, 1);
}

/* "AMC Stats" that cannot be subscribed (SiliconScope issue 46, macOS
 * 27.0; the live layer answers as for a group without channels) beside
 * working histograms is logged once; a Mac with neither (Intel) logs
 * nothing. */
static void
counters_that_cannot_be_read_are_logged_once(void **state_)
{
    unsigned int unavailable;

    (void)state_;
    harness_log_start();
    harness_fetch("mem.bandwidth.read_write", PM_TYPE_DOUBLE, NULL, 0, NULL);
    harness_fetch("mem.bandwidth.read_bytes", PM_TYPE_U64, NULL, 0, NULL);
    unavailable = harness_log_lines("some metrics unavailable");
    bandwidth_reading(SECOND, 0, SECOND);
    harness_fetch("mem.bandwidth.read_write", PM_TYPE_DOUBLE, NULL, 0, NULL);
    for (unsigned int round = 0; round < 3; round++)
        assert_int_equal(harness_fetch("mem.bandwidth.read_bytes", PM_TYPE_U64, NULL, 0, NULL), 0);
    assert_int_equal(unavailable, 0);
    assert_int_equal(harness_log_lines("bandwidth (AMC Stats): some metrics unavailable"), 1);
    harness_log_stop();
}

/* Each source is read only when one of its metrics is asked: the
 * histograms for the means, the counters for the bytes; a requestor of the
 * source not read keeps its baseline, so that the next mean spans the time
 * since its last reading. */
static void
each_source_is_read_only_when_asked(void **state_)
{
    static const struct legend_channel counters[] = { { "DCS RD", 0 } };

    (void)state_;
    bandwidth_reading(SECOND, 0, SECOND);
    counters_reading(counters, 1, 4096, COUNTED_BYTES, 0);
    harness_fetch("mem.bandwidth.read_write", PM_TYPE_DOUBLE, NULL, 0, NULL);
    assert_int_equal(fake.calls.query[PLAT_QUERY_MEMORY_TRAFFIC], 0);
    assert_int_equal(requestor_value("mem.bandwidth.read_bytes", PM_TYPE_U64, "DCS").ull, 4096);
    assert_int_equal(fake.calls.query[PLAT_QUERY_BANDWIDTH], 1);
    bandwidth_reading(2 * SECOND, SECOND, SECOND);
    assert_float_equal(bandwidth_of("mem.bandwidth.read_write", "EACC0"), 2e9, 1e-3);
    assert_int_equal(fake.calls.query[PLAT_QUERY_MEMORY_TRAFFIC], 1);
}

/* The joules power.energy.channel serves for the channel called name
 * (its instance name), or -1 when it serves none. */
static double
channel_joules(const char *name)
{
    pmAtomValue v[400];
    int inst[400], n = harness_fetch("power.energy.channel", PM_TYPE_DOUBLE, v, 400, inst);

    for (int i = 0; i < n; i++)
        if (inst[i] == harness_inst(INDOM_ENERGY_CHANNEL, name))
            return v[i].d;
    return -1;
}

/* An M1 Ultra on macOS 27.0 (all-smi's channel list): its Neural Engine is
 * one channel per die, "ANE0_0" and "ANE0_1" (channels 297 and 304 of the
 * list), each served as an instance, and power.energy.ane is their sum;
 * its CPU is "DIE_0_CPU Energy" and "DIE_1_CPU Energy" (17 and 34). */
static void
an_ultras_neural_engine_is_the_sum_of_its_dies(void **state_)
{
    pmAtomValue v[1];

    (void)state_;
    assert_int_equal(channel_list("ioreport/m1ultra-mac13-2-macos27.0-energy-model-channels.tsv"), 321);
    assert_int_equal(energy_of("power.energy.ane", v), 1);
    assert_true(fabs(v[0].d - (297 + 304)) < 1e-9);
    assert_true(fabs(channel_joules("ANE0_0") - 297) < 1e-9);
    assert_true(fabs(channel_joules("ANE0_1") - 304) < 1e-9);
    assert_int_equal(energy_of("power.energy.cpu", v), 1);
    assert_true(fabs(v[0].d - (17 + 34)) < 1e-9);
}

/* An M3 Max's CPU rail keys (cpu_rails.h) as flt watts. Synthetic: the
 * five values are made up to add up to the 0.04 W its owner stated for an
 * idle CPU (shared/real-macs/smc, macmon pull request 77), whose per-key
 * values were not published. */
static const float idle_rails[] = { 0.01f, 0.005f, 0.01f, 0.005f, 0.01f };
#define IDLE_RAILS_WATTS 0.04

static void
m3_max_rails(void)
{
    static const char *const keys[] = { "PC02", "PC03", "PC42", "PC43", "PP5b" };
    struct entry_builder *b = &builder[PLAT_QUERY_SMC_CPU_RAILS];

    snprintf(fake.topology.brand, sizeof(fake.topology.brand), "Apple M3 Max");
    entry_builder_reset(b);
    for (unsigned int i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        unsigned char bytes[4];

        memcpy(bytes, &idle_rails[i], 4);       /* little-endian, as Apple Silicon's SMC stores a flt */
        entry_in(PLAT_QUERY_SMC_CPU_RAILS, i + 1, keys[i], "SMCKey");
        assert_int_equal(entry_builder_string(b, "type", "flt "), 0);
        assert_int_equal(entry_builder_data(b, "bytes", bytes, 4), 0);
    }
    answer(PLAT_QUERY_SMC_CPU_RAILS);
}

/* The CPU power source's instance labels, as pmcd hands them out. */
static const char *
source_labels(void)
{
    static char json[PM_MAXLABELJSONLEN];
    pmLabelSet *sets = NULL;
    int n = harness_dp.version.seven.label((int)pmInDom_build(78, INDOM_CPU_POWER_SOURCE), PM_LABEL_INSTANCES,
                                           &sets, harness_ext());

    assert_int_equal(n, 1);
    json[0] = '\0';
    pmMergeLabelSets(&sets, 1, json, (int)sizeof(json), NULL, NULL);
    pmFreeLabelSets(sets, n);
    return json;
}

static int
rails_of(pmAtomValue *v)
{
    return harness_fetch("power.cpu.watts", PM_TYPE_DOUBLE, v, 1, NULL);
}

/* An M3 Max on macOS 27: while "CPU Energy" counts, power.cpu.watts has no
 * value and the SMC is not read; once it stands still for 11 s as the
 * clusters work 2 s (energy.c's frozen rule), the rails' sum is served as
 * the "smc_rails" instance, labelled so; once it moves, none again. */
static void
an_m3_max_serves_its_rails_while_the_cpu_counter_stands_still(void **state_)
{
    pmAtomValue v[1];

    (void)state_;
    m3_max_rails();                     /* the brand is read at the first fetch */
    energy(1000, 2000, 0);
    assert_int_equal(rails_of(v), PM_ERR_AGAIN);
    assert_int_equal(fake.calls.query[PLAT_QUERY_SMC_CPU_RAILS], 0);
    clusters(2, 22);
    energy(1000, 3000, 0);
    assert_int_equal(rails_of(v), 1);
    assert_true(fabs(v[0].d - IDLE_RAILS_WATTS) < 1e-6);
    assert_true(harness_inst(INDOM_CPU_POWER_SOURCE, "smc_rails") >= 0);
    assert_string_equal(source_labels(), "{\"power_source\":\"smc_rails\"}");
    energy(1200, 3000, 0);
    assert_int_equal(rails_of(v), PM_ERR_AGAIN);
}

/* Where IOReport has no CPU counter at all, the rails are served at once;
 * on a chip whose rails are not known, nothing is, and the SMC is not read. */
static void
rails_serve_where_ioreport_has_none_and_only_on_their_chip(void **state_)
{
    pmAtomValue v[1];

    (void)state_;
    m3_max_rails();
    fake.reg_sts[PLAT_QUERY_ENERGY] = -ENOENT;
    assert_int_equal(rails_of(v), 1);
    assert_true(fabs(v[0].d - IDLE_RAILS_WATTS) < 1e-6);
    harness_stop();                     /* another Mac */
    snprintf(fake.topology.brand, sizeof(fake.topology.brand), "Apple M3 Pro");
    fake.calls.query[PLAT_QUERY_SMC_CPU_RAILS] = 0;
    assert_int_equal(harness_start(), 0);
    assert_int_equal(rails_of(v), PM_ERR_APPVERSION);
    assert_int_equal(fake.calls.query[PLAT_QUERY_SMC_CPU_RAILS], 0);
}

/* The Neural Engine's controller states at these residencies
 * (synthetic; the state names as test_ioreport.c has them). */
static void
ane_states(uint64_t off, uint64_t running)
{
    struct entry_builder *b = &builder[PLAT_QUERY_ANE_STATES];

    entry_builder_reset(b);
    state_channel(b, 1, "status", "");
    channel_state(b, "Off", off);
    channel_state(b, "Running", running);
    answer(PLAT_QUERY_ANE_STATES);
}

/* kernel.ane.busy is the running share since the last read: none at the first,
 * 3 of 4 units when the controller ran 3 of the 4 that passed, none when
 * no time passed; the power state is not read for it. */
static void
the_neural_engines_busy_share_is_its_running_share_between_reads(void **state_)
{
    pmAtomValue v[1];

    (void)state_;
    ane_states(300, 100);
    assert_int_equal(harness_fetch("kernel.ane.busy", PM_TYPE_DOUBLE, v, 1, NULL), PM_ERR_AGAIN);
    ane_states(301, 103);
    assert_int_equal(harness_fetch("kernel.ane.busy", PM_TYPE_DOUBLE, v, 1, NULL), 1);
    assert_true(fabs(v[0].d - 0.75) < 1e-12);
    assert_int_equal(harness_fetch("kernel.ane.busy", PM_TYPE_DOUBLE, v, 1, NULL), PM_ERR_AGAIN);
    assert_int_equal(fake.calls.query[PLAT_QUERY_ANE], 0);
}

/* An Ultra's two engines (one driver entry per die, synthetic values): the
 * power state is the higher of theirs, so powered while either is; a Mac
 * without the driver has none. */
static void
the_neural_engines_power_state_is_its_highest_drivers(void **state_)
{
    static const uint64_t current[] = { 0, 1 };
    struct entry_builder *b = &builder[PLAT_QUERY_ANE];

    (void)state_;
    entry_builder_reset(b);
    for (unsigned int i = 0; i < 2; i++) {
        entry_in(PLAT_QUERY_ANE, i + 1, "H11ANEIn", "H11ANEIn");
        assert_int_equal(entry_builder_number(b, "IOPowerManagement.CurrentPowerState", current[i]), 0);
        assert_int_equal(entry_builder_number(b, "IOPowerManagement.MaxPowerState", 1), 0);
    }
    answer(PLAT_QUERY_ANE);
    assert_int_equal(harness_u32("kernel.ane.power_state"), 1);
    assert_int_equal(harness_u32("kernel.ane.power_state_max"), 1);
    entry_builder_reset(b);
    answer(PLAT_QUERY_ANE);
    assert_int_equal(harness_fetch("kernel.ane.power_state", PM_TYPE_U32, (pmAtomValue[1]){ 0 }, 1, NULL), PM_ERR_APPVERSION);
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, harness_teardown)

int
main(void)
{
    const struct CMUnitTest tests[] = {
        T(clusters_count_time_cycles_and_clocks), T(clusters_carry_their_level), T(an_ultras_clusters_carry_their_die),
        T(each_collector_samples_only_when_asked), T(an_intel_mac_has_none), T(without_tables_the_times_still_count),
        T(a_state_beyond_the_table_has_no_cycles), T(each_channel_without_a_table_is_logged_once),
        T(a_failing_cluster_sample_leaves_energy),
        T(a_cpu_counter_that_stands_still_while_the_cpu_works_is_unavailable),
        T(a_cluster_counter_is_judged_by_its_own_cluster), T(unknown_work_judges_nothing),
        T(every_energy_channel_of_an_m5_max_is_served), T(an_ultras_neural_engine_is_the_sum_of_its_dies),
        T(an_m3_max_serves_its_rails_while_the_cpu_counter_stands_still),
        T(rails_serve_where_ioreport_has_none_and_only_on_their_chip),
        T(the_neural_engines_busy_share_is_its_running_share_between_reads),
        T(the_neural_engines_power_state_is_its_highest_drivers), T(a_unit_short_of_a_channel_has_no_value),
        T(a_cluster_without_states_has_no_value), T(a_counter_is_not_judged_across_failed_reads),
        T(bandwidth_is_the_mean_between_fetches), T(a_channel_without_a_value_has_none_until_it_has_two),
        T(an_m1s_bandwidth_subgroup_is_served), T(channels_that_change_places_keep_their_readings),
        T(an_m1s_byte_counters_are_served_per_requestor), T(counters_that_read_int64_min_have_no_value),
        T(counters_that_cannot_be_read_are_logged_once), T(each_source_is_read_only_when_asked),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
