#include "thermal_decode.h"
#include "entry_props.h"
#include "entry_set.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static uint32_t
be(const unsigned char *b, size_t len)
{
    uint32_t v = 0;

    for (size_t i = 0; i < len; i++)
        v = v << 8 | b[i];
    return v;
}

/* A 16-bit fixed-point type "spIF" (signed) or "fpIF" (unsigned): I
 * integer and F fraction bits, each one hex digit, filling the 16 bits with
 * the sign (sp78, sp87, sp96, spa5, fp88, fpe2: VirtualSMC's
 * Docs/SMCKeys.txt): 1 and its fraction bits and signedness, or 0. */
static int
fixed_point(const char *t, unsigned int *fraction, int *is_signed)
{
    int i, f;

    if ((strncmp(t, "sp", 2) != 0 && strncmp(t, "fp", 2) != 0) || t[4] != '\0' ||
        (i = entry_hex_digit(t[2])) < 0 || (f = entry_hex_digit(t[3])) < 0)
        return 0;
    *is_signed = t[0] == 's';
    *fraction = (unsigned int)f;
    return i + f + *is_signed == 16;
}

int
smc_decode(const char *type, const unsigned char *bytes, size_t len, double *out)
{
    char t[5] = "";
    size_t tlen;
    static const struct {
        const char *type;
        size_t len;
        int is_signed;
    } integers[] = {
        { "ui8", 1, 0 }, { "ui16", 2, 0 }, { "ui32", 4, 0 }, { "si8", 1, 1 }, { "si16", 2, 1 },
    };
    unsigned int fraction = 0;
    int is_signed = 0;
    size_t want = 0;

    for (tlen = 0; tlen < sizeof(t) - 1 && type[tlen] != '\0'; tlen++)
        t[tlen] = type[tlen];
    for (t[tlen] = '\0'; tlen > 0 && t[tlen - 1] == ' ';)
        t[--tlen] = '\0';
    if (strcmp(t, "flt") == 0) {
        float f;

        if (len != sizeof(f))
            return -EINVAL;
        /* little-endian in the SMC's answer: assemble it so on any host */
        uint32_t bits = (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 | (uint32_t)bytes[2] << 16 |
                        (uint32_t)bytes[3] << 24;
        memcpy(&f, &bits, sizeof(f));
        *out = f;
        return 0;
    }
    if (fixed_point(t, &fraction, &is_signed))
        want = 2;
    for (size_t i = 0; want == 0 && i < sizeof(integers) / sizeof(integers[0]); i++)
        if (strcmp(t, integers[i].type) == 0) {
            want = integers[i].len;
            is_signed = integers[i].is_signed;
        }
    if (want == 0)
        return -ENOTSUP;
    if (len != want)
        return -EINVAL;
    uint32_t raw = be(bytes, len);
    double v = (double)raw;

    if (is_signed && (raw >> (8 * len - 1)) & 1u)
        v -= (double)(1ull << (8 * len));
    *out = v / (double)(1u << fraction);
    return 0;
}

int
smc_entry_value(const struct plat_entry *e, double *out)
{
    const struct plat_prop *type = entry_prop(e, "type"), *bytes = entry_prop(e, "bytes");

    if (type == NULL || type->kind != PLAT_PROP_STRING || bytes == NULL || bytes->kind != PLAT_PROP_DATA)
        return -ENODATA;
    return smc_decode(type->text, bytes->data, bytes->len, out);
}

static const char *const location_names[] = {
    [LOC_CPU] = "CPU", [LOC_GPU] = "GPU", [LOC_SOC] = "SoC", [LOC_BATTERY] = "battery", [LOC_SSD] = "SSD",
    [LOC_AMBIENT] = "ambient", [LOC_MEMORY] = "memory", [LOC_CHIPSET] = "chipset", [LOC_OTHER] = "other",
};

const char *
sensor_location_name(enum sensor_location loc)
{
    return location_names[loc];
}

/* Whether an SMC entry's type is this one (trailing spaces ignored). */
static int
of_type(const struct plat_entry *e, const char *type)
{
    const struct plat_prop *p = entry_prop(e, "type");
    size_t len = strlen(type);

    return p != NULL && p->kind == PLAT_PROP_STRING && strncmp(p->text, type, len) == 0 &&
           p->text[len + strspn(p->text + len, " ")] == '\0';
}

#define SMC_KEY_ENTRY(key, location, role, description) { key, location, role, description, 0 },
#define SMC_FLT_KEY_ENTRY(key, location, role, description) { key, location, role, description, 1 },
const struct smc_temperature_key smc_temperature_keys[] = {
    SMC_INTEL_TEMPERATURE_KEYS(SMC_KEY_ENTRY) SMC_APPLE_SILICON_TEMPERATURE_KEYS(SMC_FLT_KEY_ENTRY)
};
const unsigned int smc_ntemperature_keys = sizeof(smc_temperature_keys) / sizeof(smc_temperature_keys[0]);

/* A reading a sensor of a running Mac gives: above 0 and at most 200 °C.
 * Real dumps show what lies outside (shared/real-macs/smc, hid): the
 * SMC's "no sensor" values -127 and -128 (0x8100, 0x8000 in sp78), desktop
 * iMacs' and Mac Pros' TC0E/TC0F at -40 to -70 (not degrees), HID sensors
 * at -21.5 on an M1 Mac mini and -9200 while their block sleeps. */
static int
valid_celsius(double c)
{
    return isfinite(c) && c > 0.0 && c <= 200.0;
}

/* Apple Silicon's HID sensor names (not documented; as macmon, Stats and
 * TinyTemp group them): the first prefix or substring that matches. The
 * CPU clusters' sensors are named after them: eACC and pACC up to the M4,
 * and on the M5 its "M" and super clusters (kennss/SiliconScope
 * BandwidthSampler.swift names the M5 Max's clusters MACC). */
static enum sensor_location
hid_location(const char *name)
{
    static const struct {
        const char *part;
        enum sensor_location loc;
    } rules[] = {
        { "pACC", LOC_CPU }, { "eACC", LOC_CPU }, { "PACC", LOC_CPU }, { "EACC", LOC_CPU },
        { "sACC", LOC_CPU }, { "mACC", LOC_CPU }, { "SACC", LOC_CPU }, { "MACC", LOC_CPU },
        { "GPU", LOC_GPU }, { "tdie", LOC_SOC }, { "SOC", LOC_SOC }, { "battery", LOC_BATTERY },
        { "NAND", LOC_SSD }, { "mbient", LOC_AMBIENT },
    };

    for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
        if (strstr(name, rules[i].part) != NULL)
            return rules[i].loc;
    return LOC_OTHER;
}

void
sensors_from_hid(const struct plat_entry_set *set, struct sensor *out, unsigned int cap, unsigned int *n)
{
    *n = 0;
    for (unsigned int i = 0; i < set->n && *n < cap; i++) {
        const struct plat_entry *e = &set->entry[i];
        const struct plat_prop *p = entry_prop(e, "celsius");
        struct sensor *s = &out[*n];

        if (e->name[0] == '\0')
            continue;                   /* a service without a name cannot be told apart */
        entry_unique_name(out->name, sizeof(*out), *n, e->name, s->name, sizeof(s->name));
        s->description = NULL;
        s->location = hid_location(e->name);
        s->role = SMC_OTHER;
        s->valid = p != NULL && p->kind == PLAT_PROP_FLOAT && valid_celsius(p->real);
        s->celsius = s->valid ? p->real : 0.0;
        (*n)++;
    }
}

void
sensors_from_smc(const struct plat_entry_set *set, struct sensor *out, unsigned int cap, unsigned int *n)
{
    *n = 0;
    for (unsigned int k = 0; k < smc_ntemperature_keys && *n < cap; k++) {
        const struct smc_temperature_key *key = &smc_temperature_keys[k];

        for (unsigned int i = 0; i < set->n; i++) {
            struct sensor *s = &out[*n];

            if (strcmp(set->entry[i].name, key->key) != 0)
                continue;
            if (key->flt_only && !of_type(&set->entry[i], "flt"))
                break;                  /* an Intel Mac's key of that name: another sensor */
            snprintf(s->name, sizeof(s->name), "%s", key->key);
            s->description = key->description;
            s->location = key->location;
            s->role = key->role;
            s->valid = smc_entry_value(&set->entry[i], &s->celsius) == 0 && valid_celsius(s->celsius);
            (*n)++;
            break;
        }
    }
}

static int
hottest(const struct sensor *s, unsigned int n, int by_role, int which, double *out)
{
    int found = 0;

    for (unsigned int i = 0; i < n; i++) {
        if (!s[i].valid || (by_role ? (int)s[i].role : (int)s[i].location) != which)
            continue;
        if (!found || s[i].celsius > *out)
            *out = s[i].celsius;
        found = 1;
    }
    return found ? 0 : -ENODATA;
}

int
sensors_hottest_role(const struct sensor *s, unsigned int n, enum smc_role role, double *out)
{
    return hottest(s, n, 1, (int)role, out);
}

int
sensors_hottest_at(const struct sensor *s, unsigned int n, enum sensor_location loc, double *out)
{
    return hottest(s, n, 0, (int)loc, out);
}

/* Each fan's keys in the order FAN_FIELDS tries them. */
struct fan_place {
    unsigned int fan;
    enum fan_field field;
    const char *key;
};
#define FAN_PLACE(n, field, suffix) { n, field, "F" #n suffix },
static const struct fan_place fan_places[] = { FAN_NUMBERS(FAN_FIELDS, FAN_PLACE) };

int
fans_decode(const struct plat_entry_set *set, struct fans *out)
{
    const struct plat_entry *e = entry_named(set, FAN_COUNT_KEY);
    double count;

    memset(out, 0, sizeof(*out));
    if (e == NULL || smc_entry_value(e, &count) < 0 || count < 0 || count > FAN_MAX_FANS)
        return -ENOENT;
    out->count_known = 1;
    out->count = (unsigned int)count;
    for (size_t i = 0; i < sizeof(fan_places) / sizeof(fan_places[0]); i++) {
        const struct fan_place *at = &fan_places[i];
        unsigned int bit = 1u << at->field;
        double *value = &out->value[at->fan][at->field];

        if (at->fan < out->count && !(out->have[at->fan] & bit) && (e = entry_named(set, at->key)) != NULL &&
            smc_entry_value(e, value) == 0 && isfinite(*value) && *value >= 0)
            out->have[at->fan] |= bit;
    }
    return 0;
}

static const char *const pressure_names[] = { "Nominal", "Moderate", "Heavy", "Trapping", "Sleeping" };

int
thermal_pressure_decode(const struct plat_entry_set *set, uint64_t *level)
{
    return set->n > 0 && entry_number(entry_prop(&set->entry[0], "state"), level) ? 0 : -ENODATA;
}

const char *
thermal_pressure_name(uint64_t level)
{
    return level < sizeof(pressure_names) / sizeof(pressure_names[0]) ? pressure_names[level] : NULL;
}
