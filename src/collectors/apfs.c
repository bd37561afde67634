/*
 * Cluster 24: APFS containers and volumes from the IORegistry
 * (registry_decode.c: reg_apfs). Containers are named by their synthesized
 * disk ("disk3") and labelled with the partition and whole disk they live
 * on ("disk0s2", "disk0"); volumes by BSD name ("disk3s5"), labelled with
 * their container, name and role. With the filesystems' "device" and
 * "apfs_container" labels that leads from a busy disk0 to the volume that
 * writes. Both indoms are refreshed by an instance request and kept by name
 * (instance_names.h).
 */
#include "collector.h"
#include "metric_ids.h"
#include "instance_names.h"
#include "metric_units.h"
#include "registry_decode.h"

#include <errno.h>
#include <string.h>

#define CLUSTER_APFS 24

enum {
    ITEM_NCONTAINER = 87, ITEM_NVOLUME, ITEM_BLOCK_SIZE, ITEM_BYTES_READ, ITEM_BYTES_WRITTEN,
    ITEM_READ_REQUESTS, ITEM_WRITE_REQUESTS, ITEM_TRANSACTIONS, ITEM_CACHE_HITS, ITEM_CACHE_EVICTIONS,
    ITEM_READ_ERRORS, ITEM_WRITE_ERRORS, ITEM_ENCRYPTED, ITEM_LOCKED
};

/* A container's row, and after its units how it is served. */
#define C(name, item, sem, units, ...) \
    { "disk.apfs.container." name, CLUSTER_APFS, item, PM_TYPE_U64, INDOM_APFS_CONTAINER, sem, units, __VA_ARGS__ }
#define STAT(which) FIELD_PRESENT(struct apfs_container_entry, c.stat[which], c.have, which, FIELD_PLAIN)
/* A volume's 0 or 1, while the volume says (known's bit). */
#define VOLUME(name, item, member, bit) \
    { "disk.apfs.volume." name, CLUSTER_APFS, item, PM_TYPE_U32, INDOM_APFS_VOLUME, PM_SEM_INSTANT, UNITS_NONE, \
      FIELD_PRESENT(struct apfs_volume_entry, v.member, known, bit, FIELD_PLAIN) }

#define APFS_MAX 256

struct apfs_container_entry {
    int inst;
    struct reg_apfs_container c;
};

enum { KNOWN_ENCRYPTED, KNOWN_LOCKED };
struct apfs_volume_entry {
    int inst;
    struct reg_apfs_volume v;
    unsigned int known;                 /* bit KNOWN_*: the volume gave that flag (not -1) */
};

struct apfs_state {
    struct reg_apfs_container decoded_containers[APFS_MAX];     /* what a refresh decodes, before it is kept */
    struct reg_apfs_volume decoded_volumes[APFS_MAX];
    struct apfs_container_entry containers[APFS_MAX];
    struct apfs_volume_entry volumes[APFS_MAX];
    unsigned int ncontainers, nvolumes;
};

static const struct metric_row rows[] = {
    { "disk.apfs.ncontainer", CLUSTER_APFS, ITEM_NCONTAINER, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, UNITS_NONE,
      FIELD_ALWAYS(struct apfs_state, ncontainers, FIELD_PLAIN) },
    { "disk.apfs.nvolume", CLUSTER_APFS, ITEM_NVOLUME, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, UNITS_NONE,
      FIELD_ALWAYS(struct apfs_state, nvolumes, FIELD_PLAIN) },
    /* block_size_ok is 0 or 1: its bit 0 says whether the size was given */
    C("block_size", ITEM_BLOCK_SIZE, PM_SEM_DISCRETE, UNITS_BYTE,
      FIELD_PRESENT(struct apfs_container_entry, c.block_size, c.block_size_ok, 0, FIELD_PLAIN)),
    C("bytes_read", ITEM_BYTES_READ, PM_SEM_COUNTER, UNITS_BYTE, STAT(REG_APFS_BYTES_READ)),
    C("bytes_written", ITEM_BYTES_WRITTEN, PM_SEM_COUNTER, UNITS_BYTE, STAT(REG_APFS_BYTES_WRITTEN)),
    C("read_requests", ITEM_READ_REQUESTS, PM_SEM_COUNTER, UNITS_COUNT, STAT(REG_APFS_READ_REQUESTS)),
    C("write_requests", ITEM_WRITE_REQUESTS, PM_SEM_COUNTER, UNITS_COUNT, STAT(REG_APFS_WRITE_REQUESTS)),
    C("transactions", ITEM_TRANSACTIONS, PM_SEM_COUNTER, UNITS_COUNT, STAT(REG_APFS_TRANSACTIONS)),
    C("cache_hits", ITEM_CACHE_HITS, PM_SEM_COUNTER, UNITS_COUNT, STAT(REG_APFS_CACHE_HITS)),
    C("cache_evictions", ITEM_CACHE_EVICTIONS, PM_SEM_COUNTER, UNITS_COUNT, STAT(REG_APFS_CACHE_EVICTIONS)),
    C("read_errors", ITEM_READ_ERRORS, PM_SEM_COUNTER, UNITS_COUNT, STAT(REG_APFS_READ_ERRORS)),
    C("write_errors", ITEM_WRITE_ERRORS, PM_SEM_COUNTER, UNITS_COUNT, STAT(REG_APFS_WRITE_ERRORS)),
    VOLUME("encrypted", ITEM_ENCRYPTED, encrypted, KNOWN_ENCRYPTED),
    VOLUME("locked", ITEM_LOCKED, locked, KNOWN_LOCKED),
};

enum { CONTAINERS, VOLUMES };

static const struct indom_def indoms[] = {
    [CONTAINERS] = { .serial = INDOM_APFS_CONTAINER, .label_name = "APFS container",
                     .table = INSTANCES_IN(struct apfs_state, containers, ncontainers, struct apfs_container_entry,
                                           inst) },
    [VOLUMES] = { .serial = INDOM_APFS_VOLUME, .label_name = "APFS volume",
                  .table = INSTANCES_IN(struct apfs_state, volumes, nvolumes, struct apfs_volume_entry, inst) },
};

static int
apfs_refresh(void *state, struct refresh_call *call)
{
    struct apfs_state *s = state;
    const struct platform *p = call->p;
    pmInDom container_id = call->indom;
    pmInDom volume_id = pmInDom_build(pmInDom_domain(container_id), INDOM_APFS_VOLUME);
    struct plat_entry_set set;
    unsigned int ncontainers = 0, nvolumes = 0;
    int sts;

    s->ncontainers = s->nvolumes = 0;
    if ((sts = p->query(p->ctx, &plat_queries[PLAT_QUERY_APFS], &set)) < 0 && sts != -ENOENT)
        return collector_error(sts);
    if (sts == 0)       /* none: no APFS */
        reg_apfs(&set, s->decoded_containers, APFS_MAX, &ncontainers, s->decoded_volumes, APFS_MAX, &nvolumes);
    names_begin(container_id);
    names_begin(volume_id);
    for (; s->ncontainers < ncontainers; s->ncontainers++) {
        struct apfs_container_entry *e = &s->containers[s->ncontainers];

        e->c = s->decoded_containers[s->ncontainers];
        if ((e->inst = names_add(container_id, e->c.name)) < 0)
            return e->inst;
    }
    for (; s->nvolumes < nvolumes; s->nvolumes++) {
        struct apfs_volume_entry *e = &s->volumes[s->nvolumes];

        e->v = s->decoded_volumes[s->nvolumes];
        e->known = (e->v.encrypted >= 0 ? 1u << KNOWN_ENCRYPTED : 0) | (e->v.locked >= 0 ? 1u << KNOWN_LOCKED : 0);
        if ((e->inst = names_add(volume_id, e->v.name)) < 0)
            return e->inst;
    }
    return 0;
}

static int
container_labels(const struct reg_apfs_container *c, char *json, size_t len)
{
    snprintf(json, len, "{\"store\":\"%s\",\"store_disk\":\"%s\"}", c->store, c->store_disk);
    return 0;
}

static int
volume_labels(const struct reg_apfs_volume *v, char *json, size_t len)
{
    char name[PLAT_ENTRY_NAME_MAX], role[32];

    collector_label_text(v->volume_name, name, sizeof(name));
    collector_label_text(v->role, role, sizeof(role));
    snprintf(json, len, "{\"container\":\"%s\",\"volume_name\":\"%s\",\"role\":\"%s\"}", v->container, name,
             role[0] ? role : "none");
    return 0;
}

static int
apfs_labels(const void *state, pmInDom id, unsigned int inst, char *json, size_t len)
{
    if (pmInDom_serial(id) == INDOM_APFS_CONTAINER) {
        const struct apfs_container_entry *c = collector_entry(&indoms[CONTAINERS], state, inst);

        return c != NULL ? container_labels(&c->c, json, len) : -1;
    }
    const struct apfs_volume_entry *v = collector_entry(&indoms[VOLUMES], state, inst);

    return v != NULL ? volume_labels(&v->v, json, len) : -1;
}

const struct collector apfs_collector = {
    .name = "apfs",
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .indom = indoms,
    .nindoms = sizeof(indoms) / sizeof(indoms[0]),
    .state_size = sizeof(struct apfs_state),
    .refresh = apfs_refresh,
    .instance_labels = apfs_labels,
};
