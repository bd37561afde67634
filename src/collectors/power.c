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

/* battery_power_source's name for external power. */
static const char ac_power[] = "AC Power";

/* What the family serves, as of the last refresh. */
struct power_state {
    struct battery battery;
    int have_battery;
    int pack_absent;                /* no AppleSmartBatteryPack (before macOS 27): not asked again */
    unsigned int served;            /* the battery's fields while one is installed (battery.have's bits),
                                     * the adapter's while external power is connected */
    unsigned int adapter_named;     /* 1: battery.adapter_name is the connected adapter's */
    uint32_t present, ac_connected;
    const char *source;             /* what powers the Mac: a Mac without a battery runs on external power */
    const char *state, *condition;  /* the installed battery's words for itself, else NULL */
};

/* The battery while one is installed, else NULL (Apple Silicon desktops
 * have the entry, with none installed). */
static const struct battery *
installed(const struct power_state *s)
{
    return s->have_battery && battery_installed(&s->battery) ? &s->battery : NULL;
}

/* A derived value's status as a fetch returns it: still calculating is
 * "try again", a value the battery does not give is no value. */
static int
derived(int sts)
{
    return sts == -EAGAIN ? PM_ERR_AGAIN : sts < 0 ? PMDA_FETCH_NOVALUES : PMDA_FETCH_STATIC;
}

/* The figures battery_decode computes as powerd does, by row->index, each
 * with the member of pmAtomValue its row's type reads. */
enum { FIGURE_CHARGE, FIGURE_HEALTH, FIGURE_FULL_MAH, FIGURE_REMAINING_MAH, FIGURE_MINUTES_LEFT, FIGURE_AMPERAGE,
       FIGURE_TEMPERATURE, FIGURE_WATTS };
static const struct {
    int (*u32)(const struct battery *, uint32_t *);
    int (*i32)(const struct battery *, int32_t *);
    int (*f32)(const struct battery *, float *);
    int (*f64)(const struct battery *, double *);
} figures[] = {
    [FIGURE_CHARGE] = { .u32 = battery_charge_percent }, [FIGURE_HEALTH] = { .u32 = battery_health_percent },
    [FIGURE_FULL_MAH] = { .u32 = battery_full_charge_mah }, [FIGURE_REMAINING_MAH] = { .u32 = battery_remaining_mah },
    [FIGURE_MINUTES_LEFT] = { .i32 = battery_time_remaining }, [FIGURE_AMPERAGE] = { .i32 = battery_amperage },
    [FIGURE_TEMPERATURE] = { .f32 = battery_temperature }, [FIGURE_WATTS] = { .f64 = battery_watts },
};

static int
figure(const void *state, const void *entry, const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    const struct battery *b = installed(state);

    (void)entry;
    (void)inst;
    if (b == NULL)
        return PMDA_FETCH_NOVALUES;
    if (figures[row->index].u32 != NULL)
        return derived(figures[row->index].u32(b, &atom->ul));
    if (figures[row->index].i32 != NULL)
        return derived(figures[row->index].i32(b, &atom->l));
    if (figures[row->index].f32 != NULL)
        return derived(figures[row->index].f32(b, &atom->f));
    return derived(figures[row->index].f64(b, &atom->d));
}

/* A row with no indom, served from the family's state. */
#define B(name, item, type, sem, units, ...) \
    { "power.battery." name, CLUSTER_POWER, item, type, COLLECTOR_NO_INDOM, sem, units, __VA_ARGS__ }
#define POWER(name, item, type, sem, ...) { name, CLUSTER_POWER, item, type, COLLECTOR_NO_INDOM, sem, __VA_ARGS__ }
#define DETAIL(name, item, type, sem, units, ...) { name, CLUSTER_BATTERY, item, type, COLLECTOR_NO_INDOM, sem, units, __VA_ARGS__ }
/* A decoded field as it is, while it is served. */
#define BATTERY_FIELD(f) FIELD_PRESENT(struct power_state, battery.value[f], served, f, FIELD_PLAIN)
/* Words the refresh chose (NULL: no value). */
#define WORDS(member) FIELD_ALWAYS(struct power_state, member, FIELD_STRING)

static const struct metric_row rows[] = {
    B("present", ITEM_PRESENT, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_NONE,
      FIELD_ALWAYS(struct power_state, present, FIELD_PLAIN)),
    B("charging", ITEM_CHARGING, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_NONE, BATTERY_FIELD(BATT_CHARGING)),
    B("charge", ITEM_CHARGE, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_NONE, .derive = figure,
      .index = FIGURE_CHARGE),
    B("time_remaining", ITEM_TIME_REMAINING, PM_TYPE_32, PM_SEM_INSTANT, UNITS_MINUTES, .derive = figure,
      .index = FIGURE_MINUTES_LEFT),
    B("health", ITEM_HEALTH, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_NONE, .derive = figure,
      .index = FIGURE_HEALTH),
    B("cycle_count", ITEM_CYCLE_COUNT, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_COUNT, BATTERY_FIELD(BATT_CYCLE_COUNT)),
    B("temperature", ITEM_TEMPERATURE, PM_TYPE_FLOAT, PM_SEM_INSTANT, CELSIUS, .derive = figure,
      .index = FIGURE_TEMPERATURE),
    B("voltage", ITEM_VOLTAGE, PM_TYPE_U32, PM_SEM_INSTANT, MILLIVOLT, BATTERY_FIELD(BATT_VOLTAGE)),
    B("amperage", ITEM_AMPERAGE, PM_TYPE_32, PM_SEM_INSTANT, MILLIAMP, .derive = figure,
      .index = FIGURE_AMPERAGE),
    B("capacity.design", ITEM_CAPACITY_DESIGN, PM_TYPE_U32, PM_SEM_DISCRETE, MILLIAMP_HOUR, BATTERY_FIELD(BATT_DESIGN)),
    B("capacity.max", ITEM_CAPACITY_MAX, PM_TYPE_U32, PM_SEM_INSTANT, MILLIAMP_HOUR, .derive = figure,
      .index = FIGURE_FULL_MAH),
    POWER("power.ac.connected", ITEM_AC_CONNECTED, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_NONE,
          FIELD_ALWAYS(struct power_state, ac_connected, FIELD_PLAIN)),
    POWER("power.source", ITEM_SOURCE, PM_TYPE_STRING, PM_SEM_INSTANT, UNITS_NONE, WORDS(source)),
    DETAIL("power.battery.state", ITEM_STATE, PM_TYPE_STRING, PM_SEM_INSTANT, UNITS_NONE, WORDS(state)),
    DETAIL("power.battery.condition", ITEM_CONDITION, PM_TYPE_STRING, PM_SEM_INSTANT, UNITS_NONE, WORDS(condition)),
    DETAIL("power.battery.capacity.current", ITEM_CAPACITY_CURRENT, PM_TYPE_U32, PM_SEM_INSTANT, MILLIAMP_HOUR,
           .derive = figure, .index = FIGURE_REMAINING_MAH),
    DETAIL("power.battery.capacity.nominal", ITEM_CAPACITY_NOMINAL, PM_TYPE_U32, PM_SEM_INSTANT, MILLIAMP_HOUR,
           BATTERY_FIELD(BATT_NOMINAL)),
    DETAIL("power.battery.design_cycle_count", ITEM_DESIGN_CYCLES, PM_TYPE_U32, PM_SEM_DISCRETE, UNITS_COUNT,
           BATTERY_FIELD(BATT_DESIGN_CYCLES)),
    DETAIL("power.battery.watts", ITEM_WATTS, PM_TYPE_DOUBLE, PM_SEM_INSTANT, UNITS_NONE, .derive = figure,
           .index = FIGURE_WATTS),
    DETAIL("power.adapter.watts", ITEM_ADAPTER_WATTS, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_NONE,
           BATTERY_FIELD(BATT_ADAPTER_WATTS)),
    DETAIL("power.adapter.name", ITEM_ADAPTER_NAME, PM_TYPE_STRING, PM_SEM_INSTANT, UNITS_NONE,
           FIELD_PRESENT(struct power_state, battery.adapter_name, adapter_named, 0, FIELD_TEXT)),
};

static int
power_refresh(void *state, struct refresh_call *call)
{
    struct power_state *s = state;
    struct battery *battery = &s->battery;
    const struct platform *p = call->p;
    struct plat_entry_set set;
    const struct battery *b;
    int sts, external;

    s->have_battery = 0;
    if ((sts = p->query(p->ctx, &plat_queries[PLAT_QUERY_BATTERY], &set)) < 0 && sts != -ENOENT)
        return collector_error(sts);
    s->have_battery = sts == 0 && battery_decode(&set, battery) == 0;       /* none: a desktop Mac */
    /* macOS 27 keeps the temperature in the pack's entry: asked only then */
    if (s->have_battery && battery_installed(battery) && battery_wants_pack(battery) && !s->pack_absent) {
        sts = p->query(p->ctx, &plat_queries[PLAT_QUERY_BATTERY_PACK], &set);
        if (sts == -ENOENT || (sts == 0 && set.n == 0))
            s->pack_absent = 1;
        else if (sts == 0)
            battery_add_pack(&set, battery);
    }
    b = installed(s);
    external = b != NULL && battery_has(b, BATT_EXTERNAL) && b->value[BATT_EXTERNAL];
    s->served = b == NULL ? 0 : external ? b->have : b->have & ~(1u << BATT_ADAPTER_WATTS);
    s->adapter_named = external && b->adapter_name[0] != '\0';
    s->present = b != NULL;
    s->source = s->have_battery ? battery_power_source(battery) : ac_power;
    s->ac_connected = strcmp(s->source, ac_power) == 0;
    s->state = b == NULL ? NULL : battery_state(b);
    s->condition = b == NULL ? NULL : battery_condition(b);
    return 0;
}

const struct collector power_collector = {
    .name = "power",
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .state_size = sizeof(struct power_state),
    .refresh = power_refresh,
};
