/*
 * Cluster 102: the boot time (kern.boottime, kept to the microsecond), from
 * cluster 9's read of the clock.
 */
#include "collector.h"
#include "uptime.h"

static const struct metric_row rows[] = {
    { "kernel.all.boottime", 0, PM_TYPE_DOUBLE, COLLECTOR_NO_INDOM, PM_SEM_DISCRETE,
      PMDA_PMUNITS(0, 1, 0, 0, PM_TIME_SEC, 0) },
};

static int
boottime_refresh(const struct platform *p, pmInDom indom)
{
    (void)p;
    (void)indom;
    return 0;       /* cluster 9, a dependency, has read the clock */
}

static int
boottime_fetch(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    const struct plat_clock *clock = uptime_clock();

    (void)row;
    (void)inst;
    if (clock == NULL)
        return PM_ERR_AGAIN;
    /* Seconds since the epoch; a double keeps the microseconds exactly for
     * any date before the year 2255 (2^53 microseconds). */
    atom->d = (double)clock->boot_sec + (double)clock->boot_usec / 1e6;
    return PMDA_FETCH_STATIC;
}

const struct collector boottime_collector = {
    .name = "boottime",
    .cluster = 102,
    .ndepends = 1,
    .depends = { UPTIME_CLUSTER },
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .refresh = boottime_refresh,
    .fetch = boottime_fetch,
};
