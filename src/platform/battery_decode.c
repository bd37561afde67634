#include "battery_decode.h"
#include "registry_props.h"
#include "registry_set.h"

#include <errno.h>
#include <math.h>
#include <string.h>

/* Property keys: xnu iokit/IOKit/pwr_mgt/IOPM.h (kIOPMPS*) and
 * PowerManagement's AppleSmartBatteryKeys.h, in battery_field order. */
static const char *const keys[BATT_NFIELDS][2] = {
    [BATT_INSTALLED] = { "BatteryInstalled", NULL }, [BATT_EXTERNAL] = { "ExternalConnected", NULL },
    [BATT_CHARGING] = { "IsCharging", NULL }, [BATT_FULLY_CHARGED] = { "FullyCharged", NULL },
    [BATT_CURRENT_CAPACITY] = { "CurrentCapacity", NULL }, [BATT_MAX_CAPACITY] = { "MaxCapacity", NULL },
    [BATT_RAW_CURRENT] = { "AppleRawCurrentCapacity", NULL }, [BATT_RAW_MAX] = { "AppleRawMaxCapacity", NULL },
    [BATT_DESIGN] = { "DesignCapacity", NULL }, [BATT_NOMINAL] = { "NominalChargeCapacity", NULL },
    [BATT_TIME_REMAINING] = { "TimeRemaining", NULL }, [BATT_TIME_TO_EMPTY] = { "AvgTimeToEmpty", NULL },
    [BATT_TIME_TO_FULL] = { "AvgTimeToFull", NULL }, [BATT_TEMPERATURE] = { "Temperature", NULL },
    [BATT_VOLTAGE] = { "Voltage", NULL }, [BATT_AMPERAGE] = { "Amperage", NULL },
    [BATT_CYCLE_COUNT] = { "CycleCount", NULL }, [BATT_DESIGN_CYCLES] = { "DesignCycleCount9C", NULL },
    [BATT_PERMANENT_FAILURE] = { "PermanentFailureStatus", NULL },
    [BATT_ADAPTER_WATTS] = { "AdapterDetails", "Watts" },
};

/* A Smart Battery time register reads 65535 while the gauge has no
 * estimate (not discharging, or still averaging); powerd reports -1,
 * "still calculating", then. */
#define GAUGE_NO_ESTIMATE 65535

int
battery_decode(const struct plat_reg_set *set, struct battery *out)
{
    const struct plat_reg_entry *e = NULL;

    memset(out, 0, sizeof(*out));
    for (unsigned int i = 0; i < set->n && e == NULL; i++)
        if (strcmp(set->entry[i].class_name, "AppleSmartBattery") == 0)
            e = &set->entry[i];
    if (e == NULL)
        return -ENOENT;
    for (int f = 0; f < BATT_NFIELDS; f++) {
        const struct plat_reg_prop *p = reg_prop_in(e, keys[f][0], keys[f][1]);
        uint64_t v;

        if (p != NULL && p->kind == PLAT_REG_BOOL)
            v = p->number;
        else if (!reg_number(p, &v))
            continue;
        out->value[f] = (int64_t)v;     /* two's complement: a signed reading comes back negative */
        out->have |= 1u << f;
    }
    reg_text(reg_prop(e, "ErrorCondition"), out->error_condition, sizeof(out->error_condition));
    reg_text(reg_prop_in(e, "AdapterDetails", "Name"), out->adapter_name, sizeof(out->adapter_name));
    return 0;
}

static int
installed(const struct battery *b)
{
    return battery_has(b, BATT_INSTALLED) && b->value[BATT_INSTALLED] != 0;
}

/* powerd (kernelPowerSourcesDidChange): lround(current * 100 / max),
 * at most 100. Both are percents on Apple Silicon and mAh on Intel, so the
 * same formula holds on both. */
int
battery_charge_percent(const struct battery *b, uint32_t *out)
{
    int64_t cur = b->value[BATT_CURRENT_CAPACITY], max = b->value[BATT_MAX_CAPACITY];
    long pct;

    if (!installed(b) || !battery_has(b, BATT_CURRENT_CAPACITY) || !battery_has(b, BATT_MAX_CAPACITY) ||
        max <= 0 || cur < 0)
        return -ENODATA;
    pct = lround((double)cur * 100.0 / (double)max);
    *out = (uint32_t)(pct > 100 ? 100 : pct);
    return 0;
}

/* The capacity a full charge holds now, in mAh: AppleRawMaxCapacity;
 * without it (older Intel drivers) MaxCapacity, which is mAh there. */
int
battery_full_charge_mah(const struct battery *b, uint32_t *out)
{
    enum battery_field f = battery_has(b, BATT_RAW_MAX) ? BATT_RAW_MAX : BATT_MAX_CAPACITY;

    if (!installed(b) || !battery_has(b, f) || b->value[f] <= 0 || b->value[f] > UINT32_MAX)
        return -ENODATA;
    *out = (uint32_t)b->value[f];
    return 0;
}

/* macOS's "Maximum Capacity": powerd's getNominalChargeCapacityPercent,
 * ceil(NominalChargeCapacity * 100 / DesignCapacity); where the battery
 * has no nominal capacity (Intel), the full-charge capacity in its place.
 * Not capped: a new battery can hold more than its design. */
int
battery_health_percent(const struct battery *b, uint32_t *out)
{
    int64_t design = b->value[BATT_DESIGN], full;
    uint32_t fcc;

    if (!installed(b) || !battery_has(b, BATT_DESIGN) || design <= 0)
        return -ENODATA;
    if (battery_has(b, BATT_NOMINAL) && b->value[BATT_NOMINAL] > 0)
        full = b->value[BATT_NOMINAL];
    else if (battery_full_charge_mah(b, &fcc) == 0)
        full = fcc;
    else
        return -ENODATA;
    *out = (uint32_t)ceil((double)full * 100.0 / (double)design);
    return 0;
}

static int
gauge_minutes(const struct battery *b, enum battery_field f, int32_t *minutes)
{
    if (!battery_has(b, f) || b->value[f] < 0 || b->value[f] > GAUGE_NO_ESTIMATE)
        return -ENODATA;
    if (b->value[f] == GAUGE_NO_ESTIMATE)
        return -EAGAIN;
    *minutes = (int32_t)b->value[f];
    return 0;
}

/* As powerd publishes it (packageKernelPowerSource): to full while
 * charging, 0 on external power while not charging, to empty otherwise. */
int
battery_time_remaining(const struct battery *b, int32_t *minutes)
{
    if (!installed(b))
        return -ENODATA;
    if (battery_has(b, BATT_CHARGING) && b->value[BATT_CHARGING])
        return gauge_minutes(b, BATT_TIME_TO_FULL, minutes);
    if (battery_has(b, BATT_EXTERNAL) && b->value[BATT_EXTERNAL]) {
        *minutes = 0;
        return 0;
    }
    return gauge_minutes(b, BATT_TIME_TO_EMPTY, minutes);
}

/* Hundredths of a degree Celsius (the unit Apple's battery data collection
 * gives "Temperature", pmconfigd/Resources/com.apple.bdc.metadata.plist). */
int
battery_temperature(const struct battery *b, float *celsius)
{
    if (!installed(b) || !battery_has(b, BATT_TEMPERATURE))
        return -ENODATA;
    *celsius = (float)((double)b->value[BATT_TEMPERATURE] / 100.0);
    return 0;
}

int
battery_amperage(const struct battery *b, int32_t *milliamps)
{
    int64_t v = b->value[BATT_AMPERAGE];

    if (!installed(b) || !battery_has(b, BATT_AMPERAGE) || v < INT32_MIN || v > INT32_MAX)
        return -ENODATA;
    *milliamps = (int32_t)v;
    return 0;
}

int
battery_watts(const struct battery *b, double *watts)
{
    int32_t ma;

    if (battery_amperage(b, &ma) < 0 || !battery_has(b, BATT_VOLTAGE) || b->value[BATT_VOLTAGE] < 0)
        return -ENODATA;
    *watts = (double)b->value[BATT_VOLTAGE] * (double)ma / 1e6;
    return 0;
}

const char *
battery_state(const struct battery *b)
{
    if (!installed(b))
        return "absent";
    if (b->value[BATT_CHARGING])
        return "charging";
    if (!b->value[BATT_EXTERNAL])
        return "discharging";
    return b->value[BATT_FULLY_CHARGED] ? "charged" : "not charging";
}

const char *
battery_condition(const struct battery *b)
{
    if (battery_has(b, BATT_PERMANENT_FAILURE) && b->value[BATT_PERMANENT_FAILURE] != 0)
        return "Permanent Failure";
    return b->error_condition[0] ? b->error_condition : "Normal";
}

/* powerd's kIOPSPowerSourceStateKey: AC while external power is connected. */
const char *
battery_power_source(const struct battery *b)
{
    return battery_has(b, BATT_EXTERNAL) && !b->value[BATT_EXTERNAL] ? "Battery Power" : "AC Power";
}
