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

/* bits of topology_level.has: PLAT_PL_* for a value, then the name */
#define HAS_NAME PLAT_PL_N

/* A performance level, as the instance of its indom. */
struct topology_level {
    int inst;
    unsigned int has;               /* the bit of each part of read that was read */
    struct plat_perflevel read;
    char word[PLAT_NAME_MAX];       /* its instance name */
};

struct topology_state {
    int status;                     /* of the whole read, when it failed */
    int loaded;
    struct plat_topology t;         /* t.cluster is not kept: see cpu_level */
    struct topology_level level[PLAT_MAX_PERFLEVELS];
    unsigned int nlevels;           /* the levels with an instance: none until loaded */
    signed char *cpu_level;         /* by logical CPU number */
    signed char type_level['Z' - 'A' + 1];  /* by cluster type letter, -1 when no CPU has it */
    unsigned int ncpu_level;
    int levels_known;               /* every CPU's level is known (cpu_levels_of_clusters) */
    unsigned int logged;
};

#define ROW(name, item, type, field) \
    { name, CLUSTER_TOPOLOGY, item, type, COLLECTOR_NO_INDOM, PM_SEM_DISCRETE, UNITS_NONE, field }
#define COUNT(which) FIELD_OF(struct topology_state, t.counts.value[which], t.counts.status[which], FIELD_PLAIN)
/* A level's part, no value where that level has none (e.g. no L3 on Apple Silicon) */
#define LEVEL_ROW(name, item, type, units, field) \
    { name, CLUSTER_TOPOLOGY, item, type, INDOM_PERFLEVEL, PM_SEM_DISCRETE, units, field }
#define LEVEL_PART(member, bit, kind) FIELD_PRESENT(struct topology_level, read.member, has, bit, kind)
#define LEVEL_VALUE(which) LEVEL_PART(value[which], which, FIELD_PLAIN)

static const struct metric_row rows[] = {
    ROW("hinv.cpu.brand", 0, PM_TYPE_STRING, FIELD_TEXT_OF(struct topology_state, t.brand, t.brand_status)),
    ROW("hinv.cpu.physical", 1, PM_TYPE_U32, COUNT(PLAT_CPU_PHYSICAL)),
    ROW("hinv.cpu.logical", 2, PM_TYPE_U32, COUNT(PLAT_CPU_LOGICAL)),
    ROW("hinv.cpu.nperflevels", 3, PM_TYPE_U32, COUNT(PLAT_CPU_NPERFLEVELS)),
    LEVEL_ROW("hinv.perflevel.name", 10, PM_TYPE_STRING, UNITS_NONE, LEVEL_PART(name, HAS_NAME, FIELD_TEXT)),
    LEVEL_ROW("hinv.perflevel.physical", 11, PM_TYPE_U32, UNITS_NONE, LEVEL_VALUE(PLAT_PL_PHYSICALCPU)),
    LEVEL_ROW("hinv.perflevel.logical", 12, PM_TYPE_U32, UNITS_NONE, LEVEL_VALUE(PLAT_PL_LOGICALCPU)),
    LEVEL_ROW("hinv.perflevel.l1icache", 13, PM_TYPE_U64, UNITS_BYTE, LEVEL_VALUE(PLAT_PL_L1ICACHESIZE)),
    LEVEL_ROW("hinv.perflevel.l1dcache", 14, PM_TYPE_U64, UNITS_BYTE, LEVEL_VALUE(PLAT_PL_L1DCACHESIZE)),
    LEVEL_ROW("hinv.perflevel.l2cache", 15, PM_TYPE_U64, UNITS_BYTE, LEVEL_VALUE(PLAT_PL_L2CACHESIZE)),
    LEVEL_ROW("hinv.perflevel.cpus_per_l2", 16, PM_TYPE_U32, UNITS_NONE, LEVEL_VALUE(PLAT_PL_CPUSPERL2)),
    LEVEL_ROW("hinv.perflevel.l3cache", 17, PM_TYPE_U64, UNITS_BYTE, LEVEL_VALUE(PLAT_PL_L3CACHESIZE)),
    LEVEL_ROW("hinv.perflevel.cpus_per_l3", 18, PM_TYPE_U32, UNITS_NONE, LEVEL_VALUE(PLAT_PL_CPUSPERL3)),
};

static const struct indom_def indom = {
    .serial = INDOM_PERFLEVEL,
    .label_name = "performance level",
    .table = INSTANCES_IN(struct topology_state, level, nlevels, struct topology_level, inst),
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
    snprintf(json, len, "{\"perflevel\":\"%s\",\"perflevel_index\":%d}", topo->level[level].word, level);
}

int
topology_type_level(const struct topology_state *topo, char type)
{
    if (!topo->loaded || !topo->levels_known || type < 'A' || type > 'Z')
        return -1;
    return topo->type_level[type - 'A'];
}

int
topology_level_index(const struct topology_state *topo, unsigned int inst)
{
    const struct topology_level *level = collector_entry(&indom, topo, inst);

    return level != NULL ? (int)(level - topo->level) : -1;
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

/* Each level as its instance: what was read of it, and its name as a
 * word, "perflevelN" when it has none or repeats one. */
static int
keep_levels(struct topology_state *topo, pmInDom id)
{
    names_begin(id);
    for (unsigned int l = 0; l < topo->t.nlevels; l++) {
        struct topology_level *level = &topo->level[l];
        char *word = level->word;
        int sts;

        level->read = topo->t.level[l];
        level->has = (unsigned int)(level->read.name_status >= 0) << HAS_NAME;
        for (unsigned int f = 0; f < PLAT_PL_N; f++)
            level->has |= (unsigned int)(level->read.status[f] >= 0) << f;
        word[0] = '\0';
        if (level->read.name_status == 0)
            cpu_level_word(level->read.name, word, sizeof(level->word));
        for (unsigned int k = 0; k < l && word[0] != '\0'; k++)
            if (strcmp(topo->level[k].word, word) == 0)
                word[0] = '\0';
        if (word[0] == '\0')
            snprintf(word, sizeof(level->word), "perflevel%u", l);
        if ((sts = names_add(id, word)) < 0)
            return sts;
        level->inst = sts;
    }
    return 0;
}

/* A read that failed: the level rows have no instances, and the bound
 * rows give status. */
static void
unloaded(struct topology_state *topo, int status)
{
    topo->status = status;
    topo->nlevels = 0;
    topo->t.brand_status = status;
    for (unsigned int i = 0; i < PLAT_SYSCTL_SET_MAX; i++)
        topo->t.counts.status[i] = status;
}

const char *
topology_brand(const struct topology_state *topo)
{
    return topo->loaded && topo->t.brand_status == 0 ? topo->t.brand : NULL;
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
        collector_note_parts(call, NULL, 1, &topo->logged, p->error(p->ctx));
        return 0;
    }
    if ((sts = map_cpus(topo, &topo->t)) < 0 || (sts = keep_levels(topo, call->indom)) < 0) {
        unloaded(topo, sts);
        return 0;
    }
    topo->t.cluster = NULL;          /* the source's array; cpu_level holds what was needed */
    topo->status = 0;
    topo->loaded = 1;
    topo->nlevels = topo->t.nlevels;
    failed |= (topo->t.brand_status < 0) << 0;
    for (unsigned int i = 0; i < topo->t.counts.n; i++)
        failed |= (unsigned int)(topo->t.counts.status[i] < 0) << 1;
    /* With one level, no CPU needs its cluster type (Intel Macs have none). */
    failed |= !topo->levels_known << 2;
    collector_note_parts(call, NULL, failed, &topo->logged,
                         failed == 1u << 2 && topo->t.clusters_status == 0
                             ? "the CPUs' cluster types do not tell their performance levels"
                             : p->error(p->ctx));
    return 0;
}

static int
topology_labels(const void *state, pmInDom id, unsigned int inst, char *json, size_t len)
{
    int l = topology_level_index(state, inst);

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
    .instance_labels = topology_labels,
    .teardown = topology_teardown,
};
