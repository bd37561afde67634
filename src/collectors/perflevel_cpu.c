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
#include "families.h"
#include "metric_units.h"
#include "cpu_counters.h"
#include "delta_sum.h"
#include "hinv.h"
#include "percpu.h"
#include "topology.h"

#include <errno.h>
#include <string.h>

#define ROW(name, state) { name, CLUSTER_PERFLEVEL_CPU, state, PM_TYPE_U64, INDOM_PERFLEVEL, PM_SEM_COUNTER, UNITS_MSEC }

/* Items follow enum cpu_state_index. */
static const struct metric_row rows[] = {
    ROW("kernel.perflevel.cpu.user", CPU_USER),
    ROW("kernel.perflevel.cpu.nice", CPU_NICE),
    ROW("kernel.perflevel.cpu.sys", CPU_SYS),
    ROW("kernel.perflevel.cpu.idle", CPU_IDLE),
};

static uint64_t level_ticks[PLAT_MAX_PERFLEVELS][CPU_NSTATES];
static struct delta_sum seen;

static int
perflevel_cpu_refresh(const struct platform *p, pmInDom indom, const char **reason)
{
    struct percpu_view cpu;

    (void)p;
    (void)reason;
    (void)indom;
    if (!topology_levels_known())
        return 0;       /* no sum starts before it can: the first adds the since-boot totals */
    delta_sum_begin(&seen);
    for (unsigned int i = 0; percpu_at(i, &cpu) == 0; i++) {
        uint64_t now[CPU_NSTATES], add[CPU_NSTATES];
        int level;

        for (int state = 0; state < CPU_NSTATES; state++)
            now[state] = cpu.counters->state[state].total;
        if (delta_sum_step(&seen, cpu.name, now, CPU_NSTATES, add) < 0)
            return -ENOMEM;
        if (topology_cpu_level(cpu.name, &level) < 0)
            continue;
        for (int state = 0; state < CPU_NSTATES; state++)
            level_ticks[level][state] += add[state];
    }
    delta_sum_end(&seen);
    return 0;
}

static int
perflevel_cpu_fetch(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    int level = topology_level_of_inst(inst);
    uint32_t hz;
    int sts;

    if ((sts = hinv_clock_hz(&hz)) < 0)
        return sts;
    if (level < 0)
        return PM_ERR_INST;
    if (!topology_levels_known())
        return PMDA_FETCH_NOVALUES;     /* which CPU is in which level is not known: no sum is right */
    atom->ull = ticks_to_msec(level_ticks[level][row->item], hz);
    return PMDA_FETCH_STATIC;
}

static void
perflevel_cpu_teardown(pmInDom indom)
{
    (void)indom;
    delta_sum_free(&seen);
    memset(level_ticks, 0, sizeof(level_ticks));
}

const struct collector perflevel_cpu_collector = {
    .name = "perflevel_cpu",
    .ndepends = 3,
    .depends = { &hinv_collector, &percpu_collector, &topology_collector },
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .refresh = perflevel_cpu_refresh,
    .fetch = perflevel_cpu_fetch,
    .teardown = perflevel_cpu_teardown,
};
