/*
 * Cluster 111: whether macOS lets the TCP statistics be read, from cluster
 * 17's read.
 */
#include "collector.h"
#include "tcp.h"

static const struct metric_row rows[] = {
    { "network.tcp.stats_accessible", 0, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT,
      PMDA_PMUNITS(0, 0, 0, 0, 0, 0) },
};

static int
tcp_access_refresh(const struct platform *p, pmInDom indom)
{
    (void)p;
    (void)indom;
    return 0;       /* cluster 17, a dependency, has read the statistics */
}

static int
tcp_access_fetch(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    int accessible = tcp_stats_accessible();

    (void)row;
    (void)inst;
    if (accessible < 0)
        return accessible;
    atom->ul = (uint32_t)accessible;
    return PMDA_FETCH_STATIC;
}

const struct collector tcp_access_collector = {
    .name = "tcp access",
    .cluster = 111,
    .ndepends = 1,
    .depends = { TCP_CLUSTER },
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .refresh = tcp_access_refresh,
    .fetch = tcp_access_fetch,
};
