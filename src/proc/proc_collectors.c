/*
 * Cluster 1 (psinfo) of the processes family (proc_processes.c), the
 * process indom and its labels, and cluster 2, the run queue counted over
 * the same table (proc_table.c), with upstream darwin_proc's names and
 * PMIDs (domain 3). Each row says which per-process calls it needs.
 */
#include "convert.h"
#include "proc_values.h"

#include <errno.h>
#include <string.h>

/* What a row needs from the table, and who may see it. */
struct row_use {
    unsigned int needs;
    enum proc_access_class cls;
};

#define TASK_OR_ERROR(e) do { if ((e)->thread == NULL && (e)->task_sts < 0) return proc_fetch_error((e)->task_sts); } while (0)

/* ---- cluster 1: psinfo, the process list and the table's refresh ---- */

/* By item; an item not listed needs only the list and is public. */
static const struct row_use psinfo_use[] = {
    [5] = { PROC_NEED_CWD, PROC_OWNER }, [6] = { PROC_NEED_ARGS, PROC_PUBLIC },
    [7] = { PROC_NEED_PATH, PROC_PUBLIC }, [9] = { PROC_NEED_TASK, PROC_PUBLIC },
    [11] = { PROC_NEED_ARGS, PROC_PUBLIC }, [12] = { PROC_NEED_TASK, PROC_PUBLIC },
    [14] = { PROC_NEED_TASK, PROC_PUBLIC }, [15] = { PROC_NEED_TASK, PROC_PUBLIC },
    [16] = { PROC_NEED_TASK, PROC_PUBLIC },
    [23] = { PROC_NEED_TASK, PROC_PUBLIC }, [25] = { PROC_NEED_TASK, PROC_PUBLIC },
};

static struct row_use
use_of(const struct metric_row *row)
{
    static const struct row_use list_only = { 0, PROC_PUBLIC };

    return row->item < sizeof(psinfo_use) / sizeof(psinfo_use[0]) ? psinfo_use[row->item] : list_only;
}

void
proc_psinfo_want(struct proc_table *t, const struct metric_row *row)
{
    proc_table_need(t, use_of(row).needs);
}

int
proc_psinfo_fetch(const struct proc_table *t, const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    const struct proc_entry *e;
    uint64_t ns;
    int sts;

    if (row->item == 0) {
        atom->ul = proc_table_count(t);
        return PMDA_FETCH_STATIC;
    }
    if ((e = proc_visible(t, inst, use_of(row).cls, &sts)) == NULL)
        return sts;
    switch (row->item) {
    case 1: case 26: atom->ul = (uint32_t)e->kp.pid; break;
    case 2: atom->ul = (uint32_t)e->kp.ppid; break;
    case 3: atom->ul = (uint32_t)e->kp.pgid; break;
    case 4: atom->ul = (uint32_t)e->kp.tpgid; break;
    case 5:
        if (e->cwd_sts < 0)
            return proc_fetch_error(e->cwd_sts);
        return proc_fetch_string(atom, e->cwd);
    case 6:
        return proc_fetch_string(atom, e->cmd ? e->cmd : e->kp.comm);
    case 7:
        return proc_fetch_string(atom, e->exe);
    case 8: atom->l = e->kp.nice; break;
    case 9: TASK_OR_ERROR(e); atom->ul = (uint32_t)e->task.pageins; break;
    case 10: atom->l = e->thread ? e->thread->curpri : e->kp.priority; break;
    case 11: {
        static char bracketed[PLAT_COMM_MAX + 2];

        if (e->cmd)
            return proc_fetch_string(atom, e->cmd);
        snprintf(bracketed, sizeof(bracketed), "(%s)", e->kp.comm);     /* no arguments: as ps shows it */
        return proc_fetch_string(atom, bracketed);
    }
    case 12: {
        static char state[2];

        state[0] = e->state;
        return proc_fetch_string(atom, state);
    }
    case 13:
        if ((sts = proc_table_since_boot(t, &e->kp, &ns)) < 0)
            return collector_error(sts);
        atom->ull = ns / NS_PER_MS;
        break;
    case 14: case 15:
        if (e->thread) {
            atom->ull = (row->item == 14 ? e->thread->user_ns : e->thread->system_ns) / NS_PER_MS;
            break;
        }
        TASK_OR_ERROR(e);
        if (proc_table_timebase_status(t) < 0)
            return collector_error(proc_table_timebase_status(t));
        atom->ull = proc_table_mach_to_ns(t, row->item == 14 ? e->task.total_user : e->task.total_system) / NS_PER_MS;
        break;
    case 16: TASK_OR_ERROR(e); atom->ul = e->thread ? 1 : (uint32_t)e->task.threadnum; break;
    case 17: atom->ul = (e->kp.flag & 0x20000u) != 0; break;       /* P_TRANSLATED: Rosetta */
    case 18: atom->ul = e->kp.tdev; break;
    case 19: {
        const char *tty = proc_table_tty(t, e->kp.tdev);

        return proc_fetch_string(atom, tty ? tty : "?");
    }
    case 20: atom->ull = e->kp.wchan; break;
    case 21: case 22: return proc_fetch_string(atom, e->kp.wmesg);
    case 23: TASK_OR_ERROR(e); atom->ull = (uint64_t)e->task.csw; break;
    case 24: atom->l = e->kp.usrpri; break;
    case 25:
        TASK_OR_ERROR(e);
        if (e->task.faults == INT32_MAX)
            return PM_ERR_VALUE;    /* the kernel's count saturated: faults - pageins would go backwards */
        atom->ul = (uint32_t)(e->task.faults - e->task.pageins);
        break;
    default:
        return PM_ERR_PMID;
    }
    return PMDA_FETCH_STATIC;
}

const struct indom_def proc_process_indom = {
    .serial = PROC_INDOM, .label_name = "process", .instances = proc_table_instances,
};

int
proc_process_labels(const void *table, pmInDom indom, unsigned int inst, char *json, size_t len)
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

/* ---- cluster 2: run queue, counted over the table ---- */

void
proc_runq_want(struct proc_table *t, const struct metric_row *row)
{
    (void)row;
    proc_table_need(t, PROC_NEED_TASK);     /* R needs the running-thread count */
}

int
proc_runq_fetch(const struct proc_table *t, const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    (void)inst;
    switch (row->item) {
    case 0: atom->l = (int32_t)proc_table_count_state(t, 'R'); break;
    case 1: atom->l = (int32_t)proc_table_count_state(t, 'D'); break;
    case 2: atom->l = (int32_t)(proc_table_count_state(t, 'S') + proc_table_count_state(t, 'I')); break;
    case 3: atom->l = (int32_t)proc_table_count_state(t, 'T'); break;
    case 4: return PM_ERR_APPVERSION;       /* macOS does not swap whole processes out */
    case 5: atom->l = (int32_t)proc_table_count_state(t, 'Z'); break;
    case 6: atom->l = (int32_t)proc_table_count_state(t, '?'); break;
    case 7: return PM_ERR_APPVERSION;       /* the process list holds no kernel threads */
    default:
        return PM_ERR_PMID;
    }
    return PMDA_FETCH_STATIC;
}
