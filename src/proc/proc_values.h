/*
 * What the proc agent's fetches share: the entry of an instance checked
 * against the client's access, how a per-process failure is returned, a
 * string value.
 */
#ifndef PMDA_DARWIN_PROC_VALUES_H
#define PMDA_DARWIN_PROC_VALUES_H

#include "collector.h"
#include "metric_units.h"
#include "proc_ids.h"
#include "proc_context.h"
#include "proc_table.h"


/* The entry of inst if this client may see rows of class cls, else NULL
 * with *sts PM_ERR_INST or PM_ERR_PERMISSION. */
const struct proc_entry *proc_visible(const struct proc_table *t, unsigned int inst, enum proc_access_class cls, int *sts);

/* A per-process call's failure as a fetch returns it: the kernel's refusal
 * is a permission error, a process gone an instance error, a zombie's
 * missing data no value. */
int proc_fetch_error(int sts);

/* A string value (PM_ERR_VALUE when there is none). */
int proc_fetch_string(pmAtomValue *atom, const char *s);

/* The processes family (proc_processes.c): its instance domain and labels,
 * and each cluster's values and what they need read (want). */
extern const struct indom_def proc_process_indom;
extern const struct collector proc_processes_collector;
int proc_process_labels(const void *table, pmInDom indom, unsigned int inst, char *json, size_t len);
int proc_psinfo_fetch(const struct proc_table *t, const struct metric_row *row, unsigned int inst, pmAtomValue *atom);
void proc_psinfo_want(struct proc_table *t, const struct metric_row *row);
int proc_id_fetch(const struct proc_table *t, const struct metric_row *row, unsigned int inst, pmAtomValue *atom);
int proc_memory_fetch(const struct proc_table *t, const struct metric_row *row, unsigned int inst, pmAtomValue *atom);
void proc_memory_want(struct proc_table *t, const struct metric_row *row);
int proc_io_fetch(const struct proc_table *t, const struct metric_row *row, unsigned int inst, pmAtomValue *atom);
int proc_qos_fetch(const struct proc_table *t, const struct metric_row *row, unsigned int inst, pmAtomValue *atom);
int proc_extra_fetch(const struct proc_table *t, const struct metric_row *row, unsigned int inst, pmAtomValue *atom);
void proc_rusage_want(struct proc_table *t, const struct metric_row *row);
int proc_fd_fetch(const struct proc_table *t, const struct metric_row *row, unsigned int inst, pmAtomValue *atom);
void proc_fd_want(struct proc_table *t, const struct metric_row *row);
int proc_net_fetch(const struct proc_table *t, const struct metric_row *row, unsigned int inst, pmAtomValue *atom);
void proc_net_want(struct proc_table *t, const struct metric_row *row);
int proc_thread_fetch(const struct proc_table *t, const struct metric_row *row, unsigned int inst, pmAtomValue *atom);
int proc_linux_fetch(const struct proc_table *t, const struct metric_row *row, unsigned int inst, pmAtomValue *atom);
void proc_linux_want(struct proc_table *t, const struct metric_row *row);
int proc_runq_fetch(const struct proc_table *t, const struct metric_row *row, unsigned int inst, pmAtomValue *atom);
void proc_runq_want(struct proc_table *t, const struct metric_row *row);

#endif
