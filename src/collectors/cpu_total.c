/*
 * Cluster 6: CPU time summed over all processors (HOST_CPU_LOAD_INFO); and
 * cluster 106, Linux's states and interrupt count that PCP's tools read
 * (cpu_linux.h).
 */
#include "collector.h"
#include "metric_ids.h"
#include "families.h"
#include "metric_units.h"
#include "cpu_counters.h"
#include "cpu_linux.h"
#include "hinv.h"

/* Items 42..45 follow enum cpu_state_index: user, nice, sys, idle. */
#define ITEM_FIRST 42

static const struct metric_row rows[] = {
    { "kernel.all.cpu.user", CLUSTER_CPU, ITEM_FIRST + CPU_USER, PM_TYPE_U64, COLLECTOR_NO_INDOM, PM_SEM_COUNTER, UNITS_MSEC },
    { "kernel.all.cpu.nice", CLUSTER_CPU, ITEM_FIRST + CPU_NICE, PM_TYPE_U64, COLLECTOR_NO_INDOM, PM_SEM_COUNTER, UNITS_MSEC },
    { "kernel.all.cpu.sys", CLUSTER_CPU, ITEM_FIRST + CPU_SYS, PM_TYPE_U64, COLLECTOR_NO_INDOM, PM_SEM_COUNTER, UNITS_MSEC },
    { "kernel.all.cpu.idle", CLUSTER_CPU, ITEM_FIRST + CPU_IDLE, PM_TYPE_U64, COLLECTOR_NO_INDOM, PM_SEM_COUNTER, UNITS_MSEC },
    CPU_LINUX_ROWS("kernel.all.cpu.", CLUSTER_CPU_LINUX, COLLECTOR_NO_INDOM),
    { "kernel.all.intr", CLUSTER_CPU_LINUX, CPU_LINUX_INTR, PM_TYPE_U64, COLLECTOR_NO_INDOM, PM_SEM_COUNTER,
      UNITS_COUNT },
};

struct cpu_total_state {
    struct cpu_counters total;
    struct tick_rate rate;          /* hinv's, at the last refresh */
    int held;                       /* this refresh read below the last: no value this round */
    unsigned int logged_held;       /* collector_note_parts' */
};

static int
cpu_total_refresh(void *state, struct refresh_call *call)
{
    struct cpu_total_state *s = state;
    struct plat_cpu_ticks ticks;
    int sts;

    if ((sts = call->p->cpu_total(call->p->ctx, &ticks)) < 0)
        return collector_error(sts);
    s->held = cpu_counters_update(&s->total, &ticks);
    collector_note_parts("cpu_total", (unsigned int)s->held, &s->logged_held,
                         "the host's CPU ticks read below the last reading: held, not taken for a wrap");
    s->rate.status = hinv_clock_hz(call->depends[0], &s->rate.hz);
    return 0;
}

static int
cpu_total_fetch(const void *state, const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    const struct cpu_total_state *s = state;
    int sts;

    (void)inst;
    if (s->held)
        return PM_ERR_AGAIN;
    if (row->cluster == CLUSTER_CPU_LINUX)
        return cpu_linux_fetch(&s->total, &s->rate, (enum cpu_linux_state)row->item, atom);
    sts = cpu_counters_msec(&s->total, (enum cpu_state_index)(row->item - ITEM_FIRST), &s->rate, &atom->ull);
    return sts < 0 ? sts : PMDA_FETCH_STATIC;
}

const struct collector cpu_total_collector = {
    .name = "cpu_total",
    .ndepends = 1,
    .depends = { &hinv_collector },
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .state_size = sizeof(struct cpu_total_state),
    .refresh = cpu_total_refresh,
    .fetch = cpu_total_fetch,
};
