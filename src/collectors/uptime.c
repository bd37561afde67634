/*
 * Cluster 9: time since boot, from kern.boottime and the wall clock.
 */
#include "collector.h"
#include "convert.h"
#include "uptime.h"

static const struct metric_row rows[] = {
    { "kernel.all.uptime", 76, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT,
      PMDA_PMUNITS(0, 1, 0, 0, PM_TIME_SEC, 0) },
};

static struct plat_clock last_clock;
static int have_clock;
static int uptime_status;
static uint32_t uptime;

const struct plat_clock *
uptime_clock(void)
{
    return have_clock ? &last_clock : NULL;
}

static int
uptime_refresh(const struct platform *p, pmInDom indom)
{
    int sts;

    (void)indom;
    have_clock = 0;
    if ((sts = p->clock(p->ctx, &last_clock)) < 0)
        return collector_error(sts);
    have_clock = 1;
    /* A clock set before the boot time fails the uptime alone, not the boot time. */
    uptime_status = collector_error(uptime_seconds(&last_clock, &uptime));
    return 0;
}

static int
uptime_fetch(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    (void)row;
    (void)inst;
    if (uptime_status < 0)
        return uptime_status;
    atom->ul = uptime;
    return PMDA_FETCH_STATIC;
}

static void
uptime_teardown(pmInDom indom)
{
    (void)indom;
    have_clock = 0;
}

const struct collector uptime_collector = {
    .name = "uptime",
    .cluster = UPTIME_CLUSTER,
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .refresh = uptime_refresh,
    .fetch = uptime_fetch,
    .teardown = uptime_teardown,
};
