/*
 * The processes collector: every per-process metric of the proc agent, over
 * the process table (its instances are processes, or threads on request):
 * upstream darwin_proc's clusters 1 to 8, and the new 100 to 102. Each row
 * says where its value is (a field of the instance's struct proc_entry, or
 * of the table), how it is computed when no field holds it (a derive
 * function, proc_values.h), and in its index the per-process calls it needs
 * (PROC_NEED_*, which the want hook hands the refresh; PROC_OWNER_CALLS
 * make a row owner-only).
 */
#include "proc_values.h"

#include <stdio.h>

#define ENTRY struct proc_entry
#define ROW(cluster, name, item, type, sem, units, ...) { name, cluster, item, type, PROC_INDOM, sem, units, __VA_ARGS__ }
#define PS(name, item, type, sem, units, ...) ROW(PROC_CLUSTER_PSINFO, name, item, type, sem, units, __VA_ARGS__)
#define RUNQ(name, item, ...) { name, PROC_CLUSTER_RUNQ, item, PM_TYPE_32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, \
                                UNITS_COUNT, __VA_ARGS__ }
/* R needs the running-thread count */
#define RUNQ_COUNT(count) FIELD_ALWAYS(struct proc_table, runq[count], FIELD_SIGNED), NULL, PROC_NEED_TASK
#define NOT_BOUND { 0 }
#define P_TRANSLATED 0x00020000u        /* p_flag of a Rosetta process (xnu-11417.101.15 bsd/sys/proc.h:189) */

/* Bindings, with the derive function and the calls each kind needs. */
#define KP(member) FIELD_ALWAYS(ENTRY, kp.member, FIELD_PLAIN)
#define KP_TEXT(member) FIELD_TEXT_ALWAYS(ENTRY, kp.member)
#define TASK(member, kind) FIELD_OF(ENTRY, task.member, task_sts, kind), proc_call_field, PROC_NEED_TASK
#define RUSAGE(member) FIELD_OF(ENTRY, ru.member, rusage_sts, FIELD_PLAIN), proc_call_field, PROC_NEED_RUSAGE
#define RUSAGE_NS(member) FIELD_OF(ENTRY, ru.member, rusage_sts, FIELD_PLAIN), proc_mach_ns, PROC_NEED_RUSAGE
#define OWNER(member, status, need) FIELD_OF(ENTRY, member, status, FIELD_PLAIN), proc_call_field, need
/* A `const char *` member that proc_string serves by the proc agent's
 * rules for a call's status: its place, kind FIELD_NONE (the core does not
 * read it itself). */
#define STRING(member, status, need) \
    { offsetof(ENTRY, member), status, 0, sizeof(char *), FIELD_NONE, FIELD_STATUS_INT, 0 }, proc_string, need
#define SIGNED(member) FIELD_ALWAYS(ENTRY, kp.member, FIELD_SIGNED)
#define NAME(member, need) STRING(member, FIELD_NO_STATUS, need)
/* The name of a uint32_t id member, for fn to find in its name cache */
#define ID_NAME(member, fn, need) \
    { OFFSET_OF_TYPED(ENTRY, kp.member, uint32_t), FIELD_NO_STATUS, 0, sizeof(uint32_t), FIELD_NONE, \
      FIELD_STATUS_INT, 0 }, fn, need
#define THREAD(field) field, proc_thread_field, 0
#define COMPUTED(fn, need) NOT_BOUND, fn, need

static const struct metric_row rows[] = {
    /* cluster 1: psinfo */
    { "proc.nprocs", PROC_CLUSTER_PSINFO, 0, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, UNITS_NONE,
      FIELD_ALWAYS(struct proc_table, nprocs, FIELD_PLAIN) },
    PS("proc.psinfo.pid", 1, PM_TYPE_U32, PM_SEM_DISCRETE, UNITS_NONE, KP(pid)),
    PS("proc.psinfo.ppid", 2, PM_TYPE_U32, PM_SEM_DISCRETE, UNITS_NONE, KP(ppid)),
    PS("proc.psinfo.pgid", 3, PM_TYPE_U32, PM_SEM_DISCRETE, UNITS_NONE, KP(pgid)),
    PS("proc.psinfo.tpgid", 4, PM_TYPE_U32, PM_SEM_DISCRETE, UNITS_NONE, KP(tpgid)),
    PS("proc.psinfo.cwd", 5, PM_TYPE_STRING, PM_SEM_INSTANT, UNITS_NONE,
       STRING(cwd, offsetof(ENTRY, cwd_sts), PROC_NEED_CWD)),
    PS("proc.psinfo.cmd", 6, PM_TYPE_STRING, PM_SEM_DISCRETE, UNITS_NONE, COMPUTED(proc_command, PROC_NEED_ARGS)),
    PS("proc.psinfo.exe", 7, PM_TYPE_STRING, PM_SEM_INSTANT, UNITS_NONE, NAME(exe, PROC_NEED_PATH)),
    PS("proc.psinfo.nice", 8, PM_TYPE_32, PM_SEM_INSTANT, UNITS_NONE, SIGNED(nice)),
    PS("proc.psinfo.majflt", 9, PM_TYPE_U32, PM_SEM_COUNTER, UNITS_COUNT, TASK(pageins, FIELD_PLAIN)),
    PS("proc.psinfo.priority", 10, PM_TYPE_32, PM_SEM_INSTANT, UNITS_NONE, SIGNED(priority), proc_priority),
    PS("proc.psinfo.psargs", 11, PM_TYPE_STRING, PM_SEM_DISCRETE, UNITS_NONE, COMPUTED(proc_psargs, PROC_NEED_ARGS)),
    PS("proc.psinfo.sname", 12, PM_TYPE_STRING, PM_SEM_DISCRETE, UNITS_NONE, FIELD_TEXT_ALWAYS(ENTRY, state)),
    /* milliseconds, as PCP's process tools read these (Linux's proc agent serves them so) */
    PS("proc.psinfo.start_time", 13, PM_TYPE_U64, PM_SEM_DISCRETE, UNITS_MSEC, COMPUTED(proc_start_time_ms, 0)),
    PS("proc.psinfo.utime", 14, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_MSEC,
       FIELD_OF(ENTRY, task.total_user, task_sts, FIELD_PLAIN), proc_utime_ms, PROC_NEED_TASK),
    PS("proc.psinfo.stime", 15, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_MSEC,
       FIELD_OF(ENTRY, task.total_system, task_sts, FIELD_PLAIN), proc_stime_ms, PROC_NEED_TASK),
    PS("proc.psinfo.threads", 16, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_NONE,
       FIELD_OF(ENTRY, task.threadnum, task_sts, FIELD_PLAIN), proc_nthreads, PROC_NEED_TASK),
    PS("proc.psinfo.translated", 17, PM_TYPE_U32, PM_SEM_DISCRETE, UNITS_NONE,
       FIELD_FLAG_OF(ENTRY, kp.flag, P_TRANSLATED)),
    PS("proc.psinfo.tty", 18, PM_TYPE_U32, PM_SEM_DISCRETE, UNITS_NONE, KP(tdev)),
    PS("proc.psinfo.ttyname", 19, PM_TYPE_STRING, PM_SEM_DISCRETE, UNITS_NONE, ID_NAME(tdev, proc_tty_name, PROC_NEED_TTY_NAME)),
    PS("proc.psinfo.wchan", 20, PM_TYPE_U64, PM_SEM_DISCRETE, UNITS_NONE, KP(wchan)),
    PS("proc.psinfo.wchan_s", 21, PM_TYPE_STRING, PM_SEM_INSTANT, UNITS_NONE, KP_TEXT(wmesg)),
    PS("proc.psinfo.wmesg_s", 22, PM_TYPE_STRING, PM_SEM_INSTANT, UNITS_NONE, KP_TEXT(wmesg)),
    PS("proc.psinfo.pswitch", 23, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT, TASK(csw, FIELD_PLAIN)),
    PS("proc.psinfo.usrpri", 24, PM_TYPE_32, PM_SEM_INSTANT, UNITS_NONE, SIGNED(usrpri)),
    PS("proc.psinfo.minflt", 25, PM_TYPE_U32, PM_SEM_COUNTER, UNITS_COUNT,
       FIELD_OF(ENTRY, task.faults, task_sts, FIELD_PLAIN), proc_minflt, PROC_NEED_TASK),
    PS("proc.psinfo.tgid", 26, PM_TYPE_U32, PM_SEM_DISCRETE, UNITS_NONE, KP(pid)),
    /* cluster 3: ids, from the process list (open to all) */
    /* uid is the real one and euid the effective (upstream served them swapped) */
    ROW(PROC_CLUSTER_ID, "proc.id.uid", 0, PM_TYPE_U32, PM_SEM_DISCRETE, UNITS_NONE, KP(ruid)),
    ROW(PROC_CLUSTER_ID, "proc.id.euid", 1, PM_TYPE_U32, PM_SEM_DISCRETE, UNITS_NONE, KP(uid)),
    ROW(PROC_CLUSTER_ID, "proc.id.suid", 2, PM_TYPE_U32, PM_SEM_DISCRETE, UNITS_NONE, KP(svuid)),
    ROW(PROC_CLUSTER_ID, "proc.id.gid", 3, PM_TYPE_U32, PM_SEM_DISCRETE, UNITS_NONE, KP(rgid)),
    ROW(PROC_CLUSTER_ID, "proc.id.uid_nm", 4, PM_TYPE_STRING, PM_SEM_DISCRETE, UNITS_NONE,
        ID_NAME(ruid, proc_user_name, PROC_NEED_RUID_NAME)),
    ROW(PROC_CLUSTER_ID, "proc.id.euid_nm", 5, PM_TYPE_STRING, PM_SEM_DISCRETE, UNITS_NONE,
        ID_NAME(uid, proc_user_name, PROC_NEED_UID_NAME)),
    ROW(PROC_CLUSTER_ID, "proc.id.suid_nm", 6, PM_TYPE_STRING, PM_SEM_DISCRETE, UNITS_NONE,
        ID_NAME(svuid, proc_user_name, PROC_NEED_SVUID_NAME)),
    ROW(PROC_CLUSTER_ID, "proc.id.gid_nm", 7, PM_TYPE_STRING, PM_SEM_DISCRETE, UNITS_NONE,
        ID_NAME(rgid, proc_group_name, PROC_NEED_RGID_NAME)),
    ROW(PROC_CLUSTER_ID, "proc.id.ngid", 8, PM_TYPE_U32, PM_SEM_DISCRETE, UNITS_NONE, KP(ngroups)),
    /* cluster 4: memory */
    ROW(PROC_CLUSTER_MEMORY, "proc.memory.size", 0, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE,
        TASK(virtual_size, FIELD_BYTES_KB)),
    ROW(PROC_CLUSTER_MEMORY, "proc.memory.rss", 1, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE,
        TASK(resident_size, FIELD_BYTES_KB)),
    ROW(PROC_CLUSTER_MEMORY, "proc.memory.footprint", 2, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_BYTE,
        RUSAGE(phys_footprint)),
    /* clusters 5 (I/O), 7 (QoS CPU time) and 100 (energy, cores, wakeups: rusage; GPU time: the registry) */
    ROW(PROC_CLUSTER_IO, "proc.io.read_bytes", 0, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_BYTE, RUSAGE(diskio_bytesread)),
    ROW(PROC_CLUSTER_IO, "proc.io.write_bytes", 1, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_BYTE,
        RUSAGE(diskio_byteswritten)),
    ROW(PROC_CLUSTER_IO, "proc.io.logical_writes", 2, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_BYTE, RUSAGE(logical_writes)),
    /* the QoS classes in the order of struct plat_proc_rusage's qos[] */
    ROW(PROC_CLUSTER_QOS, "proc.cpu.qos.default", 0, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_NSEC, RUSAGE_NS(qos[0])),
    ROW(PROC_CLUSTER_QOS, "proc.cpu.qos.maintenance", 1, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_NSEC, RUSAGE_NS(qos[1])),
    ROW(PROC_CLUSTER_QOS, "proc.cpu.qos.background", 2, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_NSEC, RUSAGE_NS(qos[2])),
    ROW(PROC_CLUSTER_QOS, "proc.cpu.qos.utility", 3, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_NSEC, RUSAGE_NS(qos[3])),
    ROW(PROC_CLUSTER_QOS, "proc.cpu.qos.legacy", 4, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_NSEC, RUSAGE_NS(qos[4])),
    ROW(PROC_CLUSTER_QOS, "proc.cpu.qos.user_initiated", 5, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_NSEC,
        RUSAGE_NS(qos[5])),
    ROW(PROC_CLUSTER_QOS, "proc.cpu.qos.user_interactive", 6, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_NSEC,
        RUSAGE_NS(qos[6])),
    ROW(PROC_CLUSTER_EXTRA, "proc.memory.footprint_peak", 0, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_BYTE,
        RUSAGE(lifetime_max_phys_footprint)),
    ROW(PROC_CLUSTER_EXTRA, "proc.cpu.energy", 1, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT,
        FIELD_OF(ENTRY, ru.energy_nj, rusage_sts, FIELD_PLAIN), proc_arm_v6_count, PROC_NEED_RUSAGE),
    ROW(PROC_CLUSTER_EXTRA, "proc.cpu.pcore_time", 2, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_NSEC,
        COMPUTED(proc_pcore_ns, PROC_NEED_RUSAGE)),
    ROW(PROC_CLUSTER_EXTRA, "proc.cpu.ecore_time", 3, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_NSEC,
        COMPUTED(proc_ecore_ns, PROC_NEED_RUSAGE)),
    ROW(PROC_CLUSTER_EXTRA, "proc.cpu.instructions", 4, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT,
        FIELD_OF(ENTRY, ru.instructions, rusage_sts, FIELD_PLAIN), proc_arm_count, PROC_NEED_RUSAGE),
    ROW(PROC_CLUSTER_EXTRA, "proc.cpu.cycles", 5, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT,
        FIELD_OF(ENTRY, ru.cycles, rusage_sts, FIELD_PLAIN), proc_arm_count, PROC_NEED_RUSAGE),
    ROW(PROC_CLUSTER_EXTRA, "proc.cpu.runnable_time", 6, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_NSEC,
        RUSAGE_NS(runnable_time)),
    ROW(PROC_CLUSTER_EXTRA, "proc.wakeups.pkg_idle", 7, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT,
        RUSAGE(pkg_idle_wkups)),
    ROW(PROC_CLUSTER_EXTRA, "proc.wakeups.interrupt", 8, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT,
        RUSAGE(interrupt_wkups)),
    ROW(PROC_CLUSTER_EXTRA, "proc.gpu.time", 9, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_NSEC,
        FIELD_OF(ENTRY, gpu_ns, gpu_sts, FIELD_PLAIN), proc_call_field, PROC_NEED_GPU),
    /* clusters 6 (descriptors) and 8 (sockets): the owner's and root's only */
    ROW(PROC_CLUSTER_FD, "proc.fd.count", 0, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_NONE,
        OWNER(fds, fds_sts, PROC_NEED_FDS)),
    ROW(PROC_CLUSTER_NET, "proc.net.tcp_count", 0, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_NONE,
        OWNER(tcp, sockets_sts, PROC_NEED_SOCKETS)),
    ROW(PROC_CLUSTER_NET, "proc.net.udp_count", 1, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_NONE,
        OWNER(udp, sockets_sts, PROC_NEED_SOCKETS)),
    /* cluster 101: thread identity (thread instances only) */
    ROW(PROC_CLUSTER_THREAD, "proc.psinfo.tid", 0, PM_TYPE_U64, PM_SEM_DISCRETE, UNITS_NONE,
        THREAD(FIELD_ALWAYS(struct plat_thread, tid, FIELD_PLAIN))),
    ROW(PROC_CLUSTER_THREAD, "proc.psinfo.thread_name", 1, PM_TYPE_STRING, PM_SEM_INSTANT, UNITS_NONE,
        THREAD(FIELD_TEXT_ALWAYS(struct plat_thread, name))),
    /* cluster 102: Linux's names that PCP's process tools require, with its types and units */
    ROW(PROC_CLUSTER_LINUX, "proc.psinfo.guest_time", 0, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_MSEC,
        COMPUTED(proc_guest_time, 0)),
    ROW(PROC_CLUSTER_LINUX, "proc.psinfo.rt_priority", 1, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_NONE,
        FIELD_OF(ENTRY, task.policy, task_sts, FIELD_PLAIN), proc_rt_priority, PROC_NEED_TASK),
    ROW(PROC_CLUSTER_LINUX, "proc.psinfo.rss", 2, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE,
        TASK(resident_size, FIELD_BYTES_KB)),
    ROW(PROC_CLUSTER_LINUX, "proc.psinfo.vsize", 3, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE,
        TASK(virtual_size, FIELD_BYTES_KB)),
    ROW(PROC_CLUSTER_LINUX, "proc.psinfo.policy", 4, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_NONE,
        FIELD_OF(ENTRY, task.policy, task_sts, FIELD_PLAIN), proc_policy, PROC_NEED_TASK),
    /* macOS tells neither the CPU a thread last ran on nor a stack's size */
    ROW(PROC_CLUSTER_LINUX, "proc.psinfo.processor", 5, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_NONE,
        COMPUTED(collector_no_source, 0)),
    ROW(PROC_CLUSTER_LINUX, "proc.memory.vmstack", 6, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_KBYTE,
        COMPUTED(collector_no_source, 0)),
    /* cluster 2: the run queue, counted over the processes; macOS does not swap whole
     * processes out, and its process list holds no kernel threads */
    RUNQ("proc.runq.runnable", 0, RUNQ_COUNT(PROC_RUNQ_RUNNABLE)),
    RUNQ("proc.runq.blocked", 1, RUNQ_COUNT(PROC_RUNQ_BLOCKED)),
    RUNQ("proc.runq.sleeping", 2, RUNQ_COUNT(PROC_RUNQ_SLEEPING)),
    RUNQ("proc.runq.stopped", 3, RUNQ_COUNT(PROC_RUNQ_STOPPED)),
    RUNQ("proc.runq.swapped", 4, COMPUTED(collector_no_source, 0)),
    RUNQ("proc.runq.defunct", 5, RUNQ_COUNT(PROC_RUNQ_DEFUNCT)),
    RUNQ("proc.runq.unknown", 6, RUNQ_COUNT(PROC_RUNQ_UNKNOWN)),
    RUNQ("proc.runq.kernel", 7, COMPUTED(collector_no_source, 0)),
};

/* The calls the next refresh makes: those of every requested row. */
static void
process_want(void *table, const struct metric_row *row)
{
    proc_table_need(table, row->index);
}

static int
process_labels(const void *table, pmInDom indom, unsigned int inst, char *json, size_t len)
{
    const struct proc_entry *e = proc_table_entry(table, inst);

    (void)indom;
    if (e == NULL)
        return -1;
    if (e->thread)
        snprintf(json, len, "{\"pid\":%d,\"tid\":%llu}", (int)e->kp.pid, (unsigned long long)e->thread->tid);
    else
        snprintf(json, len, "{\"pid\":%d}", (int)e->kp.pid);
    return 0;
}

static const struct indom_def process_indom = {
    .serial = PROC_INDOM, .label_name = "process", .instances = proc_table_instances, .entry = proc_table_entry,
};

const struct collector proc_processes_collector = {
    .name = "processes", .rows = rows, .nrows = sizeof(rows) / sizeof(rows[0]), .indom = &process_indom,
    .state_size = sizeof(struct proc_table), .refresh = proc_table_refresh, .want = process_want,
    .instance_labels = process_labels, .teardown = proc_table_teardown,
};
