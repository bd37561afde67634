/*
 * Which clusters a request refreshes, in what order. Portable, no PCP types.
 */
#ifndef PMDA_DARWIN_REFRESH_PLAN_H
#define PMDA_DARWIN_REFRESH_PLAN_H

struct plan_node {
    unsigned int cluster;
    unsigned int ndepends;
    const unsigned int *depends;    /* cluster numbers */
};

/*
 * Given nodes[0..n) and wanted[i] != 0 for the nodes a request names, write
 * into order[] the node indices to refresh, every dependency before its
 * dependants, each node once; *norder receives the count (at most n).
 * Returns 0, or -EINVAL for a dependency on an unknown cluster, or -ELOOP
 * for a dependency cycle.
 */
int plan_refresh(const struct plan_node *nodes, unsigned int n, const unsigned char *wanted,
                 unsigned int *order, unsigned int *norder);

#endif
