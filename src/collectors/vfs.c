/*
 * Cluster 12: open files and vnodes against their limits (kern.num_files,
 * kern.maxfiles, kern.num_vnodes, kern.maxvnodes), and the live task and
 * thread totals.
 */
#include "collector.h"
#include "metric_units.h"
#include "sysctl_values.h"

static int files_free(const struct metric_row *row, unsigned int inst, pmAtomValue *atom);
static int nprocs(const struct metric_row *row, unsigned int inst, pmAtomValue *atom);
static int nthreads(const struct metric_row *row, unsigned int inst, pmAtomValue *atom);

/* The rows files free is computed from. */
enum { ROW_FILES, ROW_FILES_MAX };

/* Rows with a binding serve a sysctl of the group as it is. */
#define ROW(name, item, sem, ...) { name, CLUSTER_VFS, item, PM_TYPE_U32, COLLECTOR_NO_INDOM, sem, UNITS_NONE, __VA_ARGS__ }

static const struct metric_row rows[] = {
    [ROW_FILES] = ROW("vfs.files.count", 135, PM_SEM_INSTANT, SYSCTL_FIELD(PLAT_VFS_NUM_FILES)),
    [ROW_FILES_MAX] = ROW("vfs.files.max", 136, PM_SEM_DISCRETE, SYSCTL_FIELD(PLAT_VFS_MAXFILES)),
    ROW("vfs.files.free", 137, PM_SEM_INSTANT, .derive = files_free),
    ROW("vfs.vnodes.count", 138, PM_SEM_INSTANT, SYSCTL_FIELD(PLAT_VFS_NUM_VNODES)),
    ROW("vfs.vnodes.max", 139, PM_SEM_DISCRETE, SYSCTL_FIELD(PLAT_VFS_MAXVNODES)),
    ROW("kernel.all.nprocs", 140, PM_SEM_INSTANT, .derive = nprocs),
    ROW("kernel.all.nthreads", 141, PM_SEM_INSTANT, .derive = nthreads),
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
files_free(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    pmAtomValue count, max;
    int sts;

    (void)row;
    (void)inst;
    if ((sts = collector_field(&rows[ROW_FILES], &values, 0, &count)) != PMDA_FETCH_STATIC ||
        (sts = collector_field(&rows[ROW_FILES_MAX], &values, 0, &max)) != PMDA_FETCH_STATIC)
        return sts;
    atom->ul = max.ul > count.ul ? max.ul - count.ul : 0;
    return PMDA_FETCH_STATIC;
}

/* A task total, or its read's error. */
static int
task_total(uint32_t total, pmAtomValue *atom)
{
    if (tasks_status < 0)
        return collector_error(tasks_status);
    atom->ul = total;
    return PMDA_FETCH_STATIC;
}

static int
nprocs(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    (void)row;
    (void)inst;
    return task_total(tasks.tasks, atom);
}

static int
nthreads(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    (void)row;
    (void)inst;
    return task_total(tasks.threads, atom);
}

static int
vfs_fetch(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    (void)inst;
    return collector_field(row, &values, 0, atom);
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
