#include "refresh_plan.h"

#include <errno.h>

enum { UNSEEN, VISITING, DONE };

/* Depth-first: dependencies are appended before the node itself. The depth
 * is bounded by n because a node is never entered twice. */
static int
visit(const struct plan_node *nodes, unsigned int i, unsigned char *state, unsigned int *order,
      unsigned int *norder)
{
    if (state[i] == DONE)
        return 0;
    if (state[i] == VISITING)
        return -ELOOP;
    state[i] = VISITING;
    for (unsigned int d = 0; d < nodes[i].ndepends; d++) {
        int sts = visit(nodes, nodes[i].dep_index[d], state, order, norder);

        if (sts < 0)
            return sts;
    }
    state[i] = DONE;
    order[(*norder)++] = i;
    return 0;
}

static int
plan_all(const struct plan_node *nodes, unsigned int n, const unsigned char *wanted,
         unsigned int *order, unsigned int *norder)
{
    unsigned char state[n > 0 ? n : 1];
    int sts;

    *norder = 0;
    for (unsigned int i = 0; i < n; i++)
        state[i] = UNSEEN;
    for (unsigned int i = 0; i < n; i++)
        if (wanted[i] && (sts = visit(nodes, i, state, order, norder)) < 0)
            return sts;
    return 0;
}

int
plan_check(struct plan_node *nodes, unsigned int n)
{
    unsigned int order[n > 0 ? n : 1], norder;
    unsigned char all[n > 0 ? n : 1];

    for (unsigned int i = 0; i < n; i++) {
        if (nodes[i].ndepends > PLAN_MAX_DEPENDS)
            return -EINVAL;
        for (unsigned int d = 0; d < nodes[i].ndepends; d++) {
            unsigned int j = 0;

            while (j < n && nodes[j].id != nodes[i].depends[d])
                j++;
            if (j == n)
                return -EINVAL;
            nodes[i].dep_index[d] = j;
        }
        all[i] = 1;
    }
    return plan_all(nodes, n, all, order, &norder);
}

void
plan_refresh(const struct plan_node *nodes, unsigned int n, const unsigned char *wanted,
             unsigned int *order, unsigned int *norder)
{
    /* plan_check proved the table acyclic, so this cannot fail */
    plan_all(nodes, n, wanted, order, norder);
}
