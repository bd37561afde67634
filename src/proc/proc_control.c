/*
 * Cluster 0: the thread switches, global (proc.control.all.threads, root
 * only) and per client (proc.control.perclient.threads), and their store.
 */
#include "agent.h"
#include "collector.h"
#include "proc_ids.h"
#include "proc_values.h"

static row_derive all_threads, perclient_threads;

enum { ROW_ALL, ROW_PERCLIENT };

static const struct metric_row control_rows[] = {
    [ROW_ALL] = { "proc.control.all.threads", PROC_CLUSTER_CONTROL, 0, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, UNITS_NONE,
      .derive = all_threads },
    [ROW_PERCLIENT] = { "proc.control.perclient.threads", PROC_CLUSTER_CONTROL, 1, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT,
      UNITS_NONE, .derive = perclient_threads },
};

static int
all_threads(const void *state, const void *entry, const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    (void)state;
    (void)entry;
    (void)row;
    (void)inst;
    atom->ul = (uint32_t)proc_access_policy()->threads;
    return PMDA_FETCH_STATIC;
}

static int
perclient_threads(const void *state, const void *entry, const struct metric_row *row, unsigned int inst,
                  pmAtomValue *atom)
{
    (void)state;
    (void)entry;
    (void)row;
    (void)inst;
    atom->ul = (uint32_t)proc_access_threads();
    return PMDA_FETCH_STATIC;
}

const struct collector proc_control_collector = {
    .name = "control", .rows = control_rows, .nrows = sizeof(control_rows) / sizeof(control_rows[0]),
};

/* The switch a stored PMID names (ROW_*), or -1 for any other metric. */
static int
row_of(pmID pmid)
{
    for (unsigned int r = 0; r < sizeof(control_rows) / sizeof(control_rows[0]); r++)
        if (pmID_cluster(pmid) == control_rows[r].cluster && pmID_item(pmid) == control_rows[r].item)
            return (int)r;
    return -1;
}

int
proc_control_store(agent_result *result, pmdaExt *pmda)
{
    (void)pmda;
    for (int i = 0; i < result->numpmid; i++) {
        const pmValueSet *vs = result->vset[i];
        struct proc_client *c = proc_access_client();
        int row = row_of(vs->pmid);
        pmAtomValue v;

        if (row < 0)
            return PM_ERR_PERMISSION;       /* every other metric is read-only */
        if (vs->numval != 1 || pmExtractValue(vs->valfmt, &vs->vlist[0], PM_TYPE_U32, &v, PM_TYPE_U32) < 0)
            return PM_ERR_BADSTORE;
        if (v.ul > 1)
            return PM_ERR_BADSTORE;
        if (row == ROW_ALL) {
            if (proc_policy_allows(proc_access_policy(), c, 0, PROC_OWNER) < 0)
                return PM_ERR_PERMISSION;   /* the global switch is root's (or -A's) */
            proc_access_policy()->threads = (int)v.ul;
        } else {
            c->threads = (int)v.ul;
        }
    }
    return 0;
}
