/*
 * The fault matrix: each agent over each fixture, with every platform call
 * (each sysctl family and registry query on its own) failing in turn with
 * each errno below, or answering wrongly (fault_platform.h): every field
 * zero (0 where the agent divides, empty sets and strings); where the replay
 * describes the answer field by field, its numbers at their largest; for
 * the calls that list instances (CPUs, interfaces, mounts, registry
 * entries), every instance under a new name at every call; for registry
 * queries, every property of the wrong kind, and parents in a cycle. Driven
 * as pmcd drives it: every metric fetched, every instance domain listed,
 * every label and help text asked for, in each round. Two healthy rounds,
 * three with the fault, three after it; and again with the fault there from
 * the agent's first request. What must hold:
 *  - a metric that the faulted call does not feed answers as when healthy
 *    (which calls feed a metric: those a fresh agent makes to fetch its
 *    cluster alone);
 *  - once a failure has cleared every metric answers as when healthy;
 *  - the log gets at most a line per family when the fault starts and when
 *    it ends (a family that fails as a whole does not also list its parts),
 *    nothing in the rounds after, and never a pmdaFetch line (it writes one
 *    per value).
 * Crashes and memory errors show under the sanitizer build. Other bad
 * values are the snapshot fuzzer's (tests/fuzz).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "agent_harness.h"
#include "agent_requests.h"
#include "fault_platform.h"
#include "proc_context.h"
#include "replay.h"

#define CLIENT_CTX 5
#define HEALTHY_ROUNDS 2
#define FAULTY_ROUNDS 3
#define RECOVERY_ROUNDS 3
#define MAX_METRICS 1024

static const int faults[] = { -EIO, -EPERM, -ENOTSUP, -ENOMEM, FAULT_ZERO, FAULT_LARGEST, FAULT_RENAMED,
                              FAULT_WRONG_KINDS, FAULT_CYCLES };

struct agent_case {
    const struct agent_desc *desc;
    int domain;
    const char *fixture;
};

static struct fault_platform faulty;
static pmID pmids[MAX_METRICS];
static unsigned int nmetrics;
/* fed[m][t]: target t was called to fetch metric m's cluster on a fresh agent */
static unsigned char fed[MAX_METRICS][FAULT_NTARGETS];
static unsigned int failures;
/* Whether outcomes include instance ids: not across two agents in one
 * process, since a new agent numbers its instances afresh. */
static int with_instances;

static uint64_t
fixed_clock(void)
{
    return 1000;            /* one sample throughout: healthy rounds answer alike */
}

static void
start(const struct agent_case *c)
{
    struct platform snap;
    char path[512], msg[512];

    snprintf(path, sizeof(path), "%s/%s", FIXTURES, c->fixture);
    assert_int_equal(platform_snapshot_open(&snap, path, msg, sizeof(msg)), 0);
    platform_snapshot_set_clock(&snap, fixed_clock);
    fault_platform_wrap(&faulty, &snap);
    proc_access_reset();
    harness_agent = c->desc;
    harness_domain = c->domain;
    harness_source = &faulty.p;
    assert_int_equal(harness_start(), 0);
    harness_ext()->e_context = CLIENT_CTX;
    __pmdaSetContext(CLIENT_CTX);
    nmetrics = requests_metrics(harness_ext(), pmids, MAX_METRICS);
    assert_int_equal(nmetrics, harness_ext()->e_nmetrics);
}

/* Which targets feed each metric: those a fresh agent calls to fetch the
 * metric's cluster alone. */
static void
calibrate(const struct agent_case *c)
{
    start(c);
    harness_stop();
    for (unsigned int m = 0; m < nmetrics; m++) {
        pmID cluster[MAX_METRICS];
        unsigned int n = 0;

        if (m > 0 && pmID_cluster(pmids[m]) == pmID_cluster(pmids[m - 1]))
            continue;
        for (unsigned int k = 0; k < nmetrics; k++)
            if (pmID_cluster(pmids[k]) == pmID_cluster(pmids[m]))
                cluster[n++] = pmids[k];
        start(c);
        fault_platform_zero(&faulty);
        requests_fetch(&harness_dp, cluster, n, NULL, 0);
        for (unsigned int k = 0; k < nmetrics; k++)
            if (pmID_cluster(pmids[k]) == pmID_cluster(pmids[m]))
                for (unsigned int t = 0; t < FAULT_NTARGETS; t++)
                    fed[k][t] = faulty.calls[t] > 0;
        harness_stop();
    }
}

static void
failure(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    failures++;
}

/* A family that fails as a whole says so once: in log lines from..to (to
 * excluded), a family with an "unavailable" line and a line of its parts
 * ("<agent>: hinv unavailable: ...", "<agent>: hinv: some metrics
 * unavailable: ...") said the same failure twice; its name goes into family. */
static int
failure_said_twice(const char *agent, unsigned int from, unsigned int to, char *family, size_t len)
{
    char line[1024], other[1024], prefix[64];
    size_t n = (size_t)snprintf(prefix, sizeof(prefix), "%s: ", agent);

    for (unsigned int a = from; a < to && harness_log_line(a, line, sizeof(line)); a++) {
        char *name = strstr(line, prefix), *end;

        if (name == NULL || (end = strstr(name += n, " unavailable: ")) == NULL)
            continue;
        *end = '\0';
        for (unsigned int b = from; b < to && harness_log_line(b, other, sizeof(other)); b++) {
            char *parts = strstr(other, prefix);

            if (b != a && parts != NULL && strncmp(parts + n, name, strlen(name)) == 0 &&
                strchr(" :", parts[n + strlen(name)]) != NULL && strstr(parts, "some metrics unavailable") != NULL) {
                snprintf(family, len, "%.63s", name);
                return 1;
            }
        }
    }
    return 0;
}

/* pmcd asks a value of each instance an indom lists, and only of those:
 * after a fetch of every metric, how many of them answer PM_ERR_INST
 * ("Unknown or illegal instance identifier" in pminfo), asked as pmdaFetch
 * asks them. */
static unsigned int
listed_instances_unknown(void)
{
    pmdaExt *ext = harness_ext();
    unsigned int unknown = 0;

    requests_fetch(&harness_dp, pmids, nmetrics, NULL, 0);
    for (int m = 0; m < ext->e_nmetrics; m++) {
        pmdaMetric *metric = &ext->e_metrics[m];

        for (int k = 0; k < ext->e_nindoms; k++) {
            const pmdaIndom *t = &ext->e_indoms[k];

            for (int i = 0; t->it_indom == metric->m_desc.indom && i < t->it_numinst; i++) {
                pmAtomValue atom;

                unknown += ext->e_fetchCallBack(metric, (unsigned int)t->it_set[i].i_inst, &atom) == PM_ERR_INST;
            }
        }
    }
    return unknown;
}

static int
same(const struct outcome *a, const struct outcome *b)
{
    return a->sts == b->sts && a->numval == b->numval && a->digest == b->digest;
}

/* One run: the fault comes after the healthy rounds, or (from_start) is
 * there from the agent's first request, measured against a healthy agent's
 * answers. */
static void
run(const struct agent_case *c, unsigned int target, int err, int from_start)
{
    static struct outcome healthy[MAX_METRICS], now[MAX_METRICS];
    unsigned int lines[HEALTHY_ROUNDS + FAULTY_ROUNDS + RECOVERY_ROUNDS], flood, before, limit;
    int first = from_start ? 0 : HEALTHY_ROUNDS, fault_ends = first + FAULTY_ROUNDS;
    char name[128], family[64];
    int r = 0, twice;
    unsigned int unknown = 0;

    snprintf(name, sizeof(name), "%s %s, %s %s%s", c->desc->name, c->fixture,
             fault_target_name(target, (char[96]){ 0 }, 96),
             fault_kind_name(err), from_start ? " from the start" : "");
    with_instances = !from_start;
    start(c);
    harness_log_start();
    for (; r < HEALTHY_ROUNDS; r++) {
        requests_round(&harness_dp, pmids, nmetrics, healthy, with_instances);
        lines[r] = harness_log_lines("");
    }
    if (from_start) {
        harness_stop();
        start(c);
        r = 0;
        lines[0] = harness_log_lines("");
    }
    before = harness_log_lines("");
    faulty.target = (int)target;
    faulty.sts = err;
    for (; r < fault_ends; r++) {
        requests_round(&harness_dp, pmids, nmetrics, now, with_instances);
        lines[r] = harness_log_lines("");
    }
    unknown = listed_instances_unknown();
    lines[fault_ends - 1] = harness_log_lines("");
    faulty.target = -1;
    for (unsigned int m = 0; m < nmetrics; m++)         /* the last faulty round's answers */
        if (!fed[m][target] && !same(&now[m], &healthy[m]))
            failure("%s: %s changed, yet that call does not feed it", name, pmIDStr(pmids[m]));
    for (; r < fault_ends + RECOVERY_ROUNDS; r++) {
        requests_round(&harness_dp, pmids, nmetrics, now, with_instances);
        lines[r] = harness_log_lines("");
    }
    flood = harness_log_lines("pmdaFetch");
    twice = failure_said_twice(c->desc->name, before, lines[first], family, sizeof(family)) ||
            failure_said_twice(c->desc->name, lines[fault_ends - 1], lines[fault_ends], family, sizeof(family));
    harness_stop();
    harness_log_stop();

    if (flood > 0)
        failure("%s: %u pmdaFetch lines in the log", name, flood);
    if (unknown > 0)
        failure("%s: %u values of instances their indom lists answer PM_ERR_INST", name, unknown);
    limit = (unsigned int)c->desc->ncollectors;
    if (lines[first] - before > limit || lines[fault_ends] - lines[fault_ends - 1] > limit)
        failure("%s: more log lines than families when the fault came or went", name);
    if (twice)
        failure("%s: %s said it failed twice, as a family and by its parts", name, family);
    for (r = first + 1; r < fault_ends + RECOVERY_ROUNDS; r++)
        if (r != fault_ends && lines[r] != lines[r - 1])
            failure("%s: round %d logged %u lines, with nothing new to say", name, r, lines[r] - lines[r - 1]);
    /* After a wrong answer (zeros, the largest values, instances renamed),
     * counters have gone back and come again (a wrap, new processes, new
     * instances): answers differ from a healthy agent's by right. */
    for (unsigned int m = 0; err < 0 && m < nmetrics; m++)
        if (!same(&now[m], &healthy[m]))
            failure("%s: %s did not come back after the fault (sts %d, %d values)", name, pmIDStr(pmids[m]),
                    now[m].sts, now[m].numval);
}

static void
matrix(const struct agent_case *c)
{
    unsigned int called = 0;

    failures = 0;
    harness_log_start();            /* the calibration's log is nobody's business */
    calibrate(c);
    harness_log_stop();
    for (unsigned int t = 0; t < FAULT_NTARGETS; t++) {
        int feeds = 0;

        for (unsigned int m = 0; m < nmetrics; m++)
            feeds |= fed[m][t];
        if (!feeds)
            continue;           /* this agent never makes the call */
        called++;
        for (size_t e = 0; e < sizeof(faults) / sizeof(faults[0]); e++) {
            if (!fault_applies(t, faults[e]))
                continue;
            run(c, t, faults[e], 0);
            run(c, t, faults[e], 1);
        }
    }
    printf("%s over %s: %u of %u calls faulted, %u failures\n", c->desc->name, c->fixture, called,
           (unsigned int)FAULT_NTARGETS, failures);
    assert_true(called > 0);
    assert_int_equal(failures, 0);
}

static void
system_agent_apple_silicon(void **state)
{
    (void)state;
    matrix(&(struct agent_case){ &darwin_agent, 78, "apple-silicon.snapshot" });
}

static void
system_agent_intel(void **state)
{
    (void)state;
    matrix(&(struct agent_case){ &darwin_agent, 78, "intel.snapshot" });
}

static void
proc_agent_apple_silicon(void **state)
{
    (void)state;
    matrix(&(struct agent_case){ &proc_agent, 3, "apple-silicon.snapshot" });
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(system_agent_apple_silicon),
        cmocka_unit_test(system_agent_intel),
        cmocka_unit_test(proc_agent_apple_silicon),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
