/*
 * Cluster 6: CPU time summed over all processors (HOST_CPU_LOAD_INFO); and
 * cluster 106, Linux's states and interrupt count that PCP's tools read
 * (cpu_linux.h).
 */
#include "collector.h"
#include "metric_ids.h"
#include "collectors.h"
#include "metric_units.h"
#include "cpu_counters.h"
#include "cpu_linux.h"
#include "hinv.h"

struct cpu_total_state {
    struct cpu_counters total;
    struct tick_rate rate;          /* hinv's, at the last refresh */
    int held;                       /* this refresh read below the last: no value this round */
    unsigned int logged_held;       /* collector_note_parts' */
};

static row_derive time_msec;

#define TIME(name, item, state) { "kernel.all.cpu." name, CLUSTER_CPU, item, PM_TYPE_U64, COLLECTOR_NO_INDOM, \
                                  PM_SEM_COUNTER, UNITS_MSEC, .derive = time_msec, .index = state }

static const struct metric_row rows[] = {
    TIME("user", 42, CPU_USER),
    TIME("nice", 43, CPU_NICE),
    TIME("sys", 44, CPU_SYS),
    TIME("idle", 45, CPU_IDLE),
    CPU_LINUX_ROWS("kernel.all.cpu.", CLUSTER_CPU_LINUX, COLLECTOR_NO_INDOM, time_msec),
    /* XNU offers no count of interrupts */
    { "kernel.all.intr", CLUSTER_CPU_LINUX, CPU_LINUX_INTR, PM_TYPE_U64, COLLECTOR_NO_INDOM, PM_SEM_COUNTER,
      UNITS_COUNT, .derive = collector_no_source },
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
    collector_note_parts(call, NULL, (unsigned int)s->held, &s->logged_held,
                         "the host's CPU ticks read below the last reading: held, not taken for a wrap");
    s->rate.status = hinv_clock_hz(call->depends[0], &s->rate.hz);
    return 0;
}

static int
time_msec(const void *state, const void *entry, const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    const struct cpu_total_state *s = state;

    (void)entry;
    (void)inst;
    if (s->held)
        return PM_ERR_AGAIN;
    return cpu_time_msec(&s->total, row, &s->rate, atom);
}

const struct collector cpu_total_collector = {
    .name = "cpu_total",
    .ndepends = 1,
    .depends = { &hinv_collector },
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .state_size = sizeof(struct cpu_total_state),
    .refresh = cpu_total_refresh,
};
