/*
 * Cluster 23: IPv6 statistics (net.inet6.ip6.stats, 64-bit counters).
 */
#include "collector.h"

enum { ITEM_INRECEIVES = 187, ITEM_OUTFORWARDED, ITEM_INDISCARDS, ITEM_OUTDISCARDS, ITEM_FRAGCREATES, ITEM_REASMOKS };

#define ROW(name, item) { name, CLUSTER_IPV6, item, PM_TYPE_U64, COLLECTOR_NO_INDOM, PM_SEM_COUNTER, \
                          PMDA_PMUNITS(0, 0, 1, 0, 0, PM_COUNT_ONE) }

static const struct metric_row rows[] = {
    ROW("network.ipv6.inreceives", ITEM_INRECEIVES),
    ROW("network.ipv6.outforwarded", ITEM_OUTFORWARDED),
    ROW("network.ipv6.indiscards", ITEM_INDISCARDS),
    ROW("network.ipv6.outdiscards", ITEM_OUTDISCARDS),
    ROW("network.ipv6.fragcreates", ITEM_FRAGCREATES),
    ROW("network.ipv6.reasmoks", ITEM_REASMOKS),
};

static struct plat_ip6 ip6;

static int
ipv6_refresh(const struct platform *p, pmInDom indom)
{
    (void)indom;
    return collector_error(p->ip6(p->ctx, &ip6));
}

static int
ipv6_fetch(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    (void)inst;
    switch (row->item) {
    case ITEM_INRECEIVES: atom->ull = ip6.total; break;
    case ITEM_OUTFORWARDED: atom->ull = ip6.forward; break;
    case ITEM_INDISCARDS: atom->ull = ip6.toosmall + ip6.tooshort; break;
    case ITEM_OUTDISCARDS: atom->ull = ip6.odropped; break;
    case ITEM_FRAGCREATES: atom->ull = ip6.ofragments; break;
    default: atom->ull = ip6.reassembled; break;
    }
    return PMDA_FETCH_STATIC;
}

const struct collector ipv6_collector = {
    .name = "ipv6",
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .refresh = ipv6_refresh,
    .fetch = ipv6_fetch,
};
