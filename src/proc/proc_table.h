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

/* Ask for the calls the next refresh makes (the want hooks). */
void proc_table_need(unsigned int needs);

/* Refresh; 0 or a negative error (the list failed). */
int proc_table_refresh(const struct platform *p, pmInDom indom, const char **reason);

/* The entry for an instance of the last refresh, or NULL. */
const struct proc_entry *proc_table_entry(unsigned int inst);

/* After a refresh: how many processes, and how many in a state (threads not counted). */
unsigned int proc_table_count(void);
unsigned int proc_table_count_state(char state);
/* Whether the refresh read the socket owners: 0, or why not. */
int proc_table_sockets_status(void);

/* Conversions that the platform data needs. */
uint64_t proc_table_mach_to_ns(uint64_t mach);
/* 1 on Apple silicon, 0 on Intel, or why the machine is not known yet. */
int proc_table_arm(void);
int proc_table_timebase_status(void);
/* A process's start in ns since boot; 0 or a negative error. */
int proc_table_since_boot(const struct plat_proc *kp, uint64_t *ns);

/* Names by id, read once per id (a failed look-up too): NULL when unknown. */
const char *proc_table_user(uint32_t uid);
const char *proc_table_group(uint32_t gid);
const char *proc_table_tty(uint32_t dev);

int proc_table_instances(pmdaInstid **set);
void proc_table_teardown(pmInDom indom);

#endif
