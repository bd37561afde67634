/*
 * Memory bandwidth from PMP "DCS BW" histograms, decoded from data
 * recorded on real Macs (../shared/real-macs/ioreport; each file's header
 * says where it comes from). Expected values are the files' own numbers:
 * the means SiliconScope printed for an M4 Max's histograms. Without the
 * corpus these tests are skipped, saying so.
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

#include "bandwidth_decode.h"
#include "ioreport_channels.h"

#define M4_MAX "ioreport/m4max-macos26.5.2-siliconscope-tests-pmp-dcs-bw-histograms-numbers.txt"
#define M1_PRO "ioreport/m1pro-macos-notstated-neoasitop2-iorepdump-pmp-dcs-bw-partial.txt"
#define M3_MAX "ioreport/m3max-macos27.0b-siliconscope14-amc-stats-int64min-partial.txt"

/* The number right after needle in a header line of the file. */
static double
header_number(const char *relative, const char *needle)
{
    char line[512];

    real_macs_line(relative, 1, needle, line, sizeof(line));
    return strtod(strstr(line, needle) + strlen(needle), NULL);
}

/* The M4 Max's buckets: its header says the channels have the states
 * "1GB/s" ... "<top>GB/s". */
static unsigned int
m4_max_top(void)
{
    return (unsigned int)header_number(M4_MAX, "states named \"1GB/s\" ... \"");
}

/* The M4 Max's data line for a channel ("EACC0 RD+WR  1:338 2:54 ...", the
 * buckets with no time left out) as a reading named name, every bucket
 * there, with the residency the line gives (scaled by times) or 0. */
static struct plat_entry_set
m4_max_reading(struct entry_builder *b, const char *channel, const char *name, uint64_t times)
{
    uint64_t residency[BANDWIDTH_MAX_BUCKETS + 1] = { 0 };
    unsigned int top = m4_max_top();
    char line[512], state[32];
    struct plat_entry_set set;
    const char *s;
    char *end;

    real_macs_line(M4_MAX, 0, channel, line, sizeof(line));
    for (s = line + strlen(channel); *s != '\0'; s = end) {
        unsigned long gbps = strtoul(s, &end, 10);

        if (end == s)
            break;
        assert_true(*end == ':' && gbps >= 1 && gbps <= top);
        residency[gbps] = strtoull(end + 1, &end, 10);
    }
    entry_builder_reset(b);
    state_channel(b, 1, name, "");
    for (unsigned int k = 1; k <= top; k++) {
        snprintf(state, sizeof(state), "%uGB/s", k);
        channel_state(b, state, residency[k] * times);
    }
    entry_builder_finish(b, &set);
    return set;
}

/* The mean of the M4 Max's histogram for channel, between a reading of
 * none and the one the file gives, under the name name. */
static struct bandwidth_mean
m4_max_mean(const char *channel, const char *name, struct bandwidth_channel *after)
{
    struct entry_builder b = { 0 };
    struct bandwidth_channel before;
    struct bandwidth_mean mean;
    struct plat_entry_set set = m4_max_reading(&b, channel, name, 0);

    assert_int_equal(bandwidth_channel(&set.entry[0], &before), 0);
    set = m4_max_reading(&b, channel, name, 1);
    assert_int_equal(bandwidth_channel(&set.entry[0], after), 0);
    assert_int_equal(bandwidth_mean(&before, after, &mean), 0);
    entry_builder_free(&b);
    return mean;
}

/* "<sum>/<time> = <mean> GB/s" of the header line about a channel. */
static void
expected_mean(const char *header_needle, double *ratio, double *printed)
{
    char line[512];
    double sum, time;

    real_macs_line(M4_MAX, 1, header_needle, line, sizeof(line));
    for (const char *s = strstr(line, header_needle); *s != '\0'; s++)
        if (sscanf(s, "%lf/%lf = %lf GB/s", &sum, &time, printed) == 3) {
            *ratio = sum / time;
            return;
        }
    fail_msg("%s: no mean on the line about %s", M4_MAX, header_needle);
}

static void
check_m4_max(const char *channel, const char *header_needle, int saturated)
{
    struct bandwidth_channel after;
    struct bandwidth_mean mean = m4_max_mean(channel, channel, &after);
    double ratio, printed;

    expected_mean(header_needle, &ratio, &printed);
    assert_float_equal(mean.gbps, ratio, 1e-12);
    assert_float_equal(mean.gbps, printed, 0.0005);
    assert_int_equal(mean.saturated, saturated);
    assert_int_equal(after.n, m4_max_top());
    assert_int_equal(after.step, 1);
    assert_int_equal(after.direction, BANDWIDTH_READ_WRITE);
    assert_int_equal(after.die, -1);
}

/* SiliconScope's two M4 Max histograms: the means it printed, from the
 * bucket labels; the GPU's has time in the top bucket, which saturates. */
static void
m4_max_per_requestor_means(void **state)
{
    struct bandwidth_channel after;

    (void)state;
    check_m4_max("EACC0 RD+WR", "EACC0 RD+WR:", 0);
    check_m4_max("AGX RD+WR", "AGX RD+WR:", 1);
    m4_max_mean("EACC0 RD+WR", "EACC0 RD+WR", &after);
    assert_string_equal(after.requestor, "EACC0");
}

/* macOS 27 names the channels "DIE0 ..." (SiliconScope issue 14): the same
 * histogram under that name (synthetic: the M4 Max's numbers, renamed) is
 * the same requestor of die 0, with the same mean. */
static void
die_prefix_is_matched_by_suffix(void **state)
{
    struct bandwidth_channel after;
    struct bandwidth_mean mean = m4_max_mean("AGX RD+WR", "DIE0 AGX RD+WR", &after);
    double ratio, printed;

    (void)state;
    expected_mean("AGX RD+WR:", &ratio, &printed);
    assert_float_equal(mean.gbps, ratio, 1e-12);
    assert_string_equal(after.requestor, "AGX");
    assert_int_equal(after.die, 0);
}

/* The M1 Pro's window of a "DCS BW" histogram starts at 24 GB/s in 8 GB/s
 * steps: its lower buckets are cut, so it gives no channel and no mean;
 * the "M$ Stall" histogram, whose buckets are percentages and whose name
 * has no direction, is no bandwidth channel at all. */
static void
m1_pro_partial_has_no_mean(void **state)
{
    static const struct {
        const char *name, *needle;
        int refused;
    } channels[] = { { "RD+WR", "Subgrp: DCS BW   Chn: RD+WR ", -EDOM },
                     { "M$ Stall", "Subgrp: PACC1   Chn: M$ Stall ", -ENOENT } };
    FILE *f = fopen(real_macs_file(M1_PRO), "r");
    struct entry_builder b = { 0 };
    struct plat_entry_set set;
    struct bandwidth_channel c;
    char line[512];

    (void)state;
    assert_non_null(f);
    for (size_t i = 0; i < sizeof(channels) / sizeof(channels[0]); i++) {
        unsigned int states = 0;

        rewind(f);
        entry_builder_reset(&b);
        state_channel(&b, 1, channels[i].name, "");
        while (fgets(line, sizeof(line), f) != NULL) {
            char *name = strstr(line, "State: "), *res = strstr(line, "   Res: ");

            if (strstr(line, channels[i].needle) == NULL || name == NULL || res == NULL)
                continue;
            *res = '\0';
            channel_state(&b, name + 7, strtoull(res + 8, NULL, 10));
            states++;
        }
        entry_builder_finish(&b, &set);
        assert_true(states > 1);
        assert_int_equal(bandwidth_channel(&set.entry[0], &c), channels[i].refused);
    }
    fclose(f);
    entry_builder_free(&b);
}

/* On macOS 27 libIOReport answered INT64_MIN for every value of an M3
 * Max's "AMC Stats" (SiliconScope issue 14): such a residency in a
 * histogram (synthetic: the M4 Max's, its top bucket replaced) is no
 * reading, never a time. */
static void
sentinel_is_no_value(void **state)
{
    struct entry_builder b = { 0 };
    struct plat_entry_set set;
    struct bandwidth_channel c;
    char line[512], name[32];
    int64_t sentinel;

    (void)state;
    real_macs_line(M3_MAX, 1, "INT64_MIN (", line, sizeof(line));
    sentinel = strtoll(strstr(line, "INT64_MIN (") + 11, NULL, 10);
    assert_true(sentinel == INT64_MIN);
    state_channel(&b, 1, "AGX RD+WR", "");
    for (unsigned int k = 1; k <= m4_max_top(); k++) {
        snprintf(name, sizeof(name), "%uGB/s", k);
        channel_state(&b, name, k == m4_max_top() ? (uint64_t)sentinel : 1);
    }
    entry_builder_finish(&b, &set);
    assert_int_equal(bandwidth_channel(&set.entry[0], &c), -ENODATA);
    entry_builder_free(&b);
}

/* A synthetic channel named name whose states are given as
 * "STATE=RESIDENCY|..." decoded into out: what bandwidth_channel says. */
static int
synthetic(const char *name, const char *states, struct bandwidth_channel *out)
{
    struct entry_builder b = { 0 };
    struct plat_entry_set set;
    char spec[256], *s, *save = NULL;
    int sts;

    snprintf(spec, sizeof(spec), "%s", states);
    state_channel(&b, 1, name, "");
    for (s = strtok_r(spec, "|", &save); s != NULL; s = strtok_r(NULL, "|", &save)) {
        char *eq = strchr(s, '=');

        *eq = '\0';
        channel_state(&b, s, strtoull(eq + 1, NULL, 10));
    }
    entry_builder_finish(&b, &set);
    sts = bandwidth_channel(&set.entry[0], out);
    entry_builder_free(&b);
    return sts;
}

/* Synthetic histograms, named as the M1 Pro's are (padded "   8GB/s", 8
 * GB/s apart), in any order: the mean is the labels weighted by time
 * gained; a reading that steps back, one of other buckets, or one with no
 * time gained gives none; a bucket named twice is no histogram, and a
 * channel with no direction no bandwidth channel. */
static void
means_between_readings(void **state)
{
    struct bandwidth_channel before, after, other;
    struct bandwidth_mean mean;

    (void)state;
    assert_int_equal(synthetic("RD+WR", "  24GB/s=10|   8GB/s=100|  16GB/s=0", &before), 0);
    assert_string_equal(before.requestor, "");
    assert_int_equal(before.step, 8);
    assert_int_equal(synthetic("RD+WR", "   8GB/s=101|  16GB/s=1|  24GB/s=12", &after), 0);
    assert_int_equal(bandwidth_mean(&before, &after, &mean), 0);
    assert_float_equal(mean.gbps, (8.0 * 1 + 16.0 * 1 + 24.0 * 2) / 4, 1e-12);
    assert_int_equal(mean.saturated, 1);
    assert_int_equal(bandwidth_mean(&after, &before, &mean), -ERANGE);
    assert_int_equal(bandwidth_mean(&after, &after, &mean), -ENODATA);
    assert_int_equal(synthetic("PACC WR", "16GB/s=1|32GB/s=1|48GB/s=1", &other), 0);
    assert_int_equal(other.direction, BANDWIDTH_WRITE);
    assert_int_equal(bandwidth_mean(&before, &other, &mean), -EINVAL);
    assert_int_equal(synthetic("AGX RD+WR", "1GB/s=1|1GB/s=1", &other), -EDOM);
    assert_int_equal(synthetic("AGX STALL", "1GB/s=1", &other), -ENOENT);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(m4_max_per_requestor_means),
        cmocka_unit_test(die_prefix_is_matched_by_suffix),
        cmocka_unit_test(m1_pro_partial_has_no_mean),
        cmocka_unit_test(sentinel_is_no_value),
        cmocka_unit_test(means_between_readings),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
