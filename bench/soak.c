/*
 * The soak: one agent (the system agent, or "proc") over a fixture for
 * many rounds of every request pmcd makes (tests/unit/agent_requests.c),
 * the replay clock a second further each round, while instances come and
 * go: every EPOCH rounds the interfaces other than lo0 and en0 take names
 * never seen before and a third of them are missing, so are the mounts
 * other than / (by mount point), and the processes above pid 100 take new
 * pids; the fixture's USB disk comes and goes with its samples. Prints the
 * process's RSS, the log's size and the time per round ten times over the
 * run.
 *
 * usage: soak FIXTURE ROUNDS [proc]      (the log goes to stderr)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent_requests.h"
#include "clock_ns.h"
#include "replay.h"

#define EPOCH 4
#define MAX_SET 256
#define PID_SHIFT 10000u            /* the fixtures' pids are below it */
#define MAX_METRICS 1024
#define REPORTS 10                  /* lines of figures over the run */

static struct platform inner;
static unsigned int round_no;
static uint64_t now_usec;
static struct plat_netif netifs[MAX_SET];
static struct plat_mount mounts[MAX_SET];
static struct plat_proc procs[MAX_SET];

static unsigned int
epoch(void)
{
    return round_no / EPOCH;
}

static uint64_t
replay_clock(void)
{
    return now_usec;
}

/* The name this epoch gives it, never given before: harder than a Mac,
 * whose names come back (utun3, disk4, /Volumes/Install), so that the
 * names the agent remembers must stay bounded (instance_names.h). */
static void
renew(char *name, size_t len)
{
    size_t n = strnlen(name, len);

    snprintf(name + n, len - n, "_%u", epoch());
}

static int
churn_interfaces(void *ctx, struct plat_netif_set *out)
{
    unsigned int k = 0;
    int sts = inner.interfaces(ctx, out);

    for (unsigned int i = 0; sts == 0 && i < out->n && k < MAX_SET; i++) {
        int fixed = strcmp(out->netif[i].name, "lo0") == 0 || strcmp(out->netif[i].name, "en0") == 0;

        if (!fixed && (epoch() + i) % 3 == 0)
            continue;
        netifs[k] = out->netif[i];
        if (!fixed)
            renew(netifs[k].name, sizeof(netifs[k].name));
        k++;
    }
    if (sts == 0)
        *out = (struct plat_netif_set){ k, netifs };
    return sts;
}

static int
churn_mounts(void *ctx, struct plat_mount_set *out)
{
    unsigned int k = 0;
    int sts = inner.mounts(ctx, out);

    for (unsigned int i = 0; sts == 0 && i < out->n && k < MAX_SET; i++) {
        int root = strcmp(out->mount[i].on, "/") == 0;

        if (!root && (epoch() + i) % 3 == 0)
            continue;
        mounts[k] = out->mount[i];
        if (!root)
            renew(mounts[k].on, sizeof(mounts[k].on));
        k++;
    }
    if (sts == 0)
        *out = (struct plat_mount_set){ k, mounts };
    return sts;
}

/* New pids each epoch for the processes above 100; the calls per process
 * go to the fixture's pid. */
static int32_t
shifted(int32_t pid)
{
    return pid > 100 ? pid + (int32_t)(PID_SHIFT * (epoch() % (PLAT_PID_LIMIT / PID_SHIFT))) : pid;
}

static int32_t
original(int32_t pid)
{
    return pid > 100 ? pid % (int32_t)PID_SHIFT : pid;
}

static int
churn_procs(void *ctx, struct plat_proc_set *out)
{
    int sts = inner.procs(ctx, out);

    if (sts < 0)
        return sts;
    if (out->n > MAX_SET)
        out->n = MAX_SET;
    for (unsigned int i = 0; i < out->n; i++) {
        procs[i] = out->proc[i];
        procs[i].pid = shifted(procs[i].pid);
    }
    out->proc = procs;
    return 0;
}

#define BY_PID(call, type) \
    static int churn_##call(void *ctx, int32_t pid, type *out) { return inner.call(ctx, original(pid), out); }
#define BY_PID_TEXT(call) \
    static int churn_##call(void *ctx, int32_t pid, char *out, size_t len) { return inner.call(ctx, original(pid), out, len); }
PLATFORM_PROCESS_CALLS(BY_PID)
PLATFORM_PROCESS_TEXT_CALLS(BY_PID_TEXT)

static long
rss_kib(void)
{
    long pages = 0, resident = 0;
    FILE *fp = fopen("/proc/self/statm", "r");

    if (fp != NULL) {
        if (fscanf(fp, "%ld %ld", &pages, &resident) != 2)
            resident = 0;
        fclose(fp);
    }
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

static long
log_bytes(void)
{
    struct stat st;

    fflush(stderr);
    return fstat(2, &st) == 0 && S_ISREG(st.st_mode) ? (long)st.st_size : -1;
}

int
main(int argc, char **argv)
{
    static pmID pmids[MAX_METRICS];
    struct platform front;
    pmdaInterface dp;
    unsigned int rounds, every, reported = 0, n;
    uint64_t since;
    char msg[512];
    int proc;

    if (argc < 3) {
        fprintf(stderr, "usage: %s FIXTURE ROUNDS [proc]\n", argv[0]);
        return 2;
    }
    rounds = (unsigned int)strtoul(argv[2], NULL, 10);
    every = rounds / REPORTS > 0 ? rounds / REPORTS : 1;
    proc = argc > 3 && strcmp(argv[3], "proc") == 0;
    if (platform_snapshot_open(&inner, argv[1], msg, sizeof(msg)) < 0) {
        fprintf(stderr, "%s\n", msg);
        return 1;
    }
    platform_snapshot_set_clock(&inner, replay_clock);
    front = inner;
    front.interfaces = churn_interfaces;
    front.mounts = churn_mounts;
    front.procs = churn_procs;
#define SET(call, ...) front.call = churn_##call;
    PLATFORM_PROCESS_CALLS(SET)
    PLATFORM_PROCESS_TEXT_CALLS(SET)
#undef SET
    memset(&dp, 0, sizeof(dp));
    dp.domain = proc ? 3 : 78;
    pmdaDSO(&dp, PMDA_INTERFACE_7, "soak", NULL);
    if (agent_setup(&dp, proc ? &proc_agent : &darwin_agent, &front) < 0)
        return 1;
    dp.version.seven.ext->e_context = 1;
    __pmdaSetContext(1);
    n = requests_metrics(dp.version.seven.ext, pmids, MAX_METRICS);
    printf("%s agent, %u metrics, %u rounds\n%12s %10s %12s %12s\n", proc ? "proc" : "system", n, rounds, "round",
           "RSS KiB", "log bytes", "us/round");
    since = now_ns();
    for (round_no = 0; round_no < rounds; round_no++, now_usec += 1000000) {
        requests_round(&dp, pmids, n, NULL, 0);
        if ((round_no + 1) % every == 0 || round_no + 1 == rounds) {
            uint64_t t = now_ns();

            printf("%12u %10ld %12ld %12.1f\n", round_no + 1, rss_kib(), log_bytes(),
                   (double)(t - since) / (round_no + 1 - reported) / 1000.0);
            reported = round_no + 1;
            fflush(stdout);
            since = t;
        }
    }
    agent_teardown();
    return 0;
}
