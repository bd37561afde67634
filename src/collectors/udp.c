/*
 * Cluster 13: UDP statistics (net.inet.udp.stats). The kernel's counters
 * are 32-bit; they are extended to 64 bits here so that the exported
 * counters and their sums survive the kernel's wrap.
 */
#include "collector.h"
#include "convert.h"

#include <string.h>

enum {
    ITEM_IN = 142, ITEM_OUT, ITEM_NOPORTS, ITEM_INERRORS, ITEM_RCVBUFERRORS, ITEM_HDROPS, ITEM_BADSUM, ITEM_BADLEN
};
enum { F_IN, F_OUT, F_NOPORT, F_FULLSOCK, F_HDROPS, F_BADSUM, F_BADLEN, NFIELDS };

#define ROW(name, item) { name, CLUSTER_UDP, item, PM_TYPE_U64, COLLECTOR_NO_INDOM, PM_SEM_COUNTER, \
                          PMDA_PMUNITS(0, 0, 1, 0, 0, PM_COUNT_ONE) }

static const struct metric_row rows[] = {
    ROW("network.udp.indatagrams", ITEM_IN),
    ROW("network.udp.outdatagrams", ITEM_OUT),
    ROW("network.udp.noports", ITEM_NOPORTS),
    ROW("network.udp.inerrors.total", ITEM_INERRORS),
    ROW("network.udp.rcvbuferrors", ITEM_RCVBUFERRORS),
    ROW("network.udp.inerrors.hdrops", ITEM_HDROPS),
    ROW("network.udp.inerrors.badsum", ITEM_BADSUM),
    ROW("network.udp.inerrors.badlen", ITEM_BADLEN),
};

static struct wrap32 field[NFIELDS];

static int
udp_refresh(const struct platform *p, pmInDom indom)
{
    struct plat_udp u;
    int sts;

    (void)indom;
    if ((sts = p->udp(p->ctx, &u)) < 0)
        return collector_error(sts);
    wrap32_extend(&field[F_IN], u.ipackets);
    wrap32_extend(&field[F_OUT], u.opackets);
    wrap32_extend(&field[F_NOPORT], u.noport);
    wrap32_extend(&field[F_FULLSOCK], u.fullsock);
    wrap32_extend(&field[F_HDROPS], u.hdrops);
    wrap32_extend(&field[F_BADSUM], u.badsum);
    wrap32_extend(&field[F_BADLEN], u.badlen);
    return 0;
}

static int
udp_fetch(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    static const int of_item[] = {
        [ITEM_IN - ITEM_IN] = F_IN, [ITEM_OUT - ITEM_IN] = F_OUT, [ITEM_NOPORTS - ITEM_IN] = F_NOPORT,
        [ITEM_RCVBUFERRORS - ITEM_IN] = F_FULLSOCK, [ITEM_HDROPS - ITEM_IN] = F_HDROPS,
        [ITEM_BADSUM - ITEM_IN] = F_BADSUM, [ITEM_BADLEN - ITEM_IN] = F_BADLEN,
    };

    (void)inst;
    if (row->item == ITEM_INERRORS)
        atom->ull = field[F_HDROPS].total + field[F_BADSUM].total + field[F_BADLEN].total;
    else
        atom->ull = field[of_item[row->item - ITEM_IN]].total;
    return PMDA_FETCH_STATIC;
}

static void
udp_teardown(pmInDom indom)
{
    (void)indom;
    memset(field, 0, sizeof(field));
}

const struct collector udp_collector = {
    .name = "udp",
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .refresh = udp_refresh,
    .fetch = udp_fetch,
    .teardown = udp_teardown,
};
