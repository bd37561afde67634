/*
 * Temperatures, fans and thermal pressure from registry-shaped entries:
 * SMC keys (PLAT_QUERY_SMC_*), HID temperature services
 * (PLAT_QUERY_HID_TEMPERATURES) and the thermal pressure notify state
 * (PLAT_QUERY_THERMAL_PRESSURE). Portable and unit-tested; the SMC byte
 * formats and key meanings are reverse-engineered (Apple documents
 * neither), as the open SMC tools and VirtualSMC's key list describe them.
 */
#ifndef PMDA_DARWIN_THERMAL_DECODE_H
#define PMDA_DARWIN_THERMAL_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "platform.h"

/*
 * An SMC value of the four-character type (trailing spaces ignored) in its
 * raw bytes: 16-bit fixed point, big-endian, spIF signed and fpIF unsigned
 * with I integer and F fraction bits (sp78 and fpe2 for temperatures and
 * fans; sp78, sp87, sp96 and spa5 for Intel Macs' power keys), flt (IEEE-754 single, little-endian as Apple
 * Silicon's SMC stores it), ui8/ui16/ui32 (big-endian), si8/si16. Returns
 * 0, -ENOTSUP for another type, -EINVAL when the length does not fit it.
 */
int smc_decode(const char *type, const unsigned char *bytes, size_t len, double *out);

/* The value of an SMC entry (its "type" and "bytes"), as smc_decode. */
int smc_entry_value(const struct plat_entry *e, double *out);

/* Where a sensor sits: the "location" label. */
enum sensor_location {
    LOC_CPU, LOC_GPU, LOC_SOC, LOC_BATTERY, LOC_SSD, LOC_AMBIENT, LOC_MEMORY, LOC_CHIPSET, LOC_OTHER
};
const char *sensor_location_name(enum sensor_location loc);

/* What an SMC temperature key means. */
enum smc_role { SMC_CPU_DIE, SMC_CPU_PROXIMITY, SMC_CPU_PACKAGE, SMC_GPU_DIE, SMC_AMBIENT, SMC_OTHER };

/* Intel Macs' temperature keys (VirtualSMC Docs/SMCSensorKeys.txt and the
 * SMC tools agree on these): X(key, location, role, description) for each. */
#define SMC_INTEL_TEMPERATURE_KEYS(X)                                       \
    X("TC0D", LOC_CPU, SMC_CPU_DIE, "CPU die (diode)")                      \
    X("TC0E", LOC_CPU, SMC_CPU_DIE, "CPU die (virtual)")                    \
    X("TC0F", LOC_CPU, SMC_CPU_DIE, "CPU die (filtered)")                   \
    X("TC0P", LOC_CPU, SMC_CPU_PROXIMITY, "CPU proximity")                  \
    X("TCXC", LOC_CPU, SMC_CPU_PACKAGE, "CPU package (PECI)")               \
    X("TG0D", LOC_GPU, SMC_GPU_DIE, "GPU die")                              \
    X("TG0P", LOC_GPU, SMC_OTHER, "GPU proximity")                          \
    X("TA0P", LOC_AMBIENT, SMC_AMBIENT, "ambient")                          \
    X("TA0V", LOC_AMBIENT, SMC_AMBIENT, "ambient (virtual)")                \
    X("TB0T", LOC_BATTERY, SMC_OTHER, "battery")                            \
    X("TM0P", LOC_MEMORY, SMC_OTHER, "memory proximity")                    \
    X("TPCD", LOC_CHIPSET, SMC_OTHER, "platform controller hub die")        \
    X("TH0P", LOC_SSD, SMC_OTHER, "drive proximity")

/* Apple Silicon's, whose values are "flt" (iSMC's listing of an M5 Pro,
 * shared/real-macs/hid): the CPU die's hottest and average point, which the
 * SMC computes on every chip (oshi/oshi pull request 3535; an M2 Max's TCMz and
 * TCMb in kennss/SiliconScope issue 57); each core's and the GPU's keys as
 * exelban/stats lists them per chip (Modules/Sensors/values.swift @1ab6adb5: M1,
 * M2, M3, M4, M5 in that order). Some of these names are other sensors on
 * Intel Macs (MacPro7,1's Tp0P, an sp78 power supply key), so a key here
 * is a temperature only with a flt value. */
#define SMC_AS_CORE(X, key) X(key, LOC_CPU, SMC_CPU_DIE, "CPU core")
#define SMC_AS_GPU(X, key) X(key, LOC_GPU, SMC_GPU_DIE, "GPU")
#define SMC_APPLE_SILICON_TEMPERATURE_KEYS(X)                                                               \
    X("TCMz", LOC_CPU, SMC_CPU_DIE, "CPU die (hottest)")                                                    \
    X("TCMb", LOC_CPU, SMC_CPU_DIE, "CPU die (average)")                                                    \
    SMC_AS_CORE(X, "Tp09") SMC_AS_CORE(X, "Tp0T") SMC_AS_CORE(X, "Tp01") SMC_AS_CORE(X, "Tp05")             \
    SMC_AS_CORE(X, "Tp0D") SMC_AS_CORE(X, "Tp0H") SMC_AS_CORE(X, "Tp0L") SMC_AS_CORE(X, "Tp0P")             \
    SMC_AS_CORE(X, "Tp0X") SMC_AS_CORE(X, "Tp0b")                                                           \
    SMC_AS_CORE(X, "Tp1h") SMC_AS_CORE(X, "Tp1t") SMC_AS_CORE(X, "Tp1p") SMC_AS_CORE(X, "Tp1l")             \
    SMC_AS_CORE(X, "Tp0f") SMC_AS_CORE(X, "Tp0j")                                                           \
    SMC_AS_CORE(X, "Te05") SMC_AS_CORE(X, "Te0L") SMC_AS_CORE(X, "Te0P") SMC_AS_CORE(X, "Te0S")             \
    SMC_AS_CORE(X, "Tf04") SMC_AS_CORE(X, "Tf09") SMC_AS_CORE(X, "Tf0A") SMC_AS_CORE(X, "Tf0B")             \
    SMC_AS_CORE(X, "Tf0D") SMC_AS_CORE(X, "Tf0E") SMC_AS_CORE(X, "Tf44") SMC_AS_CORE(X, "Tf49")             \
    SMC_AS_CORE(X, "Tf4A") SMC_AS_CORE(X, "Tf4B") SMC_AS_CORE(X, "Tf4D") SMC_AS_CORE(X, "Tf4E")             \
    SMC_AS_CORE(X, "Te09") SMC_AS_CORE(X, "Te0H") SMC_AS_CORE(X, "Tp0V") SMC_AS_CORE(X, "Tp0Y")             \
    SMC_AS_CORE(X, "Tp0e")                                                                                  \
    SMC_AS_CORE(X, "Tp00") SMC_AS_CORE(X, "Tp04") SMC_AS_CORE(X, "Tp08") SMC_AS_CORE(X, "Tp0C")             \
    SMC_AS_CORE(X, "Tp0G") SMC_AS_CORE(X, "Tp0K") SMC_AS_CORE(X, "Tp0O") SMC_AS_CORE(X, "Tp0R")             \
    SMC_AS_CORE(X, "Tp0U") SMC_AS_CORE(X, "Tp0a") SMC_AS_CORE(X, "Tp0d") SMC_AS_CORE(X, "Tp0g")             \
    SMC_AS_CORE(X, "Tp0m") SMC_AS_CORE(X, "Tp0p") SMC_AS_CORE(X, "Tp0u") SMC_AS_CORE(X, "Tp0y")             \
    SMC_AS_GPU(X, "Tg05") SMC_AS_GPU(X, "Tg0D") SMC_AS_GPU(X, "Tg0L") SMC_AS_GPU(X, "Tg0T")                 \
    SMC_AS_GPU(X, "Tg0f") SMC_AS_GPU(X, "Tg0j")                                                             \
    SMC_AS_GPU(X, "Tf14") SMC_AS_GPU(X, "Tf18") SMC_AS_GPU(X, "Tf19") SMC_AS_GPU(X, "Tf1A")                 \
    SMC_AS_GPU(X, "Tf24") SMC_AS_GPU(X, "Tf28") SMC_AS_GPU(X, "Tf29") SMC_AS_GPU(X, "Tf2A")                 \
    SMC_AS_GPU(X, "Tg0G") SMC_AS_GPU(X, "Tg0H") SMC_AS_GPU(X, "Tg1U") SMC_AS_GPU(X, "Tg1k")                 \
    SMC_AS_GPU(X, "Tg0K") SMC_AS_GPU(X, "Tg0d") SMC_AS_GPU(X, "Tg0e") SMC_AS_GPU(X, "Tg0k")                 \
    SMC_AS_GPU(X, "Tg0U") SMC_AS_GPU(X, "Tg0X") SMC_AS_GPU(X, "Tg0g") SMC_AS_GPU(X, "Tg1Y")                 \
    SMC_AS_GPU(X, "Tg1c") SMC_AS_GPU(X, "Tg1g")

/* Every temperature key, Intel's then Apple Silicon's: the SMC query reads
 * exactly these (plat_smc_temperature_keys). */
#define SMC_TEMPERATURE_KEYS(X) SMC_INTEL_TEMPERATURE_KEYS(X) SMC_APPLE_SILICON_TEMPERATURE_KEYS(X)
struct smc_temperature_key {
    const char *key;
    enum sensor_location location;
    enum smc_role role;
    const char *description;
    int flt_only;                       /* Apple Silicon's: a temperature only as a flt value */
};
extern const struct smc_temperature_key smc_temperature_keys[];
extern const unsigned int smc_ntemperature_keys;

#define SENSOR_NAME_MAX PLAT_NAME_MAX
struct sensor {
    char name[SENSOR_NAME_MAX];         /* the HID "Product", or the SMC key */
    const char *description;            /* for SMC keys; NULL for HID sensors */
    enum sensor_location location;
    enum smc_role role;                 /* SMC_OTHER for HID sensors */
    int valid;                          /* 0: the sensor gave no reading or junk */
    double celsius;
};

/*
 * The sensors of either source: HID services named by "Product" (a name
 * seen again gets " #2", " #3"), located by name (pACC/eACC: CPU, GPU,
 * PMU tdie: SoC, gas gauge battery, NAND: SSD); or SMC temperature keys,
 * located by smc_temperature_keys. A reading at or below 0 °C, above
 * 200 °C or not finite is not valid (the SMC's -127 for no sensor, HID
 * sensors' -9200 while their block is powered down: thermal_decode.c).
 * Fills out[0..*n) (at most cap).
 */
void sensors_from_hid(const struct plat_entry_set *set, struct sensor *out, unsigned int cap, unsigned int *n);
void sensors_from_smc(const struct plat_entry_set *set, struct sensor *out, unsigned int cap, unsigned int *n);

/* Summaries for upstream's names: the hottest valid sensor with this SMC
 * role, or at this location (HID); -ENODATA when there is none. */
int sensors_hottest_role(const struct sensor *s, unsigned int n, enum smc_role role, double *out);
int sensors_hottest_at(const struct sensor *s, unsigned int n, enum sensor_location loc, double *out);

/* The fans' SMC keys: FNum (how many), then for fan N "FN" and a suffix
 * per value: actual, target, minimum and maximum speed, and mode. Four
 * fans: no Mac has more. A line FIELD(n, field, suffix) names a field and
 * its key; ALSO(n, field, suffix) another key of that field, read where
 * the SMC lacks the ones before it: the M5's SMC has its mode as the
 * lowercase "FNmd" and no "FNMd" (shared/real-macs/smc/m5pro-mac17-9-
 * macos27.0-macwake16-fan-mode-keys-partial.txt; exelban/stats pull
 * request 3051, "M5 uses F%dmd"). FAN_KEYS is "FNAc", ... for each fan's
 * each key, the SMC query's keys (queries.c). */
#define FAN_COUNT_KEY "FNum"
#define FAN_FIELDS(FIELD, ALSO, n)                                                                          \
    FIELD(n, FAN_SPEED, "Ac") FIELD(n, FAN_TARGET, "Tg") FIELD(n, FAN_MIN, "Mn") FIELD(n, FAN_MAX, "Mx")    \
    FIELD(n, FAN_MODE, "Md") ALSO(n, FAN_MODE, "md")
#define FAN_NUMBERS(X, Y) X(Y, Y, 0) X(Y, Y, 1) X(Y, Y, 2) X(Y, Y, 3)
#define FAN_KEY_OF(n, field, suffix) "F" #n suffix,
#define FAN_KEYS FAN_NUMBERS(FAN_FIELDS, FAN_KEY_OF)

#define FAN_FIELD_ENUM(n, field, suffix) field,
#define FAN_FIELD_NONE(n, field, suffix)
enum fan_field { FAN_FIELDS(FAN_FIELD_ENUM, FAN_FIELD_NONE, 0) FAN_NFIELDS };
#define FAN_ONE(X, Y, n) +1
enum { FAN_MAX_FANS = 0 FAN_NUMBERS(FAN_ONE, 0) };
struct fans {
    int count_known;
    unsigned int count;                 /* FNum */
    unsigned int have[FAN_MAX_FANS];    /* bit 1u << field */
    double value[FAN_MAX_FANS][FAN_NFIELDS];    /* RPM; mode 0 automatic, 1 forced */
};
/* The fans of the SMC_FANS entries; -ENOENT when the SMC has no FNum. */
int fans_decode(const struct plat_entry_set *set, struct fans *out);

/* The thermal pressure level (OSThermalPressureLevel, macOS values:
 * <libkern/OSThermalNotification.h>) and its name: "Nominal", "Moderate",
 * "Heavy", "Trapping", "Sleeping"; NULL for a level macOS does not define. */
int thermal_pressure_decode(const struct plat_entry_set *set, uint64_t *level);
const char *thermal_pressure_name(uint64_t level);

#endif
