/*
 * Cluster 23: IPv6 statistics (net.inet6.ip6.stats, 64-bit counters).
 */
#include "collector.h"
#include "metric_ids.h"
#include "metric_units.h"

static row_derive indiscards;

#define COUNTER(name, item, ...) { name, CLUSTER_IPV6, item, PM_TYPE_U64, COLLECTOR_NO_INDOM, PM_SEM_COUNTER, \
                                   UNITS_COUNT, __VA_ARGS__ }
#define FIELD(member) FIELD_ALWAYS(struct plat_ip6, member, FIELD_PLAIN)

static const struct metric_row rows[] = {
    COUNTER("network.ipv6.inreceives", 187, FIELD(total)),
    COUNTER("network.ipv6.outforwarded", 188, FIELD(forward)),
    COUNTER("network.ipv6.indiscards", 189, .derive = indiscards),
    COUNTER("network.ipv6.outdiscards", 190, FIELD(odropped)),
    COUNTER("network.ipv6.fragcreates", 191, FIELD(ofragments)),
    COUNTER("network.ipv6.reasmoks", 192, FIELD(reassembled)),
};

static int
ipv6_refresh(void *state, struct refresh_call *call)
{
    return collector_error(call->p->ip6(call->p->ctx, state));
}

/* Datagrams dropped on input for being too short or too small. */
static int
indiscards(const void *state, const void *entry, const struct metric_row *row, unsigned int inst,
           pmAtomValue *atom)
{
    const struct plat_ip6 *ip6 = state;

    (void)entry;
    (void)row;
    (void)inst;
    atom->ull = ip6->toosmall + ip6->tooshort;
    return PMDA_FETCH_STATIC;
}

const struct collector ipv6_collector = {
    .name = "ipv6",
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .state_size = sizeof(struct plat_ip6),
    .refresh = ipv6_refresh,
};
