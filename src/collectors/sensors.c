/*
 * Cluster 125: every temperature sensor cluster 25 read, as an instance
 * domain labelled with where the sensor sits (CPU, GPU, SoC, battery, SSD,
 * ambient, memory, chipset, other): Apple Silicon's HID sensors by their
 * own names, Intel's SMC keys by key with a description.
 */
#include "collector.h"
#include "families.h"
#include "thermal.h"

#include <errno.h>

#ifdef PM_UNIT_TEMPERATURE
#define CELSIUS PMDA_EXTRAUNITS(0, 0, 0, 0, 0, 0, PM_UNIT_TEMPERATURE, PM_TEMPERATURE_C)
#else
#define CELSIUS PMDA_PMUNITS(0, 0, 0, 0, 0, 0)    /* PCP 6 has no unit for temperature */
#endif

static const struct metric_row rows[] = {
    { "thermal.sensor.temperature", CLUSTER_SENSORS, 0, PM_TYPE_FLOAT, INDOM_SENSOR, PM_SEM_INSTANT, CELSIUS },
};

static const struct indom_def indom = { .serial = INDOM_SENSOR, .label_name = "temperature sensor" };

static const struct sensor *sensor_list;
static unsigned int nsensor;
static int sensor_inst[128];

static int
sensors_refresh(const struct platform *p, pmInDom id)
{
    int sts;

    (void)p;
    pmdaCacheOp(id, PMDA_CACHE_INACTIVE);
    if ((sensor_list = thermal_sensors(&nsensor, &sts)) == NULL)
        nsensor = 0;
    if (nsensor > sizeof(sensor_inst) / sizeof(sensor_inst[0]))
        nsensor = sizeof(sensor_inst) / sizeof(sensor_inst[0]);
    for (unsigned int i = 0; i < nsensor; i++) {
        char name[SENSOR_NAME_MAX];

        collector_instance_name(sensor_list[i].name, name, sizeof(name));
        if ((sensor_inst[i] = pmdaCacheStore(id, PMDA_CACHE_ADD, name, NULL)) < 0)
            return sensor_inst[i];
    }
    return sts < 0 && sts != -ENOENT ? collector_error(sts) : 0;
}

static void
sensors_want(const struct metric_row *row)
{
    (void)row;
    thermal_want_temperatures();
}

static const struct sensor *
sensor_of_inst(unsigned int inst)
{
    for (unsigned int i = 0; i < nsensor; i++)
        if ((unsigned int)sensor_inst[i] == inst)
            return &sensor_list[i];
    return NULL;
}

static int
sensors_fetch(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    const struct sensor *s = sensor_of_inst(inst);

    (void)row;
    if (s == NULL)
        return PM_ERR_INST;
    if (!s->valid)
        return PMDA_FETCH_NOVALUES;
    atom->f = (float)s->celsius;
    return PMDA_FETCH_STATIC;
}

static int
sensors_labels(pmInDom id, unsigned int inst, char *json, size_t len)
{
    const struct sensor *s = sensor_of_inst(inst);
    char name[SENSOR_NAME_MAX];

    (void)id;
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
sensors_teardown(pmInDom id)
{
    pmdaCacheOp(id, PMDA_CACHE_INACTIVE);
    pmdaCacheOp(id, PMDA_CACHE_CULL);
    nsensor = 0;
}

const struct collector sensors_collector = {
    .name = "temperature sensors",
    .ndepends = 1,
    .depends = { &thermal_collector },
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .indom = &indom,
    .refresh = sensors_refresh,
    .fetch = sensors_fetch,
    .want = sensors_want,
    .instance_labels = sensors_labels,
    .teardown = sensors_teardown,
};
