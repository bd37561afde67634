/*
 * Cluster 6: CPU time summed over all processors (HOST_CPU_LOAD_INFO); and
 * cluster 106, Linux's states and interrupt count that PCP's tools read
 * (cpu_linux.h).
 */
#include "collector.h"
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

static struct cpu_counters total;

static int
cpu_total_refresh(const struct platform *p, pmInDom indom, const char **reason)
{
    struct plat_cpu_ticks ticks;
    int sts;

    (void)reason;
    (void)indom;
    if ((sts = p->cpu_total(p->ctx, &ticks)) < 0)
        return collector_error(sts);
    cpu_counters_update(&total, &ticks);
    return 0;
}

static int
cpu_total_fetch(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    uint32_t hz;
    int sts;

    (void)inst;
    if (row->cluster == CLUSTER_CPU_LINUX)
        return cpu_linux_fetch(&total, (enum cpu_linux_state)row->item, atom);
    if ((sts = hinv_clock_hz(&hz)) < 0)
        return sts;
    atom->ull = cpu_counters_msec(&total, (enum cpu_state_index)(row->item - ITEM_FIRST), hz);
    return PMDA_FETCH_STATIC;
}

static void
cpu_total_teardown(pmInDom indom)
{
    (void)indom;
    total = (struct cpu_counters){ 0 };
}

const struct collector cpu_total_collector = {
    .name = "cpu_total",
    .ndepends = 1,
    .depends = { &hinv_collector },
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .refresh = cpu_total_refresh,
    .fetch = cpu_total_fetch,
    .teardown = cpu_total_teardown,
};
