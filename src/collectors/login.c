/*
 * Cluster 18: login sessions from the utmpx records.
 *
 * A session is a USER_PROCESS record: one login on a console, terminal or
 * ssh connection; boot time, dead process and shutdown records are not
 * sessions.
 */
#include "collector.h"
#include "metric_ids.h"

#include <string.h>

struct login_state {
    uint32_t nusers, nroots, nsessions;
};

#define ROW(name, item, member) { name, CLUSTER_LOGIN, item, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, \
                                  PMDA_PMUNITS(0, 0, 0, 0, 0, 0), FIELD_ALWAYS(struct login_state, member, FIELD_PLAIN) }

static const struct metric_row rows[] = {
    ROW("kernel.all.nusers", 187, nusers),
    ROW("kernel.all.nroots", 188, nroots),
    ROW("kernel.all.nsessions", 189, nsessions),
};

static int
login_refresh(void *state, struct refresh_call *call)
{
    struct login_state *s = state;
    struct plat_login_set set;
    int sts;

    if ((sts = call->p->logins(call->p->ctx, &set)) < 0)
        return collector_error(sts);
    memset(s, 0, sizeof(*s));
    for (unsigned int i = 0; i < set.n; i++) {
        const struct plat_login *l = &set.login[i];

        if (l->type != PLAT_UTMPX_USER_PROCESS)
            continue;
        s->nsessions++;
        if (l->user[0] == '\0')
            continue;
        s->nusers++;
        s->nroots += strcmp(l->user, "root") == 0;
    }
    return 0;
}

const struct collector login_collector = {
    .name = "login",
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .state_size = sizeof(struct login_state),
    .refresh = login_refresh,
};
