/*
 * Cluster 3: load averages from vm.loadavg.
 */
#include "collector.h"
#include "metric_ids.h"
#include "convert.h"

#include <string.h>

static row_derive average;

static const struct metric_row rows[] = {
    { "kernel.all.load", CLUSTER_LOADAVG, 30, PM_TYPE_FLOAT, INDOM_LOADAVG, PM_SEM_INSTANT, PMDA_PMUNITS(0, 0, 0, 0, 0, 0),
      .derive = average },
};

/* Instance ids are the averaging periods in minutes, as on every PCP
 * platform; in the order of vm.loadavg's averages. */
static pmdaInstid periods[] = {
    { 1, "1 minute" }, { 5, "5 minute" }, { 15, "15 minute" },
};

/* A period's fixed-point average in the state. */
static const void *
average_of(const void *state, unsigned int inst)
{
    const struct plat_loadavg *load = state;

    for (unsigned int k = 0; k < sizeof(periods) / sizeof(periods[0]); k++)
        if ((unsigned int)periods[k].i_inst == inst)
            return &load->ldavg[k];
    return NULL;
}

static const struct indom_def indom = {
    .serial = INDOM_LOADAVG,
    .label_name = "load average period",
    .set = periods,
    .nset = sizeof(periods) / sizeof(periods[0]),
    .entry = average_of,
};

static int
loadavg_refresh(void *state, struct refresh_call *call)
{
    struct plat_loadavg *load = state;
    int sts;

    memset(load, 0, sizeof(*load));
    if ((sts = call->p->loadavg(call->p->ctx, load)) < 0)
        return collector_error(sts);
    /* The averages are fixed point over fscale: 0 would make them infinite. */
    if (load->fscale != 0)
        return 0;
    call->reason = "the source gave 0 for the fixed-point scale";
    return PM_ERR_AGAIN;
}

static int
average(const void *state, const void *entry, const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    (void)row;
    (void)inst;
    atom->f = loadavg_value(*(const uint32_t *)entry, ((const struct plat_loadavg *)state)->fscale);
    return PMDA_FETCH_STATIC;
}

const struct collector loadavg_collector = {
    .name = "loadavg",
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .indom = &indom,
    .state_size = sizeof(struct plat_loadavg),
    .refresh = loadavg_refresh,
};
