/*
 * The power family: battery and power source from the AppleSmartBattery
 * entry alone (battery_decode.c computes what powerd would), so no call
 * waits on powerd. Cluster 22 has upstream's names and PMIDs; cluster 122
 * what a fleet owner asks beyond them: the battery's state and condition,
 * the charge it holds in mAh, its nominal capacity, the cycle count it was
 * designed for, the power flowing in or out, and the adapter's rating.
 * power.source says what powers the Mac; health is the nominal over the
 * design capacity (MaxCapacity is already a percent on Apple Silicon);
 * capacity.design is the design capacity. A Mac without a battery says so
 * in power.battery.present and has no value for the other battery metrics.
 */
#include "collector.h"
#include "metric_ids.h"
#include "metric_units.h"
#include "battery_decode.h"

#include <errno.h>
#include <string.h>

enum {
    ITEM_PRESENT = 0, ITEM_CHARGING, ITEM_CHARGE, ITEM_TIME_REMAINING, ITEM_HEALTH, ITEM_CYCLE_COUNT,
    ITEM_TEMPERATURE, ITEM_VOLTAGE, ITEM_AMPERAGE, ITEM_CAPACITY_DESIGN, ITEM_CAPACITY_MAX, ITEM_AC_CONNECTED,
    ITEM_SOURCE
};
enum {
    ITEM_STATE = 0, ITEM_CONDITION, ITEM_CAPACITY_CURRENT, ITEM_CAPACITY_NOMINAL, ITEM_DESIGN_CYCLES, ITEM_WATTS,
    ITEM_ADAPTER_WATTS, ITEM_ADAPTER_NAME
};      /* cluster 122 */

/* PCP 7 has units for these (upstream declares them); PCP 6 has none. */
#ifdef PM_UNIT_TEMPERATURE
#define CELSIUS PMDA_EXTRAUNITS(0, 0, 0, 0, 0, 0, PM_UNIT_TEMPERATURE, PM_TEMPERATURE_C)
#define MILLIVOLT PMDA_EXTRAUNITS(0, 0, 0, 0, 0, 0, PM_UNIT_VOLTAGE, PM_VOLTAGE_mV)
#define MILLIAMP PMDA_EXTRAUNITS(0, 0, 0, 0, 0, 0, PM_UNIT_CURRENT, PM_CURRENT_mA)
#define MILLIAMP_HOUR PMDA_EXTRAUNITS(0, 1, 0, 0, PM_TIME_HOUR, 0, PM_UNIT_CURRENT, PM_CURRENT_mA)
#else
#define CELSIUS UNITS_NONE
#define MILLIVOLT UNITS_NONE
#define MILLIAMP UNITS_NONE
#define MILLIAMP_HOUR UNITS_NONE
#endif
/* A row with a binding serves the decoded field as it is, while a battery
 * is installed; the others are computed below. */
#define B(name, item, type, sem, units, ...) \
    { "power.battery." name, CLUSTER_POWER, item, type, COLLECTOR_NO_INDOM, sem, units, __VA_ARGS__ }
#define DETAIL(name, item, type, sem, units, ...) { name, CLUSTER_BATTERY, item, type, COLLECTOR_NO_INDOM, sem, units, __VA_ARGS__ }
#define BATTERY_FIELD(f) FIELD_PRESENT(struct battery, value[f], have, f, FIELD_PLAIN)

static const struct metric_row rows[] = {
    B("present", ITEM_PRESENT, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_NONE),
    B("charging", ITEM_CHARGING, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_NONE, BATTERY_FIELD(BATT_CHARGING)),
    B("charge", ITEM_CHARGE, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_NONE),
    B("time_remaining", ITEM_TIME_REMAINING, PM_TYPE_32, PM_SEM_INSTANT, UNITS_MINUTES),
    B("health", ITEM_HEALTH, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_NONE),
    B("cycle_count", ITEM_CYCLE_COUNT, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_COUNT, BATTERY_FIELD(BATT_CYCLE_COUNT)),
    B("temperature", ITEM_TEMPERATURE, PM_TYPE_FLOAT, PM_SEM_INSTANT, CELSIUS),
    B("voltage", ITEM_VOLTAGE, PM_TYPE_U32, PM_SEM_INSTANT, MILLIVOLT, BATTERY_FIELD(BATT_VOLTAGE)),
    B("amperage", ITEM_AMPERAGE, PM_TYPE_32, PM_SEM_INSTANT, MILLIAMP),
    B("capacity.design", ITEM_CAPACITY_DESIGN, PM_TYPE_U32, PM_SEM_DISCRETE, MILLIAMP_HOUR, BATTERY_FIELD(BATT_DESIGN)),
    B("capacity.max", ITEM_CAPACITY_MAX, PM_TYPE_U32, PM_SEM_INSTANT, MILLIAMP_HOUR),
    { "power.ac.connected", CLUSTER_POWER, ITEM_AC_CONNECTED, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, UNITS_NONE },
    { "power.source", CLUSTER_POWER, ITEM_SOURCE, PM_TYPE_STRING, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, UNITS_NONE },
    DETAIL("power.battery.state", ITEM_STATE, PM_TYPE_STRING, PM_SEM_INSTANT, UNITS_NONE),
    DETAIL("power.battery.condition", ITEM_CONDITION, PM_TYPE_STRING, PM_SEM_INSTANT, UNITS_NONE),
    DETAIL("power.battery.capacity.current", ITEM_CAPACITY_CURRENT, PM_TYPE_U32, PM_SEM_INSTANT, MILLIAMP_HOUR),
    DETAIL("power.battery.capacity.nominal", ITEM_CAPACITY_NOMINAL, PM_TYPE_U32, PM_SEM_INSTANT, MILLIAMP_HOUR,
           BATTERY_FIELD(BATT_NOMINAL)),
    DETAIL("power.battery.design_cycle_count", ITEM_DESIGN_CYCLES, PM_TYPE_U32, PM_SEM_DISCRETE, UNITS_COUNT,
           BATTERY_FIELD(BATT_DESIGN_CYCLES)),
    DETAIL("power.battery.watts", ITEM_WATTS, PM_TYPE_DOUBLE, PM_SEM_INSTANT, UNITS_NONE),
    DETAIL("power.adapter.watts", ITEM_ADAPTER_WATTS, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_NONE),
    DETAIL("power.adapter.name", ITEM_ADAPTER_NAME, PM_TYPE_STRING, PM_SEM_INSTANT, UNITS_NONE),
};

struct power_state {
    struct battery battery;
    int have_battery;
    int pack_absent;                /* no AppleSmartBatteryPack (before macOS 27): not asked again */
};

static int
power_refresh(void *state, struct refresh_call *call)
{
    struct power_state *s = state;
    struct battery *battery = &s->battery;
    const struct platform *p = call->p;
    struct plat_reg_set set;
    int sts;

    s->have_battery = 0;
    if ((sts = p->registry(p->ctx, &plat_reg_queries[PLAT_REGQ_BATTERY], &set)) < 0 && sts != -ENOENT)
        return collector_error(sts);
    s->have_battery = sts == 0 && battery_decode(&set, battery) == 0;       /* none: a desktop Mac */
    /* macOS 27 keeps the temperature in the pack's entry: asked only then */
    if (s->have_battery && battery_installed(battery) && battery_wants_pack(battery) && !s->pack_absent) {
        sts = p->registry(p->ctx, &plat_reg_queries[PLAT_REGQ_BATTERY_PACK], &set);
        if (sts == -ENOENT || (sts == 0 && set.n == 0))
            s->pack_absent = 1;
        else if (sts == 0)
            battery_add_pack(&set, battery);
    }
    return 0;
}

/* A derived value's status as a fetch returns it: still calculating is
 * "try again", a value the battery does not give is no value. */
static int
derived(int sts)
{
    return sts == -EAGAIN ? PM_ERR_AGAIN : sts < 0 ? PMDA_FETCH_NOVALUES : PMDA_FETCH_STATIC;
}

static int
raw(const struct battery *battery, enum battery_field f, pmAtomValue *atom)
{
    if (!battery_has(battery, f) || battery->value[f] < 0 || battery->value[f] > UINT32_MAX)
        return PMDA_FETCH_NOVALUES;
    atom->ul = (uint32_t)battery->value[f];
    return PMDA_FETCH_STATIC;
}

/* A cluster 122 value of the installed battery. */
static int
detail_fetch(const struct battery *battery, const struct metric_row *row, pmAtomValue *atom)
{
    int external = battery_has(battery, BATT_EXTERNAL) && battery->value[BATT_EXTERNAL];

    switch (row->item) {
    case ITEM_STATE: atom->cp = (char *)battery_state(battery); return PMDA_FETCH_STATIC;
    case ITEM_CONDITION: atom->cp = (char *)battery_condition(battery); return PMDA_FETCH_STATIC;
    case ITEM_CAPACITY_CURRENT: return derived(battery_remaining_mah(battery, &atom->ul));
    case ITEM_WATTS: return battery_watts(battery, &atom->d) < 0 ? PMDA_FETCH_NOVALUES : PMDA_FETCH_STATIC;
    case ITEM_ADAPTER_WATTS: return external ? raw(battery, BATT_ADAPTER_WATTS, atom) : PMDA_FETCH_NOVALUES;
    case ITEM_ADAPTER_NAME:
        if (!external || battery->adapter_name[0] == '\0')
            return PMDA_FETCH_NOVALUES;
        atom->cp = (char *)battery->adapter_name;
        return PMDA_FETCH_STATIC;
    }
    return PM_ERR_PMID;
}

/* A cluster 22 value of the installed battery. */
static int
battery_fetch(const struct battery *battery, const struct metric_row *row, pmAtomValue *atom)
{
    switch (row->item) {
    case ITEM_CHARGE: return derived(battery_charge_percent(battery, &atom->ul));
    case ITEM_TIME_REMAINING: return derived(battery_time_remaining(battery, &atom->l));
    case ITEM_HEALTH: return derived(battery_health_percent(battery, &atom->ul));
    case ITEM_TEMPERATURE: return derived(battery_temperature(battery, &atom->f));
    case ITEM_AMPERAGE: return derived(battery_amperage(battery, &atom->l));
    case ITEM_CAPACITY_MAX: return derived(battery_full_charge_mah(battery, &atom->ul));
    }
    return PM_ERR_PMID;
}

static int
power_fetch(const void *state, const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    const struct power_state *s = state;
    const struct battery *battery = &s->battery;

    (void)inst;
    if (row->cluster == CLUSTER_POWER) {
        switch (row->item) {
        case ITEM_PRESENT:
            atom->ul = s->have_battery && battery_installed(battery);
            return PMDA_FETCH_STATIC;
        case ITEM_AC_CONNECTED:
            atom->ul = !s->have_battery || strcmp(battery_power_source(battery), "AC Power") == 0;
            return PMDA_FETCH_STATIC;
        case ITEM_SOURCE:
            /* a Mac without a battery runs on external power */
            atom->cp = (char *)(s->have_battery ? battery_power_source(battery) : "AC Power");
            return PMDA_FETCH_STATIC;
        }
    }
    /* no battery: Apple Silicon desktops have the entry, with none installed */
    if (!s->have_battery || !battery_installed(battery))
        return PMDA_FETCH_NOVALUES;
    if (row->field.kind != FIELD_NONE)
        return collector_field(row, battery, atom);
    return row->cluster == CLUSTER_BATTERY ? detail_fetch(battery, row, atom) : battery_fetch(battery, row, atom);
}

const struct collector power_collector = {
    .name = "power",
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .state_size = sizeof(struct power_state),
    .refresh = power_refresh,
    .fetch = power_fetch,
};
