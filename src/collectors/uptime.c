/*
 * Cluster 9: time since boot, from kern.boottime and the wall clock.
 */
#include "collector.h"
#include "convert.h"

static const struct metric_row rows[] = {
    { "kernel.all.uptime", 76, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT,
      PMDA_PMUNITS(0, 1, 0, 0, PM_TIME_SEC, 0) },
};

static uint32_t uptime;

static int
uptime_refresh(const struct platform *p, pmInDom indom)
{
    struct plat_clock clock;
    int sts;

    (void)indom;
    if ((sts = p->clock(p->ctx, &clock)) < 0)
        return collector_error(sts);
    return collector_error(uptime_seconds(&clock, &uptime));
}

static int
uptime_fetch(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    (void)row;
    (void)inst;
    atom->ul = uptime;
    return PMDA_FETCH_STATIC;
}

const struct collector uptime_collector = {
    .name = "uptime",
    .cluster = 9,
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .refresh = uptime_refresh,
    .fetch = uptime_fetch,
};
