/*
 * Cluster 105: what df does not print but a Mac administrator asks: whether
 * a filesystem is mounted read-only (the sealed APFS system volume is), and
 * whether it is local; from cluster 5's read of the mounts.
 */
#include "collector.h"
#include "metric_units.h"
#include "filesys.h"

enum { ITEM_READONLY = 0, ITEM_LOCAL };


static const struct metric_row rows[] = {
    { "filesys.readonly", ITEM_READONLY, PM_TYPE_U32, FILESYS_INDOM, PM_SEM_INSTANT, UNITS_NONE },
    { "filesys.local", ITEM_LOCAL, PM_TYPE_U32, FILESYS_INDOM, PM_SEM_INSTANT, UNITS_NONE },
};

static int
filesys_state_refresh(const struct platform *p, pmInDom indom)
{
    (void)p;
    (void)indom;
    return 0;       /* cluster 5, a dependency, has read the mounts */
}

static int
filesys_state_fetch(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    const struct plat_mount *m = filesys_of_inst(inst);

    if (m == NULL)
        return PM_ERR_INST;
    atom->ul = (m->flags & (row->item == ITEM_READONLY ? PLAT_MNT_RDONLY : PLAT_MNT_LOCAL)) != 0;
    return PMDA_FETCH_STATIC;
}

const struct collector filesys_state_collector = {
    .name = "filesystem state",
    .cluster = 105,
    .ndepends = 1,
    .depends = { FILESYS_CLUSTER },
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .refresh = filesys_state_refresh,
    .fetch = filesys_state_fetch,
};
