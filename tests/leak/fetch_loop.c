/*
 * Loads the module as pmcd does (dlopen, darwin_init) and drives every
 * callback in a loop: fetch of every metric, instance, text and label
 * requests. Run under valgrind (ctest) or a sanitizer build, it shows
 * whether anything leaks or misbehaves per request.
 *
 * usage: fetch_loop MODULE PMNS_ROOT ITERATIONS [STOP_AT]
 *
 * STOP_AT, a comma-separated list of round counts (e.g. "1000,20000"),
 * stops the process (raise(SIGSTOP)) after each of those rounds, until it
 * is sent SIGCONT: a parent waiting with waitpid(WUNTRACED) sees it stopped
 * exactly there (.github/macos/fetch-loop-growth.py reads it then).
 */
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcp/pmapi.h>
#include <pcp/pmda.h>

static char **names;
static int nnames;
static pmdaInterface dp;        /* pmcd keeps an agent's interface for its whole life */
static long stops[64];          /* STOP_AT: the rounds after which to stop */
static int nstops;

/* STOP_AT into stops[]: each a round from 1 to ITERATIONS */
static int
parse_stops(const char *list, long iterations)
{
    const char *p = list;
    char *end;

    do {
        if (nstops == (int)(sizeof(stops) / sizeof(stops[0])))
            return -1;
        stops[nstops] = strtol(p, &end, 10);
        if (end == p || stops[nstops] < 1 || stops[nstops] > iterations || (*end != ',' && *end != '\0'))
            return -1;
        nstops++;
        p = end + 1;
    } while (*end == ',');
    return 0;
}

/* after round `done`: stop if STOP_AT lists it, and go on at SIGCONT */
static void
stop_if_listed(long done)
{
    for (int s = 0; s < nstops; s++)
        if (stops[s] == done)
            raise(SIGSTOP);
}

static void
collect(const char *name)
{
    if (strncmp(name, "event.", 6) == 0)
        return;                 /* PCP's own, not the module's */
    names = realloc(names, (nnames + 1) * sizeof(*names));
    names[nnames++] = strdup(name);
}

int
main(int argc, char **argv)
{
    void (*init)(pmdaInterface *);
    void *handle;
    pmID *pmids;
    long iterations;

    if (argc != 4 && argc != 5) {
        fprintf(stderr, "usage: %s MODULE PMNS_ROOT ITERATIONS [STOP_AT]\n"
                "  STOP_AT: rounds after which to stop (SIGSTOP) until SIGCONT, e.g. 1000,20000\n", argv[0]);
        return 2;
    }
    iterations = atol(argv[3]);
    if (argc == 5 && parse_stops(argv[4], iterations) < 0) {
        fprintf(stderr, "%s: STOP_AT \"%s\": want up to %d comma-separated rounds from 1 to %ld\n",
                argv[0], argv[4], (int)(sizeof(stops) / sizeof(stops[0])), iterations);
        return 2;
    }
    pmSetProgname("fetch_loop");
    if (pmLoadASCIINameSpace(argv[2], 1) < 0 || pmTraversePMNS("", collect) < 0) {
        fprintf(stderr, "cannot load %s\n", argv[2]);
        return 1;
    }
    pmids = calloc(nnames, sizeof(*pmids));
    if (pmLookupName(nnames, (const char **)names, pmids) != nnames) {
        fprintf(stderr, "cannot look up the names\n");
        return 1;
    }
    if ((handle = dlopen(argv[1], RTLD_NOW)) == NULL ||
        (init = (void (*)(pmdaInterface *))dlsym(handle, "darwin_init")) == NULL) {
        fprintf(stderr, "cannot load %s: %s\n", argv[1], dlerror());
        return 1;
    }
    memset(&dp, 0, sizeof(dp));
    dp.domain = 78;
    dp.comm.pmapi_version = PMAPI_VERSION;
    dp.comm.pmda_interface = PMDA_INTERFACE_LATEST;
    init(&dp);
    if (dp.status != 0) {
        fprintf(stderr, "darwin_init failed: %s\n", pmErrStr(dp.status));
        return 1;
    }
    for (long i = 0; i < iterations; i++) {
        void *res;              /* pmResult (PCP 6) or pmdaResult (PCP 7): only passed back */
        pmInResult *in;
        pmLabelSet *labels;
        char *text;
        int n;

        if (dp.version.seven.fetch(nnames, pmids, (void *)&res, dp.version.seven.ext) < 0) {
            fprintf(stderr, "fetch failed\n");
            return 1;
        }
        /* pmcd hands every fetch result back through the result callback */
        dp.version.seven.ext->e_resultCallBack((void *)res);
        /* every dynamic instance domain: processors, network interfaces, performance levels */
        for (int d = 0; d < 3; d++) {
            pmInDom indom = pmInDom_build(78, d == 0 ? 3 : d == 1 ? 4 : 100);

            if (dp.version.seven.instance(indom, PM_IN_NULL, NULL, &in, dp.version.seven.ext) == 0) {
                for (int k = 0; k < in->numinst; k++)
                    free(in->namelist[k]);      /* pmdaInstance copies the names; pmcd frees them */
                free(in->instlist);
                free(in->namelist);
                free(in);
            }
            labels = NULL;
            if ((n = dp.version.seven.label((int)indom, PM_LABEL_INSTANCES, &labels, dp.version.seven.ext)) > 0)
                pmFreeLabelSets(labels, n);
        }
        for (int m = 0; m < nnames; m++)
            dp.version.seven.text((int)pmids[m], PM_TEXT_PMID | PM_TEXT_HELP, &text, dp.version.seven.ext);
        labels = NULL;
        if ((n = dp.version.seven.label(78, PM_LABEL_DOMAIN, &labels, dp.version.seven.ext)) > 0)
            pmFreeLabelSets(labels, n);
        stop_if_listed(i + 1);
    }
    printf("1 passed, 0 failed: %ld rounds of fetch/instance/text/label over %d metrics\n", iterations, nnames);
    for (int m = 0; m < nnames; m++)
        free(names[m]);
    free(names);
    free(pmids);
    pmUnloadNameSpace();
    return 0;
}
