/*
 * Cluster 0: facts about the host that do not change while it runs.
 * They are read once, on the first request that needs them.
 */
#include "collector.h"
#include "hinv.h"

#include <string.h>

enum { ITEM_PAGESIZE = 0, ITEM_HZ = 1, ITEM_MACHINE = 2 };

static const struct metric_row rows[] = {
    { "hinv.pagesize", CLUSTER_HINV, ITEM_PAGESIZE, PM_TYPE_U64, COLLECTOR_NO_INDOM, PM_SEM_DISCRETE,
      PMDA_PMUNITS(1, 0, 0, PM_SPACE_BYTE, 0, 0) },
    { "kernel.all.hz", CLUSTER_HINV, ITEM_HZ, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_DISCRETE,
      PMDA_PMUNITS(0, -1, 1, 0, PM_TIME_SEC, PM_COUNT_ONE) },
    { "hinv.machine", CLUSTER_HINV, ITEM_MACHINE, PM_TYPE_STRING, COLLECTOR_NO_INDOM, PM_SEM_DISCRETE,
      PMDA_PMUNITS(0, 0, 0, 0, 0, 0) },
};

static struct plat_host host;
static int have_host;

const struct plat_host *
hinv_host_facts(void)
{
    return have_host ? &host : NULL;
}

static int
hinv_refresh(const struct platform *p, pmInDom indom)
{
    struct plat_host fresh;
    int sts;

    (void)indom;
    if (have_host)
        return 0;
    memset(&fresh, 0, sizeof(fresh));
    if ((sts = p->host(p->ctx, &fresh)) < 0)
        return collector_error(sts);
    /* CPU times are ticks / hz: a source that says 0 makes every family
     * that needs these facts fail, with this reason, not pmcd with SIGFPE. */
    if (fresh.page_size == 0 || fresh.clock_hz == 0)
        return collector_refuse("the source gave 0 for the page size or the clock rate");
    host = fresh;
    have_host = 1;
    return 0;
}

static int
hinv_fetch(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    (void)inst;
    switch (row->item) {
    case ITEM_PAGESIZE:
        atom->ull = host.page_size;
        break;
    case ITEM_HZ:
        atom->ul = host.clock_hz;
        break;
    case ITEM_MACHINE:
        atom->cp = host.model;
        break;
    default:
        return PM_ERR_PMID;
    }
    return PMDA_FETCH_STATIC;
}

static void
hinv_teardown(pmInDom indom)
{
    (void)indom;
    have_host = 0;
}

const struct collector hinv_collector = {
    .name = "hinv",
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .refresh = hinv_refresh,
    .fetch = hinv_fetch,
    .teardown = hinv_teardown,
};
