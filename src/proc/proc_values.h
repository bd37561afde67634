/*
 * The values of the processes collector's rows that the core cannot read by
 * itself (proc_processes.c names them): each is a row_derive, handed the
 * process table and the instance's struct proc_entry. A row's index is the
 * calls it needs (PROC_NEED_*); those of PROC_OWNER_CALLS make it owner-only.
 */
#ifndef PMDA_DARWIN_PROC_VALUES_H
#define PMDA_DARWIN_PROC_VALUES_H

#include "collector.h"
#include "metric_units.h"
#include "proc_ids.h"
#include "proc_context.h"
#include "proc_table.h"

/* The processes collector (proc_processes.c). */
extern const struct collector proc_processes_collector;

/* A per-process call's failure as a fetch returns it: the kernel's refusal
 * is a permission error, a process gone an instance error, a zombie's
 * missing data no value. */
int proc_fetch_error(int sts);

/* Whether this client may see the row of e (its index's calls), then
 * whether the call its binding's status names gave a value: 0, or the
 * error a fetch returns. */
int proc_status(const struct metric_row *row, const struct proc_entry *e);

/* Mach time in ns into atom, once the timebase is known. */
int proc_ns_of(const void *table, uint64_t ticks, pmAtomValue *atom);

/* What the row's binding says, for a client that may see it: */
row_derive proc_call_field;         /* a field a per-process call filled, after the call's status */
row_derive proc_string;             /* the string a `const char *` member points to (NULL: no value) */
row_derive proc_mach_ns;            /* a field in Mach time, served in ns */
row_derive proc_thread_field;       /* a field of a thread instance's struct plat_thread */
/* The name of a uint32_t id member (the binding's offset), as the refresh
 * looked it up: a user, a group, a terminal ("?" for none). */
row_derive proc_user_name, proc_group_name, proc_tty_name;

/* Computed (proc_computed.c). */
row_derive proc_command, proc_psargs;   /* the arguments, else p_comm, or "(p_comm)" as ps shows it */
row_derive proc_start_time_ms, proc_utime_ms, proc_stime_ms, proc_nthreads, proc_priority, proc_minflt;
row_derive proc_arm_count, proc_arm_v6_count, proc_pcore_ns, proc_ecore_ns;

/* Linux's names that PCP's process tools require (proc_linux_names.c). */
row_derive proc_guest_time, proc_rt_priority, proc_policy;

#endif
