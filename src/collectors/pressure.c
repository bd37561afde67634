/*
 * Cluster 27 (upstream's numbers): memory pressure as the kernel acts on it
 * (kern.memorystatus_vm_pressure_level), its name, and the share of memory
 * the kernel counts as available (kern.memorystatus_level).
 */
#include "collector.h"
#include "metric_units.h"
#include "sysctl_values.h"

enum { ITEM_LEVEL = 0, ITEM_STATE = 1, ITEM_AVAILABLE = 2 };

static const struct metric_row rows[] = {
    { "mem.pressure.level", CLUSTER_PRESSURE, ITEM_LEVEL, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, UNITS_NONE,
      SYSCTL_FIELD(PLAT_PRESSURE_LEVEL) },
    { "mem.pressure.state", CLUSTER_PRESSURE, ITEM_STATE, PM_TYPE_STRING, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, UNITS_NONE },
    { "mem.pressure.available", CLUSTER_PRESSURE, ITEM_AVAILABLE, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, UNITS_NONE,
      SYSCTL_FIELD(PLAT_PRESSURE_AVAILABLE) },
};

static struct plat_sysctl_set values;
static unsigned int logged;

static int
pressure_refresh(const struct platform *p, pmInDom indom, const char **reason)
{
    (void)reason;
    (void)indom;
    return sysctl_values_refresh(p, PLAT_SYSCTL_PRESSURE, &values, "pressure", &logged);
}

/* The dispatch flags the sysctl reports (DISPATCH_MEMORYPRESSURE_*), named
 * as upstream's agent names them. */
static const char *
state_name(uint32_t level)
{
    switch (level) {
    case 1: return "Normal";
    case 2: return "Warning";
    case 4: return "Critical";
    default: return "Unknown";
    }
}

static int
pressure_fetch(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    pmAtomValue level;
    int sts;

    (void)inst;
    if (row->item != ITEM_STATE)
        return collector_field(row, &values, 0, atom);
    if ((sts = sysctl_values_fetch(&values, PLAT_PRESSURE_LEVEL, PM_TYPE_U32, &level)) != PMDA_FETCH_STATIC)
        return sts;
    atom->cp = (char *)state_name(level.ul);
    return PMDA_FETCH_STATIC;
}

static void
pressure_teardown(pmInDom indom)
{
    (void)indom;
    logged = 0;
}

const struct collector pressure_collector = {
    .name = "pressure",
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .refresh = pressure_refresh,
    .fetch = pressure_fetch,
    .teardown = pressure_teardown,
};
