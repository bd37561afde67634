/*
 * Cluster 2: kernel identity (uname(3), kern.osproductversion) and the
 * agent's own version.
 */
#include "collector.h"
#include "metric_units.h"
#include "pmda_darwin_version.h"

#include <stdio.h>
#include <string.h>

enum {
    ITEM_RELEASE = 23, ITEM_VERSION = 24, ITEM_SYSNAME = 25, ITEM_MACHINE = 26, ITEM_NODENAME = 27,
    ITEM_PMDA_UNAME = 28, ITEM_PMDA_VERSION = 29, ITEM_DISTRO = 30
};

#define ROW(name, item) { name, CLUSTER_UNAME, item, PM_TYPE_STRING, COLLECTOR_NO_INDOM, PM_SEM_DISCRETE, UNITS_NONE }

static const struct metric_row rows[] = {
    ROW("kernel.uname.release", ITEM_RELEASE),
    ROW("kernel.uname.version", ITEM_VERSION),
    ROW("kernel.uname.sysname", ITEM_SYSNAME),
    ROW("kernel.uname.machine", ITEM_MACHINE),
    ROW("kernel.uname.nodename", ITEM_NODENAME),
    ROW("pmda.uname", ITEM_PMDA_UNAME),
    ROW("pmda.version", ITEM_PMDA_VERSION),
    ROW("kernel.uname.distro", ITEM_DISTRO),
};

static struct plat_uname names;
static char summary[5 * PLAT_TEXT_MAX + 8];
static char distro[PLAT_NAME_MAX + 16];
static char agent_version[] = PMDA_DARWIN_VERSION;
static unsigned int logged_failures;

static int
uname_refresh(const struct platform *p, pmInDom indom, const char **reason)
{
    int sts;

    (void)reason;
    (void)indom;
    memset(&names, 0, sizeof(names));
    if ((sts = p->uname(p->ctx, &names)) < 0)
        return collector_error(sts);
    snprintf(summary, sizeof(summary), "%s %s %s %s %s",
             names.sysname, names.nodename, names.release, names.version, names.machine);
    snprintf(distro, sizeof(distro), "macOS %s", names.product_version);
    collector_note_parts("uname", names.product_status < 0, &logged_failures, p->error(p->ctx));
    return 0;
}

static int
uname_fetch(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    (void)inst;
    switch (row->item) {
    case ITEM_RELEASE: atom->cp = names.release; break;
    case ITEM_VERSION: atom->cp = names.version; break;
    case ITEM_SYSNAME: atom->cp = names.sysname; break;
    case ITEM_MACHINE: atom->cp = names.machine; break;
    case ITEM_NODENAME: atom->cp = names.nodename; break;
    case ITEM_PMDA_UNAME: atom->cp = summary; break;
    case ITEM_PMDA_VERSION: atom->cp = agent_version; break;
    case ITEM_DISTRO:
        if (names.product_status < 0)
            return collector_error(names.product_status);
        atom->cp = distro;
        break;
    default:
        return PM_ERR_PMID;
    }
    return PMDA_FETCH_STATIC;
}

const struct collector uname_collector = {
    .name = "uname",
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .refresh = uname_refresh,
    .fetch = uname_fetch,
};
