#include "refresh_plan.h"

#include <errno.h>

enum { UNSEEN, VISITING, DONE };

static int
node_of(const struct plan_node *nodes, unsigned int n, unsigned int cluster)
{
    for (unsigned int i = 0; i < n; i++)
        if (nodes[i].cluster == cluster)
            return (int)i;
    return -1;
}

/* Depth-first: dependencies are appended before the node itself. The depth
 * is bounded by n because a node is never entered twice. */
static int
visit(const struct plan_node *nodes, unsigned int n, unsigned int i, unsigned char *state,
      unsigned int *order, unsigned int *norder)
{
    if (state[i] == DONE)
        return 0;
    if (state[i] == VISITING)
        return -ELOOP;
    state[i] = VISITING;
    for (unsigned int d = 0; d < nodes[i].ndepends; d++) {
        int dep = node_of(nodes, n, nodes[i].depends[d]);
        int sts;

        if (dep < 0)
            return -EINVAL;
        if ((sts = visit(nodes, n, (unsigned int)dep, state, order, norder)) < 0)
            return sts;
    }
    state[i] = DONE;
    order[(*norder)++] = i;
    return 0;
}

int
plan_refresh(const struct plan_node *nodes, unsigned int n, const unsigned char *wanted,
             unsigned int *order, unsigned int *norder)
{
    unsigned char state[n > 0 ? n : 1];
    int sts;

    *norder = 0;
    for (unsigned int i = 0; i < n; i++)
        state[i] = UNSEEN;
    for (unsigned int i = 0; i < n; i++)
        if (wanted[i] && (sts = visit(nodes, n, i, state, order, norder)) < 0)
            return sts;
    return 0;
}
