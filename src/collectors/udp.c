/*
 * Cluster 13: UDP statistics (net.inet.udp.stats). The kernel's counters
 * are 32-bit; they are extended to 64 bits here so that the exported
 * counters and their sums survive the kernel's wrap.
 */
#include "collector.h"
#include "metric_ids.h"
#include "convert.h"
#include "metric_units.h"

/* Each counter extended to 64 bits (collector_extend). */
struct udp_state {
    struct wrap32 ipackets, hdrops, badsum, badlen, noport, fullsock, opackets;
};

static row_derive inerrors;

#define COUNTER(name, item, member) \
    { name, CLUSTER_UDP, item, PM_TYPE_U64, COLLECTOR_NO_INDOM, PM_SEM_COUNTER, UNITS_COUNT, \
      FIELD_WRAP32_OF(struct udp_state, member, FIELD_NO_STATUS, struct plat_udp, member) }

static const struct metric_row rows[] = {
    COUNTER("network.udp.indatagrams", 142, ipackets),
    COUNTER("network.udp.outdatagrams", 143, opackets),
    COUNTER("network.udp.noports", 144, noport),
    { "network.udp.inerrors.total", CLUSTER_UDP, 145, PM_TYPE_U64, COLLECTOR_NO_INDOM, PM_SEM_COUNTER, UNITS_COUNT,
      .derive = inerrors },
    COUNTER("network.udp.rcvbuferrors", 146, fullsock),
    COUNTER("network.udp.inerrors.hdrops", 147, hdrops),
    COUNTER("network.udp.inerrors.badsum", 148, badsum),
    COUNTER("network.udp.inerrors.badlen", 149, badlen),
};

#define NROWS (sizeof(rows) / sizeof(rows[0]))

static int
udp_refresh(void *state, struct refresh_call *call)
{
    struct plat_udp u;
    int sts;

    if ((sts = call->p->udp(call->p->ctx, &u)) < 0)
        return collector_error(sts);
    collector_extend(rows, NROWS, &u, state);
    return 0;
}

static int
inerrors(const void *state, const void *entry, const struct metric_row *row, unsigned int inst,
         pmAtomValue *atom)
{
    const struct udp_state *s = state;

    (void)entry;
    (void)row;
    (void)inst;
    atom->ull = s->hdrops.total + s->badsum.total + s->badlen.total;
    return PMDA_FETCH_STATIC;
}

const struct collector udp_collector = {
    .name = "udp",
    .rows = rows,
    .nrows = NROWS,
    .state_size = sizeof(struct udp_state),
    .refresh = udp_refresh,
};
