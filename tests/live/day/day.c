/*
 * A simulated day on a Mac, in ctest: the agent (its collectors and core,
 * as pmcd drives the DSO) on the live macOS layer, on the double, for
 * 86,400 one-second rounds of the double's virtual clock. pmlogger, pmie
 * and pmchart ask for their metrics at their intervals; faults from
 * day_faults.c start and clear at seeded random seconds. Fails when a
 * value is not back in time after its fault clears, a counter steps back
 * or jumps, memory grows, an object is held at the end, pmcd.log repeats
 * itself or keeps silent about a fault that took values away, or a request
 * costs more OS calls than its budget.
 *
 * usage: day [ROUNDS]   (environment: DAY_SEED, a number, to replay a day)
 *        day ROUNDS cost  (day_cost.h; DAY_REPLAY=SNAPSHOT: the same on the replay)
 */
#include "agent.h"
#include "day_budgets.h"
#include "day_cost.h"
#include "day_counters.h"
#include "day_faults.h"
#include "day_log.h"
#include "day_machine.h"
#include "day_requests.h"
#include "dbl.h"
#include "replay.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define DAY_SECONDS 86400u
/* The memory and objects held are first measured at the first second
 * from this one with no fault under way (a fault holds less or more:
 * a subscription given back, a list copied again), then at the end. */
#define STEADY_FROM 1000u
/* How much more heap the agent and the live layer may hold at the end of
 * the day than at STEADY_FROM: a few instances' names and buffers grown
 * to a longer list, no more. */
#define HEAP_GROWTH_MAX (64 * 1024)
/* The resident set may grow by no more than this from STEADY_FROM to the
 * end: AddressSanitizer's quarantine of freed blocks (ASAN_OPTIONS in
 * tests/CMakeLists.txt bounds it) and the pages the log file's stream
 * touches, no more. */
#define RSS_GROWTH_MAX_KIB (16 * 1024)
#define MAX_EVENTS 1024
/* How often, within a fault, every metric is fetched to see whether the
 * fault took a value away (and so must be logged when it starts and ends). */
#define LOSS_CHECK_S 10u

/* stderr is pmcd's log here: the double reports on fd 2. */
void
dbl_report(const char *text)
{
    dprintf(2, "double: %s\n", text);
}

static pmdaInterface dp;

/* One request of n pmids, as pmcd makes it: the result (free it with
 * done) or NULL on an error of the whole fetch. */
static agent_result *
fetch(const pmID *pmids, unsigned int n)
{
    agent_result *res = NULL;

    return dp.version.seven.fetch((int)n, (pmID *)pmids, (void *)&res, dp.version.seven.ext) < 0 ? NULL : res;
}

static void
done(agent_result *res)
{
    if (res != NULL)
        dp.version.seven.ext->e_resultCallBack((void *)res);   /* as pmcd does after every fetch */
}

/* Which of the n metrics have a value now (has[i]); returns how many. */
static unsigned int
values_now(const pmID *pmids, unsigned int n, unsigned char *has)
{
    agent_result *res = fetch(pmids, n);
    unsigned int count = 0;

    for (unsigned int i = 0; i < n; i++) {
        has[i] = res != NULL && res->vset[i]->numval > 0;
        count += has[i];
    }
    done(res);
    return count;
}

/* Every metric that had a value at the start has one again. */
static unsigned int
values_back(const pmID *all, unsigned int n, const unsigned char *baseline, unsigned int round, const char *fault)
{
    unsigned char *has = calloc(n, 1);
    unsigned int problems = 0;

    if (has == NULL)
        return 1;
    values_now(all, n, has);
    for (unsigned int i = 0; i < n; i++)
        if (baseline[i] && !has[i]) {
            printf("FAIL: second %u: %s has no value after \"%s\" cleared\n", round, day_row(all[i])->name,
                   fault);
            problems++;
        }
    free(has);
    return problems;
}

/* Whether a metric that had a value at the start has none now. */
static int
values_lost(const pmID *all, unsigned int n, const unsigned char *baseline)
{
    unsigned char *has = calloc(n, 1);
    int lost = 0;

    if (has == NULL)
        return 0;
    values_now(all, n, has);
    for (unsigned int i = 0; i < n && !lost; i++)
        lost = baseline[i] && !has[i];
    free(has);
    return lost;
}

/* The heap in use as AddressSanitizer's allocator counts it (its
 * quarantine of freed blocks, which RSS includes, left out); weak: the
 * cost bench links no sanitizer and measures no heap. */
size_t __sanitizer_get_current_allocated_bytes(void) __attribute__((weak));

static long
heap_bytes(void)
{
    return __sanitizer_get_current_allocated_bytes != NULL ? (long)__sanitizer_get_current_allocated_bytes() : 0;
}

/* The resident set in KiB (Linux's /proc/self/statm: pages). */
static long
rss_kib(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    long size = 0, resident = 0;

    if (f == NULL)
        return 0;
    if (fscanf(f, "%ld %ld", &size, &resident) != 2)
        resident = 0;
    fclose(f);
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

static int
same_held(struct dbl_held a, struct dbl_held b)
{
    return a.cf == b.cf && a.io == b.io && a.ports == b.ports && a.vm == b.vm && a.fds == b.fds &&
           a.tokens == b.tokens;
}

static void
print_held(const char *when, struct dbl_held h)
{
    printf("held %s: CF %ld, IOKit %ld, ports %ld, regions %ld, fds %ld, notify tokens %ld\n", when, h.cf, h.io,
           h.ports, h.vm, h.fds, h.tokens);
}

struct day {
    struct day_client *clients;
    struct day_budget_plan **plans;     /* each client's request's */
    unsigned int nclients;
    pmID *all, *counters;
    unsigned int nall, ncounters;
    unsigned char *baseline;
    struct day_counters *tracks;
    struct day_event events[MAX_EVENTS];
    unsigned int nevents;
};

/* Where the problems of a second go: a fault with a known defect is run and
 * reported, not failed on. */
struct tally {
    unsigned int failed, known;
};

static void
count(struct tally *t, const struct day_event *ev, unsigned int problems)
{
    if (ev != NULL && ev->fault->known_defect != NULL)
        t->known += problems;
    else
        t->failed += problems;
}

static unsigned int
requests_of_second(struct day *d, unsigned int second, const char *fault)
{
    unsigned int problems = 0;

    for (unsigned int c = 0; c < d->nclients; c++) {
        struct day_budget_mark *mark;

        if (second % d->clients[c].period != 0)
            continue;
        mark = budgets_mark();
        done(fetch(d->clients[c].pmids, d->clients[c].n));
        problems += budgets_check(mark, d->plans[c], d->clients[c].name, second, fault);
    }
    return problems;
}

static unsigned int
counters_of_second(struct day *d, unsigned int second, const char *fault)
{
    agent_result *res = fetch(d->counters, d->ncounters);
    unsigned int problems = res != NULL ? counters_check(d->tracks, res, second, fault) : 0;

    done(res);
    return problems;
}

static int
run(struct day *d, unsigned int rounds)
{
    struct tally t = { 0, 0 };
    unsigned int e = 0;
    int lost = 0;                       /* the current fault took a value away */
    long mark = log_mark(), heap_steady = 0, rss_steady = 0;
    struct dbl_held held_steady = { 0 }, held_end;
    unsigned int steady = 0;            /* the second they were measured */

    for (unsigned int s = 1; s <= rounds; s++) {
        const struct day_event *ev = e < d->nevents && s >= d->events[e].start ? &d->events[e] : NULL;
        const char *fault = ev != NULL ? ev->fault->name : "none";
        unsigned int deadline = ev != NULL ? ev->clear + ev->fault->retry_s + 1 : 0;

        dbl_clock_advance(SECOND_NS);
        machine_tick(s);
        if (ev != NULL && s == ev->start) {
            count(&t, NULL, log_check(mark, 0, s, "none", NULL));
            mark = log_mark();
            ev->fault->start();
        }
        if (ev != NULL && ev->fault->clear != NULL && s == ev->clear)
            ev->fault->clear();
        count(&t, ev, requests_of_second(d, s, fault));
        count(&t, ev, counters_of_second(d, s, fault));
        if (ev != NULL && !lost && (s - ev->start) % LOSS_CHECK_S == 0 && s < deadline)
            lost = values_lost(d->all, d->nall, d->baseline);
        if (ev != NULL && s == deadline) {
            unsigned int lines;

            count(&t, ev, values_back(d->all, d->nall, d->baseline, s, fault));
            count(&t, ev, log_check(mark, 1, s, fault, &lines));
            if (lost && lines < 2) {
                printf("FAIL: second %u: \"%s\" took values away and pmcd.log has %u lines of it, not one "
                       "when it started and one when it ended\n", s, fault, lines);
                count(&t, ev, 1);
            }
            lost = 0;
            printf("seconds %u-%u: %s: %u lines in pmcd.log%s%s\n", ev->start, ev->clear, fault, lines,
                   ev->fault->known_defect ? "; known defect: " : "",
                   ev->fault->known_defect ? ev->fault->known_defect : "");
            mark = log_mark();
            e++;
        }
        if (steady == 0 && s >= STEADY_FROM && ev == NULL) {
            steady = s;
            heap_steady = heap_bytes();
            rss_steady = rss_kib();
            held_steady = dbl_held();
        }
    }
    count(&t, NULL, log_check(mark, 0, rounds, "none", NULL));  /* every fault was over a second before the end */
    held_end = dbl_held();
    if (steady != 0) {
        long growth = heap_bytes() - heap_steady, rss_growth = rss_kib() - rss_steady;
        char when[32];

        printf("heap in use: %ld bytes at second %u, %+ld at the end (bound %+d)\n", heap_steady, steady,
               growth, HEAP_GROWTH_MAX);
        printf("resident set: %ld KiB at second %u, %+ld KiB at the end (bound %+d KiB)\n", rss_steady, steady,
               rss_growth, RSS_GROWTH_MAX_KIB);

        snprintf(when, sizeof(when), "at second %u", steady);
        print_held(when, held_steady);
        print_held("at the end", held_end);
        if (growth > HEAP_GROWTH_MAX) {
            printf("FAIL: the heap grew by %ld bytes from second %u to the end\n", growth, steady);
            t.failed++;
        }
        if (rss_growth > RSS_GROWTH_MAX_KIB) {
            printf("FAIL: the resident set grew by %ld KiB from second %u to the end\n", rss_growth, steady);
            t.failed++;
        }
        if (!same_held(held_steady, held_end)) {
            printf("FAIL: the live layer holds more or fewer objects at the end than at second %u\n", steady);
            t.failed++;
        }
    }
    printf("%u faults of %u kinds over %u seconds; %u problems, %u more under known defects\n", e,
           day_nfaults, rounds, t.failed, t.known);
    return t.failed == 0 ? 0 : 1;
}

static uint64_t
seed_of_day(void)
{
    const char *env = getenv("DAY_SEED");

    return env != NULL && env[0] != '\0' ? strtoull(env, NULL, 0) : (uint64_t)time(NULL);
}

/* The live platform on the machine, or the replay DAY_REPLAY names. */
static int
open_platform(struct platform *p, char *msg, unsigned int len)
{
    const char *replay = getenv("DAY_REPLAY");

    machine_build();
    return replay != NULL && replay[0] != '\0' ? platform_snapshot_open(p, replay, msg, len)
                                                : platform_live_open(p, msg, len);
}

int
main(int argc, char **argv)
{
    unsigned int rounds = argc > 1 ? (unsigned int)strtoul(argv[1], NULL, 10) : DAY_SECONDS;
    int cost = argc > 2 && strcmp(argv[2], "cost") == 0;
    uint64_t seed = seed_of_day();
    struct platform p;
    struct day d = { 0 };
    struct dbl_held after;
    char msg[256];
    int sts;

    if (rounds == 0)
        return 2;
    printf("day: %u seconds, seed %" PRIu64 " (DAY_SEED=%" PRIu64 " replays this day)\n", rounds, seed, seed);
    dbl_reset();
    if ((sts = open_platform(&p, msg, sizeof(msg))) != 0) {
        printf("FAIL: the platform does not open: %s\n", msg);
        return 1;
    }
    if (log_start() != 0)
        return 1;
    memset(&dp, 0, sizeof(dp));
    dp.domain = DAY_DOMAIN;
    pmdaDSO(&dp, PMDA_INTERFACE_7, "day", NULL);
    if ((sts = agent_setup(&dp, &darwin_agent, &p)) < 0) {
        log_stop();
        printf("FAIL: agent_setup: %s\n", pmErrStr(sts));
        return 1;
    }
    if (cost) {
        day_cost(&dp, rounds);
        agent_teardown();
        log_stop();
        return 0;
    }
    d.nclients = day_clients(&d.clients);
    if ((d.plans = calloc(d.nclients, sizeof(*d.plans))) == NULL)
        return 1;
    for (unsigned int c = 0; c < d.nclients; c++)
        if ((d.plans[c] = budgets_plan(d.clients[c].pmids, d.clients[c].n)) == NULL)
            return 1;
    d.nall = day_all_metrics(NULL, 0, 0);
    d.all = calloc(d.nall, sizeof(pmID));
    d.ncounters = day_all_metrics(NULL, 0, 1);
    d.counters = calloc(d.ncounters, sizeof(pmID));
    d.baseline = calloc(d.nall, 1);
    if (d.all == NULL || d.counters == NULL || d.baseline == NULL)
        return 1;
    day_all_metrics(d.all, d.nall, 0);
    day_all_metrics(d.counters, d.ncounters, 1);
    d.tracks = counters_new(d.counters, d.ncounters);
    printf("%u metrics have a value at the start, of %u; %u counters checked every second\n",
           values_now(d.all, d.nall, d.baseline), d.nall, d.ncounters);
    for (unsigned int c = 0; c < d.nclients; c++)
        printf("client %s: %u metrics every %u s\n", d.clients[c].name, d.clients[c].n, d.clients[c].period);
    budgets_print();
    d.nevents = day_schedule(seed, rounds, d.events, MAX_EVENTS);
    sts = run(&d, rounds);
    agent_teardown();
    log_stop();
    after = dbl_held();
    /* CF objects are the double's own tables too (made when first asked
     * for): the steady count above compares them; closed, the live layer
     * holds no other object. */
    print_held("after the agent closed", after);
    if (after.io != 0 || after.ports != 0 || after.vm != 0 || after.fds != 0 || after.tokens != 0) {
        printf("FAIL: the live layer holds objects after it closed\n");
        sts = 1;
    }
    counters_free(d.tracks);
    for (unsigned int c = 0; c < d.nclients; c++)
        free(d.plans[c]);
    free(d.plans);
    day_clients_free(d.clients, d.nclients);
    free(d.all);
    free(d.counters);
    free(d.baseline);
    printf("%s\n", sts == 0 ? "PASS" : "FAIL");
    return sts;
}
