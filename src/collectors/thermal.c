/*
 * The thermal family. Cluster 25: temperatures, fans and thermal pressure,
 * upstream's names and PMIDs. Cluster 125: every temperature sensor as an
 * instance labelled with where it sits (CPU, GPU, SoC, battery, SSD,
 * ambient, memory, chipset, other): Apple Silicon's HID sensors by their
 * own names, Intel's SMC keys by key with a description.
 * Temperatures come from the HID sensors on Apple Silicon (which has
 * none of the Intel SMC temperature keys) and from SMC keys on Intel Macs,
 * thermal.ambient from the ambient key (on Apple Silicon thermal.cpu.die
 * from the SMC's CPU die aggregates TCMz and TCMb where HID names no CPU
 * sensor, as on an M1); fans from the SMC on every Mac
 * that has them, speeds in RPM (count per minute), with their mode;
 * pressure from the notify state macOS publishes, named as macOS names its
 * levels. Each part is read only when a requested metric needs it.
 */
#include "collector.h"
#include "instance_names.h"
#include "metric_units.h"
#include "thermal_decode.h"

#include <errno.h>
#include <stdio.h>

enum {
    ITEM_CPU_DIE = 0, ITEM_CPU_PROXIMITY, ITEM_GPU_DIE, ITEM_PACKAGE, ITEM_AMBIENT, ITEM_NFAN, ITEM_FAN_SPEED,
    ITEM_FAN_TARGET, ITEM_FAN_MODE, ITEM_FAN_MIN, ITEM_FAN_MAX, ITEM_PRESSURE_LEVEL, ITEM_PRESSURE_STATE
};

#define RPM PMDA_PMUNITS(0, -1, 1, 0, PM_TIME_MIN, PM_COUNT_ONE)
#ifdef PM_UNIT_TEMPERATURE
#define CELSIUS PMDA_EXTRAUNITS(0, 0, 0, 0, 0, 0, PM_UNIT_TEMPERATURE, PM_TEMPERATURE_C)
#else
#define CELSIUS UNITS_NONE      /* PCP 6 has no unit for temperature */
#endif
#define T(name, item) { "thermal." name, CLUSTER_THERMAL, item, PM_TYPE_FLOAT, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, CELSIUS }
#define FAN(name, item, type, units) { "thermal.fan." name, CLUSTER_THERMAL, item, type, INDOM_FAN, PM_SEM_INSTANT, units }

static const struct metric_row rows[] = {
    T("cpu.die", ITEM_CPU_DIE), T("cpu.proximity", ITEM_CPU_PROXIMITY), T("gpu.die", ITEM_GPU_DIE),
    T("package", ITEM_PACKAGE), T("ambient", ITEM_AMBIENT),
    { "hinv.nfan", CLUSTER_THERMAL, ITEM_NFAN, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_DISCRETE, UNITS_NONE },
    FAN("speed", ITEM_FAN_SPEED, PM_TYPE_FLOAT, RPM), FAN("target", ITEM_FAN_TARGET, PM_TYPE_FLOAT, RPM),
    FAN("mode", ITEM_FAN_MODE, PM_TYPE_U32, UNITS_NONE), FAN("min", ITEM_FAN_MIN, PM_TYPE_FLOAT, RPM),
    FAN("max", ITEM_FAN_MAX, PM_TYPE_FLOAT, RPM),
    { "thermal.pressure.level", CLUSTER_THERMAL, ITEM_PRESSURE_LEVEL, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, UNITS_NONE },
    { "thermal.pressure.state", CLUSTER_THERMAL, ITEM_PRESSURE_STATE, PM_TYPE_STRING, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, UNITS_NONE },
    { "thermal.sensor.temperature", CLUSTER_SENSORS, 0, PM_TYPE_FLOAT, INDOM_SENSOR, PM_SEM_INSTANT, CELSIUS },
};

static const struct indom_def indoms[] = {
    { .serial = INDOM_FAN, .label_name = "fan" },
    { .serial = INDOM_SENSOR, .label_name = "temperature sensor" },
};

enum part { PART_TEMPERATURES = 1u, PART_FANS = 2u, PART_PRESSURE = 4u, PART_ALL = 7u };

#define SENSOR_MAX 128

static unsigned int wanted;             /* parts the coming refresh must read; 0: all */
static int temperature_sts, fan_sts, pressure_sts;
static int from_hid;                    /* the sensors are HID's (Apple Silicon) */
static struct sensor sensors[SENSOR_MAX];
static int sensor_inst[SENSOR_MAX];
static unsigned int nsensors;
static struct sensor die[2];           /* TCMz and TCMb where HID has no CPU sensor (M1) */
static unsigned int ndie;
static struct fans fans;
static int fan_inst[FAN_MAX_FANS];
static uint64_t pressure;

static void
thermal_want(const struct metric_row *row)
{
    if (row->cluster == CLUSTER_SENSORS || row->item <= ITEM_AMBIENT)
        wanted |= PART_TEMPERATURES;
    else if (row->item <= ITEM_FAN_MAX)
        wanted |= PART_FANS;
    else
        wanted |= PART_PRESSURE;
}

static int
read_part(const struct platform *p, enum plat_reg_query_id q, struct plat_reg_set *set)
{
    int sts = p->registry(p->ctx, &plat_reg_queries[q], set);

    return sts < 0 ? sts : set->n > 0 ? 0 : -ENOENT;
}

/* The sensors, and their instances in id (by name, spaces made '_'). */
static int
read_temperatures(const struct platform *p, pmInDom id)
{
    struct plat_reg_set set;

    nsensors = 0;
    from_hid = (temperature_sts = read_part(p, PLAT_REGQ_HID_TEMPERATURES, &set)) == 0;
    ndie = 0;
    if (from_hid) {
        double c;

        sensors_from_hid(&set, sensors, SENSOR_MAX, &nsensors);
        if (sensors_hottest_at(sensors, nsensors, LOC_CPU, &c) < 0 && read_part(p, PLAT_REGQ_SMC_CPU_DIE, &set) == 0)
            sensors_from_smc(&set, die, sizeof(die) / sizeof(die[0]), &ndie);
    } else if (temperature_sts == -ENOENT && (temperature_sts = read_part(p, PLAT_REGQ_SMC_TEMPERATURES, &set)) == 0)
        sensors_from_smc(&set, sensors, SENSOR_MAX, &nsensors);
    names_begin(id);
    for (unsigned int i = 0; i < nsensors; i++) {
        char name[SENSOR_NAME_MAX];

        collector_instance_name(sensors[i].name, name, sizeof(name));
        if ((sensor_inst[i] = names_add(id, name)) < 0)
            return sensor_inst[i];
    }
    return 0;
}

static int
read_fans(const struct platform *p, pmInDom id)
{
    struct plat_reg_set set;

    names_begin(id);
    if ((fan_sts = read_part(p, PLAT_REGQ_SMC_FANS, &set)) == 0)
        fan_sts = fans_decode(&set, &fans);
    if (fan_sts < 0)
        fans.count = 0;
    for (unsigned int i = 0; i < fans.count; i++) {
        char name[16];

        snprintf(name, sizeof(name), "fan%u", i);
        if ((fan_inst[i] = names_add(id, name)) < 0)
            return fan_inst[i];
    }
    return 0;
}

static int
thermal_refresh(const struct platform *p, pmInDom id, const char **reason)
{
    unsigned int parts = wanted ? wanted : PART_ALL;
    struct plat_reg_set set;
    int sts;

    (void)reason;
    wanted = 0;
    if ((parts & PART_TEMPERATURES) && (sts = read_temperatures(p, pmInDom_build(pmInDom_domain(id), INDOM_SENSOR))) < 0)
        return sts;
    if ((parts & PART_PRESSURE) && (pressure_sts = read_part(p, PLAT_REGQ_THERMAL_PRESSURE, &set)) == 0)
        pressure_sts = thermal_pressure_decode(&set, &pressure);
    return parts & PART_FANS ? read_fans(p, id) : 0;
}

static const struct sensor *
sensor_of_inst(unsigned int inst)
{
    for (unsigned int i = 0; i < nsensors; i++)
        if ((unsigned int)sensor_inst[i] == inst)
            return &sensors[i];
    return NULL;
}

/* A cluster 125 value: one sensor's reading. No sensors at all (-ENOENT)
 * is no instance, not a failure. */
static int
sensor_value(unsigned int inst, pmAtomValue *atom)
{
    const struct sensor *s;

    if (temperature_sts < 0 && temperature_sts != -ENOENT)
        return collector_error(temperature_sts);
    if ((s = sensor_of_inst(inst)) == NULL)
        return PM_ERR_INST;
    if (!s->valid)
        return PMDA_FETCH_NOVALUES;
    atom->f = (float)s->celsius;
    return PMDA_FETCH_STATIC;
}

/* An upstream temperature: on Intel the SMC key with that role, on Apple
 * Silicon the hottest HID sensor where it sits (no proximity or ambient
 * sensor there: not supported). */
static int
temperature(unsigned int item, pmAtomValue *atom)
{
    static const struct {
        enum smc_role role;
        int hid_location;                   /* -1: none on Apple Silicon */
    } source[] = {
        [ITEM_CPU_DIE] = { SMC_CPU_DIE, LOC_CPU }, [ITEM_CPU_PROXIMITY] = { SMC_CPU_PROXIMITY, -1 },
        [ITEM_GPU_DIE] = { SMC_GPU_DIE, LOC_GPU }, [ITEM_PACKAGE] = { SMC_CPU_PACKAGE, LOC_SOC },
        [ITEM_AMBIENT] = { SMC_AMBIENT, -1 },
    };
    double c;
    int sts;

    if (temperature_sts < 0)
        return collector_error(temperature_sts);
    if (from_hid && source[item].hid_location < 0)
        return PM_ERR_APPVERSION;
    sts = from_hid ? sensors_hottest_at(sensors, nsensors, (enum sensor_location)source[item].hid_location, &c)
                   : sensors_hottest_role(sensors, nsensors, source[item].role, &c);
    if (sts < 0 && from_hid)            /* the SMC's CPU die aggregates, where HID names no CPU sensor */
        sts = sensors_hottest_role(die, ndie, source[item].role, &c);
    if (sts < 0)
        return from_hid ? PMDA_FETCH_NOVALUES : PM_ERR_APPVERSION;     /* Intel: this Mac lacks the key */
    atom->f = (float)c;
    return PMDA_FETCH_STATIC;
}

static int
fan_value(unsigned int item, unsigned int inst, pmAtomValue *atom)
{
    static const enum fan_field field[] = {
        [ITEM_FAN_SPEED] = FAN_SPEED, [ITEM_FAN_TARGET] = FAN_TARGET, [ITEM_FAN_MODE] = FAN_MODE,
        [ITEM_FAN_MIN] = FAN_MIN, [ITEM_FAN_MAX] = FAN_MAX,
    };
    unsigned int f;

    for (f = 0; f < fans.count && (unsigned int)fan_inst[f] != inst; f++)
        ;
    if (f == fans.count)
        return PM_ERR_INST;
    if (!(fans.have[f] & (1u << field[item])))
        return PMDA_FETCH_NOVALUES;
    if (item == ITEM_FAN_MODE)
        atom->ul = (uint32_t)fans.value[f][FAN_MODE];
    else
        atom->f = (float)fans.value[f][field[item]];
    return PMDA_FETCH_STATIC;
}

static int
thermal_fetch(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    if (row->cluster == CLUSTER_SENSORS)
        return sensor_value(inst, atom);
    if (row->item <= ITEM_AMBIENT)
        return temperature(row->item, atom);
    if (row->item <= ITEM_FAN_MAX && fan_sts < 0)
        return collector_error(fan_sts);
    switch (row->item) {
    case ITEM_NFAN:
        atom->ul = fans.count;
        return PMDA_FETCH_STATIC;
    case ITEM_PRESSURE_LEVEL:
    case ITEM_PRESSURE_STATE:
        if (pressure_sts < 0)
            return collector_error(pressure_sts);
        if (row->item == ITEM_PRESSURE_LEVEL)
            atom->ul = (uint32_t)pressure;
        else if ((atom->cp = (char *)thermal_pressure_name(pressure)) == NULL)
            return PMDA_FETCH_NOVALUES;
        return PMDA_FETCH_STATIC;
    }
    return fan_value(row->item, inst, atom);
}

/* The sensors are labelled with where they sit; the fans have no labels. */
static int
thermal_labels(pmInDom id, unsigned int inst, char *json, size_t len)
{
    const struct sensor *s = pmInDom_serial(id) == INDOM_SENSOR ? sensor_of_inst(inst) : NULL;
    char name[SENSOR_NAME_MAX];

    if (s == NULL)
        return -1;
    collector_label_text(s->name, name, sizeof(name));
    if (s->description != NULL)
        snprintf(json, len, "{\"location\":\"%s\",\"sensor\":\"%s\",\"description\":\"%s\"}",
                 sensor_location_name(s->location), name, s->description);
    else
        snprintf(json, len, "{\"location\":\"%s\",\"sensor\":\"%s\"}", sensor_location_name(s->location), name);
    return 0;
}

static void
thermal_teardown(pmInDom id)
{
    pmInDom sensor_id = pmInDom_build(pmInDom_domain(id), INDOM_SENSOR);

    names_forget(id);
    names_forget(sensor_id);
    fans.count = 0;
    nsensors = 0;
}

const struct collector thermal_collector = {
    .name = "thermal",
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .indom = indoms,
    .nindoms = sizeof(indoms) / sizeof(indoms[0]),
    .refresh = thermal_refresh,
    .fetch = thermal_fetch,
    .want = thermal_want,
    .instance_labels = thermal_labels,
    .teardown = thermal_teardown,
};
