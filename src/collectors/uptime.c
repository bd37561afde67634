/*
 * The uptime collector: time since boot (cluster 9) and the boot time to the
 * microsecond (cluster 102), from kern.boottime and the wall clock.
 */
#include "collector.h"
#include "metric_ids.h"
#include "convert.h"

struct uptime_state {
    int uptime_status;
    uint32_t uptime;
    double boottime;                    /* seconds since the epoch; a double keeps the microseconds
                                         * exactly for any date before the year 2255 (2^53 us) */
};

static const struct metric_row rows[] = {
    { "kernel.all.uptime", CLUSTER_UPTIME, 76, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT,
      PMDA_PMUNITS(0, 1, 0, 0, PM_TIME_SEC, 0), FIELD_OF(struct uptime_state, uptime, uptime_status, FIELD_PLAIN) },
    { "kernel.all.boottime", CLUSTER_BOOTTIME, 0, PM_TYPE_DOUBLE, COLLECTOR_NO_INDOM, PM_SEM_DISCRETE,
      PMDA_PMUNITS(0, 1, 0, 0, PM_TIME_SEC, 0), FIELD_ALWAYS(struct uptime_state, boottime, FIELD_DOUBLE) },
};

static int
uptime_refresh(void *state, struct refresh_call *call)
{
    struct uptime_state *s = state;
    struct plat_clock now;
    int sts;

    if ((sts = call->p->clock(call->p->ctx, &now)) < 0)
        return collector_error(sts);
    /* A clock set before the boot time fails the uptime alone, not the boot time. */
    s->uptime_status = uptime_seconds(&now, &s->uptime);
    s->boottime = (double)now.boot_sec + (double)now.boot_usec / 1e6;
    return 0;
}

const struct collector uptime_collector = {
    .name = "uptime",
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .state_size = sizeof(struct uptime_state),
    .refresh = uptime_refresh,
};
