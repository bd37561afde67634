#include "battery_decode.h"
#include "entry_props.h"
#include "entry_set.h"

#include <errno.h>
#include <math.h>
#include <string.h>

_Static_assert(BATT_NFIELDS <= 32, "every battery field has a bit of have");

/* Where each field is read (battery_decode.h), in the order tried. */
static const struct key_place battery_places[] = { BATTERY_KEYS(REG_PLACE, REG_PLACE, REG_KEY_NONE) };
static const struct key_place pack_places[] = { BATTERY_KEYS(REG_KEY_NONE, REG_KEY_NONE, REG_PLACE) };

/* A Smart Battery time register reads 65535 while the gauge has no
 * estimate (not discharging, or still averaging); powerd reports -1,
 * "still calculating", then. */
#define GAUGE_NO_ESTIMATE 65535

/* MaxCapacity is a percent (100) where macOS shows the charge as one
 * (Apple Silicon), the full-charge capacity in mAh elsewhere (Intel: no
 * Mac battery holds 100 mAh). */
#define MAX_CAPACITY_PERCENT 100

/* powerd's bounds on a nominal-capacity percent it believes
 * (kMinNominalCapacityPercentage, kMaxNominalCapacityPercentage), and what
 * System Settings shows at most. */
#define NOMINAL_PERCENT_MIN 1
#define NOMINAL_PERCENT_MAX 150
#define SHOWN_PERCENT_MAX 100

static const struct plat_entry *
first_of_class(const struct plat_entry_set *set, const char *class_name)
{
    for (unsigned int i = 0; set != NULL && i < set->n; i++)
        if (strcmp(set->entry[i].class_name, class_name) == 0)
            return &set->entry[i];
    return NULL;
}

/* The places' fields that b lacks, from e. */
static void
take(struct battery *b, const struct plat_entry *e, const struct key_place *places, size_t n)
{
    read_key_places(e, places, n, &b->have, (uint64_t *)b->value);
}

int
battery_decode(const struct plat_entry_set *set, struct battery *out)
{
    const struct plat_entry *e = first_of_class(set, "AppleSmartBattery");

    memset(out, 0, sizeof(*out));
    if (e == NULL)
        return -ENOENT;
    take(out, e, battery_places, REG_NPLACES(battery_places));
    entry_text(entry_prop_key(e, BATTERY_ERROR_KEY), out->error_condition, sizeof(out->error_condition));
    entry_text(entry_prop_key(e, BATTERY_ADAPTER_NAME_KEY), out->adapter_name, sizeof(out->adapter_name));
    return 0;
}

int
battery_wants_pack(const struct battery *b)
{
    return key_places_wanted(pack_places, REG_NPLACES(pack_places), b->have);
}

void
battery_add_pack(const struct plat_entry_set *set, struct battery *b)
{
    const struct plat_entry *e = first_of_class(set, "AppleSmartBatteryPack");

    take(b, e, pack_places, REG_NPLACES(pack_places));
}

/* powerd (kernelPowerSourcesDidChange): lround(current * 100 / max),
 * at most 100. Both are percents on Apple Silicon and mAh on Intel, so the
 * same formula holds on both. */
int
battery_charge_percent(const struct battery *b, uint32_t *out)
{
    int64_t cur = b->value[BATT_CURRENT_CAPACITY], max = b->value[BATT_MAX_CAPACITY];
    long pct;

    if (!battery_installed(b) || !battery_has(b, BATT_CURRENT_CAPACITY) || !battery_has(b, BATT_MAX_CAPACITY) ||
        max <= 0 || cur < 0)
        return -ENODATA;
    pct = lround((double)cur * 100.0 / (double)max);
    *out = (uint32_t)(pct > 100 ? 100 : pct);
    return 0;
}

/* The gauge's raw field in mAh, else the plain one where MaxCapacity says
 * the plain capacities are mAh (older Intel drivers), never a percent. */
static int
mah(const struct battery *b, enum battery_field raw, enum battery_field plain, uint32_t *out)
{
    enum battery_field f = battery_has(b, raw) ? raw : plain;

    if (!battery_installed(b) || !battery_has(b, f) || b->value[f] < 0 || b->value[f] > UINT32_MAX)
        return -ENODATA;
    if (f == plain && (!battery_has(b, BATT_MAX_CAPACITY) || b->value[BATT_MAX_CAPACITY] <= MAX_CAPACITY_PERCENT))
        return -ENODATA;
    *out = (uint32_t)b->value[f];
    return 0;
}

/* The capacity a full charge holds now, in mAh. */
int
battery_full_charge_mah(const struct battery *b, uint32_t *out)
{
    int sts = mah(b, BATT_RAW_MAX, BATT_MAX_CAPACITY, out);

    return sts == 0 && *out == 0 ? -ENODATA : sts;
}

/* The charge the battery holds now, in mAh: on older Intel drivers
 * CurrentCapacity, which System Information shows as "Charge Remaining
 * (mAh)". */
int
battery_remaining_mah(const struct battery *b, uint32_t *out)
{
    return mah(b, BATT_RAW_CURRENT, BATT_CURRENT_CAPACITY, out);
}

/* "Maximum Capacity" as System Settings shows it: powerd's rawToNominal,
 * ceil(NominalChargeCapacity * 100 / DesignCapacity) (the full-charge
 * capacity where the battery has no nominal one: Intel), refused outside
 * the 1-150 powerd believes, and never above 100. powerd also filters the
 * figure over days and lets it only fall (checkNominalCapacity), from a
 * history kept in NVRAM that only root may read: the live ratio can differ
 * from System Settings by a few points (power.battery.health's help). */
int
battery_health_percent(const struct battery *b, uint32_t *out)
{
    int64_t design = b->value[BATT_DESIGN], full;
    uint32_t fcc;
    double pct;

    if (!battery_installed(b) || !battery_has(b, BATT_DESIGN) || design <= 0)
        return -ENODATA;
    if (battery_has(b, BATT_NOMINAL) && b->value[BATT_NOMINAL] > 0)
        full = b->value[BATT_NOMINAL];
    else if (battery_full_charge_mah(b, &fcc) == 0)
        full = fcc;
    else
        return -ENODATA;
    pct = ceil((double)full * 100.0 / (double)design);
    if (pct < NOMINAL_PERCENT_MIN || pct > NOMINAL_PERCENT_MAX)
        return -ENODATA;
    *out = (uint32_t)(pct > SHOWN_PERCENT_MAX ? SHOWN_PERCENT_MAX : pct);
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
    if (!battery_installed(b))
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
    if (!battery_installed(b) || !battery_has(b, BATT_TEMPERATURE))
        return -ENODATA;
    *celsius = (float)((double)b->value[BATT_TEMPERATURE] / 100.0);
    return 0;
}

int
battery_amperage(const struct battery *b, int32_t *milliamps)
{
    int64_t v = b->value[BATT_AMPERAGE];

    if (!battery_installed(b) || !battery_has(b, BATT_AMPERAGE) || v < INT32_MIN || v > INT32_MAX)
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
