/*
 * The process table the proc agent's collectors share: one refresh reads
 * the process list and, per process, only the calls that the requested
 * rows need (PROC_NEED_*). Processes are keyed by pid and start time, so a
 * reused pid is a new instance and no rate spans two processes; strings
 * that do not change (command line, executable) are read once per process
 * (again only if it execs another program, seen as a new p_comm).
 */
#ifndef PMDA_DARWIN_PROC_TABLE_H
#define PMDA_DARWIN_PROC_TABLE_H

#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include "collector.h"
#include "id_index.h"
#include "name_cache.h"
#include "platform.h"

/* What a row needs read for each process beyond the list (its row's index,
 * which the want hook hands the refresh): a per-process call, or a name
 * looked up by id. */
enum {
    PROC_NEED_TASK = 1u << 0, PROC_NEED_RUSAGE = 1u << 1, PROC_NEED_ARGS = 1u << 2, PROC_NEED_PATH = 1u << 3,
    PROC_NEED_CWD = 1u << 4, PROC_NEED_FDS = 1u << 5, PROC_NEED_SOCKETS = 1u << 6,
    PROC_NEED_RUID_NAME = 1u << 7, PROC_NEED_UID_NAME = 1u << 8, PROC_NEED_SVUID_NAME = 1u << 9,
    PROC_NEED_RGID_NAME = 1u << 10, PROC_NEED_TTY_NAME = 1u << 11, PROC_NEED_GPU = 1u << 12,
};

/* The calls whose data macOS keeps to the process's owner and root (xnu-11417.101.15
 * bsd/kern/proc_info.c:217, 2187 proc_security_policy, CHECK_SAME_USER, for the fd
 * and vnode path flavors): their rows are PROC_OWNER, the others public. */
#define PROC_OWNER_CALLS (PROC_NEED_CWD | PROC_NEED_FDS | PROC_NEED_SOCKETS)

/* A process, or (thread != NULL) one of its threads, with what the
 * request's rows need: a call's status is 0, or why its fields have no
 * value (-EAGAIN: not asked for; -ENODATA: a zombie has none). Strings
 * point into the process's slot, valid until the next refresh. */
struct proc_entry {
    unsigned int inst;
    struct plat_proc kp;
    const struct plat_thread *thread;
    const char *cmd;                /* argv joined, or NULL (none, or not read) */
    char bracketed[PLAT_COMM_MAX + 2];  /* "(p_comm)", ps's command line without arguments */
    const char *exe;                /* proc_pidpath, or NULL */
    char *cwd;
    int task_sts, rusage_sts, cwd_sts, fds_sts, sockets_sts, gpu_sts;
    struct plat_proc_task task;
    struct plat_proc_rusage ru;
    uint32_t fds, tcp, udp;
    uint64_t gpu_ns;                /* GPU time of the process's GPU clients (gpu_clients_decode.h) */
    char state[2];                  /* R S T Z I D ?, as ps shows it */
};

/* What a process keeps between refreshes: its key and strings. */
struct proc_slot {
    int32_t pid;
    int64_t start_sec;
    int32_t start_usec;
    char comm[PLAT_COMM_MAX];
    char *cmd, *exe;
};

/* The run queue (proc.runq.*): processes counted by the state they are in. */
enum proc_runq {
    PROC_RUNQ_RUNNABLE, PROC_RUNQ_BLOCKED, PROC_RUNQ_SLEEPING, PROC_RUNQ_STOPPED, PROC_RUNQ_DEFUNCT,
    PROC_RUNQ_UNKNOWN, PROC_RUNQ_COUNTS
};

/* The table: the processes collector's state. Only proc_table.c writes its
 * members; rows bind nprocs and runq. */
struct proc_table {
    unsigned int needs;
    struct plat_timebase timebase;
    struct plat_clock clock;
    int clock_sts;
    int timebase_sts;
    int machine_sts;                /* the last uname's result, until one succeeds */
    int arm;                        /* uname.machine is arm64 */
    unsigned int round;             /* refreshes so far */
    /* the live processes' slots, dense, and the previous refresh's (swapped each refresh) */
    struct proc_slot *slots, *old_slots;
    unsigned int nslots, nold_slots, slots_cap, old_slots_cap;
    struct id_index by_pid, old_by_pid;
    struct proc_entry *entries;
    unsigned int nentries, nprocs, cap;
    int32_t runq[PROC_RUNQ_COUNTS];
    struct id_index by_inst;        /* instance id -> entry */
    struct plat_thread *threads;    /* copies: the source's buffer is reused per process */
    unsigned int *thread_owner;     /* each thread's process entry */
    unsigned int nthreads, threads_cap;
    pmdaInstid *set;
    unsigned int set_cap;
    char (*names)[40];
    struct name_cache users, groups, ttys;      /* the names the rows find by id */
    struct gpu_time *gpu_times;     /* room for the GPU clients' times by pid, one per client */
    unsigned int gpu_times_cap;
};

/* Ask for the calls the next refresh makes (the want hooks). */
void proc_table_need(struct proc_table *t, unsigned int needs);

/* Refresh (the collector's); 0 or a negative error (the list failed). */
int proc_table_refresh(void *table, struct refresh_call *call);

/* The struct proc_entry of an instance of the last refresh, or NULL (the
 * processes indom's entry function). */
const void *proc_table_entry(const void *table, unsigned int inst);

/* Conversions that the platform data needs. */
uint64_t proc_table_mach_to_ns(const struct proc_table *t, uint64_t mach);
/* 1 on Apple silicon, 0 on Intel, or why the machine is not known yet. */
int proc_table_arm(const struct proc_table *t);
int proc_table_timebase_status(const struct proc_table *t);
/* A process's start in ns since boot; 0 or a negative error. */
int proc_table_since_boot(const struct proc_table *t, const struct plat_proc *kp, uint64_t *ns);

/* The collector's instances and teardown. */
int proc_table_instances(void *table, pmdaInstid **set);
void proc_table_teardown(void *table);

#endif
