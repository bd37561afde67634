/*
 * Cluster 104: CPU time summed per performance level (P and E cores), from
 * the per-CPU counters of cluster 8 and the CPU-to-level map of cluster 103.
 *
 * Each level's counter grows by what its CPUs accrued since this cluster's
 * previous refresh, so it never goes backwards when a CPU goes away. It
 * starts at the since-boot total of the CPUs present at the first refresh;
 * a CPU seen later adds from then on. CPUs whose level is unknown are in no
 * level.
 */
#include "array_grow.h"
#include "collector.h"
#include "cpu_ticks.h"
#include "hinv.h"
#include "percpu.h"
#include "topology.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MSEC PMDA_PMUNITS(0, 1, 0, 0, PM_TIME_MSEC, 0)
#define ROW(name, state) { name, state, PM_TYPE_U64, PERFLEVEL_INDOM, PM_SEM_COUNTER, MSEC }

/* Items follow enum cpu_state_index. */
static const struct metric_row rows[] = {
    ROW("kernel.perflevel.cpu.user", CPU_USER),
    ROW("kernel.perflevel.cpu.nice", CPU_NICE),
    ROW("kernel.perflevel.cpu.sys", CPU_SYS),
    ROW("kernel.perflevel.cpu.idle", CPU_IDLE),
};

/* The ticks of a CPU at this cluster's last refresh. */
struct seen_cpu {
    char name[PLAT_NAME_MAX];
    uint64_t ticks[CPU_NSTATES];
    int present;
};

static uint64_t level_ticks[PLAT_MAX_PERFLEVELS][CPU_NSTATES];
static struct seen_cpu *seen;
static unsigned int nseen, seen_cap;
static int primed;

static struct seen_cpu *
seen_cpu(const char *name, int *is_new)
{
    for (unsigned int i = 0; i < nseen; i++)
        if (strcmp(seen[i].name, name) == 0) {
            *is_new = 0;
            return &seen[i];
        }
    if (array_grow((void **)&seen, &seen_cap, nseen, sizeof(*seen)) < 0)
        return NULL;
    memset(&seen[nseen], 0, sizeof(seen[nseen]));
    snprintf(seen[nseen].name, sizeof(seen[nseen].name), "%s", name);
    *is_new = 1;
    return &seen[nseen++];
}

static int
perflevel_cpu_refresh(const struct platform *p, pmInDom indom)
{
    struct percpu_view cpu;
    unsigned int kept = 0;

    (void)p;
    (void)indom;
    for (unsigned int i = 0; i < nseen; i++)
        seen[i].present = 0;
    for (unsigned int i = 0; percpu_at(i, &cpu) == 0; i++) {
        int is_new, level = -1;
        const char *word;
        struct seen_cpu *s = seen_cpu(cpu.name, &is_new);

        if (s == NULL)
            return -ENOMEM;
        if (topology_cpu_level(cpu.name, &level, &word) < 0)
            level = -1;
        for (int state = 0; state < CPU_NSTATES; state++) {
            uint64_t now = cpu.counters->state[state].total;

            if (level >= 0 && (!is_new || !primed))
                level_ticks[level][state] += now - s->ticks[state];
            s->ticks[state] = now;
        }
        s->present = 1;
    }
    for (unsigned int i = 0; i < nseen; i++)
        if (seen[i].present)
            seen[kept++] = seen[i];
    nseen = kept;
    primed = 1;
    return 0;
}

static int
perflevel_cpu_fetch(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    const struct plat_host *host = hinv_host_facts();
    int level = topology_level_of_inst(inst);

    if (host == NULL)
        return PM_ERR_AGAIN;
    if (level < 0)
        return PM_ERR_INST;
    atom->ull = ticks_to_msec(level_ticks[level][row->item], host->clock_hz);
    return PMDA_FETCH_STATIC;
}

static void
perflevel_cpu_teardown(pmInDom indom)
{
    (void)indom;
    free(seen);
    seen = NULL;
    nseen = seen_cap = 0;
    primed = 0;
    memset(level_ticks, 0, sizeof(level_ticks));
}

const struct collector perflevel_cpu_collector = {
    .name = "perflevel_cpu",
    .cluster = 104,
    .ndepends = 3,
    .depends = { HINV_CLUSTER, PERCPU_CLUSTER, TOPOLOGY_CLUSTER },
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .refresh = perflevel_cpu_refresh,
    .fetch = perflevel_cpu_fetch,
    .teardown = perflevel_cpu_teardown,
};
