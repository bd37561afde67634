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
 * The tables are read once. Each collector takes one IOReport sample of its
 * own subgroup per refresh, and only when one of its metrics is fetched.
 */
#include "collector.h"
#include "metric_ids.h"
#include "collectors.h"
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

enum { PSTATE_ACTIVE, PSTATE_IDLE, PSTATE_DOWN, NTIMES };   /* the times pstate_times() gives */

struct pstate_value {
    char name[PLAT_ENTRY_NAME_MAX];
    char letter;
    int ran;                        /* a CPM channel: the same work as its CPU channel */
    int die;
    int inst;
    int times_sts, cycles_sts;
    uint64_t time[NTIMES];          /* ns: active, idle, down */
    uint64_t cycles;
    int clocks_sts;                 /* of the clocks: -ENOENT without a table */
    uint32_t clock_min, clock_max;  /* MHz: its table's lowest and highest */
    int unmatched;                  /* no cycles: no table fits it (judged where the tables are read) */
    unsigned int states;            /* the table length its states need */
    int states_named;               /* by their names, not their count */
};

#define VALUE(member, status) FIELD_OF(struct pstate_value, member, status, FIELD_PLAIN)
#define TIME(name, cluster, item, indom, which) \
    { name, cluster, item, PM_TYPE_U64, indom, PM_SEM_COUNTER, UNITS_NSEC, VALUE(time[which], times_sts) }
#define CLOCK(name, cluster, item, indom, member) \
    { name, cluster, item, PM_TYPE_U32, indom, PM_SEM_DISCRETE, UNITS_MHZ, VALUE(member, clocks_sts) }
#define COUNTERS(prefix, cluster, indom)                                                                       \
    TIME(prefix ".active", cluster, 0, indom, PSTATE_ACTIVE), TIME(prefix ".idle", cluster, 1, indom, PSTATE_IDLE), \
    TIME(prefix ".down", cluster, 2, indom, PSTATE_DOWN),                                                      \
    { prefix ".cycles", cluster, 3, PM_TYPE_U64, indom, PM_SEM_COUNTER, UNITS_COUNT, VALUE(cycles, cycles_sts) }
#define CLOCKS(prefix, cluster, indom) \
    CLOCK(prefix ".clock.max", cluster, 4, indom, clock_max), CLOCK(prefix ".clock.min", cluster, 5, indom, clock_min)

/* The rows of the CPU clusters and cores read a value in the collector's
 * table; the GPU's, with no indom, read the GPU collector's state, whose first
 * member is its one value (struct gpu_pstate). */
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

/* What a performance-state collector read: its values. */
struct pstate_set {
    int sts;
    unsigned long refreshes;
    struct pstate_value *value;
    unsigned int n, cap;
    char (*unmatched)[PLAT_ENTRY_NAME_MAX];   /* the channels logged without a table */
    unsigned int nunmatched, unmatched_cap;
    unsigned int logged;                /* collector_note_parts' */
    const struct dvfs_tables *tables;   /* the dvfs collector's state */
    const struct topology_state *topology;  /* for the labels; NULL for the GPU */
};

/* The GPU collector's state: its one value first, as its rows read it. */
struct gpu_pstate {
    struct pstate_value value;
    struct pstate_set set;
};

/* Both indoms' instances are their collector's values. */
#define VALUES INSTANCES_AT(struct pstate_set, value, n, struct pstate_value, inst)
static const struct indom_def cluster_indom = { .serial = INDOM_CPU_CLUSTER, .label_name = "CPU cluster", .table = VALUES };
static const struct indom_def core_indom = { .serial = INDOM_CPU_CORE, .label_name = "CPU core", .table = VALUES };

/* What a performance-state collector reads. */
struct pstate_source {
    const char *name;
    enum plat_query_id query;
    enum pstate_role role;
};

/* The pmgr's DVFS tables: the state of a collector with no metrics of its
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
 * the cycles and clocks alone, not the collectors that read the tables. */
static int
dvfs_refresh(void *state, struct refresh_call *call)
{
    struct dvfs_tables *t = state;
    const struct platform *p = call->p;
    struct plat_entry_set set;

    if (t->read)
        return 0;
    if ((t->sts = p->query(p->ctx, &plat_queries[PLAT_QUERY_PMGR], &set)) == 0)
        t->sts = dvfs_decode(&set, &t->dvfs);
    t->gpu_sts = t->sts == 0 ? dvfs_gpu_table(&t->dvfs, &t->gpu) : t->sts;
    t->read = t->sts == 0 || t->sts == -ENOENT;
    return 0;
}

const struct collector dvfs_collector = {
    .name = "dvfs",
    .state_size = sizeof(struct dvfs_tables),
    .refresh = dvfs_refresh,
};

static const struct dvfs_table *
table_of(const struct pstate_source *def, const struct dvfs_tables *t, const struct pstate_channel *ch)
{
    if (!t->read)
        return NULL;                /* not read yet (an instance request), or failing */
    if (def->role == PSTATE_GPU)
        return t->gpu_sts == 0 ? &t->gpu : NULL;
    return t->sts == 0 ? dvfs_cpu_table(&t->dvfs, ch->letter, ch->ordinal, ch->need ? ch->need : ch->nactive) : NULL;
}

static const struct pstate_value *
value_named(const struct pstate_set *f, const char *name)
{
    for (unsigned int i = 0; i < f->n; i++)
        if (strcmp(f->value[i].name, name) == 0)
            return &f->value[i];
    return NULL;
}

static int
logged_unmatched(const struct pstate_set *f, const char *name)
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
note_unmatched(const struct pstate_source *def, struct pstate_set *f)
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

/* A table's lowest and highest clock. */
static void
clock_range(const struct dvfs_table *t, uint32_t *min_mhz, uint32_t *max_mhz)
{
    uint32_t low = t->khz[0], high = t->khz[0];

    for (unsigned int i = 1; i < t->n; i++) {
        if (t->khz[i] < low)
            low = t->khz[i];
        if (t->khz[i] > high)
            high = t->khz[i];
    }
    *min_mhz = low / 1000;
    *max_mhz = high / 1000;
}

static int
add_value(const struct pstate_source *def, struct pstate_set *f, const struct pstate_channel *ch, pmInDom id)
{
    struct pstate_value *v;
    const struct dvfs_table *table = table_of(def, f->tables, ch);
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
    v->times_sts = pstate_times(ch, &v->time[PSTATE_ACTIVE], &v->time[PSTATE_IDLE], &v->time[PSTATE_DOWN]);
    v->cycles_sts = table == NULL ? -ENOENT : pstate_cycles(ch, table, &cycles);
    if (v->cycles_sts == 0)
        v->cycles = (uint64_t)cycles;
    v->clocks_sts = table == NULL ? -ENOENT : 0;
    if (table != NULL)
        clock_range(table, &v->clock_min, &v->clock_max);
    v->unmatched = v->cycles_sts < 0 && v->cycles_sts != -ENOTSUP;
    v->states = ch->need ? ch->need : ch->nactive;
    v->states_named = ch->need != 0;
    if (id != PM_INDOM_NULL && (v->inst = names_add(id, ch->name)) < 0)
        return v->inst;
    f->n++;
    return 0;
}

static int
pstate_refresh(const struct pstate_source *def, struct pstate_set *f, const struct refresh_call *call)
{
    const struct platform *p = call->p;
    pmInDom id = call->indom;
    struct plat_entry_set set;
    int sts, short_of = 0;

    f->n = 0;
    f->refreshes++;
    f->tables = call->depends[0];
    f->topology = def->role == PSTATE_GPU ? NULL : call->depends[1];
    if (id != PM_INDOM_NULL)
        names_begin(id);
    /* A failing source fails this collector's values, not its refresh: the
     * energy collector, which reads the clusters' activity, carries on. */
    f->sts = p->query(p->ctx, &plat_queries[def->query], &set);
    if (f->sts < 0) {
        collector_note_parts(call, NULL, f->sts != -ENOENT, &f->logged, p->error(p->ctx));
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
    collector_note_parts(call, NULL, short_of, &f->logged, p->error(p->ctx));
    return short_of ? 0 : note_unmatched(def, f);  /* judged on rounds with every channel */
}

/* A cluster's or core's level, as its CPUs carry it, and its die on an Ultra. */
static int
pstate_labels(const void *state, pmInDom id, unsigned int inst, char *json, size_t len)
{
    const struct pstate_set *f = state;
    const struct pstate_value *v = collector_entry(pmInDom_serial(id) == INDOM_CPU_CORE ? &core_indom : &cluster_indom,
                                                   f, inst);
    int level = v != NULL && f->topology != NULL ? topology_type_level(f->topology, v->letter) : -1;
    size_t at;

    if (level < 0)
        return -1;              /* level unknown: no label, nothing invented */
    topology_level_labels(f->topology, level, json, len);
    if (v->die >= 0 && (at = strlen(json)) > 0)
        snprintf(json + at - 1, len - at + 1, ",\"die\":%d}", v->die);
    return 0;
}

static void
pstate_teardown(void *state)
{
    struct pstate_set *f = state;

    free(f->value);
    free(f->unmatched);
}

unsigned long
pstate_cluster_refreshes(const struct pstate_set *clusters)
{
    return clusters->refreshes;
}

int
pstate_cluster_activity(const struct pstate_set *clusters, int die, const char *name, uint64_t *active_ns,
                        uint64_t *elapsed_ns)
{
    unsigned int found = 0;

    *active_ns = *elapsed_ns = 0;
    if (clusters->sts < 0)
        return clusters->sts;
    for (unsigned int i = 0; i < clusters->n; i++) {
        const struct pstate_value *v = &clusters->value[i];
        uint64_t all = v->time[PSTATE_ACTIVE] + v->time[PSTATE_IDLE] + v->time[PSTATE_DOWN];

        if (v->ran || (name != NULL ? strcmp(v->name, name) != 0 : die >= 0 && v->die != die))
            continue;
        if (v->times_sts < 0)
            return v->times_sts;
        found++;
        *active_ns += v->time[PSTATE_ACTIVE];
        if (all > *elapsed_ns)
            *elapsed_ns = all;
    }
    return found > 0 ? 0 : -ENOENT;
}

static const struct pstate_source cpucluster = { "CPU clusters", PLAT_QUERY_CPU_CLUSTERS, PSTATE_CLUSTER };
static const struct pstate_source cpucore = { "CPU cores", PLAT_QUERY_CPU_CORES, PSTATE_CORE };
static const struct pstate_source gpu = { "GPU", PLAT_QUERY_GPU_STATES, PSTATE_GPU };

static int
cpucluster_refresh(void *state, struct refresh_call *call)
{
    return pstate_refresh(&cpucluster, state, call);
}

static int
cpucore_refresh(void *state, struct refresh_call *call)
{
    return pstate_refresh(&cpucore, state, call);
}

/* The GPU's one value, or the collector's failure as the status of each. */
static int
gpu_pstate_refresh(void *state, struct refresh_call *call)
{
    struct gpu_pstate *g = state;
    int sts = pstate_refresh(&gpu, &g->set, call);

    memset(&g->value, 0, sizeof(g->value));
    if (sts < 0)
        return sts;
    if (g->set.sts < 0)
        g->value.times_sts = g->value.cycles_sts = g->value.clocks_sts = g->set.sts;
    else
        g->value = g->set.value[0];
    return 0;
}

static void
gpu_pstate_teardown(void *state)
{
    pstate_teardown(&((struct gpu_pstate *)state)->set);
}

const struct collector cpucluster_collector = {
    .name = "cpucluster",
    .ndepends = 2,
    .depends = { &dvfs_collector, &topology_collector },
    .rows = cluster_rows,
    .nrows = sizeof(cluster_rows) / sizeof(cluster_rows[0]),
    .indom = &cluster_indom,
    .state_size = sizeof(struct pstate_set),
    .refresh = cpucluster_refresh,
    .instance_labels = pstate_labels,
    .teardown = pstate_teardown,
};

const struct collector cpucore_collector = {
    .name = "cpucore",
    .ndepends = 2,
    .depends = { &dvfs_collector, &topology_collector },
    .rows = core_rows,
    .nrows = sizeof(core_rows) / sizeof(core_rows[0]),
    .indom = &core_indom,
    .state_size = sizeof(struct pstate_set),
    .refresh = cpucore_refresh,
    .instance_labels = pstate_labels,
    .teardown = pstate_teardown,
};

const struct collector gpu_pstate_collector = {
    .name = "gpu_pstate",
    .ndepends = 1,
    .depends = { &dvfs_collector },
    .rows = gpu_rows,
    .nrows = sizeof(gpu_rows) / sizeof(gpu_rows[0]),
    .state_size = sizeof(struct gpu_pstate),
    .refresh = gpu_pstate_refresh,
    .teardown = gpu_pstate_teardown,
};
