/*
 * The internal battery from the AppleSmartBattery entry (PLAT_REGQ_BATTERY)
 * and on macOS 27 the AppleSmartBatteryPack entry, and what macOS derives
 * from them, computed as powerd computes it
 * (PowerManagement-1846.0.25.0.1 pmconfigd/BatteryTimeRemaining.m).
 * Portable and unit-tested.
 */
#ifndef PMDA_DARWIN_BATTERY_DECODE_H
#define PMDA_DARWIN_BATTERY_DECODE_H

#include <stdint.h>

#include "platform.h"

/* The properties, each present or not (bit 1u << field in have). */
enum battery_field {
    BATT_INSTALLED, BATT_EXTERNAL, BATT_CHARGING, BATT_FULLY_CHARGED, BATT_CURRENT_CAPACITY, BATT_MAX_CAPACITY,
    BATT_RAW_CURRENT, BATT_RAW_MAX, BATT_DESIGN, BATT_NOMINAL, BATT_TIME_REMAINING, BATT_TIME_TO_EMPTY,
    BATT_TIME_TO_FULL, BATT_TEMPERATURE, BATT_VOLTAGE, BATT_AMPERAGE, BATT_CYCLE_COUNT, BATT_DESIGN_CYCLES,
    BATT_PERMANENT_FAILURE, BATT_ADAPTER_WATTS, BATT_NFIELDS
};

/* Numbers as the driver publishes them: booleans 0/1, capacities in mAh
 * except current/max_capacity (percent on Apple Silicon, mAh on Intel),
 * times in minutes, temperature in hundredths of a degree Celsius, voltage
 * mV, amperage mA (negative while discharging: the driver stores a signed
 * 16-bit reading, the registry holds it as a 64-bit two's complement). */
struct battery {
    unsigned int have;
    int64_t value[BATT_NFIELDS];
    char error_condition[64];           /* "ErrorCondition": "" while there is none */
    char adapter_name[64];              /* "AdapterDetails"/"Name" */
};

/* The first AppleSmartBattery entry; -ENOENT when there is none (a Mac
 * without a battery). */
int battery_decode(const struct plat_reg_set *set, struct battery *out);
/* Whether the battery lacks a value that the AppleSmartBatteryPack entry
 * (PLAT_REGQ_BATTERY_PACK, macOS 27) holds, and the pack's values for
 * those it lacks. */
int battery_wants_pack(const struct battery *b);
void battery_add_pack(const struct plat_reg_set *set, struct battery *b);

/* Derived values: 0 and *out, or a negative errno: -ENODATA when the
 * battery does not give what it needs, -EAGAIN while macOS is still
 * estimating (time remaining). */
int battery_charge_percent(const struct battery *b, uint32_t *out);        /* as macOS shows it */
int battery_health_percent(const struct battery *b, uint32_t *out);        /* "Maximum Capacity" */
int battery_full_charge_mah(const struct battery *b, uint32_t *out);
int battery_remaining_mah(const struct battery *b, uint32_t *out);
int battery_time_remaining(const struct battery *b, int32_t *minutes);
int battery_temperature(const struct battery *b, float *celsius);
int battery_amperage(const struct battery *b, int32_t *milliamps);
int battery_watts(const struct battery *b, double *watts);                  /* signed: negative discharging */

/* Of an installed battery: "charging", "discharging", "charged" (full on
 * external power), or "not charging" (on external power, held below full). */
const char *battery_state(const struct battery *b);
/* "Normal", "Permanent Failure", or the driver's ErrorCondition text. */
const char *battery_condition(const struct battery *b);
/* What macOS's power source type says: "AC Power" or "Battery Power". */
const char *battery_power_source(const struct battery *b);

static inline int
battery_has(const struct battery *b, enum battery_field f)
{
    return (b->have >> f) & 1u;
}

/* Whether a battery is installed: Apple Silicon desktops have the entry
 * with BatteryInstalled 0. */
static inline int
battery_installed(const struct battery *b)
{
    return battery_has(b, BATT_INSTALLED) && b->value[BATT_INSTALLED] != 0;
}

#endif
