/*
 * Which collectors a request refreshes, in what order. Portable, no
 * PCP types: a node is whatever its id points at.
 */
#ifndef PMDA_DARWIN_REFRESH_PLAN_H
#define PMDA_DARWIN_REFRESH_PLAN_H

#define PLAN_MAX_DEPENDS 4

struct plan_node {
    const void *id;
    unsigned int ndepends;
    const void *depends[PLAN_MAX_DEPENDS];  /* ids of other nodes */
    unsigned int dep_index[PLAN_MAX_DEPENDS]; /* the same as node indices: filled by plan_check */
};

/*
 * Check the table once, at init: resolve every dependency to its node index
 * (dep_index) and reject a table the planner could not order. Returns 0,
 * -EINVAL for a dependency on an unknown node or more than
 * PLAN_MAX_DEPENDS of them, or -ELOOP for a dependency cycle.
 */
int plan_check(struct plan_node *nodes, unsigned int n);

/*
 * Given nodes[0..n) checked by plan_check and wanted[i] != 0 for the nodes a
 * request names, write into order[] the node indices to refresh, every
 * dependency before its dependants, each node once; *norder receives the
 * count (at most n).
 */
void plan_refresh(const struct plan_node *nodes, unsigned int n, const unsigned char *wanted,
                  unsigned int *order, unsigned int *norder);

#endif
