/*
 * Per-process identity, memory, I/O, descriptors, QoS CPU time, sockets,
 * the beyond-upstream counters (cluster 100) and thread identity (101),
 * over the process table that cluster 1 refreshes.
 */
#include "proc_values.h"

extern const struct collector proc_psinfo_collector;

#include <errno.h>

/* A row, and after its units the process's field it serves unless the fetch computes it. */
#define ROW(cluster, name, item, type, sem, ...) { name, cluster, item, type, PROC_INDOM, sem, __VA_ARGS__ }
#define KP(member) FIELD_ALWAYS(struct proc_entry, kp.member, FIELD_PLAIN)
#define NONE_UNITS UNITS_NONE
#define COUNT UNITS_COUNT
#define NSEC UNITS_NSEC
#define KBYTE UNITS_KBYTE
#define BYTE UNITS_BYTE

#define COLLECTOR(var, label, rowsv, fetchfn, wantfn) \
    const struct collector var = { .name = label, .ndepends = 1, .depends = { &proc_psinfo_collector }, \
        .rows = rowsv, .nrows = sizeof(rowsv) / sizeof(rowsv[0]), .refresh = proc_no_refresh, \
        .fetch = fetchfn, .want = wantfn }

/* ---- cluster 3: ids, from the process list (open to all) ---- */

static const struct metric_row id_rows[] = {
    /* uid is the real one and euid the effective (upstream served them swapped) */
    ROW(PROC_CLUSTER_ID, "proc.id.uid", 0, PM_TYPE_U32, PM_SEM_DISCRETE, NONE_UNITS, KP(ruid)),
    ROW(PROC_CLUSTER_ID, "proc.id.euid", 1, PM_TYPE_U32, PM_SEM_DISCRETE, NONE_UNITS, KP(uid)),
    ROW(PROC_CLUSTER_ID, "proc.id.suid", 2, PM_TYPE_U32, PM_SEM_DISCRETE, NONE_UNITS, KP(svuid)),
    ROW(PROC_CLUSTER_ID, "proc.id.gid", 3, PM_TYPE_U32, PM_SEM_DISCRETE, NONE_UNITS, KP(rgid)),
    ROW(PROC_CLUSTER_ID, "proc.id.uid_nm", 4, PM_TYPE_STRING, PM_SEM_DISCRETE, NONE_UNITS),
    ROW(PROC_CLUSTER_ID, "proc.id.euid_nm", 5, PM_TYPE_STRING, PM_SEM_DISCRETE, NONE_UNITS),
    ROW(PROC_CLUSTER_ID, "proc.id.suid_nm", 6, PM_TYPE_STRING, PM_SEM_DISCRETE, NONE_UNITS),
    ROW(PROC_CLUSTER_ID, "proc.id.gid_nm", 7, PM_TYPE_STRING, PM_SEM_DISCRETE, NONE_UNITS),
    ROW(PROC_CLUSTER_ID, "proc.id.ngid", 8, PM_TYPE_U32, PM_SEM_DISCRETE, NONE_UNITS, KP(ngroups)),
};

static int
id_fetch(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    int sts;
    const struct proc_entry *e = proc_visible(inst, PROC_PUBLIC, &sts);

    if (e == NULL)
        return sts;
    if (row->field.kind != FIELD_NONE)
        return collector_field(row, e, 0, atom);
    switch (row->item) {
    case 4: return proc_fetch_string(atom, proc_table_user(e->kp.ruid));
    case 5: return proc_fetch_string(atom, proc_table_user(e->kp.uid));
    case 6: return proc_fetch_string(atom, proc_table_user(e->kp.svuid));
    case 7: return proc_fetch_string(atom, proc_table_group(e->kp.rgid));
    default: return PM_ERR_PMID;
    }
}

COLLECTOR(proc_id_collector, "process ids", id_rows, id_fetch, NULL);

/* ---- cluster 4: memory ---- */

static const struct metric_row memory_rows[] = {
    ROW(PROC_CLUSTER_MEMORY, "proc.memory.size", 0, PM_TYPE_U64, PM_SEM_INSTANT, KBYTE),
    ROW(PROC_CLUSTER_MEMORY, "proc.memory.rss", 1, PM_TYPE_U64, PM_SEM_INSTANT, KBYTE),
    ROW(PROC_CLUSTER_MEMORY, "proc.memory.footprint", 2, PM_TYPE_U64, PM_SEM_INSTANT, BYTE),
};

static void
memory_want(const struct metric_row *row)
{
    proc_table_need(row->item == 2 ? PROC_NEED_RUSAGE : PROC_NEED_TASK);
}

static int
memory_fetch(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    int sts;
    const struct proc_entry *e = proc_visible(inst, PROC_PUBLIC, &sts);

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

COLLECTOR(proc_memory_collector, "process memory", memory_rows, memory_fetch, memory_want);

/* ---- clusters 5 (I/O), 7 (QoS CPU time) and 100 (energy, cores, wakeups): rusage ---- */

static void
rusage_want(const struct metric_row *row)
{
    (void)row;
    proc_table_need(PROC_NEED_RUSAGE);
}

static const struct metric_row io_rows[] = {
    ROW(PROC_CLUSTER_IO, "proc.io.read_bytes", 0, PM_TYPE_U64, PM_SEM_COUNTER, BYTE),
    ROW(PROC_CLUSTER_IO, "proc.io.write_bytes", 1, PM_TYPE_U64, PM_SEM_COUNTER, BYTE),
    ROW(PROC_CLUSTER_IO, "proc.io.logical_writes", 2, PM_TYPE_U64, PM_SEM_COUNTER, BYTE),
};

static const struct metric_row qos_rows[] = {
    ROW(PROC_CLUSTER_QOS, "proc.cpu.qos.default", 0, PM_TYPE_U64, PM_SEM_COUNTER, NSEC),
    ROW(PROC_CLUSTER_QOS, "proc.cpu.qos.maintenance", 1, PM_TYPE_U64, PM_SEM_COUNTER, NSEC),
    ROW(PROC_CLUSTER_QOS, "proc.cpu.qos.background", 2, PM_TYPE_U64, PM_SEM_COUNTER, NSEC),
    ROW(PROC_CLUSTER_QOS, "proc.cpu.qos.utility", 3, PM_TYPE_U64, PM_SEM_COUNTER, NSEC),
    ROW(PROC_CLUSTER_QOS, "proc.cpu.qos.legacy", 4, PM_TYPE_U64, PM_SEM_COUNTER, NSEC),
    ROW(PROC_CLUSTER_QOS, "proc.cpu.qos.user_initiated", 5, PM_TYPE_U64, PM_SEM_COUNTER, NSEC),
    ROW(PROC_CLUSTER_QOS, "proc.cpu.qos.user_interactive", 6, PM_TYPE_U64, PM_SEM_COUNTER, NSEC),
};

static const struct metric_row extra_rows[] = {
    ROW(PROC_CLUSTER_EXTRA, "proc.memory.footprint_peak", 0, PM_TYPE_U64, PM_SEM_INSTANT, BYTE),
    ROW(PROC_CLUSTER_EXTRA, "proc.cpu.energy", 1, PM_TYPE_U64, PM_SEM_COUNTER, COUNT),
    ROW(PROC_CLUSTER_EXTRA, "proc.cpu.pcore_time", 2, PM_TYPE_U64, PM_SEM_COUNTER, NSEC),
    ROW(PROC_CLUSTER_EXTRA, "proc.cpu.ecore_time", 3, PM_TYPE_U64, PM_SEM_COUNTER, NSEC),
    ROW(PROC_CLUSTER_EXTRA, "proc.cpu.instructions", 4, PM_TYPE_U64, PM_SEM_COUNTER, COUNT),
    ROW(PROC_CLUSTER_EXTRA, "proc.cpu.cycles", 5, PM_TYPE_U64, PM_SEM_COUNTER, COUNT),
    ROW(PROC_CLUSTER_EXTRA, "proc.cpu.runnable_time", 6, PM_TYPE_U64, PM_SEM_COUNTER, NSEC),
    ROW(PROC_CLUSTER_EXTRA, "proc.wakeups.pkg_idle", 7, PM_TYPE_U64, PM_SEM_COUNTER, COUNT),
    ROW(PROC_CLUSTER_EXTRA, "proc.wakeups.interrupt", 8, PM_TYPE_U64, PM_SEM_COUNTER, COUNT),
};

/* The rusage of a process for a public row, or why there is none; the
 * times need the timebase. */
static const struct proc_entry *
rusage_of(unsigned int inst, int *sts)
{
    const struct proc_entry *e = proc_visible(inst, PROC_PUBLIC, sts);

    if (e == NULL)
        return NULL;
    if (e->rusage_sts < 0) {
        *sts = proc_fetch_error(e->rusage_sts);
        return NULL;
    }
    if (proc_table_timebase_status() < 0) {
        *sts = collector_error(proc_table_timebase_status());
        return NULL;
    }
    return e;
}

static int
io_fetch(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    int sts;
    const struct proc_entry *e = rusage_of(inst, &sts);

    if (e == NULL)
        return sts;
    atom->ull = row->item == 0 ? e->ru.diskio_bytesread : row->item == 1 ? e->ru.diskio_byteswritten
                                                                         : e->ru.logical_writes;
    return PMDA_FETCH_STATIC;
}

static int
qos_fetch(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    int sts;
    const struct proc_entry *e = rusage_of(inst, &sts);

    if (e == NULL)
        return sts;
    atom->ull = proc_table_mach_to_ns(e->ru.qos[row->item]);
    return PMDA_FETCH_STATIC;
}

/* Instructions, cycles, energy and P-core time exist only where the kernel
 * counts them: arm64 (CONFIG_PERVASIVE_CPI and _ENERGY in xnu's
 * MASTER.arm64.MacOSX); x86_64 release kernels leave them 0. P-core time
 * and energy need rusage flavor 6 (macOS 12), the others flavor 4. */
static int
extra_fetch(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    int sts;
    const struct proc_entry *e = rusage_of(inst, &sts);
    const struct plat_proc_rusage *ru;
    uint64_t total;

    if (e == NULL)
        return sts;
    ru = &e->ru;
    if (row->item >= 1 && row->item <= 5 && (sts = proc_table_arm()) <= 0)
        return sts < 0 ? collector_error(sts) : PM_ERR_APPVERSION;
    if ((row->item >= 1 && row->item <= 3) && ru->version < 6)
        return PM_ERR_APPVERSION;
    switch (row->item) {
    case 0: atom->ull = ru->lifetime_max_phys_footprint; break;
    case 1: atom->ull = ru->energy_nj; break;
    case 2: atom->ull = proc_table_mach_to_ns(ru->user_ptime + ru->system_ptime); break;
    case 3:
        total = ru->user_time + ru->system_time;
        atom->ull = proc_table_mach_to_ns(total - (ru->user_ptime + ru->system_ptime > total ? total
                                                   : ru->user_ptime + ru->system_ptime));
        break;
    case 4: atom->ull = ru->instructions; break;
    case 5: atom->ull = ru->cycles; break;
    case 6: atom->ull = proc_table_mach_to_ns(ru->runnable_time); break;
    case 7: atom->ull = ru->pkg_idle_wkups; break;
    case 8: atom->ull = ru->interrupt_wkups; break;
    default: return PM_ERR_PMID;
    }
    return PMDA_FETCH_STATIC;
}

COLLECTOR(proc_io_collector, "process I/O", io_rows, io_fetch, rusage_want);
COLLECTOR(proc_qos_collector, "process QoS CPU time", qos_rows, qos_fetch, rusage_want);
COLLECTOR(proc_extra_collector, "process energy and cores", extra_rows, extra_fetch, rusage_want);

/* ---- clusters 6 (descriptors) and 8 (sockets): the owner's and root's only ---- */

static const struct metric_row fd_rows[] = {
    ROW(PROC_CLUSTER_FD, "proc.fd.count", 0, PM_TYPE_U32, PM_SEM_INSTANT, NONE_UNITS),
};

static const struct metric_row net_rows[] = {
    ROW(PROC_CLUSTER_NET, "proc.net.tcp_count", 0, PM_TYPE_U32, PM_SEM_INSTANT, NONE_UNITS),
    ROW(PROC_CLUSTER_NET, "proc.net.udp_count", 1, PM_TYPE_U32, PM_SEM_INSTANT, NONE_UNITS),
};

static void
fd_want(const struct metric_row *row)
{
    (void)row;
    proc_table_need(PROC_NEED_FDS);
}

static void
net_want(const struct metric_row *row)
{
    (void)row;
    proc_table_need(PROC_NEED_SOCKETS);
}

static int
fd_fetch(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    int sts;
    const struct proc_entry *e = proc_visible(inst, PROC_OWNER, &sts);

    (void)row;
    if (e == NULL)
        return sts;
    if (e->fds_sts < 0)
        return proc_fetch_error(e->fds_sts);
    atom->ul = e->fds;
    return PMDA_FETCH_STATIC;
}

static int
net_fetch(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    int sts;
    const struct proc_entry *e = proc_visible(inst, PROC_OWNER, &sts);

    if (e == NULL)
        return sts;
    if (proc_table_sockets_status() < 0)
        return proc_fetch_error(proc_table_sockets_status());   /* not 0 sockets: unknown */
    atom->ul = row->item == 0 ? e->tcp : e->udp;
    return PMDA_FETCH_STATIC;
}

COLLECTOR(proc_fd_collector, "process descriptors", fd_rows, fd_fetch, fd_want);
COLLECTOR(proc_net_collector, "process sockets", net_rows, net_fetch, net_want);

/* ---- cluster 101: thread identity (thread instances only) ---- */

static const struct metric_row thread_rows[] = {
    ROW(PROC_CLUSTER_THREAD, "proc.psinfo.tid", 0, PM_TYPE_U64, PM_SEM_DISCRETE, NONE_UNITS),
    ROW(PROC_CLUSTER_THREAD, "proc.psinfo.thread_name", 1, PM_TYPE_STRING, PM_SEM_INSTANT, NONE_UNITS),
};

static int
thread_fetch(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    int sts;
    const struct proc_entry *e = proc_visible(inst, PROC_PUBLIC, &sts);

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

COLLECTOR(proc_thread_collector, "threads", thread_rows, thread_fetch, NULL);
