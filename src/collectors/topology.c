/*
 * Cluster 103: the processor topology (brand, CPU counts, performance
 * levels and which CPU is in which). It does not change while the machine
 * runs, so it is read once, on the first request that needs it.
 *
 * The refresh itself never fails: a failing part fails its own metrics,
 * and the clusters that depend on this one (per-CPU labels, CPU time per
 * level) carry on with levels unknown.
 */
#include "collector.h"
#include "metric_ids.h"
#include "instance_names.h"
#include "metric_units.h"
#include "cpu_topology.h"
#include "topology.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct topology_state {
    int status;                     /* of the whole read, when it failed */
    int loaded;
    struct plat_topology t;         /* t.cluster is not kept: see cpu_level */
    char word[PLAT_MAX_PERFLEVELS][PLAT_NAME_MAX];  /* instance names */
    int inst[PLAT_MAX_PERFLEVELS];
    signed char *cpu_level;         /* by logical CPU number */
    signed char type_level['Z' - 'A' + 1];  /* by cluster type letter, -1 when no CPU has it */
    unsigned int ncpu_level;
    int levels_known;               /* every CPU's level is known (cpu_levels_of_clusters) */
    unsigned int logged;
};

enum {
    ITEM_LEVEL_NAME = 10,
    ITEM_LEVEL_FIELD = 11       /* 11..18 follow the PLAT_PL_* fields */
};

#define ROW(name, item, type, field) \
    { name, CLUSTER_TOPOLOGY, item, type, COLLECTOR_NO_INDOM, PM_SEM_DISCRETE, UNITS_NONE, field }
#define COUNT(which) FIELD_OF(struct topology_state, t.counts.value[which], t.counts.status[which], FIELD_PLAIN)
#define LEVEL_ROW(name, field, type, units) \
    { name, CLUSTER_TOPOLOGY, ITEM_LEVEL_FIELD + (field), type, INDOM_PERFLEVEL, PM_SEM_DISCRETE, units }

static const struct metric_row rows[] = {
    ROW("hinv.cpu.brand", 0, PM_TYPE_STRING, FIELD_TEXT_OF(struct topology_state, t.brand, t.brand_status)),
    ROW("hinv.cpu.physical", 1, PM_TYPE_U32, COUNT(PLAT_CPU_PHYSICAL)),
    ROW("hinv.cpu.logical", 2, PM_TYPE_U32, COUNT(PLAT_CPU_LOGICAL)),
    ROW("hinv.cpu.nperflevels", 3, PM_TYPE_U32, COUNT(PLAT_CPU_NPERFLEVELS)),
    { "hinv.perflevel.name", CLUSTER_TOPOLOGY, ITEM_LEVEL_NAME, PM_TYPE_STRING, INDOM_PERFLEVEL, PM_SEM_DISCRETE, UNITS_NONE },
    LEVEL_ROW("hinv.perflevel.physical", PLAT_PL_PHYSICALCPU, PM_TYPE_U32, UNITS_NONE),
    LEVEL_ROW("hinv.perflevel.logical", PLAT_PL_LOGICALCPU, PM_TYPE_U32, UNITS_NONE),
    LEVEL_ROW("hinv.perflevel.l1icache", PLAT_PL_L1ICACHESIZE, PM_TYPE_U64, UNITS_BYTE),
    LEVEL_ROW("hinv.perflevel.l1dcache", PLAT_PL_L1DCACHESIZE, PM_TYPE_U64, UNITS_BYTE),
    LEVEL_ROW("hinv.perflevel.l2cache", PLAT_PL_L2CACHESIZE, PM_TYPE_U64, UNITS_BYTE),
    LEVEL_ROW("hinv.perflevel.cpus_per_l2", PLAT_PL_CPUSPERL2, PM_TYPE_U32, UNITS_NONE),
    LEVEL_ROW("hinv.perflevel.l3cache", PLAT_PL_L3CACHESIZE, PM_TYPE_U64, UNITS_BYTE),
    LEVEL_ROW("hinv.perflevel.cpus_per_l3", PLAT_PL_CPUSPERL3, PM_TYPE_U32, UNITS_NONE),
};

static const struct indom_def indom = {
    .serial = INDOM_PERFLEVEL,
    .label_name = "performance level",
};


int
topology_levels_known(const struct topology_state *topo)
{
    return topo->loaded && topo->levels_known;
}

/* The CPU number of a name "cpuN", or -1. */
static int
cpu_number(const char *cpu)
{
    char *end;
    long n;

    if (strncmp(cpu, "cpu", 3) != 0 || cpu[3] < '0' || cpu[3] > '9')
        return -1;
    n = strtol(cpu + 3, &end, 10);
    return *end == '\0' && n < PLAT_MAX_CPUS ? (int)n : -1;
}

int
topology_cpu_level(const struct topology_state *topo, const char *cpu, int *level)
{
    int n = cpu_number(cpu), l;

    if (!topo->loaded || topo->t.nlevels == 0)
        return -1;
    if (topo->t.nlevels == 1)
        l = 0;
    else if (n < 0 || (unsigned int)n >= topo->ncpu_level || (l = topo->cpu_level[n]) < 0)
        return -1;
    *level = l;
    return 0;
}

void
topology_level_labels(const struct topology_state *topo, int level, char *json, size_t len)
{
    snprintf(json, len, "{\"perflevel\":\"%s\",\"perflevel_index\":%d}", topo->word[level], level);
}

int
topology_type_level(const struct topology_state *topo, char type)
{
    if (!topo->loaded || !topo->levels_known || type < 'A' || type > 'Z')
        return -1;
    return topo->type_level[type - 'A'];
}

int
topology_level_of_inst(const struct topology_state *topo, unsigned int inst)
{
    for (unsigned int l = 0; topo->loaded && l < topo->t.nlevels; l++)
        if (topo->inst[l] == (int)inst)
            return (int)l;
    return -1;
}

/* Map every CPU's cluster type to its level once, by CPU number. */
static int
map_cpus(struct topology_state *topo, const struct plat_topology *t)
{
    int level[PLAT_MAX_CPUS];
    unsigned int n = t->clusters_status == 0 && t->nclusters < PLAT_MAX_CPUS ? t->nclusters : 0;

    topo->ncpu_level = 0;
    topo->levels_known = t->nlevels == 1;
    memset(topo->type_level, -1, sizeof(topo->type_level));
    for (unsigned int c = 0; c < n; c++) {
        int cpu = cpu_number(t->cluster[c].cpu);

        if (cpu >= 0 && (unsigned int)cpu + 1 > topo->ncpu_level)
            topo->ncpu_level = (unsigned int)cpu + 1;
    }
    free(topo->cpu_level);
    topo->cpu_level = NULL;
    if (topo->ncpu_level == 0)
        return 0;
    if ((topo->cpu_level = malloc(topo->ncpu_level)) == NULL)
        return -ENOMEM;
    memset(topo->cpu_level, -1, topo->ncpu_level);
    topo->levels_known = cpu_levels_of_clusters(t->cluster, n, t->level, t->nlevels, level) == 0;
    for (unsigned int c = 0; c < n; c++) {
        int cpu = cpu_number(t->cluster[c].cpu);
        char type = t->cluster[c].type[0];

        if (cpu >= 0)
            topo->cpu_level[cpu] = (signed char)level[c];
        if (type >= 'A' && type <= 'Z' && t->cluster[c].type[1] == '\0')
            topo->type_level[type - 'A'] = (signed char)level[c];
    }
    return 0;
}

/* Instance names: the level's name as a word, "perflevelN" when it has none or repeats one. */
static int
name_levels(struct topology_state *topo, pmInDom id)
{
    names_begin(id);
    for (unsigned int l = 0; l < topo->t.nlevels; l++) {
        char *word = topo->word[l];
        int sts;

        word[0] = '\0';
        if (topo->t.level[l].name_status == 0)
            cpu_level_word(topo->t.level[l].name, word, sizeof(topo->word[l]));
        for (unsigned int k = 0; k < l && word[0] != '\0'; k++)
            if (strcmp(topo->word[k], word) == 0)
                word[0] = '\0';
        if (word[0] == '\0')
            snprintf(word, sizeof(topo->word[l]), "perflevel%u", l);
        if ((sts = names_add(id, word)) < 0)
            return sts;
        topo->inst[l] = sts;
    }
    return 0;
}

/* A read that failed: the level rows have no instances, and the bound
 * rows give status. */
static void
unloaded(struct topology_state *topo, int status)
{
    topo->status = status;
    topo->t.brand_status = status;
    for (unsigned int i = 0; i < PLAT_SYSCTL_SET_MAX; i++)
        topo->t.counts.status[i] = status;
}

static int
topology_refresh(void *state, struct refresh_call *call)
{
    struct topology_state *topo = state;
    const struct platform *p = call->p;
    unsigned int failed = 0;
    int sts;

    if (topo->loaded)
        return 0;
    memset(&topo->t, 0, sizeof(topo->t));
    if ((sts = p->topology(p->ctx, &topo->t)) < 0) {
        unloaded(topo, collector_error(sts));
        collector_note_parts("topology", 1, &topo->logged, p->error(p->ctx));
        return 0;
    }
    if ((sts = map_cpus(topo, &topo->t)) < 0 || (sts = name_levels(topo, call->indom)) < 0) {
        unloaded(topo, sts);
        return 0;
    }
    topo->t.cluster = NULL;          /* the source's array; cpu_level holds what was needed */
    topo->status = 0;
    topo->loaded = 1;
    failed |= (topo->t.brand_status < 0) << 0;
    for (unsigned int i = 0; i < topo->t.counts.n; i++)
        failed |= (unsigned int)(topo->t.counts.status[i] < 0) << 1;
    /* With one level, no CPU needs its cluster type (Intel Macs have none). */
    failed |= !topo->levels_known << 2;
    collector_note_parts("topology", failed, &topo->logged,
                         failed == 1u << 2 && topo->t.clusters_status == 0
                             ? "the CPUs' cluster types do not tell their performance levels"
                             : p->error(p->ctx));
    return 0;
}

static int
fetch_level(const struct topology_state *topo, const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    int l = topology_level_of_inst(topo, inst);
    const struct plat_perflevel *level;
    unsigned int field;

    if (l < 0)
        return PM_ERR_INST;
    level = &topo->t.level[l];
    if (row->item == ITEM_LEVEL_NAME) {
        if (level->name_status < 0)
            return PMDA_FETCH_NOVALUES;     /* no value for this level alone */
        atom->cp = (char *)level->name;
        return PMDA_FETCH_STATIC;
    }
    field = row->item - ITEM_LEVEL_FIELD;
    if (level->status[field] < 0)
        return PMDA_FETCH_NOVALUES;  /* e.g. no L3 on Apple Silicon: this level has no value */
    if (row->type == PM_TYPE_U64)
        atom->ull = level->value[field];
    else
        atom->ul = (uint32_t)level->value[field];
    return PMDA_FETCH_STATIC;
}

static int
topology_fetch(const void *state, const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    const struct topology_state *topo = state;

    if (!topo->loaded)
        return topo->status < 0 ? topo->status : PM_ERR_AGAIN;
    if (row->field.kind != FIELD_NONE)
        return collector_field(row, topo, atom);
    return fetch_level(topo, row, inst, atom);
}

static int
topology_labels(const void *state, pmInDom id, unsigned int inst, char *json, size_t len)
{
    int l = topology_level_of_inst(state, inst);

    (void)id;
    if (l < 0)
        return -1;
    topology_level_labels(state, l, json, len);
    return 0;
}

static void
topology_teardown(void *state)
{
    free(((struct topology_state *)state)->cpu_level);
}

const struct collector topology_collector = {
    .name = "topology",
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .indom = &indom,
    .state_size = sizeof(struct topology_state),
    .refresh = topology_refresh,
    .fetch = topology_fetch,
    .instance_labels = topology_labels,
    .teardown = topology_teardown,
};
