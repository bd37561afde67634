/*
 * Cluster 18: login sessions from the utmpx records.
 *
 * A session is a USER_PROCESS record: one login on a console, terminal or
 * ssh connection; boot time, dead process and shutdown records are not
 * sessions.
 */
#include "collector.h"

#include <string.h>

enum { ITEM_NUSERS = 187, ITEM_NROOTS = 188, ITEM_NSESSIONS = 189 };

#define ROW(name, item) { name, CLUSTER_LOGIN, item, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, PMDA_PMUNITS(0, 0, 0, 0, 0, 0) }

static const struct metric_row rows[] = {
    ROW("kernel.all.nusers", ITEM_NUSERS),
    ROW("kernel.all.nroots", ITEM_NROOTS),
    ROW("kernel.all.nsessions", ITEM_NSESSIONS),
};

static uint32_t nusers, nroots, nsessions;

static int
login_refresh(const struct platform *p, pmInDom indom, const char **reason)
{
    struct plat_login_set set;
    int sts;

    (void)reason;
    (void)indom;
    if ((sts = p->logins(p->ctx, &set)) < 0)
        return collector_error(sts);
    nusers = nroots = nsessions = 0;
    for (unsigned int i = 0; i < set.n; i++) {
        const struct plat_login *l = &set.login[i];

        if (l->type != PLAT_UTMPX_USER_PROCESS)
            continue;
        nsessions++;
        if (l->user[0] == '\0')
            continue;
        nusers++;
        nroots += strcmp(l->user, "root") == 0;
    }
    return 0;
}

static int
login_fetch(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    (void)inst;
    atom->ul = row->item == ITEM_NUSERS ? nusers : row->item == ITEM_NROOTS ? nroots : nsessions;
    return PMDA_FETCH_STATIC;
}

const struct collector login_collector = {
    .name = "login",
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .refresh = login_refresh,
    .fetch = login_fetch,
};
