/*
 * What a refresh of the proc agent costs per process, driven through its
 * pmdaInterface as pmcd drives it, over a generated snapshot (gen-procs.py):
 * platform calls per process, the agent's own microseconds per process (the
 * snapshot source's time taken out: on a Mac the calls cost what the kernel
 * takes), and heap bytes per process besides the cached strings.
 *
 * usage: proc_bench SNAPSHOT
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "clock_ns.h"
#include "fault_platform.h"
#include "metric_by_name.h"
#include "replay.h"
#include "proc_context.h"

#define ROUNDS 5
#define MAX_METRICS 16

static pmdaInterface dp;
static struct fault_platform counted;

/* Fetch the pmids as pmcd would; returns the values of the first one's
 * instances (and the bytes of its strings into *strings when asked). */
static int
fetch(const pmID *pmids, int n, size_t *strings)
{
    agent_result *res = NULL;
    int sts = dp.version.seven.fetch(n, (pmID *)pmids, (void *)&res, dp.version.seven.ext), values;

    if (sts < 0) {
        fprintf(stderr, "fetch: %s\n", pmErrStr(sts));
        exit(1);
    }
    values = res->vset[0]->numval;
    for (int i = 0; strings && i < res->vset[0]->numval; i++)
        if (res->vset[0]->valfmt == PM_VAL_DPTR)
            *strings += res->vset[0]->vlist[i].value.pval->vlen - PM_VAL_HDR_SIZE;
    dp.version.seven.ext->e_resultCallBack((void *)res);
    return values;
}

/* The PMIDs of the n metrics called names (at most MAX_METRICS). */
static void
pmids_named(const char *const *names, int n, pmID *pmids)
{
    for (int i = 0; i < n; i++) {
        const struct metric_row *row = metric_row_named(&proc_agent, names[i], NULL);

        if (row == NULL) {
            fprintf(stderr, "the proc agent has no metric %s\n", names[i]);
            exit(1);
        }
        pmids[i] = pmID_build(dp.domain, row->cluster, row->item);
    }
}

/* Platform calls per instance and the agent's microseconds per instance,
 * averaged over ROUNDS refreshes after a first one (which reads and caches
 * the strings), for a fetch of the n metrics called names. */
static void
measure(const char *what, const char *const *names, int n)
{
    uint64_t best = UINT64_MAX;
    double calls;
    int inst = 0;
    pmID pmids[MAX_METRICS];

    pmids_named(names, n, pmids);

    fetch(pmids, n, NULL);
    fault_platform_zero(&counted);
    /* The agent's time is the best round's (less the source's): a round
     * that other work on the machine slowed says nothing of the agent. */
    for (int r = 0; r < ROUNDS; r++) {
        uint64_t source = counted.source_ns, t0 = now_ns(), agent;

        inst = fetch(pmids, n, NULL);
        agent = now_ns() - t0 - (counted.source_ns - source);
        if (agent < best)
            best = agent;
    }
    calls = (double)(fault_platform_process_calls(&counted)) / ROUNDS;
    printf("  %-34s %8d instances %6.2f platform calls/instance %7.2f us/instance (agent)", what, inst,
           calls / inst, (double)best / inst / 1000.0);
    if (counted.threads_listed)         /* on a Mac, PROC_PIDTHREADID64INFO once per thread as well */
        printf(" + %.2f thread-info calls/instance", (double)counted.threads_listed / ROUNDS / inst);
    printf("\n");
}

int
main(int argc, char **argv)
{
    struct platform snap;
    char msg[512];
    size_t before, strings = 0;
    int nprocs;
    /* the columns ps -o pid,ppid,user,nice,pri,stat,lstart,time,rss,vsz,tty,command and top show */
    static const char *const columns[] = {
        "proc.psinfo.pid", "proc.psinfo.ppid", "proc.id.uid_nm", "proc.psinfo.nice", "proc.psinfo.priority",
        "proc.psinfo.sname", "proc.psinfo.start_time", "proc.psinfo.utime", "proc.psinfo.stime", "proc.memory.rss",
        "proc.memory.size", "proc.psinfo.ttyname", "proc.psinfo.threads", "proc.psinfo.psargs",
    };
    static const char *const with_footprint[] = { "proc.psinfo.pid", "proc.psinfo.utime", "proc.memory.footprint" };
    static const char *const fds[] = { "proc.fd.count" };
    static const char *const threads[] = { "proc.psinfo.thread_name", "proc.psinfo.utime" };
    static const char *const cmd[] = { "proc.psinfo.psargs" };
    pmID cmd_pmid;

    if (argc != 2) {
        fprintf(stderr, "usage: %s SNAPSHOT\n", argv[0]);
        return 2;
    }
    setenv("PCP_DERIVED_CONFIG", "", 1);
    if (platform_snapshot_open(&snap, argv[1], msg, sizeof(msg)) < 0) {
        fprintf(stderr, "%s\n", msg);
        return 1;
    }
    fault_platform_wrap(&counted, &snap);
    before = mallinfo2().uordblks;
    pmdaDSO(&dp, PMDA_INTERFACE_7, "proc bench", NULL);
    dp.domain = 3;
    if (agent_setup(&dp, &proc_agent, &counted.p) < 0)
        return 1;
    proc_access_policy()->all_access = 1;       /* as root: descriptors too */

    pmids_named(cmd, 1, &cmd_pmid);
    nprocs = fetch(&cmd_pmid, 1, &strings);     /* the strings the agent caches per process */
    measure("ps/top columns (list + task)", columns, sizeof(columns) / sizeof(columns[0]));
    printf("  %-34s %8d processes   %6.0f bytes/process besides %.0f bytes/process of strings\n",
           "agent heap after the refreshes", nprocs, ((double)(mallinfo2().uordblks - before) - (double)strings) / nprocs,
           (double)strings / nprocs);
    measure("+ footprint (rusage)", with_footprint, 3);
    measure("open files only when asked", fds, 1);
    proc_access_policy()->threads = 1;
    measure("threads as instances, when asked", threads, 2);
    agent_teardown();
    return 0;
}
