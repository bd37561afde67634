/*
 * Cluster 133: NVMe health, per NVMe disk, from the SMART / Health log page
 * (nvme_health_decode.h) that PLAT_QUERY_NVME_HEALTH gives for each NVMe
 * block storage device. Instances are the disks as the disk indom names
 * them ("disk0"): the device is the provider of the disk's driver
 * (disk.h). The page is read at most once per PLAT_NVME_INTERVAL_NS
 * (platform.h), so a value can be that old. Where the page cannot be read
 * (the plug-in refused, a read that timed out) the metrics have no value;
 * a device that fails while another is read is logged once when it starts
 * and once when it ends.
 */
#include "array_grow.h"
#include "collector.h"
#include "collectors.h"
#include "disk.h"
#include "entry_props.h"
#include "instance_names.h"
#include "metric_ids.h"
#include "metric_units.h"
#include "nvme_health_decode.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum {
    ITEM_PERCENTAGE_USED, ITEM_DATA_READ, ITEM_DATA_WRITTEN, ITEM_TEMPERATURE, ITEM_MEDIA_ERRORS,
    ITEM_UNSAFE_SHUTDOWNS, ITEM_AVAILABLE_SPARE, ITEM_SPARE_THRESHOLD, ITEM_CRITICAL_WARNING, ITEM_POWER_ON_HOURS,
    ITEM_POWER_CYCLES,
};

/* What a disk's page gives, each value present or not (bit per item in have). */
struct nvme_entry {
    int inst;
    unsigned int have;
    uint32_t percentage_used, available_spare, spare_threshold, critical_warning;
    int32_t temperature;
    uint64_t data_read, data_written, media_errors, unsafe_shutdowns, power_on_hours, power_cycles;
};

struct nvme_state {
    struct nvme_entry *disks;
    unsigned int ndisks, disks_cap;
    unsigned int logged;            /* collector_note_parts': a device without its page */
};

#define ROW(name, item, type, sem, units, member, kind) \
    { "disk.nvme." name, CLUSTER_NVME, item, type, INDOM_NVME, sem, units, \
      FIELD_PRESENT(struct nvme_entry, member, have, item, kind) }
#define PERCENT UNITS_NONE          /* a percentage: the help says so */

static const struct metric_row rows[] = {
    ROW("percentage_used", ITEM_PERCENTAGE_USED, PM_TYPE_U32, PM_SEM_INSTANT, PERCENT, percentage_used, FIELD_PLAIN),
    ROW("data_read", ITEM_DATA_READ, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_BYTE, data_read, FIELD_PLAIN),
    ROW("data_written", ITEM_DATA_WRITTEN, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_BYTE, data_written, FIELD_PLAIN),
    ROW("temperature", ITEM_TEMPERATURE, PM_TYPE_32, PM_SEM_INSTANT, UNITS_CELSIUS, temperature, FIELD_SIGNED),
    ROW("media_errors", ITEM_MEDIA_ERRORS, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT, media_errors, FIELD_PLAIN),
    ROW("unsafe_shutdowns", ITEM_UNSAFE_SHUTDOWNS, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT, unsafe_shutdowns,
        FIELD_PLAIN),
    ROW("available_spare", ITEM_AVAILABLE_SPARE, PM_TYPE_U32, PM_SEM_INSTANT, PERCENT, available_spare, FIELD_PLAIN),
    ROW("spare_threshold", ITEM_SPARE_THRESHOLD, PM_TYPE_U32, PM_SEM_DISCRETE, PERCENT, spare_threshold, FIELD_PLAIN),
    ROW("critical_warning", ITEM_CRITICAL_WARNING, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_NONE, critical_warning,
        FIELD_PLAIN),
    ROW("power_on_hours", ITEM_POWER_ON_HOURS, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_HOURS, power_on_hours, FIELD_PLAIN),
    ROW("power_cycles", ITEM_POWER_CYCLES, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT, power_cycles, FIELD_PLAIN),
};

static const struct indom_def indom = { .serial = INDOM_NVME, .label_name = "nvme disk",
                                        .table = INSTANCES_AT(struct nvme_state, disks, ndisks, struct nvme_entry,
                                                              inst) };

/* A 128-bit counter's value, when it fits. */
static void
counter(const struct nvme_health *h, enum nvme_counter c, unsigned int item, uint64_t *out, unsigned int *have)
{
    if (!(h->too_large & 1u << c)) {
        *out = h->counter[c];
        *have |= 1u << item;
    }
}

static void
byte_counter(const struct nvme_health *h, enum nvme_counter c, unsigned int item, uint64_t *out, unsigned int *have)
{
    if (nvme_health_bytes(h, c, out) == 0)
        *have |= 1u << item;
}

static void
decode(const struct nvme_health *h, struct nvme_entry *e)
{
    e->have = 1u << ITEM_PERCENTAGE_USED | 1u << ITEM_AVAILABLE_SPARE | 1u << ITEM_SPARE_THRESHOLD |
              1u << ITEM_CRITICAL_WARNING;
    e->percentage_used = h->percentage_used;
    e->available_spare = h->available_spare;
    e->spare_threshold = h->spare_threshold;
    e->critical_warning = h->critical_warning;
    if (h->temperature_known) {
        e->temperature = h->temperature_c;
        e->have |= 1u << ITEM_TEMPERATURE;
    }
    byte_counter(h, NVME_DATA_UNITS_READ, ITEM_DATA_READ, &e->data_read, &e->have);
    byte_counter(h, NVME_DATA_UNITS_WRITTEN, ITEM_DATA_WRITTEN, &e->data_written, &e->have);
    counter(h, NVME_MEDIA_ERRORS, ITEM_MEDIA_ERRORS, &e->media_errors, &e->have);
    counter(h, NVME_UNSAFE_SHUTDOWNS, ITEM_UNSAFE_SHUTDOWNS, &e->unsafe_shutdowns, &e->have);
    counter(h, NVME_POWER_ON_HOURS, ITEM_POWER_ON_HOURS, &e->power_on_hours, &e->have);
    counter(h, NVME_POWER_CYCLES, ITEM_POWER_CYCLES, &e->power_cycles, &e->have);
}

static int
nvme_refresh(void *state, struct refresh_call *call)
{
    struct nvme_state *s = state;
    const struct platform *p = call->p;
    struct plat_entry_set set;
    const char *why;
    int sts;

    s->ndisks = 0;
    names_begin(call->indom);
    if ((sts = p->query(p->ctx, &plat_queries[PLAT_QUERY_NVME_HEALTH], &set)) < 0)
        return collector_error(sts);
    why = p->error(p->ctx);                 /* a device read while another failed: the call succeeds */
    collector_note_parts(call, NULL, why[0] != '\0', &s->logged, why);
    for (unsigned int i = 0; i < set.n; i++) {
        const struct plat_prop *page = entry_prop_key(&set.entry[i], "smart");
        const char *disk = disk_name_of_device(call->depends[0], set.entry[i].id);
        struct nvme_health h;
        struct nvme_entry *e;

        if (disk == NULL || page == NULL || page->kind != PLAT_PROP_DATA ||
            nvme_health_decode(page->data, page->len, &h) < 0)
            continue;                   /* no disk of it, or no page: no instance */
        if (array_grow((void **)&s->disks, &s->disks_cap, s->ndisks, sizeof(*s->disks)) < 0)
            return -ENOMEM;
        e = &s->disks[s->ndisks];
        if ((sts = names_add(call->indom, disk)) < 0)
            return sts;
        e->inst = sts;
        decode(&h, e);
        s->ndisks++;
    }
    return 0;
}

static void
nvme_teardown(void *state)
{
    free(((struct nvme_state *)state)->disks);
}

const struct collector nvme_collector = {
    .name = "nvme",
    .ndepends = 1,
    .depends = { &disk_collector },
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .indom = &indom,
    .state_size = sizeof(struct nvme_state),
    .refresh = nvme_refresh,
    .teardown = nvme_teardown,
};
