/*
 * Cluster 2: kernel identity (uname(3), kern.osproductversion) and the
 * agent's own version.
 */
#include "collector.h"
#include "metric_ids.h"
#include "metric_units.h"
#include "pmda_darwin_version.h"

#include <stdio.h>
#include <string.h>

/* What the collector serves: uname(3)'s fields as they are, and the lines
 * made of them. */
struct uname_state {
    struct plat_uname names;
    char summary[5 * PLAT_TEXT_MAX + 8];    /* the fields in one line, as upstream's pmda.uname */
    char distro[PLAT_NAME_MAX + 16];        /* "macOS 14.5" */
    char version[sizeof(PMDA_DARWIN_VERSION)];
    unsigned int logged_failures;
};

#define ROW(name, item, field) { name, CLUSTER_UNAME, item, PM_TYPE_STRING, COLLECTOR_NO_INDOM, PM_SEM_DISCRETE, \
                                 UNITS_NONE, field }
#define TEXT(member) FIELD_TEXT_ALWAYS(struct uname_state, member)

static const struct metric_row rows[] = {
    ROW("kernel.uname.release", 23, TEXT(names.release)),
    ROW("kernel.uname.version", 24, TEXT(names.version)),
    ROW("kernel.uname.sysname", 25, TEXT(names.sysname)),
    ROW("kernel.uname.machine", 26, TEXT(names.machine)),
    ROW("kernel.uname.nodename", 27, TEXT(names.nodename)),
    ROW("pmda.uname", 28, TEXT(summary)),
    ROW("pmda.version", 29, TEXT(version)),
    ROW("kernel.uname.distro", 30, FIELD_TEXT_OF(struct uname_state, distro, names.product_status)),
};

static int
uname_refresh(void *state, struct refresh_call *call)
{
    struct uname_state *u = state;
    const struct platform *p = call->p;
    int sts;

    memcpy(u->version, PMDA_DARWIN_VERSION, sizeof(u->version));
    memset(&u->names, 0, sizeof(u->names));
    if ((sts = p->uname(p->ctx, &u->names)) < 0)
        return collector_error(sts);
    snprintf(u->summary, sizeof(u->summary), "%s %s %s %s %s",
             u->names.sysname, u->names.nodename, u->names.release, u->names.version, u->names.machine);
    snprintf(u->distro, sizeof(u->distro), "macOS %s", u->names.product_version);
    collector_note_parts(call, NULL, u->names.product_status < 0, &u->logged_failures, p->error(p->ctx));
    return 0;
}

const struct collector uname_collector = {
    .name = "uname",
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .state_size = sizeof(struct uname_state),
    .refresh = uname_refresh,
};
