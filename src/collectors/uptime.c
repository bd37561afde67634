/*
 * The clock family: time since boot (cluster 9) and the boot time to the
 * microsecond (cluster 102), from kern.boottime and the wall clock.
 */
#include "collector.h"
#include "convert.h"

static const struct metric_row rows[] = {
    { "kernel.all.uptime", CLUSTER_UPTIME, 76, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT,
      PMDA_PMUNITS(0, 1, 0, 0, PM_TIME_SEC, 0) },
    { "kernel.all.boottime", CLUSTER_BOOTTIME, 0, PM_TYPE_DOUBLE, COLLECTOR_NO_INDOM, PM_SEM_DISCRETE,
      PMDA_PMUNITS(0, 1, 0, 0, PM_TIME_SEC, 0) },
};

static struct plat_clock now;          /* the last successful read */
static int uptime_status;
static uint32_t uptime;

static int
uptime_refresh(const struct platform *p, pmInDom indom, const char **reason)
{
    int sts;

    (void)reason;
    (void)indom;
    if ((sts = p->clock(p->ctx, &now)) < 0)
        return collector_error(sts);
    /* A clock set before the boot time fails the uptime alone, not the boot time. */
    uptime_status = collector_error(uptime_seconds(&now, &uptime));
    return 0;
}

static int
uptime_fetch(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    (void)inst;
    if (row->cluster == CLUSTER_BOOTTIME) {
        /* Seconds since the epoch; a double keeps the microseconds exactly for
         * any date before the year 2255 (2^53 microseconds). */
        atom->d = (double)now.boot_sec + (double)now.boot_usec / 1e6;
        return PMDA_FETCH_STATIC;
    }
    if (uptime_status < 0)
        return uptime_status;
    atom->ul = uptime;
    return PMDA_FETCH_STATIC;
}

const struct collector uptime_collector = {
    .name = "clock",
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .refresh = uptime_refresh,
    .fetch = uptime_fetch,
};
