/*
 * Cluster 13: UDP statistics (net.inet.udp.stats). The kernel's counters
 * are 32-bit; they are extended to 64 bits here so that the exported
 * counters and their sums survive the kernel's wrap.
 */
#include "collector.h"
#include "metric_ids.h"
#include "convert.h"
#include "metric_units.h"

/* The rows the input error total adds up. */
enum { ROW_HDROPS = 5, ROW_BADSUM, ROW_BADLEN };

static row_derive inerrors;

#define COUNTER(name, item, member) { name, CLUSTER_UDP, item, PM_TYPE_U64, COLLECTOR_NO_INDOM, PM_SEM_COUNTER, \
                                      UNITS_COUNT, FIELD_ALWAYS(struct plat_udp, member, FIELD_WRAP32) }

static const struct metric_row rows[] = {
    COUNTER("network.udp.indatagrams", 142, ipackets),
    COUNTER("network.udp.outdatagrams", 143, opackets),
    COUNTER("network.udp.noports", 144, noport),
    { "network.udp.inerrors.total", CLUSTER_UDP, 145, PM_TYPE_U64, COLLECTOR_NO_INDOM, PM_SEM_COUNTER, UNITS_COUNT,
      .derive = inerrors },
    COUNTER("network.udp.rcvbuferrors", 146, fullsock),
    [ROW_HDROPS] = COUNTER("network.udp.inerrors.hdrops", 147, hdrops),
    [ROW_BADSUM] = COUNTER("network.udp.inerrors.badsum", 148, badsum),
    [ROW_BADLEN] = COUNTER("network.udp.inerrors.badlen", 149, badlen),
};

#define NROWS (sizeof(rows) / sizeof(rows[0]))

/* The state: each row's count, wraps[row - rows]. */
static int
udp_refresh(void *wraps, struct refresh_call *call)
{
    struct plat_udp u;
    int sts;

    if ((sts = call->p->udp(call->p->ctx, &u)) < 0)
        return collector_error(sts);
    collector_extend(rows, NROWS, &u, wraps);
    return 0;
}

static int
inerrors(const void *state, const void *entry, const struct metric_row *row, unsigned int inst,
         pmAtomValue *atom)
{
    const struct wrap32 *wraps = state;

    (void)entry;
    (void)row;
    (void)inst;
    atom->ull = wraps[ROW_HDROPS].total + wraps[ROW_BADSUM].total + wraps[ROW_BADLEN].total;
    return PMDA_FETCH_STATIC;
}

static int
udp_fetch(const void *state, const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    const struct wrap32 *wraps = state;

    (void)inst;
    atom->ull = wraps[row - rows].total;
    return PMDA_FETCH_STATIC;
}

const struct collector udp_collector = {
    .name = "udp",
    .rows = rows,
    .nrows = NROWS,
    .state_size = NROWS * sizeof(struct wrap32),
    .refresh = udp_refresh,
    .fetch = udp_fetch,
};
