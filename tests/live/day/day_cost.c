#include "day_cost.h"
#include "agent_requests.h"
#include "day_machine.h"
#include "day_requests.h"
#include "dbl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SMC_KEY_CALLS "SMC key "


static void
round_at(pmdaInterface *dp, unsigned int second, const pmID *pmids, unsigned int n)
{
    dbl_clock_advance(SECOND_NS);
    machine_tick(second);
    requests_round(dp, pmids, n, NULL, 0);
}

void
day_cost(pmdaInterface *dp, unsigned int rounds)
{
    unsigned int n = day_all_metrics(NULL, 0, 0), nnames = 0, *before, total = 0;
    pmID *pmids = calloc(n, sizeof(pmID));
    const char *name;

    if (pmids == NULL)
        return;
    day_all_metrics(pmids, n, 0);
    round_at(dp, 1, pmids, n);      /* the first round opens what the source keeps open */
    while (dbl_call_name(nnames) != NULL)
        nnames++;
    if ((before = calloc(nnames + 1, sizeof(*before))) == NULL) {
        free(pmids);
        return;
    }
    for (unsigned int i = 0; i < nnames; i++)
        before[i] = dbl_calls(dbl_call_name(i));
    for (unsigned int s = 2; s < rounds + 2; s++)
        round_at(dp, s, pmids, n);
    /* (a function first called after the first round counts from 0) */
    for (unsigned int i = 0; (name = dbl_call_name(i)) != NULL; i++) {
        unsigned int calls = dbl_calls(name) - (i < nnames ? before[i] : 0);

        if (calls > 0)
            printf("OS calls per round: %-40s %.2f\n", name, (double)calls / rounds);
        /* the SMC's calls are counted again by key ("SMC key NAME", smc.c) */
        if (strncmp(name, SMC_KEY_CALLS, strlen(SMC_KEY_CALLS)) != 0)
            total += calls;
    }
    printf("OS calls per round, every doubled call: %.2f\n", (double)total / rounds);
    free(before);
    free(pmids);
}
