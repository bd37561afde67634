#include "day_budgets.h"
#include "day_machine.h"
#include "day_silicon.h"
#include "day_requests.h"
#include "collector.h"
#include "dbl.h"
#include "collectors.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_COLLECTORS 4

/* A doubled call, the collectors whose refresh makes it and how many calls
 * each of them makes in one request at most. A collector is in a request
 * when the request names one of its metrics or a collector it names depends
 * on it (the agent's own refresh plan, refresh_plan.h, says which). */
struct share {
    const struct collector *collector;
    unsigned int calls;
};

#define ANY_CALLS UINT_MAX          /* as many as the collector needs: only other collectors get none */

struct budget {
    const char *fn;
    struct share shares[MAX_COLLECTORS];
    /* NULL, or a call each of which in the same request allows one more
     * of fn beside the collectors' shares. */
    const char *one_more_each;
};

/* IOReport, per group (dbl.h: the subgroup, or the group where the
 * channels have none): one sample per subscribed group, and the first
 * sample of a subscription made again in the request (after one that gave
 * none: ioreport.c's resample); one subscription per group, made at the
 * first read or again after it gave no sample. None for a group whose
 * collector the request does not refresh: nothing for clusters no one asked
 * for. */
#define IOREPORT_GROUP(collector, group)                                                                          \
    { "IOReportCreateSamples " group, { { &collector, 1 } }, "IOReportCreateSubscription " group },              \
    { "IOReportCreateSubscription " group, { { &collector, 1 } }, NULL }

static const struct budget budgets[] = {
    IOREPORT_GROUP(energy_collector, MACHINE_ENERGY_GROUP),
    IOREPORT_GROUP(cpucluster_collector, SILICON_CLUSTERS),
    IOREPORT_GROUP(cpucore_collector, SILICON_CORES),
    IOREPORT_GROUP(gpu_pstate_collector, SILICON_GPU),
    /* At most one copy of the HID services, and one client, per read of the temperatures. */
    { "IOHIDEventSystemClientCopyServices", { { &thermal_collector, 1 } } },
    { "IOHIDEventSystemClientCreate", { { &thermal_collector, 1 } } },
    /* HOST_CPU_LOAD_INFO for the CPU totals (none once they are the
     * per-CPU sum), HOST_VM_INFO64 for memory. */
    { "host_statistics", { { &cpu_total_collector, 1 } } },
    { "host_statistics64", { { &memory_collector, 1 } } },
    { "host_processor_info", { { &cpu_total_collector, 1 }, { &percpu_collector, 1 } } },
    /* getfsstat's count, then the list. */
    { "getfsstat", { { &filesys_collector, 2 } } },
    { "nfssvc", { { &nfs_collector, 1 } } },
    /* The SMC's user client: only for the collectors that read keys. Each
     * key costs a call the first time it is asked for (its type and size,
     * then kept) and one a read; where the HID sensors fail the thermal
     * collector asks for every key of an Intel Mac's sensors once. */
    { "IOConnectCallStructMethod", { { &thermal_collector, ANY_CALLS }, { &system_power_collector, ANY_CALLS } } },
};

#define NBUDGETS (sizeof(budgets) / sizeof(budgets[0]))

struct day_budget_mark {
    unsigned int calls[NBUDGETS];
    unsigned int more[NBUDGETS];    /* of one_more_each */
};

struct day_budget_plan {
    unsigned int allowed[NBUDGETS];
};

/* The collectors of a request of n pmids, as the agent plans its refresh:
 * refreshed[c] for darwin_agent's collector c. */
static int
collectors_of(const pmID *pmids, unsigned int n, unsigned char *refreshed)
{
    unsigned int nc = darwin_agent.ncollectors, norder = 0;
    struct plan_node *nodes = calloc(nc, sizeof(*nodes));
    unsigned char *wanted = calloc(nc, 1);
    unsigned int *order = calloc(nc, sizeof(*order));
    int sts = -1;

    if (nodes != NULL && wanted != NULL && order != NULL) {
        for (unsigned int c = 0; c < nc; c++) {
            const struct collector *col = darwin_agent.collectors[c];

            nodes[c].id = col;
            nodes[c].ndepends = col->ndepends;
            for (unsigned int d = 0; d < col->ndepends; d++)
                nodes[c].depends[d] = col->depends[d];
            for (unsigned int r = 0; r < col->nrows; r++)
                for (unsigned int i = 0; i < n; i++)
                    wanted[c] |= pmids[i] == pmID_build(DAY_DOMAIN, col->rows[r].cluster, col->rows[r].item);
        }
        if ((sts = plan_check(nodes, nc)) == 0) {
            plan_refresh(nodes, nc, wanted, order, &norder);
            for (unsigned int i = 0; i < norder; i++)
                refreshed[order[i]] = 1;
        }
    }
    free(nodes);
    free(wanted);
    free(order);
    return sts;
}

struct day_budget_plan *
budgets_plan(const pmID *pmids, unsigned int n)
{
    struct day_budget_plan *plan = calloc(1, sizeof(*plan));
    unsigned char *refreshed = calloc(darwin_agent.ncollectors, 1);

    if (plan == NULL || refreshed == NULL || collectors_of(pmids, n, refreshed) != 0) {
        free(plan);
        free(refreshed);
        return NULL;
    }
    for (unsigned int i = 0; i < NBUDGETS; i++)
        for (unsigned int k = 0; k < MAX_COLLECTORS && budgets[i].shares[k].collector != NULL; k++)
            for (unsigned int c = 0; c < darwin_agent.ncollectors; c++)
                if (refreshed[c] && darwin_agent.collectors[c] == budgets[i].shares[k].collector)
                    plan->allowed[i] = budgets[i].shares[k].calls == ANY_CALLS || plan->allowed[i] == ANY_CALLS
                                           ? ANY_CALLS : plan->allowed[i] + budgets[i].shares[k].calls;
    free(refreshed);
    return plan;
}

struct day_budget_mark *
budgets_mark(void)
{
    struct day_budget_mark *m = malloc(sizeof(*m));

    for (unsigned int i = 0; m != NULL && i < NBUDGETS; i++) {
        m->calls[i] = dbl_calls(budgets[i].fn);
        m->more[i] = budgets[i].one_more_each != NULL ? dbl_calls(budgets[i].one_more_each) : 0;
    }
    return m;
}

unsigned int
budgets_check(struct day_budget_mark *mark, const struct day_budget_plan *plan, const char *client,
              unsigned int round, const char *fault)
{
    unsigned int problems = 0;

    for (unsigned int i = 0; mark != NULL && i < NBUDGETS; i++) {
        unsigned int calls = dbl_calls(budgets[i].fn) - mark->calls[i];
        unsigned int allowed = plan->allowed[i];

        if (budgets[i].one_more_each != NULL && allowed != ANY_CALLS)
            allowed += dbl_calls(budgets[i].one_more_each) - mark->more[i];
        if (calls > allowed) {
            printf("FAIL: second %u: %s's request made %u calls of %s, its budget is %u (fault: %s)\n", round,
                   client, calls, budgets[i].fn, allowed, fault);
            problems++;
        }
    }
    free(mark);
    return problems + (mark == NULL);
}

void
budgets_print(void)
{
    for (unsigned int i = 0; i < NBUDGETS; i++) {
        printf("budget: %s, a request:", budgets[i].fn);
        for (unsigned int k = 0; k < MAX_COLLECTORS && budgets[i].shares[k].collector != NULL; k++)
            if (budgets[i].shares[k].calls == ANY_CALLS)
                printf(" any number if it refreshes \"%s\";", budgets[i].shares[k].collector->name);
            else
                printf(" %u if it refreshes \"%s\";", budgets[i].shares[k].calls, budgets[i].shares[k].collector->name);
        printf(" none otherwise");
        if (budgets[i].one_more_each != NULL)
            printf("; one more for each %s in the request", budgets[i].one_more_each);
        printf("\n");
    }
}
