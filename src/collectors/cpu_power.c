/*
 * Cluster 135: the CPU's power, in watts, from a source that measures it
 * where IOReport's "CPU Energy" counter cannot: an instance per source,
 * named and labelled by it (power_source), so that a dashboard can tell
 * whose number it shows. power.energy.cpu, whose rate is the CPU's power
 * from IOReport's Energy Model, is the source while it counts.
 *
 * "smc_rails": the SMC's CPU rail keys, on the chips whose rails a real
 * Mac documented (cpu_rails.h: the M3 Max), and only while IOReport's
 * counter is absent or stands still as the clusters work (energy.c's
 * frozen rule: macOS 27 stops it for programs other than powermetrics, and
 * an M3 Max then reads exactly 0 there, vladkens/macmon pull request 77).
 * While the counter moves, no value (the two sources do not measure the
 * same rails, so they are not mixed in one series); on another chip not
 * supported. The SMC is read only when the value is served.
 */
#include "collector.h"
#include "metric_ids.h"
#include "collectors.h"
#include "cpu_rails.h"
#include "energy.h"
#include "topology.h"

#include <errno.h>
#include <stdio.h>

#define WATTS PMDA_PMUNITS(0, 0, 0, 0, 0, 0)    /* PCP 6 has no unit for power: the help says it */

struct cpu_power_state {
    double watts;
    int status;                         /* the rails' read, or why there is no value */
    unsigned int logged;                /* collector_note_parts' */
};

static pmdaInstid sources[] = { { 0, "smc_rails" } };
#define NSOURCES (sizeof(sources) / sizeof(sources[0]))

/* The state holds the one source's reading. */
static const void *
source_of(const void *state, unsigned int inst)
{
    return inst < NSOURCES ? state : NULL;
}

static const struct indom_def indom = {
    .serial = INDOM_CPU_POWER_SOURCE,
    .label_name = "CPU power source",
    .set = sources,
    .nset = NSOURCES,
    .entry = source_of,
};

static const struct metric_row rows[] = {
    { "power.cpu.watts", CLUSTER_CPU_POWER, 0, PM_TYPE_DOUBLE, INDOM_CPU_POWER_SOURCE, PM_SEM_INSTANT, WATTS,
      FIELD_OF(struct cpu_power_state, watts, status, FIELD_DOUBLE) },
};

/* The rails' watts, when IOReport's counter cannot give the CPU's power. */
static int
rails(struct cpu_power_state *s, struct refresh_call *call, const char *brand)
{
    const struct platform *p = call->p;
    struct plat_entry_set set;
    int counted = energy_cpu_counted(call->depends[0]), sts;

    if (counted != 0)
        return PM_ERR_AGAIN;            /* IOReport's counter measures it, or may */
    sts = p->query(p->ctx, &plat_queries[PLAT_QUERY_SMC_CPU_RAILS], &set);
    collector_note_parts(call, NULL, (unsigned int)collector_failing(sts), &s->logged, p->error(p->ctx));
    if (sts < 0)
        return collector_error(sts);
    if ((sts = cpu_rails_watts(brand, &set, &s->watts)) < 0)
        return sts == -ENOENT ? PM_ERR_APPVERSION : PM_ERR_AGAIN;
    return 0;
}

static int
cpu_power_refresh(void *state, struct refresh_call *call)
{
    struct cpu_power_state *s = state;
    const char *brand = topology_brand(call->depends[1]);

    if (brand == NULL || !cpu_rails_known(brand))
        s->status = PM_ERR_APPVERSION;  /* no chip whose rails are known */
    else
        s->status = rails(s, call, brand);
    return 0;
}

static int
cpu_power_labels(const void *state, pmInDom id, unsigned int inst, char *json, size_t len)
{
    (void)state;
    (void)id;
    if (inst >= NSOURCES)
        return -1;
    snprintf(json, len, "{\"power_source\":\"%s\"}", sources[inst].i_name);
    return 0;
}

const struct collector cpu_power_collector = {
    .name = "cpu_power",
    .ndepends = 2,
    .depends = { &energy_collector, &topology_collector },
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .indom = &indom,
    .state_size = sizeof(struct cpu_power_state),
    .refresh = cpu_power_refresh,
    .instance_labels = cpu_power_labels,
};
