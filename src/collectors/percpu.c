/*
 * Cluster 8: per-processor CPU time (host_processor_info) and hinv.ncpu;
 * cluster 107: Linux's states and names that PCP's tools read per CPU
 * (cpu_linux.h), the CPU's number and whether it is online.
 *
 * Instances are kept by name (instance_names.h), so an id survives refreshes and a
 * processor going away and coming back. Per-processor state lives in this
 * file, one entry per processor present now, dropped when it goes away.
 */
#include "array_grow.h"
#include "collector.h"
#include "metric_ids.h"
#include "instance_names.h"
#include "collectors.h"
#include "metric_units.h"
#include "cpu_counters.h"
#include "cpu_linux.h"
#include "hinv.h"
#include "percpu.h"
#include "topology.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* cluster 107, after the CPU states and the interrupt count */
enum { ITEM_CPU_NUM = CPU_LINUX_INTR + 1, ITEM_ONLINE };

/* The presence bit of a CPU's number, as macOS lists it (cpuN) */
#define HAS_NUMBER 0

struct cpu_entry {
    int inst;
    int present;
    char name[PLAT_NAME_MAX];
    unsigned int has;                           /* bit HAS_NUMBER: the name gave number */
    uint32_t number;
    struct cpu_counters counters;
};

struct percpu_state {
    struct cpu_entry *cpus;
    unsigned int ncpus, cpus_cap;
    /* hw.activecpu, read only for a request of hinv.cpu.online: its status
     * (-EAGAIN when it was not read) and value */
    int want_online;
    int active_sts;
    uint64_t active;
    struct tick_rate rate;                      /* hinv's, at the last refresh */
    const struct topology_state *topology;      /* for the CPUs' labels */
};

static row_derive time_msec;
static row_derive online;

#define TIME(name, item, state) { "kernel.percpu.cpu." name, CLUSTER_PERCPU, item, PM_TYPE_U64, INDOM_CPU, \
                                  PM_SEM_COUNTER, UNITS_MSEC, .derive = time_msec, .index = state }

static const struct metric_row rows[] = {
    { "hinv.ncpu", CLUSTER_PERCPU, 71, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_DISCRETE, UNITS_NONE,
      FIELD_ALWAYS(struct percpu_state, ncpus, FIELD_PLAIN) },
    TIME("user", 72, CPU_USER),
    TIME("nice", 73, CPU_NICE),
    TIME("sys", 74, CPU_SYS),
    TIME("idle", 75, CPU_IDLE),
    CPU_LINUX_ROWS("kernel.percpu.cpu.", CLUSTER_PERCPU_LINUX, INDOM_CPU, time_msec),
    /* XNU offers no count of interrupts */
    { "kernel.percpu.intr", CLUSTER_PERCPU_LINUX, CPU_LINUX_INTR, PM_TYPE_U64, INDOM_CPU, PM_SEM_COUNTER, UNITS_COUNT,
      .derive = collector_no_source },
    { "hinv.map.cpu_num", CLUSTER_PERCPU_LINUX, ITEM_CPU_NUM, PM_TYPE_U32, INDOM_CPU, PM_SEM_DISCRETE, UNITS_NONE,
      FIELD_PRESENT(struct cpu_entry, number, has, HAS_NUMBER, FIELD_PLAIN) },
    { "hinv.cpu.online", CLUSTER_PERCPU_LINUX, ITEM_ONLINE, PM_TYPE_U32, INDOM_CPU, PM_SEM_INSTANT, UNITS_NONE,
      .derive = online },
};

static const struct indom_def indom = {
    .serial = INDOM_CPU,
    .label_name = "per cpu",
    .table = INSTANCES_AT(struct percpu_state, cpus, ncpus, struct cpu_entry, inst),
};

static struct cpu_entry *
entry_by_name(const struct percpu_state *s, const char *name)
{
    for (unsigned int i = 0; i < s->ncpus; i++)
        if (strcmp(s->cpus[i].name, name) == 0)
            return &s->cpus[i];
    return NULL;
}

static struct cpu_entry *
entry_add(struct percpu_state *s, const char *name)
{
    struct cpu_entry *e;

    if (array_grow((void **)&s->cpus, &s->cpus_cap, s->ncpus, sizeof(*s->cpus)) < 0)
        return NULL;
    e = &s->cpus[s->ncpus++];
    memset(e, 0, sizeof(*e));
    snprintf(e->name, sizeof(e->name), "%s", name);
    e->has = (unsigned int)(sscanf(name, "cpu%" SCNu32, &e->number) == 1) << HAS_NUMBER;
    return e;
}

/* Keep only the processors seen in this refresh; their order is kept. */
static void
drop_absent(struct percpu_state *s)
{
    unsigned int kept = 0;

    for (unsigned int i = 0; i < s->ncpus; i++)
        if (s->cpus[i].present)
            s->cpus[kept++] = s->cpus[i];
    s->ncpus = kept;
}

static int
percpu_refresh(void *state, struct refresh_call *call)
{
    struct percpu_state *s = state;
    const struct platform *p = call->p;
    pmInDom id = call->indom;
    struct plat_cpu_set set;
    int sts;

    s->rate.status = hinv_clock_hz(call->depends[0], &s->rate.hz);
    s->topology = call->depends[1];
    if ((sts = p->cpus(p->ctx, &set)) < 0)
        return collector_error(sts);
    s->active_sts = -EAGAIN;
    if (s->want_online) {
        struct plat_sysctl_set counts;

        if ((s->active_sts = p->sysctls(p->ctx, PLAT_SYSCTL_CPU_COUNTS, &counts)) == 0) {
            s->active_sts = counts.status[PLAT_CPU_ACTIVE];
            s->active = counts.value[PLAT_CPU_ACTIVE];
        }
        s->want_online = 0;
    }
    names_begin(id);
    for (unsigned int i = 0; i < s->ncpus; i++)
        s->cpus[i].present = 0;
    for (unsigned int i = 0; i < set.ncpu; i++) {
        const struct plat_cpu *cpu = &set.cpu[i];
        struct cpu_entry *e = entry_by_name(s, cpu->name);

        if (e == NULL && (e = entry_add(s, cpu->name)) == NULL)
            return -ENOMEM;
        if ((sts = names_add(id, cpu->name)) < 0)
            return sts;
        e->inst = sts;
        e->present = 1;
        cpu_counters_update(&e->counters, &cpu->ticks);
    }
    drop_absent(s);
    return 0;
}

/* The CPU time a row names of one CPU, at hinv's clock rate. */
static int
time_msec(const void *state, const void *entry, const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    (void)inst;
    return cpu_time_msec(&((const struct cpu_entry *)entry)->counters, row, &((const struct percpu_state *)state)->rate,
                         atom);
}

/* Every CPU is online when as many are available as are listed; when fewer
 * are, macOS does not say which: no value. */
static int
online(const void *state, const void *entry, const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    const struct percpu_state *s = state;

    (void)entry;
    (void)row;
    (void)inst;
    if (s->active_sts < 0)
        return collector_error(s->active_sts);
    if (s->active != s->ncpus)
        return PMDA_FETCH_NOVALUES;
    atom->ul = 1;
    return PMDA_FETCH_STATIC;
}

static void
percpu_want(void *state, const struct metric_row *row)
{
    struct percpu_state *s = state;

    s->want_online |= row->derive == online;
}

static int
percpu_labels(const void *state, pmInDom id, unsigned int inst, char *json, size_t len)
{
    const struct percpu_state *s = state;
    const struct cpu_entry *e = collector_entry(&indom, s, inst);
    int level;

    (void)id;
    if (e == NULL || s->topology == NULL || topology_cpu_level(s->topology, e->name, &level) < 0)
        return -1;           /* level unknown: no label, nothing invented */
    topology_level_labels(s->topology, level, json, len);
    return 0;
}

int
percpu_at(const struct percpu_state *s, unsigned int i, struct percpu_view *out)
{
    if (i >= s->ncpus)
        return -1;
    out->name = s->cpus[i].name;
    out->counters = &s->cpus[i].counters;
    return 0;
}

static void
percpu_teardown(void *state)
{
    free(((struct percpu_state *)state)->cpus);
}

const struct collector percpu_collector = {
    .name = "percpu",
    .ndepends = 2,
    .depends = { &hinv_collector, &topology_collector },   /* the topology gives the labels */
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .indom = &indom,
    .state_size = sizeof(struct percpu_state),
    .refresh = percpu_refresh,
    .want = percpu_want,
    .instance_labels = percpu_labels,
    .teardown = percpu_teardown,
};
