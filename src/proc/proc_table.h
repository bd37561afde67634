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
#include "platform.h"

enum {
    PROC_NEED_TASK = 1u, PROC_NEED_RUSAGE = 2u, PROC_NEED_ARGS = 4u, PROC_NEED_PATH = 8u,
    PROC_NEED_CWD = 16u, PROC_NEED_FDS = 32u, PROC_NEED_SOCKETS = 64u,
};

/* A process, or (thread != NULL) one of its threads. */
struct proc_entry {
    unsigned int inst;
    struct plat_proc kp;
    const struct plat_thread *thread;
    char *cmd;                      /* argv joined, or NULL if unknown */
    char *exe;                      /* proc_pidpath, or NULL */
    char *cwd;
    int task_sts, rusage_sts, cwd_sts, fds_sts;
    struct plat_proc_task task;
    struct plat_proc_rusage ru;
    uint32_t fds, tcp, udp;
    char state;                     /* R S T Z I D ? */
};

/* What a process keeps between refreshes: its key and strings. */
struct proc_slot {
    int32_t pid;
    int64_t start_sec;
    int32_t start_usec;
    char comm[PLAT_COMM_MAX];
    char *cmd, *exe;
};

struct name_entry {
    uint32_t id;
    char *name;                     /* NULL: no name (yet) */
    int sts;                        /* the lookup's result: -ENOENT, there is none */
    unsigned int round;             /* the refresh of the last lookup */
};

/* Names by id, each looked up once, and a failed lookup again at the next
 * refresh, not at every value: the directory service behind getpwuid_r can
 * be slow, and pmcd waits for this agent's answer. That there is no such
 * name (-ENOENT) is known for good. */
struct name_cache {
    struct name_entry *entries;
    unsigned int n, cap;
};

/* Names by id, looked up at fetch: apart from the table, as a fetch reads
 * the table but fills these. */
struct name_lookups {
    struct name_cache users, groups, ttys;
};

/* The table: the processes family's state. Only proc_table.c reads its
 * members. */
struct proc_table {
    const struct platform *p;
    unsigned int needs;
    struct plat_timebase timebase;
    struct plat_clock clock;
    int clock_sts;
    int timebase_sts;
    int sockets_sts;
    int machine_sts;                /* the last uname's result, until one succeeds */
    int arm;                        /* uname.machine is arm64 */
    unsigned int round;             /* refreshes so far */
    /* the live processes' slots, dense, and the previous refresh's (swapped each refresh) */
    struct proc_slot *slots, *old_slots;
    unsigned int nslots, nold_slots, slots_cap, old_slots_cap;
    struct id_index by_pid, old_by_pid;
    struct proc_entry *entries;
    unsigned int nentries, nprocs, cap;
    struct id_index by_inst;        /* instance id -> entry */
    struct plat_thread *threads;    /* copies: the source's buffer is reused per process */
    unsigned int *thread_owner;     /* each thread's process entry */
    unsigned int nthreads, threads_cap;
    pmdaInstid *set;
    unsigned int set_cap;
    char (*names)[40];
    struct name_lookups *lookups;   /* allocated by the first refresh */
};

/* Ask for the calls the next refresh makes (the want hooks). */
void proc_table_need(struct proc_table *t, unsigned int needs);

/* Refresh (the collector's); 0 or a negative error (the list failed). */
int proc_table_refresh(void *table, struct refresh_call *call);

/* The entry for an instance of the last refresh, or NULL. */
const struct proc_entry *proc_table_entry(const struct proc_table *t, unsigned int inst);

/* After a refresh: how many processes, and how many in a state (threads not counted). */
unsigned int proc_table_count(const struct proc_table *t);
unsigned int proc_table_count_state(const struct proc_table *t, char state);
/* Whether the refresh read the socket owners: 0, or why not. */
int proc_table_sockets_status(const struct proc_table *t);

/* Conversions that the platform data needs. */
uint64_t proc_table_mach_to_ns(const struct proc_table *t, uint64_t mach);
/* 1 on Apple silicon, 0 on Intel, or why the machine is not known yet. */
int proc_table_arm(const struct proc_table *t);
int proc_table_timebase_status(const struct proc_table *t);
/* A process's start in ns since boot; 0 or a negative error. */
int proc_table_since_boot(const struct proc_table *t, const struct plat_proc *kp, uint64_t *ns);

/* Names by id, read once per id (a failed look-up too): NULL when unknown. */
const char *proc_table_user(const struct proc_table *t, uint32_t uid);
const char *proc_table_group(const struct proc_table *t, uint32_t gid);
const char *proc_table_tty(const struct proc_table *t, uint32_t dev);

/* The collector's instances and teardown. */
int proc_table_instances(void *table, pmdaInstid **set);
void proc_table_teardown(void *table);

#endif
