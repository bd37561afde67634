/*
 * Cluster 126: the energy Apple Silicon's CPU, GPU, Neural Engine and DRAM
 * have used since boot, from IOReport's "Energy Model" channels
 * (energy_decode.c), as counters in joules: PCP's rate conversion turns
 * them into watts (pmval power.energy.cpu), without root and without
 * powermetrics. Every channel the machine reports is also its own instance.
 * Where IOReport or a channel is missing (Intel Macs), not supported.
 */
#include "collector.h"
#include "instance_names.h"
#include "energy_decode.h"

#include <errno.h>

#define CHANNEL_MAX 128

enum { ITEM_CPU = 0, ITEM_GPU, ITEM_ANE, ITEM_DRAM, ITEM_CHANNEL };

/* Joules: PCP 6 has no unit for energy, so the help says it. */
#define JOULES PMDA_PMUNITS(0, 0, 0, 0, 0, 0)
#define E(name, item, indom) { "power.energy." name, CLUSTER_ENERGY, item, PM_TYPE_DOUBLE, indom, PM_SEM_COUNTER, JOULES }

static const struct metric_row rows[] = {
    E("cpu", ITEM_CPU, COLLECTOR_NO_INDOM), E("gpu", ITEM_GPU, COLLECTOR_NO_INDOM),
    E("ane", ITEM_ANE, COLLECTOR_NO_INDOM), E("dram", ITEM_DRAM, COLLECTOR_NO_INDOM),
    E("channel", ITEM_CHANNEL, INDOM_ENERGY_CHANNEL),
};

static const struct indom_def indom = { .serial = INDOM_ENERGY_CHANNEL, .label_name = "energy channel" };

static struct energy_channel channels[CHANNEL_MAX];
static int channel_inst[CHANNEL_MAX];
static struct energy energy;
static int energy_sts;

static int
energy_refresh(const struct platform *p, pmInDom id)
{
    struct plat_reg_set set;

    energy.n = 0;
    energy.have = 0;
    names_begin(id);
    if ((energy_sts = p->registry(p->ctx, &plat_reg_queries[PLAT_REGQ_ENERGY], &set)) < 0)
        return energy_sts == -ENOENT ? 0 : collector_error(energy_sts);
    energy_decode(&set, &energy, channels, CHANNEL_MAX);
    for (unsigned int i = 0; i < energy.n; i++) {
        char name[PLAT_REG_NAME_MAX];

        collector_instance_name(channels[i].name, name, sizeof(name));
        if ((channel_inst[i] = names_add(id, name)) < 0)
            return channel_inst[i];
    }
    return 0;
}

static int
energy_fetch(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    if (energy_sts < 0)
        return collector_error(energy_sts);     /* no IOReport: not supported */
    if (row->item == ITEM_CHANNEL) {
        for (unsigned int i = 0; i < energy.n; i++)
            if ((unsigned int)channel_inst[i] == inst) {
                atom->d = channels[i].joules;
                return PMDA_FETCH_STATIC;
            }
        return PM_ERR_INST;
    }
    if (!(energy.have & (1u << row->item)))       /* items follow energy_unit's order */
        return PM_ERR_APPVERSION;                   /* this machine reports no such channel */
    atom->d = energy.unit[row->item];
    return PMDA_FETCH_STATIC;
}

static void
energy_teardown(pmInDom id)
{
    names_forget(id);
    energy.n = 0;
}

const struct collector energy_collector = {
    .name = "energy",
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .indom = &indom,
    .refresh = energy_refresh,
    .fetch = energy_fetch,
    .teardown = energy_teardown,
};
