/*
 * Cluster 126: the energy Apple Silicon's CPU, GPU, Neural Engine and DRAM
 * have used since boot, from IOReport's "Energy Model" channels
 * (energy_decode.c), as counters in joules: PCP's rate conversion turns
 * them into watts (pmval power.energy.cpu), without root and without
 * powermetrics. Every channel the machine reports is also its own instance
 * (an M5 Max reports 364). Where IOReport or a channel is missing (Intel
 * Macs), not supported.
 *
 * On macOS 27 the power manager's CPU and DRAM counters stop moving for
 * every program but powermetrics (exelban/stats issues 3336 and 3608,
 * vladkens/macmon issue 76): a counter that stands still reads as 0 W.
 * So a CPU or DRAM channel that has not moved for FROZEN_SPAN_NS while its
 * CPU clusters (all of them for the CPU and DRAM totals) were active for
 * FROZEN_ACTIVE_NS (cluster 127) is unavailable, and so is the unit it adds
 * to, until it moves again. Real
 * counters publish in steps (about 2 s apart on an M1 Ultra, all-smi pull
 * request 424), hence a span well beyond that.
 */
#include "collector.h"
#include "families.h"
#include "instance_names.h"
#include "energy_decode.h"
#include "pstate.h"
#include "array_grow.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define FROZEN_SPAN_NS 10000000000ull
#define FROZEN_ACTIVE_NS 1000000000ull

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

/* What a channel did since it last moved. */
struct motion {
    char name[PLAT_REG_NAME_MAX];
    double joules;
    uint64_t active_ns, elapsed_ns;     /* the clusters' activity when it last moved */
    int frozen;
};

static struct energy_channel *channels;
static int *channel_inst;
static struct motion *motion, *spare;   /* by channel, as channels[]; spare: the next refresh's */
static unsigned int cap, inst_cap, motion_cap, spare_cap, nmotion;
static struct energy energy;
static unsigned int frozen_units;       /* bit 1u << unit */
static int logged;                      /* a frozen channel was logged */
static int energy_sts;

/* Whether a channel is one the power manager counts for the CPU or DRAM,
 * and so judged, and whose clusters' work it follows: 0 for every
 * cluster's (the CPU and DRAM units), else the letter of its clusters' own
 * ("ECPU", "PCPU1", "MCPU0", an Ultra's "DIE_1_PCPU", and their per-core
 * accumulators "EACC_CPU...", "PACC..."). */
static int
judged(const struct energy_channel *c, char *letter)
{
    const char *s = c->name;

    *letter = 0;
    if (c->unit == ENERGY_CPU || c->unit == ENERGY_DRAM)
        return 1;
    if (strncmp(s, "DIE_", 4) == 0 && (s = strchr(s + 4, '_')) != NULL)
        s++;
    if (s == NULL || (s[0] != 'E' && s[0] != 'P' && s[0] != 'M'))
        return 0;
    *letter = s[0];
    if (strncmp(s + 1, "ACC", 3) == 0)
        return s[0] != 'M';             /* EACC, PACC: names the power manager gives */
    if (strncmp(s + 1, "CPU", 3) != 0)
        return 0;
    for (s += 4; *s >= '0' && *s <= '9'; s++)
        ;
    return *s == '\0';
}

/* The motion record of channel i, found where it was last time, or
 * searched for (a channel that comes or goes shifts the others). */
static struct motion *
motion_of(unsigned int i, const struct motion *last, unsigned int nlast)
{
    if (i < nlast && strcmp(last[i].name, channels[i].name) == 0)
        return (struct motion *)&last[i];
    for (unsigned int k = 0; k < nlast; k++)
        if (strcmp(last[k].name, channels[i].name) == 0)
            return (struct motion *)&last[k];
    return NULL;
}

/* Whether each judged channel stands still while the clusters work. */
static int
judge(void)
{
    static const char letters[] = { 0, 'E', 'P', 'M' };
    uint64_t active[sizeof(letters)], elapsed[sizeof(letters)];
    int known[sizeof(letters)];
    struct motion *next, *swap;
    unsigned int swap_cap;

    for (size_t k = 0; k < sizeof(letters); k++)
        known[k] = pstate_cluster_activity(letters[k], &active[k], &elapsed[k]) == 0;

    if (energy.n > 0 && array_grow((void **)&spare, &spare_cap, energy.n - 1, sizeof(*spare)) < 0)
        return -ENOMEM;
    next = spare;
    frozen_units = 0;
    for (unsigned int i = 0; i < energy.n; i++) {
        const struct motion *was = motion_of(i, motion, nmotion);
        struct motion *m = &next[i];
        size_t k = 0;
        char letter;
        int judge = judged(&channels[i], &letter);

        while (letters[k] != letter)
            k++;
        memcpy(m->name, channels[i].name, sizeof(m->name));
        m->joules = channels[i].joules;
        m->active_ns = active[k];
        m->elapsed_ns = elapsed[k];
        m->frozen = 0;
        if (was == NULL || !known[k] || !judge || was->joules != channels[i].joules)
            continue;                   /* new, moving, or nothing to judge by */
        m->active_ns = was->active_ns;
        m->elapsed_ns = was->elapsed_ns;
        m->frozen = elapsed[k] - was->elapsed_ns >= FROZEN_SPAN_NS && active[k] - was->active_ns >= FROZEN_ACTIVE_NS;
        if (m->frozen && channels[i].unit != ENERGY_NUNITS)
            frozen_units |= 1u << channels[i].unit;
    }
    swap = motion;
    swap_cap = motion_cap;
    motion = next;
    motion_cap = spare_cap;
    spare = swap;
    spare_cap = swap_cap;
    nmotion = energy.n;
    return 0;
}

/* Said once when a channel first stands still, once when all move again. */
static void
note_frozen(void)
{
    unsigned int i = 0;

    while (i < nmotion && !motion[i].frozen)
        i++;
    if ((i < nmotion) == logged)
        return;
    logged = i < nmotion;
    if (logged)
        pmNotifyErr(LOG_WARNING, "darwin: energy: \"%s\" stands still while the CPU clusters are active: "
                    "unavailable, not 0 W, with any other channel that does (macOS 27 stops these counters "
                    "for programs other than powermetrics)", motion[i].name);
    else
        pmNotifyErr(LOG_INFO, "darwin: energy: every channel moves again");
}

static int
grow(unsigned int n)
{
    int sts = 0;

    if (n > 0 && (sts = array_grow((void **)&channels, &cap, n - 1, sizeof(*channels))) == 0)
        sts = array_grow((void **)&channel_inst, &inst_cap, n - 1, sizeof(*channel_inst));
    return sts;
}

static int
energy_refresh(const struct platform *p, pmInDom id)
{
    struct plat_reg_set set;
    int sts;

    energy.n = 0;
    energy.have = 0;
    names_begin(id);
    if ((energy_sts = p->registry(p->ctx, &plat_reg_queries[PLAT_REGQ_ENERGY], &set)) < 0)
        return energy_sts == -ENOENT ? 0 : collector_error(energy_sts);
    if ((sts = grow(set.n)) < 0)
        return sts;
    energy_decode(&set, &energy, channels, set.n);
    if ((sts = judge()) < 0)
        return sts;
    note_frozen();
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
                if (motion[i].frozen)
                    return PM_ERR_AGAIN;        /* standing still while the CPU works */
                atom->d = channels[i].joules;
                return PMDA_FETCH_STATIC;
            }
        return PM_ERR_INST;
    }
    if (!(energy.have & (1u << row->item)))       /* items follow energy_unit's order */
        return PM_ERR_APPVERSION;                   /* this machine reports no such channel */
    if (frozen_units & (1u << row->item))
        return PM_ERR_AGAIN;
    atom->d = energy.unit[row->item];
    return PMDA_FETCH_STATIC;
}

static void
energy_teardown(pmInDom id)
{
    names_forget(id);
    free(channels);
    free(channel_inst);
    free(motion);
    free(spare);
    channels = NULL;
    channel_inst = NULL;
    motion = spare = NULL;
    cap = inst_cap = motion_cap = spare_cap = nmotion = 0;
    energy.n = 0;
    frozen_units = logged = 0;
}

const struct collector energy_collector = {
    .name = "energy",
    .ndepends = 1,
    .depends = { &cpucluster_collector },
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .indom = &indom,
    .refresh = energy_refresh,
    .fetch = energy_fetch,
    .teardown = energy_teardown,
};
