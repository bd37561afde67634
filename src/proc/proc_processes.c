/*
 * The processes family: every per-process metric of the proc agent, over
 * the process table (its instances are processes, or threads on request):
 * upstream darwin_proc's clusters 1 and 3 to 8, and the new 100 to 102.
 * Here are its rows and which function serves each cluster: cluster 1's in
 * proc_collectors.c (with the table's indom and labels), 102's in
 * proc_linux_names.c, the others' in proc_resources.c.
 */
#include "proc_values.h"

/* A row, and after its units the process's field it serves unless the fetch computes it. */
#define ROW(cluster, name, item, type, sem, ...) { name, cluster, item, type, PROC_INDOM, sem, __VA_ARGS__ }
#define RUNQ(name, item) { name, PROC_CLUSTER_RUNQ, item, PM_TYPE_32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, UNITS_COUNT }
#define KP(member) FIELD_ALWAYS(struct proc_entry, kp.member, FIELD_PLAIN)
#define NONE_UNITS UNITS_NONE
#define COUNT UNITS_COUNT
#define NSEC UNITS_NSEC
#define MSEC UNITS_MSEC
#define KBYTE UNITS_KBYTE
#define BYTE UNITS_BYTE

static const struct metric_row rows[] = {
    /* cluster 1: psinfo */
    { "proc.nprocs", PROC_CLUSTER_PSINFO, 0, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, NONE_UNITS },
    ROW(PROC_CLUSTER_PSINFO, "proc.psinfo.pid", 1, PM_TYPE_U32, PM_SEM_DISCRETE, NONE_UNITS),
    ROW(PROC_CLUSTER_PSINFO, "proc.psinfo.ppid", 2, PM_TYPE_U32, PM_SEM_DISCRETE, NONE_UNITS),
    ROW(PROC_CLUSTER_PSINFO, "proc.psinfo.pgid", 3, PM_TYPE_U32, PM_SEM_DISCRETE, NONE_UNITS),
    ROW(PROC_CLUSTER_PSINFO, "proc.psinfo.tpgid", 4, PM_TYPE_U32, PM_SEM_DISCRETE, NONE_UNITS),
    ROW(PROC_CLUSTER_PSINFO, "proc.psinfo.cwd", 5, PM_TYPE_STRING, PM_SEM_INSTANT, NONE_UNITS),
    ROW(PROC_CLUSTER_PSINFO, "proc.psinfo.cmd", 6, PM_TYPE_STRING, PM_SEM_DISCRETE, NONE_UNITS),
    ROW(PROC_CLUSTER_PSINFO, "proc.psinfo.exe", 7, PM_TYPE_STRING, PM_SEM_INSTANT, NONE_UNITS),
    ROW(PROC_CLUSTER_PSINFO, "proc.psinfo.nice", 8, PM_TYPE_32, PM_SEM_INSTANT, NONE_UNITS),
    ROW(PROC_CLUSTER_PSINFO, "proc.psinfo.majflt", 9, PM_TYPE_U32, PM_SEM_COUNTER, COUNT),
    ROW(PROC_CLUSTER_PSINFO, "proc.psinfo.priority", 10, PM_TYPE_32, PM_SEM_INSTANT, NONE_UNITS),
    ROW(PROC_CLUSTER_PSINFO, "proc.psinfo.psargs", 11, PM_TYPE_STRING, PM_SEM_DISCRETE, NONE_UNITS),
    ROW(PROC_CLUSTER_PSINFO, "proc.psinfo.sname", 12, PM_TYPE_STRING, PM_SEM_DISCRETE, NONE_UNITS),
    /* milliseconds, as PCP's process tools read these (Linux's proc agent serves them so) */
    ROW(PROC_CLUSTER_PSINFO, "proc.psinfo.start_time", 13, PM_TYPE_U64, PM_SEM_DISCRETE, MSEC),
    ROW(PROC_CLUSTER_PSINFO, "proc.psinfo.utime", 14, PM_TYPE_U64, PM_SEM_COUNTER, MSEC),
    ROW(PROC_CLUSTER_PSINFO, "proc.psinfo.stime", 15, PM_TYPE_U64, PM_SEM_COUNTER, MSEC),
    ROW(PROC_CLUSTER_PSINFO, "proc.psinfo.threads", 16, PM_TYPE_U32, PM_SEM_INSTANT, NONE_UNITS),
    ROW(PROC_CLUSTER_PSINFO, "proc.psinfo.translated", 17, PM_TYPE_U32, PM_SEM_DISCRETE, NONE_UNITS),
    ROW(PROC_CLUSTER_PSINFO, "proc.psinfo.tty", 18, PM_TYPE_U32, PM_SEM_DISCRETE, NONE_UNITS),
    ROW(PROC_CLUSTER_PSINFO, "proc.psinfo.ttyname", 19, PM_TYPE_STRING, PM_SEM_DISCRETE, NONE_UNITS),
    ROW(PROC_CLUSTER_PSINFO, "proc.psinfo.wchan", 20, PM_TYPE_U64, PM_SEM_DISCRETE, NONE_UNITS),
    ROW(PROC_CLUSTER_PSINFO, "proc.psinfo.wchan_s", 21, PM_TYPE_STRING, PM_SEM_INSTANT, NONE_UNITS),
    ROW(PROC_CLUSTER_PSINFO, "proc.psinfo.wmesg_s", 22, PM_TYPE_STRING, PM_SEM_INSTANT, NONE_UNITS),
    ROW(PROC_CLUSTER_PSINFO, "proc.psinfo.pswitch", 23, PM_TYPE_U64, PM_SEM_COUNTER, COUNT),
    ROW(PROC_CLUSTER_PSINFO, "proc.psinfo.usrpri", 24, PM_TYPE_32, PM_SEM_INSTANT, NONE_UNITS),
    ROW(PROC_CLUSTER_PSINFO, "proc.psinfo.minflt", 25, PM_TYPE_U32, PM_SEM_COUNTER, COUNT),
    ROW(PROC_CLUSTER_PSINFO, "proc.psinfo.tgid", 26, PM_TYPE_U32, PM_SEM_DISCRETE, NONE_UNITS),
    /* cluster 3: ids, from the process list (open to all) */
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
    /* cluster 4: memory */
    ROW(PROC_CLUSTER_MEMORY, "proc.memory.size", 0, PM_TYPE_U64, PM_SEM_INSTANT, KBYTE),
    ROW(PROC_CLUSTER_MEMORY, "proc.memory.rss", 1, PM_TYPE_U64, PM_SEM_INSTANT, KBYTE),
    ROW(PROC_CLUSTER_MEMORY, "proc.memory.footprint", 2, PM_TYPE_U64, PM_SEM_INSTANT, BYTE),
    /* clusters 5 (I/O), 7 (QoS CPU time) and 100 (energy, cores, wakeups): rusage */
    ROW(PROC_CLUSTER_IO, "proc.io.read_bytes", 0, PM_TYPE_U64, PM_SEM_COUNTER, BYTE),
    ROW(PROC_CLUSTER_IO, "proc.io.write_bytes", 1, PM_TYPE_U64, PM_SEM_COUNTER, BYTE),
    ROW(PROC_CLUSTER_IO, "proc.io.logical_writes", 2, PM_TYPE_U64, PM_SEM_COUNTER, BYTE),
    ROW(PROC_CLUSTER_QOS, "proc.cpu.qos.default", 0, PM_TYPE_U64, PM_SEM_COUNTER, NSEC),
    ROW(PROC_CLUSTER_QOS, "proc.cpu.qos.maintenance", 1, PM_TYPE_U64, PM_SEM_COUNTER, NSEC),
    ROW(PROC_CLUSTER_QOS, "proc.cpu.qos.background", 2, PM_TYPE_U64, PM_SEM_COUNTER, NSEC),
    ROW(PROC_CLUSTER_QOS, "proc.cpu.qos.utility", 3, PM_TYPE_U64, PM_SEM_COUNTER, NSEC),
    ROW(PROC_CLUSTER_QOS, "proc.cpu.qos.legacy", 4, PM_TYPE_U64, PM_SEM_COUNTER, NSEC),
    ROW(PROC_CLUSTER_QOS, "proc.cpu.qos.user_initiated", 5, PM_TYPE_U64, PM_SEM_COUNTER, NSEC),
    ROW(PROC_CLUSTER_QOS, "proc.cpu.qos.user_interactive", 6, PM_TYPE_U64, PM_SEM_COUNTER, NSEC),
    ROW(PROC_CLUSTER_EXTRA, "proc.memory.footprint_peak", 0, PM_TYPE_U64, PM_SEM_INSTANT, BYTE),
    ROW(PROC_CLUSTER_EXTRA, "proc.cpu.energy", 1, PM_TYPE_U64, PM_SEM_COUNTER, COUNT),
    ROW(PROC_CLUSTER_EXTRA, "proc.cpu.pcore_time", 2, PM_TYPE_U64, PM_SEM_COUNTER, NSEC),
    ROW(PROC_CLUSTER_EXTRA, "proc.cpu.ecore_time", 3, PM_TYPE_U64, PM_SEM_COUNTER, NSEC),
    ROW(PROC_CLUSTER_EXTRA, "proc.cpu.instructions", 4, PM_TYPE_U64, PM_SEM_COUNTER, COUNT),
    ROW(PROC_CLUSTER_EXTRA, "proc.cpu.cycles", 5, PM_TYPE_U64, PM_SEM_COUNTER, COUNT),
    ROW(PROC_CLUSTER_EXTRA, "proc.cpu.runnable_time", 6, PM_TYPE_U64, PM_SEM_COUNTER, NSEC),
    ROW(PROC_CLUSTER_EXTRA, "proc.wakeups.pkg_idle", 7, PM_TYPE_U64, PM_SEM_COUNTER, COUNT),
    ROW(PROC_CLUSTER_EXTRA, "proc.wakeups.interrupt", 8, PM_TYPE_U64, PM_SEM_COUNTER, COUNT),
    /* clusters 6 (descriptors) and 8 (sockets): the owner's and root's only */
    ROW(PROC_CLUSTER_FD, "proc.fd.count", 0, PM_TYPE_U32, PM_SEM_INSTANT, NONE_UNITS),
    ROW(PROC_CLUSTER_NET, "proc.net.tcp_count", 0, PM_TYPE_U32, PM_SEM_INSTANT, NONE_UNITS),
    ROW(PROC_CLUSTER_NET, "proc.net.udp_count", 1, PM_TYPE_U32, PM_SEM_INSTANT, NONE_UNITS),
    /* cluster 101: thread identity (thread instances only) */
    ROW(PROC_CLUSTER_THREAD, "proc.psinfo.tid", 0, PM_TYPE_U64, PM_SEM_DISCRETE, NONE_UNITS),
    ROW(PROC_CLUSTER_THREAD, "proc.psinfo.thread_name", 1, PM_TYPE_STRING, PM_SEM_INSTANT, NONE_UNITS),
    /* cluster 102: Linux's names that PCP's process tools require, with its types and units */
    ROW(PROC_CLUSTER_LINUX, "proc.psinfo.guest_time", 0, PM_TYPE_U64, PM_SEM_COUNTER, MSEC),
    ROW(PROC_CLUSTER_LINUX, "proc.psinfo.rt_priority", 1, PM_TYPE_U32, PM_SEM_INSTANT, NONE_UNITS),
    ROW(PROC_CLUSTER_LINUX, "proc.psinfo.rss", 2, PM_TYPE_U64, PM_SEM_INSTANT, KBYTE),
    ROW(PROC_CLUSTER_LINUX, "proc.psinfo.vsize", 3, PM_TYPE_U64, PM_SEM_INSTANT, KBYTE),
    ROW(PROC_CLUSTER_LINUX, "proc.psinfo.policy", 4, PM_TYPE_U32, PM_SEM_INSTANT, NONE_UNITS),
    ROW(PROC_CLUSTER_LINUX, "proc.psinfo.processor", 5, PM_TYPE_U32, PM_SEM_INSTANT, NONE_UNITS),
    ROW(PROC_CLUSTER_LINUX, "proc.memory.vmstack", 6, PM_TYPE_U32, PM_SEM_INSTANT, KBYTE),
    /* cluster 2: the run queue, counted over the table */
    RUNQ("proc.runq.runnable", 0), RUNQ("proc.runq.blocked", 1), RUNQ("proc.runq.sleeping", 2),
    RUNQ("proc.runq.stopped", 3), RUNQ("proc.runq.swapped", 4), RUNQ("proc.runq.defunct", 5),
    RUNQ("proc.runq.unknown", 6), RUNQ("proc.runq.kernel", 7),
};

/* A row's values, by its cluster. */
static int
process_fetch(const void *table, const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    const struct proc_table *t = table;

    switch (row->cluster) {
    case PROC_CLUSTER_PSINFO: return proc_psinfo_fetch(t, row, inst, atom);
    case PROC_CLUSTER_ID: return proc_id_fetch(t, row, inst, atom);
    case PROC_CLUSTER_MEMORY: return proc_memory_fetch(t, row, inst, atom);
    case PROC_CLUSTER_IO: return proc_io_fetch(t, row, inst, atom);
    case PROC_CLUSTER_FD: return proc_fd_fetch(t, row, inst, atom);
    case PROC_CLUSTER_QOS: return proc_qos_fetch(t, row, inst, atom);
    case PROC_CLUSTER_NET: return proc_net_fetch(t, row, inst, atom);
    case PROC_CLUSTER_EXTRA: return proc_extra_fetch(t, row, inst, atom);
    case PROC_CLUSTER_THREAD: return proc_thread_fetch(t, row, inst, atom);
    case PROC_CLUSTER_LINUX: return proc_linux_fetch(t, row, inst, atom);
    case PROC_CLUSTER_RUNQ: return proc_runq_fetch(t, row, inst, atom);
    default: return PM_ERR_PMID;
    }
}

/* What a row needs read for each process beyond the list. */
static void
process_want(void *table, const struct metric_row *row)
{
    struct proc_table *t = table;

    switch (row->cluster) {
    case PROC_CLUSTER_PSINFO: proc_psinfo_want(t, row); break;
    case PROC_CLUSTER_MEMORY: proc_memory_want(t, row); break;
    case PROC_CLUSTER_IO: case PROC_CLUSTER_QOS: case PROC_CLUSTER_EXTRA: proc_rusage_want(t, row); break;
    case PROC_CLUSTER_FD: proc_fd_want(t, row); break;
    case PROC_CLUSTER_NET: proc_net_want(t, row); break;
    case PROC_CLUSTER_LINUX: proc_linux_want(t, row); break;
    case PROC_CLUSTER_RUNQ: proc_runq_want(t, row); break;
    default: break;
    }
}

const struct collector proc_processes_collector = {
    .name = "processes", .rows = rows, .nrows = sizeof(rows) / sizeof(rows[0]), .indom = &proc_process_indom,
    .state_size = sizeof(struct proc_table), .refresh = proc_table_refresh, .fetch = process_fetch, .want = process_want,
    .instance_labels = proc_process_labels, .teardown = proc_table_teardown,
};
