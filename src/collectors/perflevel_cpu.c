/*
 * Cluster 104: CPU time summed per performance level (P and E cores), from
 * the per-CPU counters of cluster 8 and the CPU-to-level map of cluster 103.
 *
 * Each level's counter grows by what its CPUs accrued since this cluster's
 * previous refresh (delta_sum.h), so it never goes backwards when a CPU goes
 * away. It starts at the since-boot total of the CPUs present at the first
 * refresh; a CPU seen later adds from then on. Where the CPUs' levels are
 * not known, no level has a value.
 */
#include "collector.h"
#include "metric_ids.h"
#include "collectors.h"
#include "metric_units.h"
#include "cpu_counters.h"
#include "delta_sum.h"
#include "hinv.h"
#include "percpu.h"
#include "topology.h"

#include <errno.h>

struct perflevel_cpu_state {
    uint64_t level_ticks[PLAT_MAX_PERFLEVELS][CPU_NSTATES];
    struct delta_sum seen;
    struct tick_rate rate;                      /* hinv's, at the last refresh */
    const struct topology_state *topology;      /* which CPU is in which level, and the levels' instances */
};

static row_derive level_msec;

/* The levels' indom is the topology's: a row's entry is this collector's state. */
#define ROW(name, item, state) { "kernel.perflevel.cpu." name, CLUSTER_PERFLEVEL_CPU, item, PM_TYPE_U64, \
                                 INDOM_PERFLEVEL, PM_SEM_COUNTER, UNITS_MSEC, .derive = level_msec, .index = state }

static const struct metric_row rows[] = {
    ROW("user", 0, CPU_USER),
    ROW("nice", 1, CPU_NICE),
    ROW("sys", 2, CPU_SYS),
    ROW("idle", 3, CPU_IDLE),
};

static int
perflevel_cpu_refresh(void *state, struct refresh_call *call)
{
    struct perflevel_cpu_state *s = state;
    const struct percpu_state *percpu = call->depends[1];
    struct percpu_view cpu;

    s->rate.status = hinv_clock_hz(call->depends[0], &s->rate.hz);
    s->topology = call->depends[2];
    if (!topology_levels_known(s->topology))
        return 0;       /* no sum starts before it can: the first adds the since-boot totals */
    delta_sum_begin(&s->seen);
    for (unsigned int i = 0; percpu_at(percpu, i, &cpu) == 0; i++) {
        uint64_t now[CPU_NSTATES], add[CPU_NSTATES];
        int level;

        for (int k = 0; k < CPU_NSTATES; k++)
            now[k] = cpu.counters->state[k].total;
        if (delta_sum_step(&s->seen, cpu.name, now, CPU_NSTATES, add) < 0)
            return -ENOMEM;
        if (topology_cpu_level(s->topology, cpu.name, &level) < 0)
            continue;
        for (int k = 0; k < CPU_NSTATES; k++)
            s->level_ticks[level][k] += add[k];
    }
    delta_sum_end(&s->seen);
    return 0;
}

/* The time a level's CPUs spent in the state row->index. */
static int
level_msec(const void *state, const void *entry, const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    const struct perflevel_cpu_state *s = state;
    int level = topology_level_index(s->topology, inst);

    (void)entry;
    if (s->rate.status < 0)
        return s->rate.status;
    if (level < 0)
        return PM_ERR_INST;
    if (!topology_levels_known(s->topology))
        return PMDA_FETCH_NOVALUES;     /* which CPU is in which level is not known: no sum is right */
    atom->ull = ticks_to_msec(s->level_ticks[level][row->index], s->rate.hz);
    return PMDA_FETCH_STATIC;
}

static void
perflevel_cpu_teardown(void *state)
{
    delta_sum_free(&((struct perflevel_cpu_state *)state)->seen);
}

const struct collector perflevel_cpu_collector = {
    .name = "perflevel_cpu",
    .ndepends = 3,
    .depends = { &hinv_collector, &percpu_collector, &topology_collector },
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .state_size = sizeof(struct perflevel_cpu_state),
    .refresh = perflevel_cpu_refresh,
    .teardown = perflevel_cpu_teardown,
};
