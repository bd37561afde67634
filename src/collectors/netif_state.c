/*
 * Cluster 110: what kind each network interface is, whether it is up and
 * running, its send-queue drops, and whether the kernel truncated its byte
 * counters; from cluster 10's read of the interface list.
 */
#include "collector.h"
#include "metric_units.h"
#include "netif.h"

enum { ITEM_UP = 0, ITEM_RUNNING, ITEM_TYPE, ITEM_OUT_DROPS, ITEM_TRUNCATED };

/* net/if.h */
#define IFF_UP 0x1
#define IFF_RUNNING 0x40


static const struct metric_row rows[] = {
    { "network.interface.up", ITEM_UP, PM_TYPE_U32, NETIF_INDOM, PM_SEM_INSTANT, UNITS_NONE },
    { "network.interface.running", ITEM_RUNNING, PM_TYPE_U32, NETIF_INDOM, PM_SEM_INSTANT, UNITS_NONE },
    { "network.interface.type", ITEM_TYPE, PM_TYPE_STRING, NETIF_INDOM, PM_SEM_DISCRETE, UNITS_NONE },
    { "network.interface.out.drops", ITEM_OUT_DROPS, PM_TYPE_U64, NETIF_INDOM, PM_SEM_COUNTER,
      PMDA_PMUNITS(0, 0, 1, 0, 0, PM_COUNT_ONE) },
    { "network.interface.bytes_truncated", ITEM_TRUNCATED, PM_TYPE_U32, NETIF_INDOM, PM_SEM_INSTANT, UNITS_NONE },
};

static int
netif_state_refresh(const struct platform *p, pmInDom indom)
{
    (void)p;
    (void)indom;
    return 0;       /* cluster 10, a dependency, has read the interfaces */
}

static int
netif_state_fetch(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    struct netif_view v;

    if (netif_of_inst(inst, &v) < 0)
        return PM_ERR_INST;
    switch (row->item) {
    case ITEM_UP: atom->ul = (v.raw->flags & IFF_UP) != 0; break;
    case ITEM_RUNNING: atom->ul = (v.raw->flags & IFF_RUNNING) != 0; break;
    case ITEM_TYPE: atom->cp = (char *)v.kind; break;
    case ITEM_OUT_DROPS: atom->ull = v.out_drops; break;
    default: atom->ul = (uint32_t)v.truncated; break;
    }
    return PMDA_FETCH_STATIC;
}

const struct collector netif_state_collector = {
    .name = "interface state",
    .cluster = 110,
    .ndepends = 1,
    .depends = { NETIF_CLUSTER },
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .refresh = netif_state_refresh,
    .fetch = netif_state_fetch,
};
