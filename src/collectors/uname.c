/*
 * Cluster 2: kernel identity (uname(3), kern.osproductversion) and the
 * agent's own version.
 */
#include "collector.h"
#include "metric_units.h"
#include "pmda_darwin_version.h"

#include <stdio.h>
#include <string.h>

static int pmda_uname(const struct metric_row *row, unsigned int inst, pmAtomValue *atom);
static int pmda_version(const struct metric_row *row, unsigned int inst, pmAtomValue *atom);
static int distro(const struct metric_row *row, unsigned int inst, pmAtomValue *atom);

#define ROW(name, item, ...) { name, CLUSTER_UNAME, item, PM_TYPE_STRING, COLLECTOR_NO_INDOM, PM_SEM_DISCRETE, \
                               UNITS_NONE, __VA_ARGS__ }
#define TEXT(member) FIELD_TEXT_OF(struct plat_uname, member)

static const struct metric_row rows[] = {
    ROW("kernel.uname.release", 23, TEXT(release)),
    ROW("kernel.uname.version", 24, TEXT(version)),
    ROW("kernel.uname.sysname", 25, TEXT(sysname)),
    ROW("kernel.uname.machine", 26, TEXT(machine)),
    ROW("kernel.uname.nodename", 27, TEXT(nodename)),
    ROW("pmda.uname", 28, .derive = pmda_uname),
    ROW("pmda.version", 29, .derive = pmda_version),
    ROW("kernel.uname.distro", 30, .derive = distro),
};

static struct plat_uname names;
static char summary[5 * PLAT_TEXT_MAX + 8];
static char distro_name[PLAT_NAME_MAX + 16];
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
    snprintf(distro_name, sizeof(distro_name), "macOS %s", names.product_version);
    collector_note_parts("uname", names.product_status < 0, &logged_failures, p->error(p->ctx));
    return 0;
}

/* The uname(2) fields in one line, as upstream's pmda.uname gives them. */
static int
pmda_uname(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    (void)row;
    (void)inst;
    atom->cp = summary;
    return PMDA_FETCH_STATIC;
}

static int
pmda_version(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    (void)row;
    (void)inst;
    atom->cp = agent_version;
    return PMDA_FETCH_STATIC;
}

static int
distro(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    (void)row;
    (void)inst;
    if (names.product_status < 0)
        return collector_error(names.product_status);
    atom->cp = distro_name;
    return PMDA_FETCH_STATIC;
}

static int
uname_fetch(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    (void)inst;
    return collector_field(row, &names, 0, atom);
}

const struct collector uname_collector = {
    .name = "uname",
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .refresh = uname_refresh,
    .fetch = uname_fetch,
};
