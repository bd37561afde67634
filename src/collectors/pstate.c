/*
 * Clusters 127, 128 and 129: Apple Silicon's performance states. For each
 * CPU cluster, each CPU core and the GPU: the time since boot IOReport
 * counted in its clock states (active), idle and powered down, and the
 * cycles that time makes at the clocks of the pmgr's DVFS tables
 * (pstate_decode.h); for clusters and the GPU, their lowest and highest
 * clock.
 *
 * All are counters. Over any interval a client picks, rate(cycles) /
 * rate(active) is the mean clock while active (what powermetrics prints
 * as "HW active frequency"), and rate(active) over the rate of all three
 * times is the active residency. The agent does not compute those between
 * two of its own fetches because pmcd serves many clients at once: pmie
 * every 10 s and pmlogger every 60 s would each get the interval of
 * whoever fetched last; a counter gives each its own interval, and an
 * archive can be replayed at any.
 *
 * The tables are read once. Each family takes one IOReport sample of its
 * own subgroup per refresh, and only when one of its metrics is fetched.
 */
#include "collector.h"
#include "metric_ids.h"
#include "families.h"
#include "instance_names.h"
#include "metric_units.h"
#include "pstate.h"
#include "pstate_decode.h"
#include "topology.h"
#include "array_grow.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ITEM_ACTIVE = 0, ITEM_IDLE, ITEM_DOWN, ITEM_CYCLES, ITEM_CLOCK_MAX, ITEM_CLOCK_MIN };
enum { NTIMES = ITEM_DOWN - ITEM_ACTIVE + 1 };

#define TIME(name, cluster, item, indom) { name, cluster, item, PM_TYPE_U64, indom, PM_SEM_COUNTER, UNITS_NSEC }
#define CYCLES(name, cluster, indom) { name, cluster, ITEM_CYCLES, PM_TYPE_U64, indom, PM_SEM_COUNTER, UNITS_COUNT }
#define CLOCK(name, cluster, item, indom) { name, cluster, item, PM_TYPE_U32, indom, PM_SEM_DISCRETE, UNITS_MHZ }
#define COUNTERS(prefix, cluster, indom)                                                                       \
    TIME(prefix ".active", cluster, ITEM_ACTIVE, indom), TIME(prefix ".idle", cluster, ITEM_IDLE, indom),      \
    TIME(prefix ".down", cluster, ITEM_DOWN, indom), CYCLES(prefix ".cycles", cluster, indom)
#define CLOCKS(prefix, cluster, indom)                                                                         \
    CLOCK(prefix ".clock.max", cluster, ITEM_CLOCK_MAX, indom), CLOCK(prefix ".clock.min", cluster, ITEM_CLOCK_MIN, indom)

static const struct metric_row cluster_rows[] = {
    COUNTERS("kernel.cpucluster", CLUSTER_CPU_CLUSTER, INDOM_CPU_CLUSTER),
    CLOCKS("kernel.cpucluster", CLUSTER_CPU_CLUSTER, INDOM_CPU_CLUSTER),
};
static const struct metric_row core_rows[] = {
    COUNTERS("kernel.cpucore", CLUSTER_CPU_CORE, INDOM_CPU_CORE),
};
static const struct metric_row gpu_rows[] = {
    COUNTERS("gpu.pstate", CLUSTER_GPU_PSTATE, COLLECTOR_NO_INDOM),
    CLOCKS("gpu.pstate", CLUSTER_GPU_PSTATE, COLLECTOR_NO_INDOM),
};

static const struct indom_def cluster_indom = { .serial = INDOM_CPU_CLUSTER, .label_name = "CPU cluster" };
static const struct indom_def core_indom = { .serial = INDOM_CPU_CORE, .label_name = "CPU core" };

struct pstate_value {
    char name[PLAT_REG_NAME_MAX];
    char letter;
    int ran;                        /* a CPM channel: the same work as its CPU channel */
    int die;
    int inst;
    int times_sts, cycles_sts;
    uint64_t time[NTIMES];          /* ns: active, idle, down */
    uint64_t cycles;
    const struct dvfs_table *table; /* NULL: none */
    int unmatched;                  /* no cycles: no table fits it (judged where the tables are read) */
    unsigned int states;            /* the table length its states need */
    int states_named;               /* by their names, not their count */
};

/* What a family is. */
struct family_def {
    const char *name;
    enum plat_reg_query_id query;
    enum pstate_role role;
};

/* What a family read: its state. */
struct pstate_family {
    int sts;
    unsigned long refreshes;
    struct pstate_value *value;
    unsigned int n, cap;
    char (*unmatched)[PLAT_REG_NAME_MAX];   /* the channels logged without a table */
    unsigned int nunmatched, unmatched_cap;
    unsigned int logged;                /* collector_note_parts' */
    const struct dvfs_tables *tables;   /* the dvfs family's state */
    const struct topology_state *topology;  /* for the labels; NULL for the GPU */
};

/* The pmgr's DVFS tables: the state of a family with no metrics of its
 * own, which the three above depend on, so that they are read once. */
struct dvfs_tables {
    int read;                       /* read, or known absent */
    int sts;
    struct dvfs dvfs;
    int gpu_sts;
    struct dvfs_table gpu;
};

/* The tables, once: they do not change while the machine runs. A failure
 * other than their absence (an Intel Mac) is tried again. A failure fails
 * the cycles and clocks alone, not the families that read the tables. */
static int
dvfs_refresh(void *state, struct refresh_call *call)
{
    struct dvfs_tables *t = state;
    const struct platform *p = call->p;
    struct plat_reg_set set;

    if (t->read)
        return 0;
    if ((t->sts = p->registry(p->ctx, &plat_reg_queries[PLAT_REGQ_PMGR], &set)) == 0)
        t->sts = dvfs_decode(&set, &t->dvfs);
    t->gpu_sts = t->sts == 0 ? dvfs_gpu_table(&t->dvfs, &t->gpu) : t->sts;
    t->read = t->sts == 0 || t->sts == -ENOENT;
    return 0;
}

const struct collector dvfs_collector = {
    .name = "DVFS tables",
    .state_size = sizeof(struct dvfs_tables),
    .refresh = dvfs_refresh,
};

static const struct dvfs_table *
table_of(const struct family_def *def, const struct dvfs_tables *t, const struct pstate_channel *ch)
{
    if (!t->read)
        return NULL;                /* not read yet (an instance request), or failing */
    if (def->role == PSTATE_GPU)
        return t->gpu_sts == 0 ? &t->gpu : NULL;
    return t->sts == 0 ? dvfs_cpu_table(&t->dvfs, ch->letter, ch->ordinal, ch->need ? ch->need : ch->nactive) : NULL;
}

static const struct pstate_value *
value_named(const struct pstate_family *f, const char *name)
{
    for (unsigned int i = 0; i < f->n; i++)
        if (strcmp(f->value[i].name, name) == 0)
            return &f->value[i];
    return NULL;
}

static int
logged_unmatched(const struct pstate_family *f, const char *name)
{
    for (unsigned int i = 0; i < f->nunmatched; i++)
        if (strcmp(f->unmatched[i], name) == 0)
            return 1;
    return 0;
}

/* A channel no table fits (or one with a 0 clock where it has time) is
 * a table this agent chose wrongly or a chip it does not know: said once
 * when it starts, so that a user's log names it, and once when it ends (a
 * table fits it, or the channel is gone), however many channels take turns
 * in a refresh. Judged only where the tables are read. */
static int
note_unmatched(const struct family_def *def, struct pstate_family *f)
{
    unsigned int kept = 0;
    int sts;

    if (!f->tables->read || f->tables->sts < 0)
        return 0;
    for (unsigned int i = 0; i < f->nunmatched; i++) {
        const char *name = f->unmatched[i];
        const struct pstate_value *v = value_named(f, name);

        if (v != NULL && v->unmatched)
            memmove(f->unmatched[kept++], name, sizeof(f->unmatched[0]));
        else if (v != NULL)
            pmNotifyErr(LOG_INFO, "darwin: %s: a DVFS table fits %s again: cycles for it", def->name, name);
        else
            pmNotifyErr(LOG_INFO, "darwin: %s: %s, which no DVFS table fitted, is gone", def->name, name);
    }
    f->nunmatched = kept;
    for (unsigned int i = 0; i < f->n; i++) {
        const struct pstate_value *v = &f->value[i];

        if (!v->unmatched || logged_unmatched(f, v->name))
            continue;
        if ((sts = array_grow((void **)&f->unmatched, &f->unmatched_cap, f->nunmatched, sizeof(f->unmatched[0]))) < 0)
            return sts;
        memcpy(f->unmatched[f->nunmatched++], v->name, sizeof(f->unmatched[0]));
        pmNotifyErr(LOG_WARNING, "darwin: %s: no DVFS table fits %s (%u clock states%s): no cycles for it", def->name,
                    v->name, v->states, v->states_named ? " by their names" : "");
    }
    return 0;
}

static int
add_value(const struct family_def *def, struct pstate_family *f, const struct pstate_channel *ch, pmInDom id)
{
    struct pstate_value *v;
    double cycles;
    int sts;

    if ((sts = array_grow((void **)&f->value, &f->cap, f->n, sizeof(*f->value))) < 0)
        return sts;
    v = &f->value[f->n];
    memset(v, 0, sizeof(*v));
    memcpy(v->name, ch->name, sizeof(v->name));
    v->letter = ch->letter;
    v->ran = ch->ran;
    v->die = ch->die;
    v->times_sts = pstate_times(ch, &v->time[0], &v->time[1], &v->time[2]);
    v->table = table_of(def, f->tables, ch);
    v->cycles_sts = v->table == NULL ? -ENOENT : pstate_cycles(ch, v->table, &cycles);
    if (v->cycles_sts == 0)
        v->cycles = (uint64_t)cycles;
    v->unmatched = v->cycles_sts < 0 && v->cycles_sts != -ENOTSUP;
    v->states = ch->need ? ch->need : ch->nactive;
    v->states_named = ch->need != 0;
    if (id != PM_INDOM_NULL && (v->inst = names_add(id, ch->name)) < 0)
        return v->inst;
    f->n++;
    return 0;
}

static int
family_refresh(const struct family_def *def, struct pstate_family *f, const struct refresh_call *call)
{
    const struct platform *p = call->p;
    pmInDom id = call->indom;
    struct plat_reg_set set;
    int sts, short_of = 0;

    f->n = 0;
    f->refreshes++;
    f->tables = call->depends[0];
    f->topology = def->role == PSTATE_GPU ? NULL : call->depends[1];
    if (id != PM_INDOM_NULL)
        names_begin(id);
    /* A failing source fails this family's values, not its refresh: the
     * energy family, which reads the clusters' activity, carries on. */
    f->sts = p->registry(p->ctx, &plat_reg_queries[def->query], &set);
    if (f->sts < 0) {
        collector_note_parts(def->name, f->sts != -ENOENT, &f->logged, p->error(p->ctx));
        return 0;
    }
    for (unsigned int i = 0; i < set.n && (def->role != PSTATE_GPU || f->n == 0); i++) {
        struct pstate_channel ch;

        if ((sts = pstate_channel(&set.entry[i], def->role, &ch)) == -ENODATA)
            short_of = 1;           /* no values this round: neither served nor 0 */
        else if (sts == 0 && (sts = add_value(def, f, &ch, id)) < 0)
            return sts;
    }
    if (f->n == 0)
        f->sts = short_of ? -ENODATA : -ENOENT;    /* ENOENT: a group without such channels */
    collector_note_parts(def->name, short_of, &f->logged, p->error(p->ctx));
    return short_of ? 0 : note_unmatched(def, f);  /* judged on rounds with every channel */
}

static const struct pstate_value *
value_of(const struct pstate_family *f, unsigned int inst, int indexed)
{
    for (unsigned int i = 0; i < f->n; i++)
        if (!indexed || (unsigned int)f->value[i].inst == inst)
            return &f->value[i];
    return NULL;
}

static uint32_t
clock_mhz(const struct dvfs_table *t, int top)
{
    uint32_t khz = t->khz[0];

    for (unsigned int i = 1; i < t->n; i++)
        if (top ? t->khz[i] > khz : t->khz[i] < khz)
            khz = t->khz[i];
    return khz / 1000;
}

static int
family_fetch(const void *state, const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    const struct pstate_family *f = state;
    const struct pstate_value *v;

    if (f->sts < 0)
        return collector_error(f->sts);
    if ((v = value_of(f, inst, row->indom != COLLECTOR_NO_INDOM)) == NULL)
        return PM_ERR_INST;
    switch (row->item) {
    case ITEM_CYCLES:
        if (v->cycles_sts < 0)
            return collector_error(v->cycles_sts);
        atom->ull = v->cycles;
        return PMDA_FETCH_STATIC;
    case ITEM_CLOCK_MAX:
    case ITEM_CLOCK_MIN:
        if (v->table == NULL)
            return PM_ERR_APPVERSION;
        atom->ul = clock_mhz(v->table, row->item == ITEM_CLOCK_MAX);
        return PMDA_FETCH_STATIC;
    }
    if (v->times_sts < 0)
        return collector_error(v->times_sts);
    atom->ull = v->time[row->item - ITEM_ACTIVE];
    return PMDA_FETCH_STATIC;
}

/* A cluster's or core's level, as its CPUs carry it, and its die on an Ultra. */
static int
family_labels(const void *state, pmInDom id, unsigned int inst, char *json, size_t len)
{
    const struct pstate_family *f = state;
    const struct pstate_value *v = value_of(f, inst, 1);
    int level = v != NULL && f->topology != NULL ? topology_type_level(f->topology, v->letter) : -1;
    size_t at;

    (void)id;
    if (level < 0)
        return -1;              /* level unknown: no label, nothing invented */
    topology_level_labels(f->topology, level, json, len);
    if (v->die >= 0 && (at = strlen(json)) > 0)
        snprintf(json + at - 1, len - at + 1, ",\"die\":%d}", v->die);
    return 0;
}

static void
family_teardown(void *state)
{
    struct pstate_family *f = state;

    free(f->value);
    free(f->unmatched);
}

unsigned long
pstate_cluster_refreshes(const struct pstate_family *clusters)
{
    return clusters->refreshes;
}

int
pstate_cluster_activity(const struct pstate_family *clusters, int die, const char *name, uint64_t *active_ns,
                        uint64_t *elapsed_ns)
{
    unsigned int found = 0;

    *active_ns = *elapsed_ns = 0;
    if (clusters->sts < 0)
        return clusters->sts;
    for (unsigned int i = 0; i < clusters->n; i++) {
        const struct pstate_value *v = &clusters->value[i];
        uint64_t all = v->time[0] + v->time[1] + v->time[2];

        if (v->ran || (name != NULL ? strcmp(v->name, name) != 0 : die >= 0 && v->die != die))
            continue;
        if (v->times_sts < 0)
            return v->times_sts;
        found++;
        *active_ns += v->time[0];
        if (all > *elapsed_ns)
            *elapsed_ns = all;
    }
    return found > 0 ? 0 : -ENOENT;
}

/* A family's collector: its refresh hands its description to family_refresh. */
#define FAMILY_COLLECTOR(var, def_name, query_, role_, rows_, indom_, labels, ...)                           \
    static int var##_refresh(void *state, struct refresh_call *call)                                         \
    {                                                                                                         \
        static const struct family_def def = { def_name, query_, role_ };                                    \
        return family_refresh(&def, state, call);                                                             \
    }                                                                                                         \
    const struct collector var##_collector = {                                                                \
        .name = #var, __VA_ARGS__, .rows = rows_, .nrows = sizeof(rows_) / sizeof(rows_[0]), .indom = indom_, \
        .state_size = sizeof(struct pstate_family), .refresh = var##_refresh, .fetch = family_fetch,         \
        .instance_labels = labels, .teardown = family_teardown,                                               \
    }

FAMILY_COLLECTOR(cpucluster, "CPU clusters", PLAT_REGQ_CPU_CLUSTERS, PSTATE_CLUSTER, cluster_rows, &cluster_indom,
                 family_labels, .ndepends = 2, .depends = { &dvfs_collector, &topology_collector });
FAMILY_COLLECTOR(cpucore, "CPU cores", PLAT_REGQ_CPU_CORES, PSTATE_CORE, core_rows, &core_indom, family_labels,
                 .ndepends = 2, .depends = { &dvfs_collector, &topology_collector });
FAMILY_COLLECTOR(gpu_pstate, "GPU", PLAT_REGQ_GPU_STATES, PSTATE_GPU, gpu_rows, NULL, NULL, .ndepends = 1,
                 .depends = { &dvfs_collector });
