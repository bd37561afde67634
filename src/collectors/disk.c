/*
 * Cluster 7: whole disks, from each IOBlockStorageDriver's "Statistics"
 * and its IOMedia child (registry_decode.c: reg_disks). Instances are whole
 * disks by BSD name ("disk0"), kept by name so that ids survive disks
 * coming and going; partitions and APFS's synthesized disks are not
 * instances (their I/O is the whole disk's). Each carries labels a
 * dashboard groups by: medium, location, protocol, removable.
 *
 * disk.all sums the disks present now as a delta sum (delta_sum.h): it
 * never goes back when a disk leaves. avgrq_sz and await are averages over
 * the interval since this cluster's previous refresh, in bytes and
 * nanoseconds.
 *
 * Cluster 108: the Linux names pcp iostat requires, in its units.
 */
#include "array_grow.h"
#include "collector.h"
#include "metric_ids.h"
#include "instance_names.h"
#include "metric_units.h"
#include "convert.h"
#include "delta_sum.h"
#include "registry_decode.h"
#include "disk.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    ITEM_NDISK = 46,
    ITEM_DEV_READ, ITEM_DEV_WRITE, ITEM_DEV_TOTAL, ITEM_DEV_READ_BYTES, ITEM_DEV_WRITE_BYTES,
    ITEM_DEV_TOTAL_BYTES, ITEM_DEV_BLKREAD, ITEM_DEV_BLKWRITE, ITEM_DEV_BLKTOTAL, ITEM_DEV_READ_TIME,
    ITEM_DEV_WRITE_TIME, ITEM_DEV_TOTAL_TIME,
    ITEM_ALL_READ, ITEM_ALL_WRITE, ITEM_ALL_TOTAL, ITEM_ALL_READ_BYTES, ITEM_ALL_WRITE_BYTES,
    ITEM_ALL_TOTAL_BYTES, ITEM_ALL_BLKREAD, ITEM_ALL_BLKWRITE, ITEM_ALL_BLKTOTAL, ITEM_ALL_READ_TIME,
    ITEM_ALL_WRITE_TIME, ITEM_ALL_TOTAL_TIME,
    ITEM_DEV_READ_ERRORS, ITEM_DEV_WRITE_ERRORS, ITEM_DEV_READ_RETRIES, ITEM_DEV_WRITE_RETRIES,
    ITEM_DEV_TOTAL_READ_TIME, ITEM_DEV_TOTAL_WRITE_TIME, ITEM_DEV_AVGRQ_SZ, ITEM_DEV_AWAIT,
    ITEM_ALL_READ_ERRORS, ITEM_ALL_WRITE_ERRORS, ITEM_ALL_READ_RETRIES, ITEM_ALL_WRITE_RETRIES,
    ITEM_ALL_TOTAL_READ_TIME, ITEM_ALL_TOTAL_WRITE_TIME, ITEM_ALL_AVGRQ_SZ, ITEM_ALL_AWAIT,
};

/* cluster 108 */
enum { ITEM_READ_MERGE, ITEM_WRITE_MERGE, ITEM_READ_RAWACTIVE, ITEM_WRITE_RAWACTIVE, ITEM_AVACTIVE };

/* What the sums and averages are kept over: the driver's statistics, then
 * each disk's blocks read and written (its own block size). */
enum { SUM_BLKREAD = REG_DISK_NSTATS, SUM_BLKWRITE, SUM_N };

/* Counters of one disk or of disk.all, and their values at the previous refresh. */
struct io_counts {
    unsigned int have;              /* bit per counter */
    uint64_t v[SUM_N];
    int primed;
    uint64_t prev[SUM_N];
    unsigned int prev_have;
};

struct disk_entry {
    int inst;
    int present;
    struct reg_disk d;
    struct io_counts io;
};

#define DISK_MAX 256

struct disk_state {
    struct disk_entry *disks;
    unsigned int ndisks, disks_cap;
    struct reg_disk decoded[DISK_MAX];      /* what a refresh decodes, before it is kept */
    struct delta_sum all_sum;
    struct io_counts all;
};

/* units last, as __VA_ARGS__: they expand to a braced list before the
 * macros below pass them on */
#define DEV(name, item, sem, ...) { "disk.dev." name, CLUSTER_DISK, item, PM_TYPE_U64, INDOM_DISK, sem, __VA_ARGS__ }
#define ALL(name, item, sem, ...) { "disk.all." name, CLUSTER_DISK, item, PM_TYPE_U64, COLLECTOR_NO_INDOM, sem, __VA_ARGS__ }
#define LINUX(name, item, ...) { "disk.dev." name, CLUSTER_DISK_LINUX, item, PM_TYPE_U64, INDOM_DISK, PM_SEM_COUNTER, __VA_ARGS__ }
/* A row of each disk and its disk.all row, with the same semantics, units and derive function. */
#define BOTH(name, dev_item, all_item, sem, ...) \
    DEV(name, dev_item, sem, __VA_ARGS__), ALL(name, all_item, sem, __VA_ARGS__)
/* A counter as the driver gives it (or in KiB): bound to one disk's counts,
 * and to disk.all's in the state. */
#define STAT(name, dev_item, all_item, which, kind, ...)                                                      \
    DEV(name, dev_item, PM_SEM_COUNTER, __VA_ARGS__,                                                        \
        FIELD_PRESENT(struct disk_entry, io.v[which], io.have, which, kind)),                               \
    ALL(name, all_item, PM_SEM_COUNTER, __VA_ARGS__,                                                        \
        FIELD_PRESENT(struct disk_state, all.v[which], all.have, which, kind))
/* A read and a write counter's sum (counter_pair), and their sum per request over the interval. */
#define SUM(name, dev_item, all_item, pair, ...) \
    BOTH(name, dev_item, all_item, PM_SEM_COUNTER, __VA_ARGS__, .derive = pair_sum, .index = pair)
#define AVERAGE(name, dev_item, all_item, pair, ...) \
    BOTH(name, dev_item, all_item, PM_SEM_INSTANT, __VA_ARGS__, .derive = per_request, .index = pair)
/* A counter of one disk in the milliseconds iostat reads. */
#define MS(which) FIELD_PRESENT(struct disk_entry, io.v[which], io.have, which, FIELD_NS_MS)

/* The read and write counters a sum or an average row adds, and what a
 * sum is divided by to be in its row's units (an average is of the raw
 * counts: bytes, ns). */
enum { PAIR_OPS, PAIR_BYTES, PAIR_BLOCKS, PAIR_LATENT_TIME, PAIR_TOTAL_TIME };

static const struct counter_pair {
    unsigned int read, write;
    uint64_t divisor;
} pairs[] = {
    [PAIR_OPS] = { REG_DISK_READS, REG_DISK_WRITES, 1 },
    [PAIR_BYTES] = { REG_DISK_BYTES_READ, REG_DISK_BYTES_WRITTEN, 1024 },
    [PAIR_BLOCKS] = { SUM_BLKREAD, SUM_BLKWRITE, 1 },
    [PAIR_LATENT_TIME] = { REG_DISK_LATENT_READ_NS, REG_DISK_LATENT_WRITE_NS, 1 },
    [PAIR_TOTAL_TIME] = { REG_DISK_TOTAL_READ_NS, REG_DISK_TOTAL_WRITE_NS, NS_PER_MS },
};

static row_derive pair_sum;
static row_derive per_request;
static row_derive no_merges;

static const struct metric_row rows[] = {
    { "hinv.ndisk", CLUSTER_DISK, ITEM_NDISK, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_DISCRETE, UNITS_NONE,
      FIELD_ALWAYS(struct disk_state, ndisks, FIELD_PLAIN) },
    STAT("read", ITEM_DEV_READ, ITEM_ALL_READ, REG_DISK_READS, FIELD_PLAIN, UNITS_COUNT),
    STAT("write", ITEM_DEV_WRITE, ITEM_ALL_WRITE, REG_DISK_WRITES, FIELD_PLAIN, UNITS_COUNT),
    SUM("total", ITEM_DEV_TOTAL, ITEM_ALL_TOTAL, PAIR_OPS, UNITS_COUNT),
    STAT("read_bytes", ITEM_DEV_READ_BYTES, ITEM_ALL_READ_BYTES, REG_DISK_BYTES_READ, FIELD_BYTES_KB, UNITS_KBYTE),
    STAT("write_bytes", ITEM_DEV_WRITE_BYTES, ITEM_ALL_WRITE_BYTES, REG_DISK_BYTES_WRITTEN, FIELD_BYTES_KB,
         UNITS_KBYTE),
    SUM("total_bytes", ITEM_DEV_TOTAL_BYTES, ITEM_ALL_TOTAL_BYTES, PAIR_BYTES, UNITS_KBYTE),
    STAT("blkread", ITEM_DEV_BLKREAD, ITEM_ALL_BLKREAD, SUM_BLKREAD, FIELD_PLAIN, UNITS_COUNT),
    STAT("blkwrite", ITEM_DEV_BLKWRITE, ITEM_ALL_BLKWRITE, SUM_BLKWRITE, FIELD_PLAIN, UNITS_COUNT),
    SUM("blktotal", ITEM_DEV_BLKTOTAL, ITEM_ALL_BLKTOTAL, PAIR_BLOCKS, UNITS_COUNT),
    STAT("read_time", ITEM_DEV_READ_TIME, ITEM_ALL_READ_TIME, REG_DISK_LATENT_READ_NS, FIELD_PLAIN, UNITS_NSEC),
    STAT("write_time", ITEM_DEV_WRITE_TIME, ITEM_ALL_WRITE_TIME, REG_DISK_LATENT_WRITE_NS, FIELD_PLAIN, UNITS_NSEC),
    SUM("total_time", ITEM_DEV_TOTAL_TIME, ITEM_ALL_TOTAL_TIME, PAIR_LATENT_TIME, UNITS_NSEC),
    STAT("read_errors", ITEM_DEV_READ_ERRORS, ITEM_ALL_READ_ERRORS, REG_DISK_READ_ERRORS, FIELD_PLAIN, UNITS_COUNT),
    STAT("write_errors", ITEM_DEV_WRITE_ERRORS, ITEM_ALL_WRITE_ERRORS, REG_DISK_WRITE_ERRORS, FIELD_PLAIN,
         UNITS_COUNT),
    STAT("read_retries", ITEM_DEV_READ_RETRIES, ITEM_ALL_READ_RETRIES, REG_DISK_READ_RETRIES, FIELD_PLAIN,
         UNITS_COUNT),
    STAT("write_retries", ITEM_DEV_WRITE_RETRIES, ITEM_ALL_WRITE_RETRIES, REG_DISK_WRITE_RETRIES, FIELD_PLAIN,
         UNITS_COUNT),
    STAT("total_read_time", ITEM_DEV_TOTAL_READ_TIME, ITEM_ALL_TOTAL_READ_TIME, REG_DISK_TOTAL_READ_NS, FIELD_PLAIN,
         UNITS_NSEC),
    STAT("total_write_time", ITEM_DEV_TOTAL_WRITE_TIME, ITEM_ALL_TOTAL_WRITE_TIME, REG_DISK_TOTAL_WRITE_NS,
         FIELD_PLAIN, UNITS_NSEC),
    AVERAGE("avgrq_sz", ITEM_DEV_AVGRQ_SZ, ITEM_ALL_AVGRQ_SZ, PAIR_BYTES, UNITS_BYTE),
    AVERAGE("await", ITEM_DEV_AWAIT, ITEM_ALL_AWAIT, PAIR_TOTAL_TIME, UNITS_NSEC),
    /* IOKit's storage stack queues no requests to merge: each goes to the
     * driver as it was issued */
    LINUX("read_merge", ITEM_READ_MERGE, UNITS_COUNT, .derive = no_merges, .index = REG_DISK_READS),
    LINUX("write_merge", ITEM_WRITE_MERGE, UNITS_COUNT, .derive = no_merges, .index = REG_DISK_WRITES),
    /* the time the reads and writes took, request by request ("Total
     * Time"); busy time is the two together, as macOS keeps no time with a
     * request in flight (Netdata's disk.util reads the same sum on macOS) */
    LINUX("read_rawactive", ITEM_READ_RAWACTIVE, UNITS_MSEC, MS(REG_DISK_TOTAL_READ_NS)),
    LINUX("write_rawactive", ITEM_WRITE_RAWACTIVE, UNITS_MSEC, MS(REG_DISK_TOTAL_WRITE_NS)),
    LINUX("avactive", ITEM_AVACTIVE, UNITS_MSEC, .derive = pair_sum, .index = PAIR_TOTAL_TIME),
};

static const struct indom_def indom = { .serial = INDOM_DISK, .label_name = "disk",
                                        .table = INSTANCES_AT(struct disk_state, disks, ndisks, struct disk_entry,
                                                              inst) };

static void
counts_set(struct io_counts *c, unsigned int have, const uint64_t *v)
{
    memcpy(c->prev, c->v, sizeof(c->prev));
    c->prev_have = c->have;
    c->primed = c->have != 0 || c->primed;
    c->have = have;
    memcpy(c->v, v, sizeof(c->v));
}

/* A disk's counters, blocks from bytes where its block size is known. */
static unsigned int
disk_counts(const struct reg_disk *d, uint64_t *v)
{
    unsigned int have = d->have;

    memcpy(v, d->stat, sizeof(d->stat));
    v[SUM_BLKREAD] = v[SUM_BLKWRITE] = 0;
    if (d->block_size > 0 && (have & (1u << REG_DISK_BYTES_READ))) {
        v[SUM_BLKREAD] = d->stat[REG_DISK_BYTES_READ] / d->block_size;
        have |= 1u << SUM_BLKREAD;
    }
    if (d->block_size > 0 && (have & (1u << REG_DISK_BYTES_WRITTEN))) {
        v[SUM_BLKWRITE] = d->stat[REG_DISK_BYTES_WRITTEN] / d->block_size;
        have |= 1u << SUM_BLKWRITE;
    }
    return have;
}

static struct disk_entry *
entry_for(struct disk_state *s, const char *name)
{
    struct disk_entry *e;

    for (unsigned int i = 0; i < s->ndisks; i++)
        if (strcmp(s->disks[i].d.name, name) == 0)
            return &s->disks[i];
    if (array_grow((void **)&s->disks, &s->disks_cap, s->ndisks, sizeof(*s->disks)) < 0)
        return NULL;
    e = &s->disks[s->ndisks++];
    memset(e, 0, sizeof(*e));
    return e;
}

/* disk.all: what the disks present in both rounds accrued, added on. */
static int
sum_all(struct disk_state *s)
{
    uint64_t total[SUM_N];
    unsigned int have = 0;

    memcpy(total, s->all.v, sizeof(total));
    delta_sum_begin(&s->all_sum);
    for (unsigned int i = 0; i < s->ndisks; i++) {
        uint64_t add[SUM_N];
        int sts;

        if ((sts = delta_sum_step(&s->all_sum, s->disks[i].d.name, s->disks[i].io.v, SUM_N, add)) < 0)
            return sts;
        for (unsigned int k = 0; k < SUM_N; k++)
            if (s->disks[i].io.have & (1u << k))
                total[k] += add[k];
        have |= s->disks[i].io.have;
    }
    delta_sum_end(&s->all_sum);
    counts_set(&s->all, have | s->all.have, total);
    return 0;
}

static int
disk_refresh(void *state, struct refresh_call *call)
{
    struct disk_state *s = state;
    const struct platform *p = call->p;
    pmInDom id = call->indom;
    struct plat_entry_set set;
    unsigned int n = 0, kept = 0;
    int sts;

    if ((sts = p->query(p->ctx, &plat_queries[PLAT_QUERY_DISKS], &set)) < 0 && sts != -ENOENT)
        return collector_error(sts);
    if (sts == 0)
        reg_disks(&set, s->decoded, DISK_MAX, &n);  /* none: a machine with no disk present */
    names_begin(id);
    for (unsigned int i = 0; i < s->ndisks; i++)
        s->disks[i].present = 0;
    for (unsigned int i = 0; i < n; i++) {
        struct disk_entry *e = entry_for(s, s->decoded[i].name);
        uint64_t v[SUM_N];
        unsigned int have;

        if (e == NULL)
            return -ENOMEM;
        if ((sts = names_add(id, s->decoded[i].name)) < 0)
            return sts;
        e->inst = sts;
        e->d = s->decoded[i];
        e->present = 1;
        have = disk_counts(&e->d, v);
        counts_set(&e->io, have, v);
    }
    for (unsigned int i = 0; i < s->ndisks; i++)    /* a disk that left starts afresh if it returns */
        if (s->disks[i].present)
            s->disks[kept++] = s->disks[i];
    s->ndisks = kept;
    return sum_all(s);
}

const char *
disk_name_of_device(const struct disk_state *s, uint64_t device)
{
    for (unsigned int i = 0; i < s->ndisks; i++)
        if (s->disks[i].d.device == device)
            return s->disks[i].d.name;
    return NULL;
}

/* The counts a row reads: its disk's, or disk.all's. */
static const struct io_counts *
counts_of(const void *state, const void *entry, const struct metric_row *row)
{
    if (row->indom == COLLECTOR_NO_INDOM)
        return &((const struct disk_state *)state)->all;
    return &((const struct disk_entry *)entry)->io;
}

static unsigned int
pair_mask(const struct counter_pair *p)
{
    return (1u << p->read) | (1u << p->write);
}

/* The pair's sum in its row's units, exact however large: no value unless
 * the driver gives both. */
static int
pair_sum(const void *state, const void *entry, const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    const struct io_counts *c = counts_of(state, entry, row);
    const struct counter_pair *p = &pairs[row->index];

    (void)inst;
    if ((c->have & pair_mask(p)) != pair_mask(p))
        return PMDA_FETCH_NOVALUES;
    atom->ull = sum_div(c->v[p->read], c->v[p->write], p->divisor);
    return PMDA_FETCH_STATIC;
}

/* What a pair's sum grew by since the previous refresh. */
static uint64_t
pair_growth(const struct io_counts *c, const struct counter_pair *p)
{
    return (c->v[p->read] - c->prev[p->read]) + (c->v[p->write] - c->prev[p->write]);
}

/* The pair's growth per request since the previous refresh: no value
 * before there is an interval or when it held no I/O. */
static int
per_request(const void *state, const void *entry, const struct metric_row *row, unsigned int inst,
            pmAtomValue *atom)
{
    const struct io_counts *c = counts_of(state, entry, row);
    const struct counter_pair *amount = &pairs[row->index], *ops = &pairs[PAIR_OPS];
    unsigned int need = pair_mask(amount) | pair_mask(ops);
    uint64_t requests;

    (void)inst;
    if (!c->primed || (c->have & need) != need || (c->prev_have & need) != need)
        return PMDA_FETCH_NOVALUES;
    if ((requests = pair_growth(c, ops)) == 0)
        return PMDA_FETCH_NOVALUES;
    atom->ull = pair_growth(c, amount) / requests;
    return PMDA_FETCH_STATIC;
}

/* 0 for a disk whose driver counts the requests (row->index): none is merged. */
static int
no_merges(const void *state, const void *entry, const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    (void)state;
    (void)inst;
    if (!(((const struct disk_entry *)entry)->io.have & (1u << row->index)))
        return PMDA_FETCH_NOVALUES;
    atom->ull = 0;
    return PMDA_FETCH_STATIC;
}

/* How the disk is attached, as a dashboard names it. IOKit's "Physical
 * Interconnect" (IOStorageProtocolCharacteristics.h) says "PCI-Express"
 * for internal NVMe and for Thunderbolt enclosures alike: the location
 * tells them apart. An AHCI SSD on PCIe says "PCI" (MacBookPro12,1 and
 * MacPro6,1 in shared/real-macs/storage): not NVMe, so it passes
 * through, as other values do. */
static const char *
disk_protocol(const struct reg_disk *d)
{
    if (strcmp(d->interconnect, "PCI-Express") == 0)
        return strcmp(d->location, "External") == 0 ? "Thunderbolt" : "NVMe";
    if (strcmp(d->interconnect, "Virtual Interface") == 0)
        return "Disk Image";
    return d->interconnect;
}

/* A label value: "unknown" for none, else as collector_label_text,
 * lower-cased if asked. */
static const char *
label_text(const char *s, int lower, char *out, size_t len)
{
    if (s[0] == '\0')
        return "unknown";
    collector_label_text(s, out, len);
    for (char *c = out; lower && *c != '\0'; c++)
        if (*c >= 'A' && *c <= 'Z')
            *c = (char)(*c - 'A' + 'a');
    return out;
}

static int
disk_labels(const void *state, pmInDom id, unsigned int inst, char *json, size_t len)
{
    const struct disk_entry *e = collector_entry(&indom, state, inst);
    char medium[32], location[32], protocol[64];

    (void)id;
    if (e == NULL)
        return -1;
    snprintf(json, len, "{\"medium\":\"%s\",\"location\":\"%s\",\"protocol\":\"%s\",\"removable\":%s}",
             label_text(e->d.medium, 1, medium, sizeof(medium)),
             label_text(e->d.location, 1, location, sizeof(location)),
             label_text(disk_protocol(&e->d), 0, protocol, sizeof(protocol)),
             e->d.removable == 1 ? "true" : e->d.removable == 0 ? "false" : "null");
    return 0;
}

static void
disk_teardown(void *state)
{
    struct disk_state *s = state;

    free(s->disks);
    delta_sum_free(&s->all_sum);
}

const struct collector disk_collector = {
    .name = "disk",
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .indom = &indom,
    .state_size = sizeof(struct disk_state),
    .refresh = disk_refresh,
    .instance_labels = disk_labels,
    .teardown = disk_teardown,
};
