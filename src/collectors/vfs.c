/*
 * Cluster 12: open files and vnodes against their limits (kern.num_files,
 * kern.maxfiles, kern.num_vnodes, kern.maxvnodes), and the live task and
 * thread totals.
 */
#include "collector.h"
#include "metric_units.h"
#include "sysctl_values.h"

enum { ITEM_FILES = 135, ITEM_FILES_MAX, ITEM_FILES_FREE, ITEM_VNODES, ITEM_VNODES_MAX, ITEM_NPROCS, ITEM_NTHREADS };

/* Rows with a binding serve a sysctl of the group as it is. */
#define ROW(name, item, sem, ...) { name, CLUSTER_VFS, item, PM_TYPE_U32, COLLECTOR_NO_INDOM, sem, UNITS_NONE, __VA_ARGS__ }

static const struct metric_row rows[] = {
    ROW("vfs.files.count", ITEM_FILES, PM_SEM_INSTANT, SYSCTL_FIELD(PLAT_VFS_NUM_FILES)),
    ROW("vfs.files.max", ITEM_FILES_MAX, PM_SEM_DISCRETE, SYSCTL_FIELD(PLAT_VFS_MAXFILES)),
    ROW("vfs.files.free", ITEM_FILES_FREE, PM_SEM_INSTANT),
    ROW("vfs.vnodes.count", ITEM_VNODES, PM_SEM_INSTANT, SYSCTL_FIELD(PLAT_VFS_NUM_VNODES)),
    ROW("vfs.vnodes.max", ITEM_VNODES_MAX, PM_SEM_DISCRETE, SYSCTL_FIELD(PLAT_VFS_MAXVNODES)),
    ROW("kernel.all.nprocs", ITEM_NPROCS, PM_SEM_INSTANT),
    ROW("kernel.all.nthreads", ITEM_NTHREADS, PM_SEM_INSTANT),
};

static struct plat_sysctl_set values;
static int tasks_status;
static struct plat_tasks tasks;
static unsigned int logged_values, logged_tasks;

static int
vfs_refresh(const struct platform *p, pmInDom indom, const char **reason)
{
    int sts;

    (void)reason;
    (void)indom;
    if ((sts = sysctl_values_refresh(p, PLAT_SYSCTL_VFS, &values, "vfs", &logged_values)) < 0)
        return sts;
    tasks_status = p->tasks(p->ctx, &tasks);
    collector_note_parts("vfs task counts", tasks_status < 0, &logged_tasks, p->error(p->ctx));
    return 0;
}

/* Files that can still be opened; 0 when kern.maxfiles was lowered below
 * the number open (the kernel allows that and refuses new opens). */
static int
fetch_files_free(pmAtomValue *atom)
{
    pmAtomValue count, max;
    int sts;

    if ((sts = sysctl_values_fetch(&values, PLAT_VFS_NUM_FILES, PM_TYPE_U32, &count)) != PMDA_FETCH_STATIC ||
        (sts = sysctl_values_fetch(&values, PLAT_VFS_MAXFILES, PM_TYPE_U32, &max)) != PMDA_FETCH_STATIC)
        return sts;
    atom->ul = max.ul > count.ul ? max.ul - count.ul : 0;
    return PMDA_FETCH_STATIC;
}

static int
vfs_fetch(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    (void)inst;
    if (row->field.kind != FIELD_NONE)
        return collector_field(row, &values, 0, atom);
    if (row->item == ITEM_FILES_FREE)
        return fetch_files_free(atom);
    if (tasks_status < 0)
        return collector_error(tasks_status);
    atom->ul = row->item == ITEM_NPROCS ? tasks.tasks : tasks.threads;
    return PMDA_FETCH_STATIC;
}

static void
vfs_teardown(pmInDom indom)
{
    (void)indom;
    logged_values = logged_tasks = 0;
}

const struct collector vfs_collector = {
    .name = "vfs",
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .refresh = vfs_refresh,
    .fetch = vfs_fetch,
    .teardown = vfs_teardown,
};
