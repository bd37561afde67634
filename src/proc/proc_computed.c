/*
 * The processes collector's values that no one field gives (rows in
 * proc_processes.c): times from Mach time or a thread's own, counts that
 * only some kernels keep, and differences of two counts.
 */
#include "convert.h"
#include "proc_values.h"

/* proc_pid_rusage's flavors (xnu-11417.101.15 bsd/sys/resource.h:196-198 RUSAGE_INFO_V4, _V6;
 * named apart, as macOS's own header defines those names). */
enum { RUSAGE_FLAVOR_V4 = 4, RUSAGE_FLAVOR_V6 = 6 };

int
proc_command(const void *table, const void *entry, const struct metric_row *row, unsigned int inst,
             pmAtomValue *atom)
{
    const struct proc_entry *e = entry;

    (void)table;
    (void)row;
    (void)inst;
    atom->cp = (char *)(e->cmd ? e->cmd : e->kp.comm);
    return PMDA_FETCH_STATIC;
}

int
proc_psargs(const void *table, const void *entry, const struct metric_row *row, unsigned int inst,
            pmAtomValue *atom)
{
    const struct proc_entry *e = entry;

    (void)table;
    (void)row;
    (void)inst;
    atom->cp = (char *)(e->cmd ? e->cmd : e->bracketed);
    return PMDA_FETCH_STATIC;
}

int
proc_start_time_ms(const void *table, const void *entry, const struct metric_row *row, unsigned int inst,
                   pmAtomValue *atom)
{
    const struct proc_entry *e = entry;
    uint64_t ns;
    int sts;

    (void)row;
    (void)inst;
    if ((sts = proc_table_since_boot(table, &e->kp, &ns)) < 0)
        return collector_error(sts);
    atom->ull = ns / NS_PER_MS;
    return PMDA_FETCH_STATIC;
}

/* CPU time in ms: a thread's own (ns), else its bound task field (Mach time). */
static int
cpu_ms(const void *table, const struct proc_entry *e, const struct metric_row *row, uint64_t thread_ns,
       pmAtomValue *atom)
{
    int sts;

    if (e->thread != NULL) {
        atom->ull = thread_ns / NS_PER_MS;
        return PMDA_FETCH_STATIC;
    }
    if ((sts = proc_mach_ns(table, e, row, e->inst, atom)) < 0)
        return sts;
    atom->ull /= NS_PER_MS;
    return sts;
}

int
proc_utime_ms(const void *table, const void *entry, const struct metric_row *row, unsigned int inst,
              pmAtomValue *atom)
{
    const struct proc_entry *e = entry;

    (void)inst;
    return cpu_ms(table, e, row, e->thread ? e->thread->user_ns : 0, atom);
}

int
proc_stime_ms(const void *table, const void *entry, const struct metric_row *row, unsigned int inst,
              pmAtomValue *atom)
{
    const struct proc_entry *e = entry;

    (void)inst;
    return cpu_ms(table, e, row, e->thread ? e->thread->system_ns : 0, atom);
}

int
proc_nthreads(const void *table, const void *entry, const struct metric_row *row, unsigned int inst,
              pmAtomValue *atom)
{
    const struct proc_entry *e = entry;

    if (e->thread == NULL)
        return proc_call_field(table, entry, row, inst, atom);
    atom->ul = 1;                   /* a thread instance is one thread */
    return PMDA_FETCH_STATIC;
}

int
proc_priority(const void *table, const void *entry, const struct metric_row *row, unsigned int inst,
              pmAtomValue *atom)
{
    const struct proc_entry *e = entry;

    (void)table;
    (void)inst;
    if (e->thread == NULL)
        return collector_field(row, entry, atom);
    atom->l = e->thread->curpri;
    return PMDA_FETCH_STATIC;
}

int
proc_minflt(const void *table, const void *entry, const struct metric_row *row, unsigned int inst,
            pmAtomValue *atom)
{
    const struct proc_entry *e = entry;
    int sts = proc_status(row, e);

    (void)table;
    (void)inst;
    if (sts < 0)
        return sts;
    if (e->task.faults == INT32_MAX)
        return PM_ERR_VALUE;        /* the kernel's count saturated: faults - pageins would go backwards */
    atom->ul = (uint32_t)(e->task.faults - e->task.pageins);
    return PMDA_FETCH_STATIC;
}

/* Instructions, cycles, energy and P-core time exist only where the kernel
 * counts them: arm64 (CONFIG_PERVASIVE_CPI and _ENERGY in xnu's
 * MASTER.arm64.MacOSX); x86_64 release kernels leave them 0. P-core time
 * and energy need rusage flavor 6 (macOS 12), the others flavor 4. */
static int
counted_here(const void *table, const struct proc_entry *e, uint32_t flavor)
{
    int arm;

    if (e->rusage_sts < 0)
        return proc_fetch_error(e->rusage_sts);
    if ((arm = proc_table_arm(table)) <= 0)
        return arm < 0 ? collector_error(arm) : PM_ERR_APPVERSION;
    return e->ru.version < flavor ? PM_ERR_APPVERSION : 0;
}

int
proc_arm_count(const void *table, const void *entry, const struct metric_row *row, unsigned int inst,
               pmAtomValue *atom)
{
    int sts = counted_here(table, entry, RUSAGE_FLAVOR_V4);

    (void)inst;
    return sts < 0 ? sts : collector_field(row, entry, atom);
}

int
proc_arm_v6_count(const void *table, const void *entry, const struct metric_row *row, unsigned int inst,
                  pmAtomValue *atom)
{
    int sts = counted_here(table, entry, RUSAGE_FLAVOR_V6);

    (void)inst;
    return sts < 0 ? sts : collector_field(row, entry, atom);
}

/* The time on P cores, and on E cores (the rest, never less than 0). */
static uint64_t
pcore_ticks(const struct plat_proc_rusage *ru)
{
    return ru->user_ptime + ru->system_ptime;
}

int
proc_pcore_ns(const void *table, const void *entry, const struct metric_row *row, unsigned int inst,
              pmAtomValue *atom)
{
    const struct proc_entry *e = entry;
    int sts = counted_here(table, e, RUSAGE_FLAVOR_V6);

    (void)row;
    (void)inst;
    return sts < 0 ? sts : proc_ns_of(table, pcore_ticks(&e->ru), atom);
}

int
proc_ecore_ns(const void *table, const void *entry, const struct metric_row *row, unsigned int inst,
              pmAtomValue *atom)
{
    const struct proc_entry *e = entry;
    uint64_t total = e->ru.user_time + e->ru.system_time, p = pcore_ticks(&e->ru);
    int sts = counted_here(table, e, RUSAGE_FLAVOR_V6);

    (void)row;
    (void)inst;
    return sts < 0 ? sts : proc_ns_of(table, total - (p > total ? total : p), atom);
}
