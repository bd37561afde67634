/*
 * The values of per-process identity, memory, I/O, descriptors, QoS CPU
 * time, sockets, the beyond-upstream counters (cluster 100) and thread
 * identity (101), from the process table (rows in proc_processes.c).
 */
#include "proc_values.h"

#include <errno.h>

/* ---- cluster 3: ids, from the process list (open to all) ---- */

int
proc_id_fetch(const struct proc_table *t, const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    int sts;
    const struct proc_entry *e = proc_visible(t, inst, PROC_PUBLIC, &sts);

    if (e == NULL)
        return sts;
    if (row->field.kind != FIELD_NONE)
        return collector_field(row, e, atom);
    switch (row->item) {
    case 4: return proc_fetch_string(atom, proc_table_user(t, e->kp.ruid));
    case 5: return proc_fetch_string(atom, proc_table_user(t, e->kp.uid));
    case 6: return proc_fetch_string(atom, proc_table_user(t, e->kp.svuid));
    case 7: return proc_fetch_string(atom, proc_table_group(t, e->kp.rgid));
    default: return PM_ERR_PMID;
    }
}

/* ---- cluster 4: memory ---- */

void
proc_memory_want(struct proc_table *t, const struct metric_row *row)
{
    proc_table_need(t, row->item == 2 ? PROC_NEED_RUSAGE : PROC_NEED_TASK);
}

int
proc_memory_fetch(const struct proc_table *t, const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    int sts;
    const struct proc_entry *e = proc_visible(t, inst, PROC_PUBLIC, &sts);

    if (e == NULL)
        return sts;
    if (row->item == 2) {
        if (e->rusage_sts < 0)
            return proc_fetch_error(e->rusage_sts);
        atom->ull = e->ru.phys_footprint;
        return PMDA_FETCH_STATIC;
    }
    if (e->task_sts < 0)
        return proc_fetch_error(e->task_sts);
    atom->ull = (row->item == 0 ? e->task.virtual_size : e->task.resident_size) / 1024;
    return PMDA_FETCH_STATIC;
}

/* ---- clusters 5 (I/O), 7 (QoS CPU time) and 100 (energy, cores, wakeups): rusage ---- */

void
proc_rusage_want(struct proc_table *t, const struct metric_row *row)
{
    (void)row;
    proc_table_need(t, PROC_NEED_RUSAGE);
}

/* The rusage of a process for a public row, or why there is none; the
 * times need the timebase. */
static const struct proc_entry *
rusage_of(const struct proc_table *t, unsigned int inst, int *sts)
{
    const struct proc_entry *e = proc_visible(t, inst, PROC_PUBLIC, sts);

    if (e == NULL)
        return NULL;
    if (e->rusage_sts < 0) {
        *sts = proc_fetch_error(e->rusage_sts);
        return NULL;
    }
    if (proc_table_timebase_status(t) < 0) {
        *sts = collector_error(proc_table_timebase_status(t));
        return NULL;
    }
    return e;
}

int
proc_io_fetch(const struct proc_table *t, const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    int sts;
    const struct proc_entry *e = rusage_of(t, inst, &sts);

    if (e == NULL)
        return sts;
    atom->ull = row->item == 0 ? e->ru.diskio_bytesread : row->item == 1 ? e->ru.diskio_byteswritten
                                                                         : e->ru.logical_writes;
    return PMDA_FETCH_STATIC;
}

int
proc_qos_fetch(const struct proc_table *t, const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    int sts;
    const struct proc_entry *e = rusage_of(t, inst, &sts);

    if (e == NULL)
        return sts;
    atom->ull = proc_table_mach_to_ns(t, e->ru.qos[row->item]);
    return PMDA_FETCH_STATIC;
}

/* Instructions, cycles, energy and P-core time exist only where the kernel
 * counts them: arm64 (CONFIG_PERVASIVE_CPI and _ENERGY in xnu's
 * MASTER.arm64.MacOSX); x86_64 release kernels leave them 0. P-core time
 * and energy need rusage flavor 6 (macOS 12), the others flavor 4. */
int
proc_extra_fetch(const struct proc_table *t, const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    int sts;
    const struct proc_entry *e = rusage_of(t, inst, &sts);
    const struct plat_proc_rusage *ru;
    uint64_t total;

    if (e == NULL)
        return sts;
    ru = &e->ru;
    if (row->item >= 1 && row->item <= 5 && (sts = proc_table_arm(t)) <= 0)
        return sts < 0 ? collector_error(sts) : PM_ERR_APPVERSION;
    if ((row->item >= 1 && row->item <= 3) && ru->version < 6)
        return PM_ERR_APPVERSION;
    switch (row->item) {
    case 0: atom->ull = ru->lifetime_max_phys_footprint; break;
    case 1: atom->ull = ru->energy_nj; break;
    case 2: atom->ull = proc_table_mach_to_ns(t, ru->user_ptime + ru->system_ptime); break;
    case 3:
        total = ru->user_time + ru->system_time;
        atom->ull = proc_table_mach_to_ns(t, total - (ru->user_ptime + ru->system_ptime > total ? total
                                                   : ru->user_ptime + ru->system_ptime));
        break;
    case 4: atom->ull = ru->instructions; break;
    case 5: atom->ull = ru->cycles; break;
    case 6: atom->ull = proc_table_mach_to_ns(t, ru->runnable_time); break;
    case 7: atom->ull = ru->pkg_idle_wkups; break;
    case 8: atom->ull = ru->interrupt_wkups; break;
    default: return PM_ERR_PMID;
    }
    return PMDA_FETCH_STATIC;
}

/* ---- clusters 6 (descriptors) and 8 (sockets): the owner's and root's only ---- */

void
proc_fd_want(struct proc_table *t, const struct metric_row *row)
{
    (void)row;
    proc_table_need(t, PROC_NEED_FDS);
}

void
proc_net_want(struct proc_table *t, const struct metric_row *row)
{
    (void)row;
    proc_table_need(t, PROC_NEED_SOCKETS);
}

int
proc_fd_fetch(const struct proc_table *t, const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    int sts;
    const struct proc_entry *e = proc_visible(t, inst, PROC_OWNER, &sts);

    (void)row;
    if (e == NULL)
        return sts;
    if (e->fds_sts < 0)
        return proc_fetch_error(e->fds_sts);
    atom->ul = e->fds;
    return PMDA_FETCH_STATIC;
}

int
proc_net_fetch(const struct proc_table *t, const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    int sts;
    const struct proc_entry *e = proc_visible(t, inst, PROC_OWNER, &sts);

    if (e == NULL)
        return sts;
    if (proc_table_sockets_status(t) < 0)
        return proc_fetch_error(proc_table_sockets_status(t));   /* not 0 sockets: unknown */
    atom->ul = row->item == 0 ? e->tcp : e->udp;
    return PMDA_FETCH_STATIC;
}

/* ---- cluster 101: thread identity (thread instances only) ---- */

int
proc_thread_fetch(const struct proc_table *t, const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    int sts;
    const struct proc_entry *e = proc_visible(t, inst, PROC_PUBLIC, &sts);

    if (e == NULL)
        return sts;
    if (e->thread == NULL)
        return PM_ERR_VALUE;        /* a process instance: no thread */
    if (row->item == 0) {
        atom->ull = e->thread->tid;
        return PMDA_FETCH_STATIC;
    }
    return proc_fetch_string(atom, e->thread->name);
}

