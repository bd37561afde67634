/*
 * Cluster 122: what a fleet owner asks of a battery beyond upstream's
 * metrics, from cluster 22's read: its state and condition, the charge it
 * holds in mAh, its nominal capacity, the cycle count it was designed for,
 * the power flowing in or out, and the adapter's rating.
 */
#include "collector.h"
#include "metric_units.h"
#include "power.h"

enum {
    ITEM_STATE = 0, ITEM_CONDITION, ITEM_CAPACITY_CURRENT, ITEM_CAPACITY_NOMINAL, ITEM_DESIGN_CYCLES, ITEM_WATTS,
    ITEM_ADAPTER_WATTS, ITEM_ADAPTER_NAME
};

#define ROW(name, item, type, sem, units) { name, item, type, COLLECTOR_NO_INDOM, sem, units }

static const struct metric_row rows[] = {
    ROW("power.battery.state", ITEM_STATE, PM_TYPE_STRING, PM_SEM_INSTANT, UNITS_NONE),
    ROW("power.battery.condition", ITEM_CONDITION, PM_TYPE_STRING, PM_SEM_INSTANT, UNITS_NONE),
    ROW("power.battery.capacity.current", ITEM_CAPACITY_CURRENT, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_NONE),
    ROW("power.battery.capacity.nominal", ITEM_CAPACITY_NOMINAL, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_NONE),
    ROW("power.battery.design_cycle_count", ITEM_DESIGN_CYCLES, PM_TYPE_U32, PM_SEM_DISCRETE, UNITS_COUNT),
    ROW("power.battery.watts", ITEM_WATTS, PM_TYPE_DOUBLE, PM_SEM_INSTANT, UNITS_NONE),
    ROW("power.adapter.watts", ITEM_ADAPTER_WATTS, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_NONE),
    ROW("power.adapter.name", ITEM_ADAPTER_NAME, PM_TYPE_STRING, PM_SEM_INSTANT, UNITS_NONE),
};

static int
battery_detail_refresh(const struct platform *p, pmInDom indom)
{
    (void)p;
    (void)indom;
    return 0;       /* cluster 22, a dependency, has read the battery */
}

static int
number(const struct battery *b, enum battery_field f, pmAtomValue *atom)
{
    if (!battery_has(b, f) || b->value[f] < 0 || b->value[f] > UINT32_MAX)
        return PMDA_FETCH_NOVALUES;
    atom->ul = (uint32_t)b->value[f];
    return PMDA_FETCH_STATIC;
}

static int
battery_detail_fetch(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    const struct battery *b = power_battery();
    int external;

    (void)inst;
    if (b == NULL || !battery_installed(b))
        return PMDA_FETCH_NOVALUES;     /* no battery: Apple Silicon desktops have the entry, with none installed */
    external = battery_has(b, BATT_EXTERNAL) && b->value[BATT_EXTERNAL];
    switch (row->item) {
    case ITEM_STATE: atom->cp = (char *)battery_state(b); return PMDA_FETCH_STATIC;
    case ITEM_CONDITION: atom->cp = (char *)battery_condition(b); return PMDA_FETCH_STATIC;
    case ITEM_CAPACITY_CURRENT: return number(b, BATT_RAW_CURRENT, atom);
    case ITEM_CAPACITY_NOMINAL: return number(b, BATT_NOMINAL, atom);
    case ITEM_DESIGN_CYCLES: return number(b, BATT_DESIGN_CYCLES, atom);
    case ITEM_WATTS: return battery_watts(b, &atom->d) < 0 ? PMDA_FETCH_NOVALUES : PMDA_FETCH_STATIC;
    case ITEM_ADAPTER_WATTS: return external ? number(b, BATT_ADAPTER_WATTS, atom) : PMDA_FETCH_NOVALUES;
    case ITEM_ADAPTER_NAME:
        if (!external || b->adapter_name[0] == '\0')
            return PMDA_FETCH_NOVALUES;
        atom->cp = (char *)b->adapter_name;
        return PMDA_FETCH_STATIC;
    }
    return PM_ERR_PMID;
}

const struct collector battery_detail_collector = {
    .name = "battery detail",
    .cluster = 122,
    .ndepends = 1,
    .depends = { POWER_CLUSTER },
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .refresh = battery_detail_refresh,
    .fetch = battery_detail_fetch,
};
