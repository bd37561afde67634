/*
 * Cluster 27 (upstream's numbers): memory pressure as the kernel acts on it
 * (kern.memorystatus_vm_pressure_level), its name, and the share of memory
 * the kernel counts as available (kern.memorystatus_level).
 */
#include "collector.h"
#include "metric_ids.h"
#include "metric_units.h"
#include "sysctl_values.h"

static row_derive state;

enum { ROW_LEVEL };     /* the row the state is named from */

static const struct metric_row rows[] = {
    [ROW_LEVEL] = { "mem.pressure.level", CLUSTER_PRESSURE, 0, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, UNITS_NONE,
      SYSCTL_FIELD(PLAT_PRESSURE_LEVEL) },
    { "mem.pressure.state", CLUSTER_PRESSURE, 1, PM_TYPE_STRING, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, UNITS_NONE,
      .derive = state },
    { "mem.pressure.available", CLUSTER_PRESSURE, 2, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, UNITS_NONE,
      SYSCTL_FIELD(PLAT_PRESSURE_AVAILABLE) },
};

SYSCTL_TABLE_COLLECTOR(pressure_collector, "pressure", PLAT_SYSCTL_PRESSURE, rows);

/* The dispatch flags the sysctl reports (DISPATCH_MEMORYPRESSURE_*), named
 * as upstream's agent names them; any other level is "Unknown". */
static const struct {
    uint32_t level;
    const char *name;
} state_names[] = { { 1, "Normal" }, { 2, "Warning" }, { 4, "Critical" } };

static const char *
state_name(uint32_t level)
{
    for (size_t i = 0; i < sizeof(state_names) / sizeof(state_names[0]); i++)
        if (state_names[i].level == level)
            return state_names[i].name;
    return "Unknown";
}

static int
state(const void *state, const void *entry, const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    pmAtomValue level;
    int sts;

    (void)state;
    (void)row;
    (void)inst;
    if ((sts = collector_field(&rows[ROW_LEVEL], entry, &level)) != PMDA_FETCH_STATIC)
        return sts;
    atom->cp = (char *)state_name(level.ul);
    return PMDA_FETCH_STATIC;
}
