/*
 * How each agent's rows are served, as the core decides it (pmda.c's
 * agent_fetch_value): bound to a field the core reads, or derived by a
 * function the row names; any other row ("hand") would need code of its
 * collector's own to serve it, which the core no longer calls. Prints one
 * line per agent, and with a limit fails (exit 1) when more than that
 * share of an agent's rows is such:
 *     row_coverage [MAX_HAND_PERCENT]
 */
#include "agent.h"
#include "collector.h"

#include <stdio.h>
#include <stdlib.h>

struct coverage {
    unsigned int rows, bound, derived, hand;
};

/* Whether the core reads row's field itself: a row with no indom, or one
 * whose indom the core can find an instance's struct in. */
static int
core_reads(const struct collector *c, const struct metric_row *row)
{
    if (row->field.kind == FIELD_NONE)
        return 0;
    for (unsigned int k = 0; k < collector_nindoms(c); k++)
        if (c->indom[k].serial == row->indom)
            return collector_has_entries(&c->indom[k]);
    return 1;
}

static struct coverage
coverage_of(const struct agent_desc *agent)
{
    struct coverage n = { 0 };

    for (unsigned int c = 0; c < agent->ncollectors; c++)
        for (unsigned int r = 0; r < agent->collectors[c]->nrows; r++) {
            const struct metric_row *row = &agent->collectors[c]->rows[r];

            n.rows++;
            if (row->derive != NULL)
                n.derived++;
            else if (core_reads(agent->collectors[c], row))
                n.bound++;
            else
                n.hand++;
        }
    return n;
}

int
main(int argc, char **argv)
{
    const struct agent_desc *agents[] = { &darwin_agent, &proc_agent };
    double limit = argc == 2 ? atof(argv[1]) : 100.0;
    int over = 0;

    printf("%-8s %6s %6s %7s %6s %7s\n", "agent", "rows", "bound", "derive", "hand", "hand%");
    for (unsigned int a = 0; a < sizeof(agents) / sizeof(agents[0]); a++) {
        struct coverage n = coverage_of(agents[a]);
        double share = n.rows ? 100.0 * n.hand / n.rows : 0.0;

        printf("%-8s %6u %6u %7u %6u %6.1f%%\n", agents[a]->name, n.rows, n.bound, n.derived, n.hand, share);
        if (share > limit) {
            fprintf(stderr, "FAIL: %s serves %.1f%% of its rows by hand-written fetch code (limit %.1f%%)\n",
                    agents[a]->name, share, limit);
            over = 1;
        }
    }
    return over;
}
