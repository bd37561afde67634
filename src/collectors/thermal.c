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
#include "metric_ids.h"
#include "instance_names.h"
#include "metric_units.h"
#include "thermal_decode.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

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

enum part { PART_TEMPERATURES = 1u, PART_FANS = 2u, PART_PRESSURE = 4u, PART_ALL = 7u };

#define SENSOR_MAX 128

/* An instance of the sensor domain: a sensor of the last read. */
struct sensor_entry {
    int inst;
    const struct sensor *sensor;        /* in the state's sensors[] */
    unsigned int valid;                 /* bit 0: celsius is a reading (sensor->valid) */
    double celsius;
};

/* An instance of the fan domain: a fan of the last read. */
struct fan_entry {
    int inst;
    unsigned int have;                  /* the fields it gave (bit 1u << field) */
    double value[FAN_NFIELDS];          /* its fields (RPM; the mode is served from mode) */
    uint32_t mode;                      /* value[FAN_MODE], while it gave one: 0 automatic, 1 forced */
};

struct thermal_state {
    unsigned int wanted;                /* parts the coming refresh must read; 0: all */
    int temperature_sts, fan_sts, pressure_sts;
    int from_hid;                       /* the sensors are HID's (Apple Silicon) */
    int had_hid;                        /* HID gave sensors once: none now is a failure, not an Intel Mac */
    struct sensor sensors[SENSOR_MAX];
    struct sensor_entry sensor_entries[SENSOR_MAX];
    unsigned int nsensors;
    struct sensor die[2];               /* TCMz and TCMb where HID has no CPU sensor (M1) */
    unsigned int ndie;
    struct fans fans;
    struct fan_entry fan_entries[FAN_MAX_FANS];
    unsigned int fan_had[FAN_MAX_FANS]; /* the fields each fan has given (bit 1u << field) */
    int fans_short;                     /* a fan lacks a field it gave before: logged, the rest served */
    uint64_t pressure;
    const char *pressure_name;          /* macOS's name for the level; NULL: a level it does not name */
    unsigned int failed, logged;        /* parts failing, and as last logged (collector_note_parts) */
    char why[512];                      /* what the sources said of this refresh's failures */
};

/* Where each upstream temperature comes from, by row->index: on Intel the
 * SMC key with that role, on Apple Silicon the hottest HID sensor where it
 * sits (no proximity or ambient sensor there: not supported). */
enum { TEMP_CPU_DIE, TEMP_CPU_PROXIMITY, TEMP_GPU_DIE, TEMP_PACKAGE, TEMP_AMBIENT };
static const struct {
    enum smc_role role;
    int hid_location;                   /* -1: none on Apple Silicon */
} temperature_source[] = {
    [TEMP_CPU_DIE] = { SMC_CPU_DIE, LOC_CPU }, [TEMP_CPU_PROXIMITY] = { SMC_CPU_PROXIMITY, -1 },
    [TEMP_GPU_DIE] = { SMC_GPU_DIE, LOC_GPU }, [TEMP_PACKAGE] = { SMC_CPU_PACKAGE, LOC_SOC },
    [TEMP_AMBIENT] = { SMC_AMBIENT, -1 },
};

static int
upstream_temperature(const void *state, const void *entry, const struct metric_row *row, unsigned int inst,
                     pmAtomValue *atom)
{
    const struct thermal_state *th = state;
    int location = temperature_source[row->index].hid_location;
    enum smc_role role = temperature_source[row->index].role;
    double c;
    int sts;

    (void)entry;
    (void)inst;
    if (th->temperature_sts < 0)
        return collector_error(th->temperature_sts);
    if (th->from_hid && location < 0)
        return PM_ERR_APPVERSION;
    sts = th->from_hid ? sensors_hottest_at(th->sensors, th->nsensors, (enum sensor_location)location, &c)
                       : sensors_hottest_role(th->sensors, th->nsensors, role, &c);
    if (sts < 0 && th->from_hid)        /* the SMC's CPU die aggregates, where HID names no CPU sensor */
        sts = sensors_hottest_role(th->die, th->ndie, role, &c);
    if (sts < 0)
        return th->from_hid ? PMDA_FETCH_NOVALUES : PM_ERR_APPVERSION; /* Intel: this Mac lacks the key */
    atom->f = (float)c;
    return PMDA_FETCH_STATIC;
}

#define T(name, which) { "thermal." name, CLUSTER_THERMAL, ITEM_##which, PM_TYPE_FLOAT, COLLECTOR_NO_INDOM, \
                         PM_SEM_INSTANT, CELSIUS, .derive = upstream_temperature, .index = TEMP_##which }
#define FAN(name, item, type, units, binding) \
    { "thermal.fan." name, CLUSTER_THERMAL, item, type, INDOM_FAN, PM_SEM_INSTANT, units, binding }
/* A fan's field, while the fan gives it. */
#define FAN_RPM(field) FIELD_PRESENT(struct fan_entry, value[field], have, field, FIELD_DOUBLE)

static const struct metric_row rows[] = {
    T("cpu.die", CPU_DIE), T("cpu.proximity", CPU_PROXIMITY), T("gpu.die", GPU_DIE), T("package", PACKAGE),
    T("ambient", AMBIENT),
    { "hinv.nfan", CLUSTER_THERMAL, ITEM_NFAN, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_DISCRETE, UNITS_NONE,
      FIELD_OF(struct thermal_state, fans.count, fan_sts, FIELD_PLAIN) },
    FAN("speed", ITEM_FAN_SPEED, PM_TYPE_FLOAT, RPM, FAN_RPM(FAN_SPEED)),
    FAN("target", ITEM_FAN_TARGET, PM_TYPE_FLOAT, RPM, FAN_RPM(FAN_TARGET)),
    FAN("mode", ITEM_FAN_MODE, PM_TYPE_U32, UNITS_NONE,
        FIELD_PRESENT(struct fan_entry, mode, have, FAN_MODE, FIELD_PLAIN)),
    FAN("min", ITEM_FAN_MIN, PM_TYPE_FLOAT, RPM, FAN_RPM(FAN_MIN)),
    FAN("max", ITEM_FAN_MAX, PM_TYPE_FLOAT, RPM, FAN_RPM(FAN_MAX)),
    { "thermal.pressure.level", CLUSTER_THERMAL, ITEM_PRESSURE_LEVEL, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT,
      UNITS_NONE, FIELD_OF(struct thermal_state, pressure, pressure_sts, FIELD_PLAIN) },
    { "thermal.pressure.state", CLUSTER_THERMAL, ITEM_PRESSURE_STATE, PM_TYPE_STRING, COLLECTOR_NO_INDOM,
      PM_SEM_INSTANT, UNITS_NONE, FIELD_OF(struct thermal_state, pressure_name, pressure_sts, FIELD_STRING) },
    { "thermal.sensor.temperature", CLUSTER_SENSORS, 0, PM_TYPE_FLOAT, INDOM_SENSOR, PM_SEM_INSTANT, CELSIUS,
      FIELD_PRESENT(struct sensor_entry, celsius, valid, 0, FIELD_DOUBLE) },
};

enum { DOMAIN_FANS, DOMAIN_SENSORS };
static const struct indom_def indoms[] = {
    [DOMAIN_FANS] = { .serial = INDOM_FAN, .label_name = "fan",
      .table = INSTANCES_IN(struct thermal_state, fan_entries, fans.count, struct fan_entry, inst) },
    [DOMAIN_SENSORS] = { .serial = INDOM_SENSOR, .label_name = "temperature sensor",
      .table = INSTANCES_IN(struct thermal_state, sensor_entries, nsensors, struct sensor_entry, inst) },
};

/* The part of a refresh a row reads. */
static void
thermal_want(void *state, const struct metric_row *row)
{
    struct thermal_state *th = state;

    if (row->indom == INDOM_FAN || row->field.status == offsetof(struct thermal_state, fan_sts))
        th->wanted |= PART_FANS;
    else if (row->indom == INDOM_SENSOR || row->derive == upstream_temperature)
        th->wanted |= PART_TEMPERATURES;
    else
        th->wanted |= PART_PRESSURE;
}

static int
read_part(const struct platform *p, enum plat_query_id q, struct plat_entry_set *set)
{
    int sts = p->query(p->ctx, &plat_queries[q], set);

    return sts < 0 ? sts : set->n > 0 ? 0 : -ENOENT;
}

/* The sensors, and their instances in id (by name, spaces made '_'). */
static int
read_temperatures(struct thermal_state *th, const struct platform *p, pmInDom id)
{
    struct plat_entry_set set;

    th->nsensors = 0;
    th->from_hid = (th->temperature_sts = read_part(p, PLAT_QUERY_HID_TEMPERATURES, &set)) == 0;
    th->had_hid |= th->from_hid;
    th->ndie = 0;
    if (!th->from_hid && th->had_hid && th->temperature_sts == -ENOENT)
        th->temperature_sts = -EIO;     /* hidd restarting or refusing: the SMC has none of Intel's keys */
    if (th->from_hid) {
        double c;

        sensors_from_hid(&set, th->sensors, SENSOR_MAX, &th->nsensors);
        if (sensors_hottest_at(th->sensors, th->nsensors, LOC_CPU, &c) < 0 &&
            read_part(p, PLAT_QUERY_SMC_CPU_DIE, &set) == 0)
            sensors_from_smc(&set, th->die, sizeof(th->die) / sizeof(th->die[0]), &th->ndie);
    } else if (th->temperature_sts == -ENOENT &&
               (th->temperature_sts = read_part(p, PLAT_QUERY_SMC_TEMPERATURES, &set)) == 0)
        sensors_from_smc(&set, th->sensors, SENSOR_MAX, &th->nsensors);
    names_begin(id);
    for (unsigned int i = 0; i < th->nsensors; i++) {
        char name[SENSOR_NAME_MAX];

        collector_instance_name(th->sensors[i].name, name, sizeof(name));
        th->sensor_entries[i] = (struct sensor_entry){ .sensor = &th->sensors[i],
                                                       .valid = th->sensors[i].valid != 0,
                                                       .celsius = th->sensors[i].celsius };
        if ((th->sensor_entries[i].inst = names_add(id, name)) < 0)
            return th->sensor_entries[i].inst;
    }
    return 0;
}

static int
read_fans(struct thermal_state *th, const struct platform *p, pmInDom id)
{
    struct plat_entry_set set;

    names_begin(id);
    th->fans_short = 0;
    if ((th->fan_sts = read_part(p, PLAT_QUERY_SMC_FANS, &set)) == 0)
        th->fan_sts = fans_decode(&set, &th->fans);
    if (th->fan_sts < 0)
        th->fans.count = 0;
    for (unsigned int i = 0; i < th->fans.count; i++) {
        char name[16];

        th->fans_short |= (th->fan_had[i] & ~th->fans.have[i]) != 0;
        th->fan_had[i] |= th->fans.have[i];
        snprintf(name, sizeof(name), "fan%u", i);
        th->fan_entries[i] = (struct fan_entry){ .have = th->fans.have[i] };
        memcpy(th->fan_entries[i].value, th->fans.value[i], sizeof(th->fan_entries[i].value));
        if (th->fans.have[i] & (1u << FAN_MODE))
            th->fan_entries[i].mode = (uint32_t)th->fans.value[i][FAN_MODE];
        if ((th->fan_entries[i].inst = names_add(id, name)) < 0)
            return th->fan_entries[i].inst;
    }
    return 0;
}

/* Whether HID listed its sensors and none gave a reading (hid_sensors.c
 * lists them so when every service is silent): every temperature is lost. */
static int
hid_silent(const struct thermal_state *th)
{
    for (unsigned int i = 0; th->from_hid && i < th->nsensors; i++)
        if (th->sensors[i].valid)
            return 0;
    return th->from_hid;
}

/* A part's status after its read, and why it failed (for the log). */
static void
note_part(struct thermal_state *th, enum part part, int sts, const char *why)
{
    size_t used = strlen(th->why);

    if (!collector_failing(sts)) {
        th->failed &= ~part;
        return;
    }
    th->failed |= part;
    snprintf(th->why + used, sizeof(th->why) - used, "%s%s", used ? "; " : "", why);
}

static int
thermal_refresh(void *state, struct refresh_call *call)
{
    struct thermal_state *th = state;
    const struct platform *p = call->p;
    pmInDom id = call->indom;
    unsigned int parts = th->wanted ? th->wanted : PART_ALL;
    struct plat_entry_set set;
    int silent, sts;

    th->wanted = 0;
    th->why[0] = '\0';
    if (parts & PART_TEMPERATURES) {
        if ((sts = read_temperatures(th, p, pmInDom_build(pmInDom_domain(id), INDOM_SENSOR))) < 0)
            return sts;
        silent = hid_silent(th);
        note_part(th, PART_TEMPERATURES, silent ? -EAGAIN : th->temperature_sts,
                  silent ? "HID: no temperature sensor gave a reading" : p->error(p->ctx));
    }
    if (parts & PART_PRESSURE) {
        if ((th->pressure_sts = read_part(p, PLAT_QUERY_THERMAL_PRESSURE, &set)) == 0)
            th->pressure_sts = thermal_pressure_decode(&set, &th->pressure);
        th->pressure_name = thermal_pressure_name(th->pressure);
        note_part(th, PART_PRESSURE, th->pressure_sts, p->error(p->ctx));
    }
    if (parts & PART_FANS) {
        if ((sts = read_fans(th, p, id)) < 0)
            return sts;
        note_part(th, PART_FANS, th->fan_sts < 0 ? th->fan_sts : th->fans_short ? -EAGAIN : 0,
                  th->fan_sts < 0 ? p->error(p->ctx) : "the SMC refuses a fan's key it gave before");
    }
    collector_note_parts(call, NULL, th->failed, &th->logged, th->why);
    return 0;
}

/* The sensors are labelled with where they sit; the fans have no labels. */
static int
thermal_labels(const void *state, pmInDom id, unsigned int inst, char *json, size_t len)
{
    const struct sensor_entry *e;
    const struct sensor *s;
    char name[SENSOR_NAME_MAX];

    if (pmInDom_serial(id) != INDOM_SENSOR || (e = collector_entry(&indoms[DOMAIN_SENSORS], state, inst)) == NULL)
        return -1;
    s = e->sensor;
    collector_label_text(s->name, name, sizeof(name));
    if (s->description != NULL)
        snprintf(json, len, "{\"location\":\"%s\",\"sensor\":\"%s\",\"description\":\"%s\"}",
                 sensor_location_name(s->location), name, s->description);
    else
        snprintf(json, len, "{\"location\":\"%s\",\"sensor\":\"%s\"}", sensor_location_name(s->location), name);
    return 0;
}

const struct collector thermal_collector = {
    .name = "thermal",
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .indom = indoms,
    .nindoms = sizeof(indoms) / sizeof(indoms[0]),
    .state_size = sizeof(struct thermal_state),
    .refresh = thermal_refresh,
    .want = thermal_want,
    .instance_labels = thermal_labels,
};
