/*
 * The internal battery from the AppleSmartBattery entry (PLAT_QUERY_BATTERY)
 * and on macOS 27 the AppleSmartBatteryPack entry, and what macOS derives
 * from them, computed as powerd computes it
 * (PowerManagement-1846.0.25.0.1 pmconfigd/BatteryTimeRemaining.m).
 * Portable and unit-tested.
 */
#ifndef PMDA_DARWIN_BATTERY_DECODE_H
#define PMDA_DARWIN_BATTERY_DECODE_H

#include <stdint.h>

#include "platform.h"
#include "key_list.h"

/*
 * The properties, each present or not (bit 1u << field in have), and where
 * each is read, in the order tried. FIELD names a field and its first key
 * path in the AppleSmartBattery entry ("Dict.Key": a key inside a
 * dictionary property), ALSO another path there, PACK a path in the
 * AppleSmartBatteryPack entry for what the battery entry lacks
 * (key_list.h). These paths are the queries' keys
 * (queries.c).
 *
 * Up to macOS 26 the AppleSmartBattery entry has all of them at its top
 * level. macOS 27 keeps there what powerd shows (the percents, times,
 * flags, voltage, amperage, cycles) and moves the gauge's capacities into
 * its "BatteryData" dictionary, under new names for two of them
 * (FullChargeCapacity, RemainingCapacity), and the temperature into the
 * pack entry's "BatteryData" (shared/real-macs/battery: Kyome22/
 * SystemInfoKit's macOS 27 dumps; docs/registry-keys.md). Key names: xnu
 * iokit/IOKit/pwr_mgt/IOPM.h (kIOPMPS*) and PowerManagement's
 * AppleSmartBatteryKeys.h.
 */
#define BATTERY_KEYS(FIELD, ALSO, PACK) \
    FIELD(BATT_INSTALLED, "BatteryInstalled") \
    FIELD(BATT_EXTERNAL, "ExternalConnected") \
    FIELD(BATT_CHARGING, "IsCharging") \
    FIELD(BATT_FULLY_CHARGED, "FullyCharged") \
    FIELD(BATT_CURRENT_CAPACITY, "CurrentCapacity") \
    FIELD(BATT_MAX_CAPACITY, "MaxCapacity") \
    FIELD(BATT_RAW_CURRENT, "AppleRawCurrentCapacity") \
    ALSO(BATT_RAW_CURRENT, "BatteryData.RemainingCapacity") \
    PACK(BATT_RAW_CURRENT, "BatteryData.AppleRawCurrentCapacity") \
    FIELD(BATT_RAW_MAX, "AppleRawMaxCapacity") \
    ALSO(BATT_RAW_MAX, "BatteryData.FullChargeCapacity") \
    PACK(BATT_RAW_MAX, "BatteryData.AppleRawMaxCapacity") \
    FIELD(BATT_DESIGN, "DesignCapacity") \
    ALSO(BATT_DESIGN, "BatteryData.DesignCapacity") \
    PACK(BATT_DESIGN, "BatteryData.DesignCapacity") \
    FIELD(BATT_NOMINAL, "NominalChargeCapacity") \
    ALSO(BATT_NOMINAL, "BatteryData.NominalChargeCapacity") \
    PACK(BATT_NOMINAL, "BatteryData.NominalChargeCapacity") \
    FIELD(BATT_TIME_REMAINING, "TimeRemaining") \
    FIELD(BATT_TIME_TO_EMPTY, "AvgTimeToEmpty") \
    FIELD(BATT_TIME_TO_FULL, "AvgTimeToFull") \
    FIELD(BATT_TEMPERATURE, "Temperature") \
    PACK(BATT_TEMPERATURE, "BatteryData.Temperature") \
    FIELD(BATT_VOLTAGE, "Voltage") \
    FIELD(BATT_AMPERAGE, "Amperage") \
    FIELD(BATT_CYCLE_COUNT, "CycleCount") \
    FIELD(BATT_DESIGN_CYCLES, "DesignCycleCount9C") \
    FIELD(BATT_PERMANENT_FAILURE, "PermanentFailureStatus") \
    FIELD(BATT_ADAPTER_WATTS, "AdapterDetails.Watts")

enum battery_field { BATTERY_KEYS(REG_FIELD_ENUM, REG_KEY_NONE, REG_KEY_NONE) BATT_NFIELDS };

/* The text properties the decoder reads beside the fields. */
#define BATTERY_ERROR_KEY "ErrorCondition"
#define BATTERY_ADAPTER_NAME_KEY "AdapterDetails.Name"
#define BATTERY_TEXT_KEYS BATTERY_ERROR_KEY, BATTERY_ADAPTER_NAME_KEY

/* Numbers as the driver publishes them: booleans 0/1, capacities in mAh
 * except current/max_capacity (percent on Apple Silicon, mAh on Intel),
 * times in minutes, temperature in hundredths of a degree Celsius, voltage
 * mV, amperage mA (negative while discharging: the driver stores a signed
 * 16-bit reading, the registry holds it as a 64-bit two's complement). */
struct battery {
    unsigned int have;
    int64_t value[BATT_NFIELDS];        /* read as uint64_t (key_list.h): the same object, C11 6.5p7 */
    char error_condition[64];           /* "ErrorCondition": "" while there is none */
    char adapter_name[64];              /* "AdapterDetails"/"Name" */
};

/* The first AppleSmartBattery entry; -ENOENT when there is none (a Mac
 * without a battery). */
int battery_decode(const struct plat_entry_set *set, struct battery *out);
/* Whether the battery lacks a value that the AppleSmartBatteryPack entry
 * (PLAT_QUERY_BATTERY_PACK, macOS 27) holds, and the pack's values for
 * those it lacks. */
int battery_wants_pack(const struct battery *b);
void battery_add_pack(const struct plat_entry_set *set, struct battery *b);

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
