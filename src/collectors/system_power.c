/*
 * Cluster 130: what the whole Mac draws, as its SMC measures it (key PSTR,
 * in watts: "flt" on Apple Silicon and the iMac Pro, sp96 on older Intel
 * Macs; read without root, as Stats and macmon read it). Under a GPU
 * render on an M3 Max it read 75.7 W beside a battery discharge of 77.0 W
 * (shared/real-macs/smc). Not supported where the SMC has no PSTR.
 */
#include "collector.h"
#include "metric_ids.h"
#include "entry_props.h"
#include "thermal_decode.h"

#include <errno.h>
#include <math.h>

#define WATTS PMDA_PMUNITS(0, 0, 0, 0, 0, 0)    /* PCP 6 has no unit for power: the help says it */

struct system_power_state {
    double watts;
    int status;                         /* the read's, or why there is no value */
    unsigned int logged;                /* collector_note_parts' */
};

static const struct metric_row rows[] = {
    { "power.system.watts", CLUSTER_SYSTEM_POWER, 0, PM_TYPE_DOUBLE, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, WATTS,
      FIELD_OF(struct system_power_state, watts, status, FIELD_DOUBLE) },
};

static int
system_power_refresh(void *state, struct refresh_call *call)
{
    struct system_power_state *s = state;
    const struct platform *p = call->p;
    struct plat_entry_set set;
    const struct plat_entry *e;

    s->status = p->query(p->ctx, &plat_queries[PLAT_QUERY_SMC_POWER], &set);
    collector_note_parts(call, NULL, (unsigned int)collector_failing(s->status), &s->logged, p->error(p->ctx));
    if (s->status < 0)
        return 0;                       /* the row's status says why */
    if ((e = entry_named(&set, "PSTR")) == NULL)
        s->status = -ENOENT;
    else if ((s->status = smc_entry_value(e, &s->watts)) == 0 && (!isfinite(s->watts) || s->watts < 0))
        s->status = -ERANGE;            /* not a power: no value, not a guess */
    return 0;
}

const struct collector system_power_collector = {
    .name = "system_power",
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .state_size = sizeof(struct system_power_state),
    .refresh = system_power_refresh,
};
