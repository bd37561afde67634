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

/* A container's row, and after its units the statistic it serves, if it is one. */
#define C(name, item, sem, units, ...) \
    { "disk.apfs.container." name, CLUSTER_APFS, item, PM_TYPE_U64, INDOM_APFS_CONTAINER, sem, units, __VA_ARGS__ }
#define STAT(which) FIELD_PRESENT(struct reg_apfs_container, stat[which], have, which, FIELD_PLAIN)

#define APFS_MAX 256

struct apfs_state {
    struct reg_apfs_container containers[APFS_MAX];
    struct reg_apfs_volume volumes[APFS_MAX];
    int container_inst[APFS_MAX], volume_inst[APFS_MAX];
    unsigned int ncontainers, nvolumes;
};

static const struct metric_row rows[] = {
    { "disk.apfs.ncontainer", CLUSTER_APFS, ITEM_NCONTAINER, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, UNITS_NONE,
      FIELD_ALWAYS(struct apfs_state, ncontainers, FIELD_PLAIN) },
    { "disk.apfs.nvolume", CLUSTER_APFS, ITEM_NVOLUME, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, UNITS_NONE,
      FIELD_ALWAYS(struct apfs_state, nvolumes, FIELD_PLAIN) },
    C("block_size", ITEM_BLOCK_SIZE, PM_SEM_DISCRETE, UNITS_BYTE),
    C("bytes_read", ITEM_BYTES_READ, PM_SEM_COUNTER, UNITS_BYTE, STAT(REG_APFS_BYTES_READ)),
    C("bytes_written", ITEM_BYTES_WRITTEN, PM_SEM_COUNTER, UNITS_BYTE, STAT(REG_APFS_BYTES_WRITTEN)),
    C("read_requests", ITEM_READ_REQUESTS, PM_SEM_COUNTER, UNITS_COUNT, STAT(REG_APFS_READ_REQUESTS)),
    C("write_requests", ITEM_WRITE_REQUESTS, PM_SEM_COUNTER, UNITS_COUNT, STAT(REG_APFS_WRITE_REQUESTS)),
    C("transactions", ITEM_TRANSACTIONS, PM_SEM_COUNTER, UNITS_COUNT, STAT(REG_APFS_TRANSACTIONS)),
    C("cache_hits", ITEM_CACHE_HITS, PM_SEM_COUNTER, UNITS_COUNT, STAT(REG_APFS_CACHE_HITS)),
    C("cache_evictions", ITEM_CACHE_EVICTIONS, PM_SEM_COUNTER, UNITS_COUNT, STAT(REG_APFS_CACHE_EVICTIONS)),
    C("read_errors", ITEM_READ_ERRORS, PM_SEM_COUNTER, UNITS_COUNT, STAT(REG_APFS_READ_ERRORS)),
    C("write_errors", ITEM_WRITE_ERRORS, PM_SEM_COUNTER, UNITS_COUNT, STAT(REG_APFS_WRITE_ERRORS)),
    { "disk.apfs.volume.encrypted", CLUSTER_APFS, ITEM_ENCRYPTED, PM_TYPE_U32, INDOM_APFS_VOLUME, PM_SEM_INSTANT, UNITS_NONE },
    { "disk.apfs.volume.locked", CLUSTER_APFS, ITEM_LOCKED, PM_TYPE_U32, INDOM_APFS_VOLUME, PM_SEM_INSTANT, UNITS_NONE },
};

static const struct indom_def indoms[] = {
    { .serial = INDOM_APFS_CONTAINER, .label_name = "APFS container" },
    { .serial = INDOM_APFS_VOLUME, .label_name = "APFS volume" },
};

static int
apfs_refresh(void *state, struct refresh_call *call)
{
    struct apfs_state *s = state;
    const struct platform *p = call->p;
    pmInDom container_id = call->indom;
    pmInDom volume_id = pmInDom_build(pmInDom_domain(container_id), INDOM_APFS_VOLUME);
    struct plat_reg_set set;
    int sts;

    s->ncontainers = s->nvolumes = 0;
    if ((sts = p->registry(p->ctx, &plat_reg_queries[PLAT_REGQ_APFS], &set)) < 0 && sts != -ENOENT)
        return collector_error(sts);
    if (sts == 0)       /* none: no APFS */
        reg_apfs(&set, s->containers, APFS_MAX, &s->ncontainers, s->volumes, APFS_MAX, &s->nvolumes);
    names_begin(container_id);
    names_begin(volume_id);
    for (unsigned int i = 0; i < s->ncontainers; i++)
        if ((s->container_inst[i] = names_add(container_id, s->containers[i].name)) < 0)
            return s->container_inst[i];
    for (unsigned int i = 0; i < s->nvolumes; i++)
        if ((s->volume_inst[i] = names_add(volume_id, s->volumes[i].name)) < 0)
            return s->volume_inst[i];
    return 0;
}

static int
index_of(const int *insts, unsigned int n, unsigned int inst)
{
    for (unsigned int i = 0; i < n; i++)
        if ((unsigned int)insts[i] == inst)
            return (int)i;
    return -1;
}

static int
flag(int v, pmAtomValue *atom)
{
    if (v < 0)
        return PMDA_FETCH_NOVALUES;     /* the volume does not say */
    atom->ul = (uint32_t)v;
    return PMDA_FETCH_STATIC;
}

static int
apfs_fetch(const void *state, const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    const struct apfs_state *s = state;
    const struct reg_apfs_container *c;
    int i;

    if (row->indom == COLLECTOR_NO_INDOM)
        return collector_field(row, s, atom);
    if (row->indom == INDOM_APFS_VOLUME) {
        if ((i = index_of(s->volume_inst, s->nvolumes, inst)) < 0)
            return PM_ERR_INST;
        return flag(row->item == ITEM_ENCRYPTED ? s->volumes[i].encrypted : s->volumes[i].locked, atom);
    }
    if ((i = index_of(s->container_inst, s->ncontainers, inst)) < 0)
        return PM_ERR_INST;
    c = &s->containers[i];
    if (row->field.kind != FIELD_NONE)
        return collector_field(row, c, atom);
    if (!c->block_size_ok)                  /* the one container row not bound */
        return PMDA_FETCH_NOVALUES;
    atom->ull = c->block_size;
    return PMDA_FETCH_STATIC;
}

static int
apfs_labels(const void *state, pmInDom id, unsigned int inst, char *json, size_t len)
{
    const struct apfs_state *s = state;
    int i;

    if (pmInDom_serial(id) == INDOM_APFS_CONTAINER) {
        if ((i = index_of(s->container_inst, s->ncontainers, inst)) < 0)
            return -1;
        snprintf(json, len, "{\"store\":\"%s\",\"store_disk\":\"%s\"}", s->containers[i].store,
                 s->containers[i].store_disk);
        return 0;
    }
    if ((i = index_of(s->volume_inst, s->nvolumes, inst)) < 0)
        return -1;
    {
        char name[PLAT_REG_NAME_MAX], role[32];

        collector_label_text(s->volumes[i].volume_name, name, sizeof(name));
        collector_label_text(s->volumes[i].role, role, sizeof(role));
        snprintf(json, len, "{\"container\":\"%s\",\"volume_name\":\"%s\",\"role\":\"%s\"}",
                 s->volumes[i].container, name, role[0] ? role : "none");
        return 0;
    }
}

const struct collector apfs_collector = {
    .name = "APFS",
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .indom = indoms,
    .nindoms = sizeof(indoms) / sizeof(indoms[0]),
    .state_size = sizeof(struct apfs_state),
    .refresh = apfs_refresh,
    .fetch = apfs_fetch,
    .instance_labels = apfs_labels,
};
