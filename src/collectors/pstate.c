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
};

struct family {
    const char *name;
    enum plat_reg_query_id query;
    enum pstate_role role;
    int sts;
    unsigned long refreshes;
    struct pstate_value *value;
    unsigned int n, cap;
    char unmatched[PLAT_REG_NAME_MAX];  /* the channel last logged without a table */
    unsigned int logged;            /* collector_note_parts' */
};

static struct family clusters = { "CPU clusters", PLAT_REGQ_CPU_CLUSTERS, PSTATE_CLUSTER, PM_ERR_AGAIN };
static struct family cores = { "CPU cores", PLAT_REGQ_CPU_CORES, PSTATE_CORE, PM_ERR_AGAIN };
static struct family gpu = { "GPU", PLAT_REGQ_GPU_STATES, PSTATE_GPU, PM_ERR_AGAIN };

static struct {
    int read;                       /* read, or known absent */
    int sts;
    struct dvfs dvfs;
    int gpu_sts;
    struct dvfs_table gpu;
} tables;

/* The pmgr's tables, once: they do not change while the machine runs. A
 * failure other than their absence (an Intel Mac) is tried again. */
static void
load_tables(const struct platform *p)
{
    struct plat_reg_set set;

    if (tables.read)
        return;
    if ((tables.sts = p->registry(p->ctx, &plat_reg_queries[PLAT_REGQ_PMGR], &set)) == 0)
        tables.sts = dvfs_decode(&set, &tables.dvfs);
    tables.gpu_sts = tables.sts == 0 ? dvfs_gpu_table(&tables.dvfs, &tables.gpu) : tables.sts;
    tables.read = tables.sts == 0 || tables.sts == -ENOENT;
}

static const struct dvfs_table *
table_of(const struct family *f, const struct pstate_channel *ch)
{
    if (f->role == PSTATE_GPU)
        return tables.gpu_sts == 0 ? &tables.gpu : NULL;
    return tables.sts == 0 ? dvfs_cpu_table(&tables.dvfs, ch->letter, ch->ordinal, ch->need ? ch->need : ch->nactive)
                           : NULL;
}

/* A channel no table fits (or one with a 0 clock where it has time) is
 * a table this agent chose wrongly or a chip it does not know: said once
 * per channel, so that a user's log names it. */
static void
note_unmatched(struct family *f, const struct pstate_channel *ch)
{
    if (tables.sts < 0 || strcmp(f->unmatched, ch->name) == 0)
        return;
    snprintf(f->unmatched, sizeof(f->unmatched), "%s", ch->name);
    pmNotifyErr(LOG_WARNING, "darwin: %s: no DVFS table fits %s (%u clock states%s): no cycles for it", f->name,
                ch->name, ch->need ? ch->need : ch->nactive, ch->need ? " by their names" : "");
}

static int
add_value(struct family *f, const struct pstate_channel *ch, pmInDom id)
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
    v->table = table_of(f, ch);
    v->cycles_sts = v->table == NULL ? -ENOENT : pstate_cycles(ch, v->table, &cycles);
    if (v->cycles_sts == 0)
        v->cycles = (uint64_t)cycles;
    else if (v->cycles_sts != -ENOTSUP)
        note_unmatched(f, ch);
    if (id != PM_INDOM_NULL && (v->inst = names_add(id, ch->name)) < 0)
        return v->inst;
    f->n++;
    return 0;
}

static int
family_refresh(struct family *f, const struct platform *p, pmInDom id)
{
    struct plat_reg_set set;
    int sts;

    f->n = 0;
    f->refreshes++;
    if (id != PM_INDOM_NULL)
        names_begin(id);
    load_tables(p);
    /* A failing source fails this family's values, not its refresh: the
     * energy family, which reads the clusters' activity, carries on. */
    f->sts = p->registry(p->ctx, &plat_reg_queries[f->query], &set);
    collector_note_parts(f->name, f->sts < 0 && f->sts != -ENOENT, &f->logged, p->error(p->ctx));
    if (f->sts < 0)
        return 0;
    for (unsigned int i = 0; i < set.n && (f->role != PSTATE_GPU || f->n == 0); i++) {
        struct pstate_channel ch;

        if (pstate_channel(&set.entry[i], f->role, &ch) == 0 && (sts = add_value(f, &ch, id)) < 0)
            return sts;
    }
    if (f->n == 0)
        f->sts = -ENOENT;           /* a group without such channels */
    return 0;
}

static const struct pstate_value *
value_of(const struct family *f, unsigned int inst, int indexed)
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
family_fetch(const struct family *f, const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
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
family_labels(const struct family *f, unsigned int inst, char *json, size_t len)
{
    const struct pstate_value *v = value_of(f, inst, 1);
    int level = v != NULL ? topology_type_level(v->letter) : -1;
    size_t at;

    if (level < 0)
        return -1;              /* level unknown: no label, nothing invented */
    topology_level_labels(level, json, len);
    if (v->die >= 0 && (at = strlen(json)) > 0)
        snprintf(json + at - 1, len - at + 1, ",\"die\":%d}", v->die);
    return 0;
}

static void
family_teardown(struct family *f, pmInDom id)
{
    if (id != PM_INDOM_NULL)
        names_forget(id);
    free(f->value);
    f->value = NULL;
    f->n = f->cap = 0;
    f->sts = PM_ERR_AGAIN;
    f->refreshes = 0;
    f->unmatched[0] = '\0';
    tables.read = 0;
}

unsigned long
pstate_cluster_refreshes(void)
{
    return clusters.refreshes;
}

int
pstate_cluster_activity(int die, const char *name, uint64_t *active_ns, uint64_t *elapsed_ns)
{
    unsigned int found = 0;

    *active_ns = *elapsed_ns = 0;
    if (clusters.sts < 0)
        return clusters.sts;
    for (unsigned int i = 0; i < clusters.n; i++) {
        const struct pstate_value *v = &clusters.value[i];
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

#define FAMILY_LABELS(var, f)                                                                                 \
    static int var##_labels(pmInDom id, unsigned int inst, char *json, size_t len)                            \
    {                                                                                                         \
        (void)id;                                                                                             \
        return family_labels(&f, inst, json, len);                                                            \
    }
#define FAMILY_COLLECTOR(var, f, rows_, indom_, labels, ...)                                                  \
    static int var##_refresh(const struct platform *p, pmInDom id, const char **reason)                      \
    {                                                                                                         \
        (void)reason;                                                                                         \
        return family_refresh(&f, p, id);                                                                     \
    }                                                                                                         \
    static int var##_fetch(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)                \
    {                                                                                                         \
        return family_fetch(&f, row, inst, atom);                                                             \
    }                                                                                                         \
    static void var##_teardown(pmInDom id) { family_teardown(&f, id); }                                       \
    const struct collector var##_collector = {                                                                \
        .name = #var, __VA_ARGS__, .rows = rows_, .nrows = sizeof(rows_) / sizeof(rows_[0]), .indom = indom_,  \
        .refresh = var##_refresh, .fetch = var##_fetch, .instance_labels = labels, .teardown = var##_teardown, \
    }

FAMILY_LABELS(cpucluster, clusters)
FAMILY_LABELS(cpucore, cores)
FAMILY_COLLECTOR(cpucluster, clusters, cluster_rows, &cluster_indom, cpucluster_labels, .ndepends = 1,
                 .depends = { &topology_collector });
FAMILY_COLLECTOR(cpucore, cores, core_rows, &core_indom, cpucore_labels, .ndepends = 1,
                 .depends = { &topology_collector });
FAMILY_COLLECTOR(gpu_pstate, gpu, gpu_rows, NULL, NULL, .ndepends = 0);
