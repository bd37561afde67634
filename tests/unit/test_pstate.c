/*
 * Apple Silicon's performance states, decoded from data recorded on real
 * Macs (../shared/real-macs: pmgr, ioreport, powermetrics; each file's
 * header says where it comes from). Expected values are the files' own
 * numbers: the tables their authors decoded, the residencies they list,
 * the clocks all-smi and powermetrics printed. Without the corpus these
 * tests are skipped, saying so (failed where PMDA_DARWIN_SHARED_REQUIRED
 * is set).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dvfs_decode.h"
#include "fake_platform.h"
#include "ioreport_channels.h"
#include "pstate_decode.h"
#include "real_macs_file.h"
#include "reg_entries.h"
#include "replay.h"
#include "snapshot_write.h"

/* The numbers after "after" on a line, into v (at most max): how many. */
static unsigned int
numbers_after(const char *line, const char *after, double *v, unsigned int max)
{
    const char *s = strstr(line, after);
    unsigned int n = 0;
    char *end;

    assert_non_null(s);
    for (s += strlen(after); n < max; s = end) {
        while (*s == ' ' || *s == ',')
            s++;
        v[n] = strtod(s, &end);
        if (end == s)
            break;
        n++;
    }
    return n;
}

/* A table as the pmgr holds it: pairs of little-endian u32, frequency
 * then voltage (0 here: no test reads it). */
static void
table(const char *key, const double *freq, unsigned int n, double scale)
{
    unsigned char raw[8 * DVFS_MAX_STATES] = { 0 };

    for (unsigned int i = 0; i < n; i++) {
        uint32_t f = (uint32_t)llround(freq[i] * scale);

        for (int k = 0; k < 4; k++)
            raw[8 * i + k] = (unsigned char)(f >> (8 * k));
    }
    bytes(key, raw, 8 * n);
}

/* The hex of an ioreg data value ("KEY" = <hex>) or of pairs of 4-byte
 * groups, into raw: its length. */
static size_t
hex_bytes(const char *hex, unsigned char *raw, size_t cap)
{
    size_t n = 0;

    for (; *hex != '\0' && *hex != '>' && n < cap; hex++) {
        if (!isxdigit((unsigned char)hex[0]))
            continue;
        assert_true(isxdigit((unsigned char)hex[1]));
        raw[n++] = (unsigned char)(entry_hex_digit(hex[0]) << 4 | entry_hex_digit(hex[1]));
        hex++;
    }
    return n;
}

#define line_with(relative, needle, line, len) real_macs_line(relative, 0, needle, line, len)

static void
ioreg_data(const char *relative, const char *key)
{
    char line[4096], quoted[64];
    unsigned char raw[1024];
    const char *at;

    snprintf(quoted, sizeof(quoted), "\"%s\" = <", key);
    line_with(relative, quoted, line, sizeof(line));
    at = strstr(line, quoted) + strlen(quoted);
    assert_non_null(strchr(at, '>'));        /* whole, not cut off */
    bytes(key, raw, hex_bytes(at, raw, sizeof(raw)));
}

static struct dvfs
decoded(void)
{
    struct plat_entry_set set = finish();
    struct dvfs d;

    assert_int_equal(dvfs_decode(&set, &d), 0);
    return d;
}

static void
assert_khz(const struct dvfs_table *t, const double *mhz, unsigned int n)
{
    assert_non_null(t);
    assert_int_equal(t->n, n);
    for (unsigned int i = 0; i < n; i++)
        assert_int_equal(t->khz[i], (uint32_t)llround(mhz[i] * 1000));
}

static void
channel(uint64_t id, const char *name, const char *unit)
{
    state_channel(&b, id, name, unit);
}

static void
state_ticks(const char *state, uint64_t ticks)
{
    channel_state(&b, state, ticks);
}

/* The mean clock while active (MHz) and the active residency (percent) of
 * a channel at table t, as a client computes them from the counters. */
static void
clock_of(const struct pstate_channel *ch, const struct dvfs_table *t, double *mhz, double *percent)
{
    uint64_t active, idle, down;
    double cycles;

    assert_int_equal(pstate_times(ch, &active, &idle, &down), 0);
    assert_int_equal(pstate_cycles(ch, t, &cycles), 0);
    assert_true(active > 0);
    *mhz = cycles / ((double)active * 1e-9) / 1e6;
    *percent = 100.0 * (double)active / (double)(active + idle + down);
}

/* A percentage as powermetrics prints it ("22", "1.2", ".93", "0"): the
 * interval its true value lies in. A plain "0" is exactly none (a state
 * never entered prints "0%", one barely entered ".00%"). */
struct printed {
    double lo, hi;
};

static struct printed
printed_at(const char *s, char **end)
{
    struct printed p;
    double v = strtod(s, end);
    const char *dot = memchr(s, '.', (size_t)(*end - s));
    int decimals = dot != NULL ? (int)(*end - dot - 1) : 0;
    double half = 0.5 * pow(10, -decimals);

    assert_true(*end != s);
    if (dot == NULL && v == 0) {
        p.lo = p.hi = 0;
        return p;
    }
    p.lo = v - half > 0 ? v - half : 0;
    p.hi = v + half;
    return p;
}

/* What powermetrics printed for one cluster, CPU or GPU: its clock list,
 * each state's share of all the time, the active total and the clock it
 * computed ("HW active frequency" or a CPU's "frequency"). */
struct reading {
    unsigned int n;
    double mhz[DVFS_MAX_STATES];
    struct printed share[DVFS_MAX_STATES];
    struct printed total;
    double clock;
};

static void
read_powermetrics(const char *file, const char *clock_label, const char *residency_label, struct reading *r)
{
    char line[2048], *s, *end;

    line_with(file, clock_label, line, sizeof(line));
    r->clock = strtod(strstr(line, clock_label) + strlen(clock_label), NULL);
    line_with(file, residency_label, line, sizeof(line));
    assert_true(line[strlen(line) - 1] == ')');         /* a whole list, not one cut off */
    s = strstr(line, residency_label) + strlen(residency_label);
    r->total = printed_at(s, &end);
    assert_non_null(s = strchr(end, '('));
    for (r->n = 0, s++; *s != ')' && r->n < DVFS_MAX_STATES; r->n++) {
        r->mhz[r->n] = strtod(s, &end);
        assert_int_equal(strncmp(end, " MHz:", 5), 0);
        r->share[r->n] = printed_at(end + 5, &s);
        assert_int_equal(*s++, '%');
        while (*s == ' ')
            s++;
    }
}

/* ---- tables ---- */

/* An M1's P table (psutil pull request 2222): raw pairs in Hz, which the
 * file's author decoded to 600 ... 3204 MHz. */
static void
m1_p_table_is_in_hz(void **state)
{
    static const char file[] = "pmgr/m1-voltage-states5-sram-hex-psutil-pr2222.txt";
    FILE *f = fopen(real_macs_file(file), "r");
    unsigned char raw[512];
    size_t n = 0;
    char line[512];
    double mhz[DVFS_MAX_STATES];
    struct dvfs d;

    (void)state;
    assert_non_null(f);
    while (fgets(line, sizeof(line), f) != NULL)
        if (line[0] != '#')
            n += hex_bytes(line, raw + n, sizeof(raw) - n);
    fclose(f);
    entry_builder_reset(&b);
    entry(1, 0, "pmgr", "AppleARMIODevice");
    bytes("voltage-states5-sram", raw, n);
    d = decoded();
    real_macs_line(file, 1, "Full decode:", line, sizeof(line));
    assert_int_equal(numbers_after(line, "Full decode:", mhz, DVFS_MAX_STATES), 15);
    assert_khz(dvfs_table(&d, 5, 1), mhz, 15);
    assert_ptr_equal(dvfs_cpu_table(&d, 'P', 0, 15), dvfs_table(&d, 5, 1));
    assert_null(dvfs_cpu_table(&d, 'E', 0, 0));          /* the dump has no E table */
    assert_null(dvfs_cpu_table(&d, 'P', 0, 16));         /* states it cannot hold: not its table */
}

/* An M4 Pro on macOS 27 (macmon issue 66): the E table in kHz. */
static void
m4_pro_e_table_is_in_khz(void **state)
{
    static const char file[] = "pmgr/m4pro-mac16-8-macos27.0b-macmon66-dvfs-partial.txt";
    char line[1024];
    double raw[DVFS_MAX_STATES];
    unsigned int n;
    struct dvfs d;

    (void)state;
    line_with(file, "voltage-states1-sram: (f)", line, sizeof(line));
    n = numbers_after(line, "(f)", raw, DVFS_MAX_STATES);
    assert_int_equal(n, 7);
    entry_builder_reset(&b);
    entry(1, 0, "pmgr", "AppleARMIODevice");
    table("voltage-states1-sram", raw, n, 1.0);         /* as stored: kHz */
    d = decoded();
    for (unsigned int i = 0; i < n; i++)
        raw[i] /= 1000;                                 /* 1020000 kHz is 1020 MHz */
    assert_khz(dvfs_cpu_table(&d, 'E', 0, 7), raw, n);
}

/* An M5 Max (macmon issue 47): GPU-side tables in Hz with a 0 first entry;
 * acc-clusters names tables 22, 23 and 5 for clusters 0, 1 and 2. The
 * Performance clusters' 15-entry tables are the 15 clocks powermetrics
 * lists for them on an M5 Pro or Max (asitop issue 91). */
static void
m5_max_tables_and_their_clusters(void **state)
{
    static const char file[] = "pmgr/m5max-mac17-6-macos26.4b-macmon47-pmgr-hex-partial.txt";
    static const double gpu_ends[] = { 0, 338, 1620 };
    const struct dvfs_table *t;
    struct reading m;
    struct dvfs d;

    (void)state;
    read_powermetrics("powermetrics/m5pro-or-max-macos26-asitop91-powermetrics-partial.txt", "CPU 9 frequency:",
                      "CPU 9 active residency:", &m);
    assert_int_equal(m.n, 15);
    entry_builder_reset(&b);
    entry(1, 0, "pmgr", "AppleARMIODevice");
    ioreg_data(file, "voltage-states16-sram");
    ioreg_data(file, "voltage-states15-sram");
    ioreg_data(file, "voltage-states14");
    ioreg_data(file, "voltage-states5");                /* periods, not clocks: no CPU reads it */
    ioreg_data(file, "acc-clusters");
    table("voltage-states22-sram", m.mhz, m.n, 1000);   /* kHz, as M5 CPU tables are */
    table("voltage-states23-sram", m.mhz, m.n, 1000);
    d = decoded();
    assert_int_equal(d.nacc, 3);
    assert_int_equal(d.acc[0].table, 22);
    assert_int_equal(d.acc[1].table, 23);
    assert_int_equal(d.acc[2].table, 5);
    assert_int_equal(d.acc[2].cluster, 2);
    t = dvfs_table(&d, 16, 1);
    assert_non_null(t);
    assert_int_equal(t->n, 14);
    assert_int_equal(t->khz[0], gpu_ends[0]);
    assert_int_equal(t->khz[1], (uint32_t)gpu_ends[1] * 1000);
    assert_int_equal(t->khz[13], (uint32_t)gpu_ends[2] * 1000);
    assert_ptr_equal(dvfs_cpu_table(&d, 'M', 0, 15), dvfs_table(&d, 22, 1));
    assert_ptr_equal(dvfs_cpu_table(&d, 'M', 1, 15), dvfs_table(&d, 23, 1));
    assert_null(dvfs_cpu_table(&d, 'P', 0, 20));        /* the Super cluster's table 5 is not in the window */
    assert_null(dvfs_cpu_table(&d, 'M', 2, 15));        /* no third table of 15 */
    assert_null(dvfs_cpu_table(&d, 'M', 0, 0));         /* states of unknown count: no guess */
    assert_int_equal(dvfs_gpu_table(&d, &(struct dvfs_table){ 0 }), -ENOENT);   /* nor is voltage-states9 */
}

/* ---- residencies ---- */

/* "NAME=TICKS NAME=TICKS ..." after label on a line of file, as states of
 * the channel being built. */
static void
histogram(const char *file, const char *label)
{
    char line[1024], *s, *eq;

    line_with(file, label, line, sizeof(line));
    for (s = strtok(strstr(line, label) + strlen(label), " "); s != NULL; s = strtok(NULL, " ")) {
        assert_non_null(eq = strchr(s, '='));
        *eq = '\0';
        state_ticks(s, strtoull(eq + 1, NULL, 10));
    }
}

/* The M1 Ultra's tables and one P and one E core histogram (all-smi pull
 * request 317), where all-smi computes 3226 MHz at 72.10 % and 1846 MHz at
 * 73.14 %. The tables are listed in MHz; the pmgr holds M1 tables in Hz.
 * The histograms' unit is not given: a clock and a residency are ratios. */
static void
m1_ultra_cores_match_all_smi(void **state)
{
    static const char file[] = "pmgr/m1ultra-macos-notstated-allsmi-pr317-tables-and-residency.txt";
    static const struct {
        const char *channel, *label;
        double mhz, percent;
    } cores[] = {
        { "PCPU0", "P-cluster core histogram (ticks):", 3226, 72.10 },
        { "ECPU0", "E-cluster core histogram (ticks):", 1846, 73.14 },
    };
    double e[DVFS_MAX_STATES], p[DVFS_MAX_STATES], gpu[DVFS_MAX_STATES];
    unsigned int ne, np, ngpu;
    struct dvfs_table g;
    char line[1024];
    struct plat_entry_set set;
    struct dvfs d;

    (void)state;
    line_with(file, "voltage-states1-sram (E, MHz):", line, sizeof(line));
    ne = numbers_after(line, "MHz):", e, DVFS_MAX_STATES);
    line_with(file, "voltage-states5-sram (P, MHz):", line, sizeof(line));
    np = numbers_after(line, "MHz):", p, DVFS_MAX_STATES);
    line_with(file, "voltage-states9-sram (GPU, MHz):", line, sizeof(line));
    ngpu = numbers_after(line, "MHz):", gpu, DVFS_MAX_STATES);
    entry_builder_reset(&b);
    entry(1, 0, "pmgr", "AppleARMIODevice");
    table("voltage-states1-sram", e, ne, 1e6);
    table("voltage-states5-sram", p, np, 1e6);
    table("voltage-states13-sram", p, np, 1e6);         /* the twin of the P table */
    table("voltage-states9-sram", gpu, ngpu, 1e6);
    d = decoded();
    assert_int_equal(dvfs_gpu_table(&d, &g), 0);
    assert_int_equal(g.n, ngpu);
    for (unsigned int i = 0; i < sizeof(cores) / sizeof(cores[0]); i++) {
        struct pstate_channel ch;
        const struct dvfs_table *t;
        double mhz, percent;

        entry_builder_reset(&b);
        channel(1, cores[i].channel, "24Mticks");
        histogram(file, cores[i].label);
        set = finish();
        assert_int_equal(pstate_channel(&set.entry[0], PSTATE_CORE, &ch), 0);
        assert_int_equal(ch.need, cores[i].channel[0] == 'P' ? np : ne);
        t = dvfs_cpu_table(&d, ch.letter, ch.ordinal, ch.need);
        assert_ptr_equal(t, dvfs_table(&d, cores[i].channel[0] == 'P' ? 5 : 1, 1));
        clock_of(&ch, t, &mhz, &percent);
        print_message("%s: %.2f MHz at %.3f %% (all-smi: %.0f at %.2f)\n", cores[i].channel, mhz, percent,
                      cores[i].mhz, cores[i].percent);
        assert_true(mhz >= cores[i].mhz && mhz < cores[i].mhz + 1);     /* all-smi drops the fraction */
        assert_true(fabs(percent - cores[i].percent) <= 0.005);
    }
}

/* The complex channels of an M4 Pro on macOS 27 beta (macmon issue 66),
 * whole lines only, each channel's states in the order macmon printed them:
 * libIOReport's, by index. */
static struct plat_entry_set
m4_pro_complex_channels(void)
{
    return macmon_channels(&b, "ioreport/m4pro-mac16-8-macos27.0b-macmon66-cpu-residency-partial.txt",
                           "CPU Stats :: CPU Complex Performance States :: ");
}

/* An M4 Pro on macOS 27 beta (macmon issue 66): the complex channels PCPU
 * (the state the P cores asked for: DOWN, IDLE, V0P18..V18P0), PCPM (the
 * state the cluster ran in), PCPM_IDLE (no cluster: its NON_IDLE is PCPM's
 * active time); PCPU1's line is cut off in the paste. */
static void
m4_pro_clusters_on_macos_27(void **state)
{
    static const char *const names[] = { "PCPU", "PCPM", "PCPM_IDLE" };
    struct plat_entry_set set = m4_pro_complex_channels();
    struct pstate_channel ch;
    uint64_t active, idle, down;

    (void)state;
    assert_int_equal(set.n, 3);
    for (unsigned int i = 0; i < set.n; i++)
        assert_string_equal(set.entry[i].name, names[i]);
    assert_int_equal(pstate_channel(&set.entry[0], PSTATE_CLUSTER, &ch), 0);
    assert_int_equal(ch.letter, 'P');
    assert_int_equal(ch.need, 19);
    assert_int_equal(ch.idle, 2331234);
    assert_int_equal(ch.down, 0);
    assert_int_equal(pstate_times(&ch, &active, &idle, &down), 0);
    assert_int_equal(active, (7631 + 17880 + 2366 + 88 + 267841) * 1000ull / 24);   /* V0, V1, V2, V3, V5 */
    assert_false(ch.ran);
    assert_int_equal(pstate_channel(&set.entry[1], PSTATE_CLUSTER, &ch), 0);
    assert_true(ch.ran);
    assert_int_equal(ch.need, 19);
    assert_int_equal(pstate_times(&ch, &active, &idle, &down), 0);
    assert_int_equal(active, 1411312 * 1000ull / 24);  /* PCPM_IDLE's NON_IDLE, in the same sample */
    assert_int_equal(pstate_channel(&set.entry[2], PSTATE_CLUSTER, &ch), -ENOENT);
}

/* An M2's E core (socpowerbud issue 8): DOWN, IDLE and V0P5..V4P1, five
 * clock states of a six-entry table. */
static void
m2_core_lists_a_state_less_than_its_table(void **state)
{
    static const char file[] = "ioreport/m2-macos-notstated-socpowerbud8-iorepdump-ecpu00.txt";
    FILE *f = fopen(real_macs_file(file), "r");
    struct pstate_channel ch;
    struct plat_entry_set set;
    char line[512];

    (void)state;
    assert_non_null(f);
    entry_builder_reset(&b);
    channel(1, "ECPU00", "24Mticks");
    while (fgets(line, sizeof(line), f) != NULL) {
        char *st = strstr(line, "State: "), *res = strstr(line, "Res: ");

        if (line[0] == '#' || st == NULL || res == NULL)
            continue;
        *strchr(st + 7, ' ') = '\0';
        state_ticks(st + 7, strtoull(res + 5, NULL, 10));
    }
    fclose(f);
    set = finish();
    assert_int_equal(pstate_channel(&set.entry[0], PSTATE_CORE, &ch), 0);
    assert_int_equal(ch.letter, 'E');
    assert_int_equal(ch.need, 6);
    assert_int_equal(ch.nactive, 5);
    assert_int_equal(ch.down, 566584785952418ull);
    assert_int_equal(ch.idle, 60952780612142ull);
    assert_int_equal(ch.active[4], 377830817012ull);
}

/* ---- the order a Mac gives ---- */

/* What query q answers on a Mac that answers it with recorded, after
 * darwin-snapshot's writer recorded it, as the replay of that recording
 * gives it: valid until *replay is closed. */
static struct plat_entry_set
recorded_and_replayed(enum plat_query_id q, struct plat_entry_set recorded, struct platform *replay)
{
    char path[] = "/tmp/pmda-darwin-order-XXXXXX", msg[512];
    struct fake_platform mac;
    struct plat_entry_set replayed;
    FILE *fp;

    fake_platform_init(&mac);
    mac.reg[q] = recorded;
    assert_non_null(fp = fdopen(mkstemp(path), "w"));
    assert_int_equal(snapshot_write_header(fp, &mac.p, "the order of a channel's states"), 0);
    assert_int_equal(snapshot_write_sample(fp, &mac.p), 0);
    fclose(fp);
    assert_int_equal(platform_snapshot_open(replay, path, msg, sizeof(msg)), 0);
    unlink(path);
    assert_int_equal(replay->query(replay->ctx, &plat_queries[q], &replayed), 0);
    return replayed;
}

/* The M4 Pro's complex channels recorded by darwin-snapshot's writer and
 * replayed: each state in the place the Mac gave it, not in the order of
 * its name, where V10P8 comes before V1P17. */
static void
a_recording_keeps_the_order_the_mac_gave(void **state)
{
    struct plat_entry_set recorded = m4_pro_complex_channels(), replayed;
    struct platform replay;

    (void)state;
    replayed = recorded_and_replayed(PLAT_QUERY_CPU_CLUSTERS, recorded, &replay);
    assert_int_equal(replayed.n, recorded.n);
    for (unsigned int i = 0; i < recorded.n; i++) {
        assert_string_equal(replayed.entry[i].name, recorded.entry[i].name);
        assert_int_equal(replayed.entry[i].nprops, recorded.entry[i].nprops);
        for (unsigned int k = 0; k < recorded.entry[i].nprops; k++)
            assert_string_equal(replayed.entry[i].prop[k].path, recorded.entry[i].prop[k].path);
    }
    replay.close(replay.ctx);
}

static int
by_path(const void *a, const void *b)
{
    return strcmp(((const struct plat_prop *)a)->path, ((const struct plat_prop *)b)->path);
}

/* The mean clock (MHz) of a GPU channel at table g, which must have one. */
static double
gpu_clock(const struct plat_entry *e, const struct dvfs_table *g)
{
    struct pstate_channel ch;
    double mhz, percent;

    assert_int_equal(pstate_channel(e, PSTATE_GPU, &ch), 0);
    clock_of(&ch, g, &mhz, &percent);
    return mhz;
}

/*
 * An M2 Ultra's GPU (macmon issue 68): GPUPH lists OFF, then P1..P15,
 * against the 8 clocks of voltage-states9 after its 0 entry; P<j> ran at
 * the j-th of them (macmon and mactop give the j-th state after OFF, in
 * libIOReport's order, the j-th clock: macmon src/metrics.rs calc_freq
 * @4710eee, mactop ioreport.m samplePowerMetrics @3f3918f). The expected
 * clock is the (f) list's entry numbered as each state's name, weighted by
 * the state's ticks. It holds in the Mac's order, after a recording by
 * darwin-snapshot's writer and its replay, and in the order of the states'
 * names (P1, P10..P15, P2..P9), where the 8th state is P15 and P8 the 13th.
 */
static void
m2_ultra_gpu_lists_p1_to_p15(void **state)
{
    static const char file[] = "ioreport/m2ultra-macos-notstated-macmon68-gpuph-and-gpu-table-partial.txt";
    char line[2048];
    double hz[DVFS_MAX_STATES], weighted = 0, ticks = 0, expected;
    unsigned int n;
    struct dvfs d;
    struct dvfs_table g;
    struct plat_entry_set set, replayed;
    struct plat_entry by_name;
    struct plat_prop sorted[DVFS_MAX_STATES + 8];
    struct platform replay;

    (void)state;
    real_macs_file_awaited(file);       /* vladkens/macmon issue 68, named in issue 42's note */
    line_with(file, "voltage-states9: (f)", line, sizeof(line));
    n = numbers_after(line, "(f)", hz, DVFS_MAX_STATES);
    entry_builder_reset(&b);
    entry(1, 0, "pmgr", "AppleARMIODevice");
    table("voltage-states9", hz, n, 1.0);
    d = decoded();
    assert_int_equal(dvfs_gpu_table(&d, &g), 0);
    assert_int_equal(g.n, n - 1);                           /* the 0 entry is no state */

    set = macmon_channels(&b, file, "GPU Stats :: GPU Performance States :: GPUPH ");
    assert_int_equal(set.n, 1);
    for (unsigned int k = 0; k < set.entry[0].nprops; k++) {
        const struct plat_prop *p = &set.entry[0].prop[k];
        unsigned long j;

        if (strncmp(p->path, "state.P", 7) != 0)
            continue;
        j = strtoul(p->path + 7, NULL, 10);
        assert_true(j < n || p->number == 0);               /* no time beyond the table */
        if (j < n) {
            weighted += (double)p->number * hz[j];
            ticks += (double)p->number;
        }
    }
    assert_true(ticks > 0);
    expected = weighted / ticks / 1e6;
    print_message("M2 Ultra GPU: %.1f MHz from the dump\n", expected);

    assert_true(fabs(gpu_clock(&set.entry[0], &g) - expected) < 1e-3);
    replayed = recorded_and_replayed(PLAT_QUERY_GPU_STATES, set, &replay);
    assert_int_equal(replayed.n, 1);
    assert_true(fabs(gpu_clock(&replayed.entry[0], &g) - expected) < 1e-3);
    replay.close(replay.ctx);

    assert_true(set.entry[0].nprops <= sizeof(sorted) / sizeof(sorted[0]));
    memcpy(sorted, set.entry[0].prop, set.entry[0].nprops * sizeof(sorted[0]));
    qsort(sorted, set.entry[0].nprops, sizeof(sorted[0]), by_path);
    by_name = set.entry[0];
    by_name.prop = sorted;
    assert_true(fabs(gpu_clock(&by_name, &g) - expected) < 1e-3);
}

/* ---- powermetrics as the oracle ---- */

/* A channel whose clock states hold shares of r[] (percent of 1 s, ns) of
 * the reading's table, its IDLE the rest; its clock by the agent's formula. */
static double
clock_at(const struct reading *r, const struct dvfs_table *t, const double *share, int gpu)
{
    struct pstate_channel ch;
    struct plat_entry_set set;
    double sum = 0, mhz, percent;

    entry_builder_reset(&b);
    channel(1, gpu ? "GPUPH" : "ECPU", "ns");
    state_ticks(gpu ? "OFF" : "IDLE", 0);
    for (unsigned int i = 0; i < r->n; i++) {
        char name[32];

        if (gpu)
            snprintf(name, sizeof(name), "P%u", i + 1);
        else
            snprintf(name, sizeof(name), "V%uP%u", i, r->n - 1 - i);
        state_ticks(name, (uint64_t)llround(share[i] * 1e7));
        sum += share[i];
    }
    if (!gpu)
        state_ticks("IDLE", (uint64_t)llround((100 - sum) * 1e7));
    set = finish();
    assert_int_equal(pstate_channel(&set.entry[0], gpu ? PSTATE_GPU : PSTATE_CLUSTER, &ch), 0);
    clock_of(&ch, t, &mhz, &percent);
    return mhz;
}

/* Shares within the printed intervals that add up to total, as high (or
 * low) a clock as they can: the rest above the lower ends goes to the
 * fastest (or slowest) states first. */
static void
extreme(const struct reading *r, double total, int high, double *share)
{
    double rest = total;

    for (unsigned int i = 0; i < r->n; i++)
        rest -= share[i] = r->share[i].lo;
    for (unsigned int k = 0; k < r->n && rest > 0; k++) {
        unsigned int i = high ? r->n - 1 - k : k;
        double room = r->share[i].hi - r->share[i].lo;
        double add = room < rest ? room : rest;

        share[i] += add;
        rest -= add;
    }
}

/*
 * powermetrics prints each state's share rounded to two significant
 * digits, so its own clock cannot be recomputed exactly from its text.
 * Over every set of shares that rounds to what it printed and adds up to
 * the active residency it printed, the agent's formula must reach the
 * clock it printed (itself rounded to 1 MHz) within 2 MHz.
 */
static void
agrees_with_powermetrics(const char *file, const char *clock_label, const char *residency_label, int gpu)
{
    double lows = 0, highs = 0, share[DVFS_MAX_STATES], mid[DVFS_MAX_STATES], least = 1e9, most = 0, totals[2];
    struct reading r;
    struct dvfs_table t = { 0 };

    read_powermetrics(file, clock_label, residency_label, &r);
    assert_true(r.n > 0);
    t.n = r.n;
    for (unsigned int i = 0; i < r.n; i++) {
        t.khz[i] = (uint32_t)llround(r.mhz[i] * 1000);
        lows += r.share[i].lo;
        highs += r.share[i].hi;
        mid[i] = (r.share[i].lo + r.share[i].hi) / 2;
    }
    totals[0] = r.total.lo > lows ? r.total.lo : lows;
    totals[1] = r.total.hi < highs ? r.total.hi : highs;
    assert_true(totals[0] <= totals[1]);                /* the shares can add up to the total */
    for (int k = 0; k < 2; k++) {
        double c;

        extreme(&r, totals[k], 0, share);
        if ((c = clock_at(&r, &t, share, gpu)) < least)
            least = c;
        extreme(&r, totals[k], 1, share);
        if ((c = clock_at(&r, &t, share, gpu)) > most)
            most = c;
    }
    print_message("%s: powermetrics %.0f MHz; the formula gives %.1f..%.1f over the shares it printed "
                  "(%.1f at their midpoints)\n", clock_label, r.clock, least, most, clock_at(&r, &t, mid, gpu));
    assert_true(r.clock + 0.5 >= least - 2 && r.clock - 0.5 <= most + 2);
}

/* CPUs first to last of a reading, each by its "CPU N" lines. */
static void
cpus_agree_with_powermetrics(const char *file, int first, int last)
{
    for (int cpu = first; cpu <= last; cpu++) {
        char clock_label[64], residency_label[64];

        snprintf(clock_label, sizeof(clock_label), "CPU %d frequency:", cpu);
        snprintf(residency_label, sizeof(residency_label), "CPU %d active residency:", cpu);
        agrees_with_powermetrics(file, clock_label, residency_label, 0);
    }
}

/* A base M5's E cluster and its CPUs, macOS 26.5.1 (Stats issue 3325). */
static void
base_m5_e_cluster_and_cpus(void **state)
{
    static const char file[] = "powermetrics/m5-macbookpro-macos26.5.1-stats3325-powermetrics-ecluster-partial.txt";

    (void)state;
    agrees_with_powermetrics(file, "E-Cluster HW active frequency:", "E-Cluster HW active residency:", 0);
    cpus_agree_with_powermetrics(file, 0, 4);
}

/* An M3 Max's P cores (mactop issue 2), an M5 Pro or Max's Performance
 * cores (asitop issue 91), an M1 Pro's GPU (applegpuinfo issue 7). */
static void
m3_max_m5_and_m1_pro_gpu(void **state)
{
    (void)state;
    cpus_agree_with_powermetrics("powermetrics/m3max-macbookpro16-macos-notstated-mactop2-powermetrics-partial.txt",
                                 7, 9);
    cpus_agree_with_powermetrics("powermetrics/m5pro-or-max-macos26-asitop91-powermetrics-partial.txt", 9, 11);
    agrees_with_powermetrics("powermetrics/m1pro-macos-notstated-applegpuinfo7-powermetrics-gpu.txt",
                             "GPU HW active frequency:", "GPU HW active residency:", 1);
}

/* ---- units and names ---- */

static void
time_units_and_channel_names(void **state)
{
    static const struct {
        const char *name;
        enum pstate_role role;
        char letter;
        int die;
        unsigned int ordinal;
        int ran;
    } named[] = {
        { "ECPU", PSTATE_CLUSTER, 'E', -1, 0, 0 },        { "PCPU1", PSTATE_CLUSTER, 'P', -1, 1, 0 },
        { "MCPU0", PSTATE_CLUSTER, 'M', -1, 0, 0 },       { "DIE_1_PCPU1", PSTATE_CLUSTER, 'P', 1, 1, 0 },
        { "PCPM", PSTATE_CLUSTER, 'P', -1, 0, 1 },        { "DIE_0_ECPM", PSTATE_CLUSTER, 'E', 0, 0, 1 },
        { "PCPU13", PSTATE_CORE, 'P', -1, 0, 0 },         { "DIE_0_PCPU1_CPU0", PSTATE_CORE, 'P', 0, 1, 0 },
        { "DIE_1_ECPU_CPU3", PSTATE_CORE, 'E', 1, 0, 0 }, { "GPUPH", PSTATE_GPU, 0, -1, 0, 0 },
    };
    static const char *const not_named[][2] = {
        { "PCPM_IDLE", "cluster" }, { "PCPM0", "core" }, { "PCPU", "core" }, { "ECPU_CPU", "core" },
        { "DIE_x_PCPU", "cluster" }, { "BSTGPUPH", "gpu" },
    };
    struct pstate_channel ch;
    struct plat_entry_set set;

    (void)state;
    assert_true(fabs(pstate_unit_ns("24Mticks") - 1000.0 / 24) < 1e-9);
    assert_true(pstate_unit_ns(" ms ") == 1e6);
    assert_true(pstate_unit_ns("mJ") == 0 && pstate_unit_ns("") == 0 && pstate_unit_ns("0Mticks") == 0);
    for (unsigned int i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
        entry_builder_reset(&b);
        channel(1, named[i].name, "24Mticks");
        state_ticks("IDLE", 1);
        set = finish();
        assert_int_equal(pstate_channel(&set.entry[0], named[i].role, &ch), 0);
        assert_int_equal(ch.letter, named[i].letter);
        assert_int_equal(ch.die, named[i].die);
        assert_int_equal(ch.ordinal, named[i].ordinal);
        assert_int_equal(ch.ran, named[i].ran);
    }
    for (unsigned int i = 0; i < sizeof(not_named) / sizeof(not_named[0]); i++) {
        enum pstate_role role = not_named[i][1][0] == 'c' && not_named[i][1][1] == 'l' ? PSTATE_CLUSTER
                                : not_named[i][1][0] == 'c'                           ? PSTATE_CORE
                                                                                      : PSTATE_GPU;

        entry_builder_reset(&b);
        channel(1, not_named[i][0], "24Mticks");
        set = finish();
        assert_int_equal(pstate_channel(&set.entry[0], role, &ch), -ENOENT);
    }
}

/* A state beyond the table, or an unknown unit: no cycles, not a guess. */
static void
what_cannot_be_placed_has_no_value(void **state)
{
    static const double clocks[] = { 600, 1200 };
    struct pstate_channel ch;
    struct plat_entry_set set;
    struct dvfs d;
    double cycles;
    uint64_t a, i, dn;

    (void)state;
    entry_builder_reset(&b);
    entry(1, 0, "pmgr", "AppleARMIODevice");
    table("voltage-states1-sram", clocks, 2, 1e6);
    d = decoded();
    entry_builder_reset(&b);
    channel(1, "ECPU", "24Mticks");
    state_ticks("IDLE", 10);
    state_ticks("V0P1", 5);
    state_ticks("V1P0", 0);
    state_ticks("V2P0", 7);         /* a third clock of a two-entry table */
    channel(2, "ECPU1", "counts");
    state_ticks("V0P1", 5);
    set = finish();
    assert_int_equal(pstate_channel(&set.entry[0], PSTATE_CLUSTER, &ch), -ENOENT);   /* names of two tables */
    entry_builder_reset(&b);
    channel(1, "ECPU", "24Mticks");
    state_ticks("IDLE", 10);
    state_ticks("V0", 5);
    state_ticks("V1", 0);
    state_ticks("V2", 7);
    set = finish();
    assert_int_equal(pstate_channel(&set.entry[0], PSTATE_CLUSTER, &ch), 0);
    assert_int_equal(ch.need, 0);
    assert_int_equal(ch.nactive, 3);
    assert_int_equal(pstate_cycles(&ch, dvfs_table(&d, 1, 1), &cycles), -ERANGE);
    ch.ns_per_unit = 0;
    assert_int_equal(pstate_cycles(&ch, dvfs_table(&d, 1, 1), &cycles), -ENOTSUP);
    assert_int_equal(pstate_times(&ch, &a, &i, &dn), -ENOTSUP);
    entry_builder_reset(&b);
    channel(1, "GPUPH", "24Mticks");
    state_ticks("OFF", 10);
    state_ticks("P0", 5);           /* the GPU's first clock is P1 */
    set = finish();
    assert_int_equal(pstate_channel(&set.entry[0], PSTATE_GPU, &ch), -ENOENT);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(m1_p_table_is_in_hz),
        cmocka_unit_test(m4_pro_e_table_is_in_khz),
        cmocka_unit_test(m5_max_tables_and_their_clusters),
        cmocka_unit_test(m1_ultra_cores_match_all_smi),
        cmocka_unit_test(m4_pro_clusters_on_macos_27),
        cmocka_unit_test(m2_core_lists_a_state_less_than_its_table),
        cmocka_unit_test(a_recording_keeps_the_order_the_mac_gave),
        cmocka_unit_test(m2_ultra_gpu_lists_p1_to_p15),
        cmocka_unit_test(base_m5_e_cluster_and_cpus),
        cmocka_unit_test(m3_max_m5_and_m1_pro_gpu),
        cmocka_unit_test(time_units_and_channel_names),
        cmocka_unit_test(what_cannot_be_placed_has_no_value),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
