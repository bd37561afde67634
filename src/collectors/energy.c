/*
 * Cluster 126: the energy Apple Silicon's CPU, GPU, Neural Engine and DRAM
 * have used since boot, from IOReport's "Energy Model" channels
 * (energy_decode.c), as counters in joules: PCP's rate conversion turns
 * them into watts (pmval power.energy.cpu), without root and without
 * powermetrics. Every channel the machine reports is also its own instance
 * (an M5 Max reports 364). Where IOReport or a channel is missing (Intel
 * Macs), not supported; a unit one of whose channels has no value this
 * round (IOReport gave a sentinel) has none either (PM_ERR_AGAIN), rather
 * than the sum of the others.
 *
 * On macOS 27 the power manager's CPU and DRAM counters stop moving for
 * every program but powermetrics (exelban/stats issues 3336 and 3608,
 * vladkens/macmon issue 76): a counter that stands still reads as 0 W.
 * So a CPU or DRAM channel (the units' channels, and each cluster's total:
 * judged()) that has not moved for FROZEN_SPAN_NS while the clusters it
 * counts were active for FROZEN_ACTIVE_NS (cluster 127, refreshed for the
 * same request) is unavailable, and so is the unit it adds to, until it
 * moves again. Real counters publish in steps (about 2 s apart on an M1
 * Ultra, all-smi pull request 424), hence a span well beyond that.
 */
#include "collector.h"
#include "metric_ids.h"
#include "collectors.h"
#include "instance_names.h"
#include "energy_decode.h"
#include "energy.h"
#include "pstate.h"
#include "pstate_decode.h"
#include "array_grow.h"
#include "entry_set.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FROZEN_SPAN_NS 10000000000ull
#define FROZEN_ACTIVE_NS 1000000000ull

static row_derive unit_joules;

/* Joules: PCP 6 has no unit for energy, so the help says it. */
#define JOULES PMDA_PMUNITS(0, 0, 0, 0, 0, 0)
#define E(name, item, indom, ...) \
    { "power.energy." name, CLUSTER_ENERGY, item, PM_TYPE_DOUBLE, indom, PM_SEM_COUNTER, JOULES, __VA_ARGS__ }
#define UNIT(name, item, unit) E(name, item, COLLECTOR_NO_INDOM, .derive = unit_joules, .index = unit)

/* What a channel did since it last moved: the instance of its indom. */
struct motion {
    int inst;
    char name[PLAT_ENTRY_NAME_MAX];
    double joules;
    int based;                          /* its clusters' activity was known when it last moved */
    uint64_t active_ns, elapsed_ns;     /* that activity */
    int frozen;                         /* PM_ERR_AGAIN while it stands still as its clusters work
                                         * (no value, not a stale one), else 0 */
};

static const struct metric_row rows[] = {
    UNIT("cpu", 0, ENERGY_CPU), UNIT("gpu", 1, ENERGY_GPU), UNIT("ane", 2, ENERGY_ANE), UNIT("dram", 3, ENERGY_DRAM),
    E("channel", 4, INDOM_ENERGY_CHANNEL, FIELD_OF(struct motion, joules, frozen, FIELD_DOUBLE)),
};

struct energy_state {
    struct energy_channel *channels;
    struct motion *motion, *spare;      /* by channel, as channels[]; spare: the next refresh's */
    unsigned int cap, motion_cap, spare_cap, nmotion;
    struct energy energy;
    unsigned int frozen_units;          /* bit 1u << unit */
    int logged;                         /* a frozen channel was logged */
    unsigned int short_logged;          /* the units short of a channel, as last logged */
    unsigned long cluster_refreshes;    /* cluster 127's, at the last judgement */
    int energy_sts;
};

static const struct indom_def indom = {
    .serial = INDOM_ENERGY_CHANNEL,
    .label_name = "energy channel",
    .table = INSTANCES_AT(struct energy_state, motion, nmotion, struct motion, inst),
};

/*
 * Whether a channel is judged, and by whose work: the CPU and DRAM units
 * ("CPU Energy", an Ultra's "DIE_1_CPU Energy", "DRAM0") by every cluster
 * of their die, or of the chip; a cluster's total by that cluster: "ECPU",
 * "PCPU1", "DIE_0_MCPU0" as IOReport's "CPU Stats" names it, and the power
 * manager's "EACC_CPU", "PACC0_CPU", "PACC1_CPU" as the clusters "ECPU",
 * "PCPU", "PCPU1" (into cluster, NULL for the units). A core's own
 * accumulator is not judged: its core may be powered down while its
 * cluster works.
 */
static int
judged(const struct energy_channel *c, int *die, char *cluster, size_t len)
{
    const char *s;
    size_t at;
    int k = 0, digits = 0;

    *die = pstate_die(c->name, &s);
    cluster[0] = '\0';
    if (c->unit == ENERGY_CPU || c->unit == ENERGY_DRAM)
        return 1;
    if ((s[0] != 'E' && s[0] != 'P' && s[0] != 'M') ||
        (strncmp(s + 1, "CPU", 3) != 0 && strncmp(s + 1, "ACC", 3) != 0))
        return 0;
    for (at = 4; s[at] >= '0' && s[at] <= '9' && digits < 3; at++, digits++)
        k = k * 10 + (s[at] - '0');
    if (s[1] == 'C' ? s[at] != '\0' : strcmp(s + at, "_CPU") != 0)
        return 0;
    if (s[1] == 'C')
        entry_copy_text(cluster, len, c->name);
    else if (k > 0)
        snprintf(cluster, len, "%.*s%cCPU%d", (int)(s - c->name), c->name, s[0], k);
    else
        snprintf(cluster, len, "%.*s%cCPU", (int)(s - c->name), c->name, s[0]);
    return 1;
}

/* The motion record of channel i, found where it was last time, or
 * searched for (a channel that comes or goes shifts the others). */
static struct motion *
motion_of(const struct energy_state *s, unsigned int i, const struct motion *last, unsigned int nlast)
{
    if (i < nlast && strcmp(last[i].name, s->channels[i].name) == 0)
        return (struct motion *)&last[i];
    for (unsigned int k = 0; k < nlast; k++)
        if (strcmp(last[k].name, s->channels[i].name) == 0)
            return (struct motion *)&last[k];
    return NULL;
}

/* The record of channel i this refresh, from last refresh's (was): a
 * new baseline where it moved, was new, or its clusters' counts went back
 * (a cluster gone); the old one carried while their work is not known (no
 * cluster 127 this request); else still or frozen, by the work since. */
static void
judge_one(const struct energy_state *s, const struct pstate_set *clusters, unsigned int i,
          const struct motion *was, int fresh, struct motion *m)
{
    char cluster[PLAT_ENTRY_NAME_MAX];
    uint64_t active = 0, elapsed = 0;
    int die, judge = judged(&s->channels[i], &die, cluster, sizeof(cluster));
    int known = judge && fresh &&
                pstate_cluster_activity(clusters, die, cluster[0] ? cluster : NULL, &active, &elapsed) == 0;

    if (was != NULL && was->joules == s->channels[i].joules && judge && !known) {
        *m = *was;
        return;
    }
    memcpy(m->name, s->channels[i].name, sizeof(m->name));
    m->joules = s->channels[i].joules;
    m->frozen = 0;
    if (was == NULL || was->joules != s->channels[i].joules || !judge || !was->based || active < was->active_ns ||
        elapsed < was->elapsed_ns) {
        m->based = known;
        m->active_ns = active;
        m->elapsed_ns = elapsed;
        return;
    }
    m->based = 1;
    m->active_ns = was->active_ns;
    m->elapsed_ns = was->elapsed_ns;
    if (elapsed - was->elapsed_ns >= FROZEN_SPAN_NS && active - was->active_ns >= FROZEN_ACTIVE_NS)
        m->frozen = PM_ERR_AGAIN;
}

/* Whether each judged channel stands still while its clusters work. */
static int
judge(struct energy_state *s, const struct pstate_set *clusters)
{
    unsigned long refreshes = pstate_cluster_refreshes(clusters);
    int fresh = refreshes != s->cluster_refreshes;
    struct motion *next, *swap;
    unsigned int swap_cap;

    s->cluster_refreshes = refreshes;
    if (s->energy.n > 0 && array_grow((void **)&s->spare, &s->spare_cap, s->energy.n - 1, sizeof(*s->spare)) < 0)
        return -ENOMEM;
    next = s->spare;
    s->frozen_units = 0;
    for (unsigned int i = 0; i < s->energy.n; i++) {
        judge_one(s, clusters, i, motion_of(s, i, s->motion, s->nmotion), fresh, &next[i]);
        if (next[i].frozen && s->channels[i].unit != ENERGY_NUNITS)
            s->frozen_units |= 1u << s->channels[i].unit;
    }
    swap = s->motion;
    swap_cap = s->motion_cap;
    s->motion = next;
    s->motion_cap = s->spare_cap;
    s->spare = swap;
    s->spare_cap = swap_cap;
    s->nmotion = s->energy.n;
    return 0;
}

/* Said once when a channel first stands still, once when all move again. */
static void
note_frozen(struct energy_state *s)
{
    unsigned int i = 0;

    while (i < s->nmotion && !s->motion[i].frozen)
        i++;
    if ((i < s->nmotion) == s->logged)
        return;
    s->logged = i < s->nmotion;
    if (s->logged)
        pmNotifyErr(LOG_WARNING, "darwin: energy: \"%s\" stands still while the CPU clusters are active: "
                    "unavailable, not 0 W, with any other channel that does (macOS 27 stops these counters "
                    "for programs other than powermetrics)", s->motion[i].name);
    else
        pmNotifyErr(LOG_INFO, "darwin: energy: every channel moves again");
}

static int
energy_refresh(void *state, struct refresh_call *call)
{
    struct energy_state *s = state;
    const struct platform *p = call->p;
    pmInDom id = call->indom;
    struct plat_entry_set set;
    int sts;

    s->energy.n = 0;
    s->energy.have = s->energy.short_of = 0;
    names_begin(id);
    if ((s->energy_sts = p->query(p->ctx, &plat_queries[PLAT_QUERY_ENERGY], &set)) < 0) {
        s->nmotion = 0;                 /* whether a channel moved meanwhile is not known */
        return s->energy_sts == -ENOENT ? 0 : collector_error(s->energy_sts);
    }
    if (set.n > 0 && (sts = array_grow((void **)&s->channels, &s->cap, set.n - 1, sizeof(*s->channels))) < 0)
        return sts;
    energy_decode(&set, &s->energy, s->channels, set.n);
    collector_note_parts(call, NULL, s->energy.short_of, &s->short_logged, p->error(p->ctx));
    if ((sts = judge(s, call->depends[0])) < 0)
        return sts;
    note_frozen(s);
    for (unsigned int i = 0; i < s->energy.n; i++) {
        char name[PLAT_ENTRY_NAME_MAX];

        collector_instance_name(s->channels[i].name, name, sizeof(name));
        if ((s->motion[i].inst = names_add(id, name)) < 0)
            return s->motion[i].inst;
    }
    return 0;
}

/* A unit's sum (row->index: its enum energy_unit). */
static int
unit_joules(const void *state, const void *entry, const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    const struct energy_state *s = state;
    unsigned int bit = 1u << row->index;

    (void)entry;
    (void)inst;
    if (s->energy_sts < 0)
        return collector_error(s->energy_sts); /* no IOReport: not supported */
    if (s->energy.short_of & bit)
        return PM_ERR_AGAIN;                    /* a channel of it has no value this round */
    if (!(s->energy.have & bit))
        return PM_ERR_APPVERSION;               /* this machine reports no such channel */
    if (s->frozen_units & bit)
        return PM_ERR_AGAIN;
    atom->d = s->energy.unit[row->index];
    return PMDA_FETCH_STATIC;
}

int
energy_cpu_counted(const struct energy_state *s)
{
    unsigned int bit = 1u << ENERGY_CPU;

    if (s->energy_sts == -ENOENT || (s->energy_sts == 0 && !(s->energy.have & bit) && !(s->energy.short_of & bit)))
        return 0;
    if (s->energy_sts < 0 || (s->energy.short_of & bit))
        return -1;
    return !(s->frozen_units & bit);
}

static void
energy_teardown(void *state)
{
    struct energy_state *s = state;

    free(s->channels);
    free(s->motion);
    free(s->spare);
}

const struct collector energy_collector = {
    .name = "energy",
    .ndepends = 1,
    .depends = { &cpucluster_collector },
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .indom = &indom,
    .state_size = sizeof(struct energy_state),
    .refresh = energy_refresh,
    .teardown = energy_teardown,
};
