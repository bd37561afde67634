/*
 * Cluster 12: open files and vnodes against their limits (kern.num_files,
 * kern.maxfiles, kern.num_vnodes, kern.maxvnodes), and the live task and
 * thread totals.
 */
#include "collector.h"
#include "metric_ids.h"
#include "metric_units.h"
#include "sysctl_values.h"

/* The group's values first, so that SYSCTL_FIELD bindings and the task
 * bindings are both offsets into this struct. */
struct vfs_state {
    struct sysctl_state sysctl;
    int tasks_status;
    struct plat_tasks tasks;
    unsigned int logged_tasks;
};

static row_derive files_free;

/* The rows files free is computed from. */
enum { ROW_FILES, ROW_FILES_MAX };

/* Rows with a binding serve a sysctl of the group, or a task total, as it is. */
#define ROW(name, item, sem, ...) { name, CLUSTER_VFS, item, PM_TYPE_U32, COLLECTOR_NO_INDOM, sem, UNITS_NONE, __VA_ARGS__ }
#define TASKS(member) FIELD_OF(struct vfs_state, tasks.member, tasks_status, FIELD_PLAIN)

static const struct metric_row rows[] = {
    [ROW_FILES] = ROW("vfs.files.count", 135, PM_SEM_INSTANT, SYSCTL_FIELD(PLAT_VFS_NUM_FILES)),
    [ROW_FILES_MAX] = ROW("vfs.files.max", 136, PM_SEM_DISCRETE, SYSCTL_FIELD(PLAT_VFS_MAXFILES)),
    ROW("vfs.files.free", 137, PM_SEM_INSTANT, .derive = files_free),
    ROW("vfs.vnodes.count", 138, PM_SEM_INSTANT, SYSCTL_FIELD(PLAT_VFS_NUM_VNODES)),
    ROW("vfs.vnodes.max", 139, PM_SEM_DISCRETE, SYSCTL_FIELD(PLAT_VFS_MAXVNODES)),
    ROW("kernel.all.nprocs", 140, PM_SEM_INSTANT, TASKS(tasks)),
    ROW("kernel.all.nthreads", 141, PM_SEM_INSTANT, TASKS(threads)),
};

static int
vfs_refresh(void *state, struct refresh_call *call)
{
    struct vfs_state *s = state;
    const struct platform *p = call->p;
    int sts;

    if ((sts = sysctl_values_refresh(call, PLAT_SYSCTL_VFS, &s->sysctl)) < 0)
        return sts;
    s->tasks_status = p->tasks(p->ctx, &s->tasks);
    collector_note_parts(call, "task counts", s->tasks_status < 0, &s->logged_tasks, p->error(p->ctx));
    return 0;
}

/* Files that can still be opened; 0 when kern.maxfiles was lowered below
 * the number open (the kernel allows that and refuses new opens). */
static int
files_free(const void *state, const void *entry, const struct metric_row *row, unsigned int inst,
           pmAtomValue *atom)
{
    pmAtomValue count, max;
    int sts;

    (void)entry;
    (void)row;
    (void)inst;
    if ((sts = collector_field(&rows[ROW_FILES], state, &count)) != PMDA_FETCH_STATIC ||
        (sts = collector_field(&rows[ROW_FILES_MAX], state, &max)) != PMDA_FETCH_STATIC)
        return sts;
    atom->ul = max.ul > count.ul ? max.ul - count.ul : 0;
    return PMDA_FETCH_STATIC;
}

const struct collector vfs_collector = {
    .name = "vfs",
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .state_size = sizeof(struct vfs_state),
    .refresh = vfs_refresh,
};
