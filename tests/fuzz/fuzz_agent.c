/*
 * Fuzz target for the collectors: the bytes are a snapshot that one agent
 * (FUZZ_AGENT=proc for the proc agent, else the system agent) replays
 * through three rounds of every request pmcd makes (tests/unit/
 * agent_requests.c), five seconds apart. The agent is set up once, as in
 * pmcd, in front of a platform whose source each input replaces (the last
 * stays open until the next one opens): what the
 * collectors keep carries from one input to the next as it does when a
 * live source's answers change. Any bytes: no crash, no leak, no undefined
 * behaviour. Built with libFuzzer by tests/fuzz/run-fuzz.sh.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent_requests.h"
#include "fault_platform.h"
#include "replay.h"

#define MAX_METRICS 1024
#define ROUNDS 3
#define INTERVAL_USEC 5000000ull

static pmdaInterface dp;
static struct fault_platform front;         /* no fault: the source in front of which inputs change */
static pmID pmids[MAX_METRICS];
static unsigned int nmetrics;
static char path[64];
static uint64_t now_usec;

static uint64_t
replay_clock(void)
{
    return now_usec;
}

/* The agent, in front of the first snapshot that opens. */
static void
set_up(const struct platform *first)
{
    const char *which = getenv("FUZZ_AGENT");
    int proc = which != NULL && strcmp(which, "proc") == 0;

    fault_platform_wrap(&front, first);
    dp.domain = proc ? 3 : 78;
    pmdaDSO(&dp, PMDA_INTERFACE_7, "fuzz", NULL);
    if (agent_setup(&dp, proc ? &proc_agent : &darwin_agent, &front.p) < 0)
        abort();
    dp.version.seven.ext->e_context = 1;
    __pmdaSetContext(1);
    nmetrics = requests_metrics(dp.version.seven.ext, pmids, MAX_METRICS);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct platform snap;
    char msg[512];
    FILE *fp;

    if (path[0] == '\0')
        snprintf(path, sizeof(path), "/tmp/fuzz_agent.%d.snapshot", (int)getpid());
    if ((fp = fopen(path, "wb")) == NULL)
        return 0;
    fwrite(data, 1, size, fp);
    fclose(fp);
    if (platform_snapshot_open(&snap, path, msg, sizeof(msg)) < 0)
        return 0;               /* refused whole: the parser's fuzzer covers why */
    now_usec = 1000;
    platform_snapshot_set_clock(&snap, replay_clock);
    if (nmetrics == 0) {
        set_up(&snap);
    } else {
        front.inner.close(front.inner.ctx);     /* the previous input's source */
        front.inner = snap;
    }
    for (int r = 0; r < ROUNDS; r++, now_usec += INTERVAL_USEC)
        requests_round(&dp, pmids, nmetrics, NULL, 0);
    return 0;
}
