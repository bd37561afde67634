#include "day_budgets.h"
#include "day_requests.h"
#include "dbl.h"

#include <stdio.h>
#include <stdlib.h>

#define MAX_NEEDS 4

/* A doubled call, the metrics (name prefixes) whose refresh needs it, and
 * how many calls each of those needs in one request at most. */
struct budget {
    const char *fn;
    unsigned int per_need;
    const char *needs[MAX_NEEDS];
};

static const struct budget budgets[] = {
    /* One sample per subscribed group: ioreport.c's groups, by the
     * metrics that read each. */
    { "IOReportCreateSamples", 1, { "power.energy", "kernel.cpucluster", "kernel.cpucore", "gpu.pstate" } },
    /* One copy of the HID services per read of the temperatures. */
    { "IOHIDEventSystemClientCopyServices", 1, { "thermal" } },
    { "IOHIDEventSystemClientCreate", 1, { "thermal" } },
    /* HOST_CPU_LOAD_INFO for the CPU totals, HOST_VM_INFO64 for memory. */
    { "host_statistics", 1, { "kernel.all.cpu" } },
    { "host_statistics64", 1, { "mem", "swap" } },
    { "host_processor_info", 1, { "kernel.percpu", "kernel.all.cpu" } },
    /* getfsstat's count, then the list. */
    { "getfsstat", 2, { "filesys" } },
    { "nfssvc", 1, { "nfs", "rpc" } },
};

#define NBUDGETS (sizeof(budgets) / sizeof(budgets[0]))

struct day_budget_mark {
    unsigned int calls[NBUDGETS];
};

struct day_budget_plan {
    unsigned int allowed[NBUDGETS];
};

struct day_budget_mark *
budgets_mark(void)
{
    struct day_budget_mark *m = malloc(sizeof(*m));

    for (unsigned int i = 0; m != NULL && i < NBUDGETS; i++)
        m->calls[i] = dbl_calls(budgets[i].fn);
    return m;
}

/* How many of b's needs the request's metrics have. */
static unsigned int
needs_of(const struct budget *b, const pmID *pmids, unsigned int n)
{
    unsigned int count = 0;

    for (unsigned int k = 0; k < MAX_NEEDS && b->needs[k] != NULL; k++)
        for (unsigned int i = 0; i < n; i++) {
            const struct metric_row *row = day_row(pmids[i]);

            if (row != NULL && day_name_under(b->needs[k], row->name)) {
                count++;
                break;
            }
        }
    return count;
}

struct day_budget_plan *
budgets_plan(const pmID *pmids, unsigned int n)
{
    struct day_budget_plan *plan = malloc(sizeof(*plan));

    for (unsigned int i = 0; plan != NULL && i < NBUDGETS; i++)
        plan->allowed[i] = budgets[i].per_need * needs_of(&budgets[i], pmids, n);
    return plan;
}

unsigned int
budgets_check(struct day_budget_mark *mark, const struct day_budget_plan *plan, const char *client,
              unsigned int round, const char *fault)
{
    unsigned int problems = 0;

    for (unsigned int i = 0; mark != NULL && i < NBUDGETS; i++) {
        unsigned int calls = dbl_calls(budgets[i].fn) - mark->calls[i];
        unsigned int allowed = plan->allowed[i];

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
        printf("budget: %s: %u a request for each of", budgets[i].fn, budgets[i].per_need);
        for (unsigned int k = 0; k < MAX_NEEDS && budgets[i].needs[k] != NULL; k++)
            printf(" %s", budgets[i].needs[k]);
        printf(", none otherwise\n");
    }
}
