/*
 * Cluster 131: memory bandwidth per requestor (CPU clusters, GPU, Neural
 * Engine, media engines, the memory controllers' own total), without
 * root, from two sources (bandwidth_decode.h):
 *  - the power manager's "DCS BW" histograms (IOReport:bandwidth). A
 *    histogram gives the mean over an interval, so each value is the mean
 *    between this refresh and the one before: the first refresh, and one
 *    after a channel had no value, give none, as a direction the Mac does
 *    not report for a requestor (an M3 Max on macOS 27 has only "AMCC
 *    RD+WR": SiliconScope issue 46);
 *  - the memory controllers' byte counters (IOReport:memory-traffic, "AMC
 *    Stats"), where they count: on macOS 27 they give no value or cannot
 *    be subscribed (SiliconScope issues 14, 46), which is logged once as
 *    it starts and once as it ends, and never served as a number.
 * Where the Mac has neither (Intel Macs, VMs), no requestors and nothing
 * logged. Each source is read only when one of its metrics is asked.
 */
#include "collector.h"
#include "metric_ids.h"
#include "collectors.h"
#include "instance_names.h"
#include "bandwidth_decode.h"
#include "array_grow.h"
#include "entry_set.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BYTES_PER_SEC PMDA_PMUNITS(1, -1, 0, PM_SPACE_BYTE, PM_TIME_SEC, 0)
#define BYTES PMDA_PMUNITS(1, 0, 0, PM_SPACE_BYTE, 0, 0)
#define BYTES_PER_GB 1e9                /* the buckets' "GB/s" */
#define NDIRECTIONS (BANDWIDTH_READ_WRITE + 1)
/* The instance of a channel that names no requestor (an M1 Pro's bare
 * "RD+WR"): the controllers' traffic, as the subgroup calls them. */
#define NO_REQUESTOR "DCS"
#define COUNTERS_PART "AMC Stats"       /* collector_note_parts' name for the counters */

/* The sources, as bits: those a refresh reads, those that named a
 * requestor. */
enum { SOURCE_HISTOGRAMS = 1u, SOURCE_COUNTERS = 2u, SOURCE_ALL = 3u };
#define FIRST_COUNTED_ITEM 4            /* rows from this item on are the counters' */

/* Parts collector_note_parts logs, of either source. */
enum { PART_NO_VALUE = 1u, PART_NOT_HISTOGRAM = 2u, PART_UNREADABLE = 4u };
/* The bits of struct requestor's have: bytes[direction] from 0, then
 * saturated, then counted[direction]. */
#define HAVE_SATURATED NDIRECTIONS
#define HAVE_COUNTED (HAVE_SATURATED + 1)

struct requestor {
    int inst;
    char name[PLAT_ENTRY_NAME_MAX];     /* the instance's */
    unsigned int seen;                  /* SOURCE_* bits: the sources whose last answer named it */
    int had[NDIRECTIONS];               /* last[] holds a reading of n buckets step GB/s apart */
    unsigned int n[NDIRECTIONS], step[NDIRECTIONS];
    uint64_t last[NDIRECTIONS][BANDWIDTH_MAX_BUCKETS];
    double bytes[NDIRECTIONS];          /* per second, since the refresh before */
    unsigned int saturated;
    uint64_t counted[NDIRECTIONS];      /* bytes since boot */
    unsigned int have;                  /* HAVE_* bits */
};

/* What the channel at one place of an answer was at the last refresh:
 * its layout and requestor, kept while the answer names the same channel
 * there, so that bucket labels and instance names are read once per
 * subscription, not at every fetch. */
struct channel_slot {
    int laid;                           /* the rest is set */
    uint64_t id;
    char name[PLAT_ENTRY_NAME_MAX];
    int sts;                            /* the layout's */
    struct bandwidth_layout layout;
    unsigned int requestor;             /* index in requestor[] */
};

struct slots {
    struct channel_slot *slot;          /* one per entry of the last answer */
    unsigned int n, cap;
};

#define DIRECTION(name, item, dir)                                                                      \
    { "mem.bandwidth." name, CLUSTER_BANDWIDTH, item, PM_TYPE_DOUBLE, INDOM_BANDWIDTH_REQUESTOR, PM_SEM_INSTANT, \
      BYTES_PER_SEC, FIELD_PRESENT(struct requestor, bytes[dir], have, dir, FIELD_DOUBLE) }
#define COUNTED(name, item, dir)                                                                        \
    { "mem.bandwidth." name, CLUSTER_BANDWIDTH, item, PM_TYPE_U64, INDOM_BANDWIDTH_REQUESTOR, PM_SEM_COUNTER, \
      BYTES, FIELD_PRESENT(struct requestor, counted[dir], have, HAVE_COUNTED + (dir), FIELD_PLAIN) }

static const struct metric_row rows[] = {
    DIRECTION("read", 0, BANDWIDTH_READ),
    DIRECTION("write", 1, BANDWIDTH_WRITE),
    DIRECTION("read_write", 2, BANDWIDTH_READ_WRITE),
    { "mem.bandwidth.saturated", CLUSTER_BANDWIDTH, 3, PM_TYPE_U32, INDOM_BANDWIDTH_REQUESTOR, PM_SEM_INSTANT,
      PMDA_PMUNITS(0, 0, 0, 0, 0, 0), FIELD_PRESENT(struct requestor, saturated, have, HAVE_SATURATED, FIELD_PLAIN) },
    COUNTED("read_bytes", FIRST_COUNTED_ITEM, BANDWIDTH_READ),
    COUNTED("write_bytes", FIRST_COUNTED_ITEM + 1, BANDWIDTH_WRITE),
};

struct bandwidth_state {
    struct requestor *requestor;
    unsigned int n, cap;
    struct slots histograms, counters;
    unsigned int wanted;                    /* SOURCE_* bits the coming refresh must read; 0: all */
    int histograms_read, histograms_sts;    /* the histograms' query was made; its status when last made */
    unsigned int logged, counters_logged;   /* collector_note_parts' */
    char why[256], counters_why[256];       /* why some have no value, as the source said it */
};

static const struct indom_def indom = {
    .serial = INDOM_BANDWIDTH_REQUESTOR,
    .label_name = "memory requestor",
    .table = INSTANCES_AT(struct bandwidth_state, requestor, n, struct requestor, inst),
};

/* A requestor with no value, and not named by the sources about to be
 * read, until an answer gives it some. */
static void
unread(struct requestor *r, unsigned int sources)
{
    r->seen &= ~sources;
    r->saturated = 0;
    r->have = 0;
}

/* The index of the requestor of that instance name, added (unread, with
 * no reading) if new; -ENOMEM. */
static int
requestor_named(struct bandwidth_state *s, const char *name)
{
    struct requestor *r;

    for (unsigned int i = 0; i < s->n; i++)
        if (strcmp(s->requestor[i].name, name) == 0)
            return (int)i;
    if (array_grow((void **)&s->requestor, &s->cap, s->n, sizeof(*s->requestor)) < 0)
        return -ENOMEM;
    r = &s->requestor[s->n];
    memset(r, 0, sizeof(*r));
    entry_copy_text(r->name, sizeof(r->name), name);
    return (int)s->n++;
}

/* The instance name of a channel: its requestor (spaces as '_'), "dieN_"
 * before it on a die other than the first (a name with "DIE0 " is the one
 * without it: macOS 27 adds the prefix to every name). */
static void
instance_of(const struct bandwidth_layout *l, char *out, size_t len)
{
    const char *requestor = l->requestor[0] ? l->requestor : NO_REQUESTOR;
    char name[PLAT_ENTRY_NAME_MAX + 16];

    if (l->die > 0)
        snprintf(name, sizeof(name), "die%d_%s", l->die, requestor);
    else
        entry_copy_text(name, sizeof(name), requestor);
    collector_instance_name(name, out, len);
}

/* A counter's layout: its name's requestor and direction. */
static int
counter_layout(const struct plat_entry *e, struct bandwidth_layout *out)
{
    out->nprops = e->nprops;
    return bandwidth_name(e->name, out);
}

/* The slot of an answer's i-th entry e: as the last refresh left it when
 * it names the same channel, else laid out again (by lay); NULL when out
 * of memory. */
static struct channel_slot *
slot_of(struct bandwidth_state *s, struct slots *slots, unsigned int i, const struct plat_entry *e,
        int (*lay)(const struct plat_entry *, struct bandwidth_layout *))
{
    struct channel_slot *c;
    char name[PLAT_ENTRY_NAME_MAX];
    int r;

    if (i == slots->n) {
        if (array_grow((void **)&slots->slot, &slots->cap, slots->n, sizeof(*slots->slot)) < 0)
            return NULL;
        slots->slot[slots->n++].laid = 0;
    }
    c = &slots->slot[i];
    if (c->laid && c->id == e->id && c->layout.nprops == e->nprops && strcmp(c->name, e->name) == 0)
        return c;
    c->laid = 1;
    c->id = e->id;
    entry_copy_text(c->name, sizeof(c->name), e->name);
    c->layout.nprops = e->nprops;
    if ((c->sts = lay(e, &c->layout)) == -ENOENT || c->sts == -EDOM)
        return c;
    instance_of(&c->layout, name, sizeof(name));
    if ((r = requestor_named(s, name)) < 0) {
        c->laid = 0;
        return NULL;
    }
    c->requestor = (unsigned int)r;
    return c;
}

/* One histogram's reading: the mean since the last one, and the next
 * baseline. A channel without a value this round gives none, and the
 * next one starts again. */
static int
take_histogram(struct bandwidth_state *s, unsigned int i, const struct plat_entry *e, unsigned int *failed)
{
    uint64_t now[BANDWIDTH_MAX_BUCKETS];
    struct bandwidth_mean mean;
    struct channel_slot *c = slot_of(s, &s->histograms, i, e, bandwidth_layout);
    const struct bandwidth_layout *l;
    struct requestor *r;
    enum bandwidth_direction d;

    if (c == NULL)
        return -ENOMEM;
    if (c->sts == -ENOENT)
        return 0;                       /* no requestor's reads or writes */
    if (c->sts == -EDOM) {
        *failed |= PART_NOT_HISTOGRAM;
        return 0;
    }
    l = &c->layout;
    d = l->direction;
    r = &s->requestor[c->requestor];
    r->seen |= SOURCE_HISTOGRAMS;
    if (c->sts < 0 || bandwidth_residencies(e, l, now) < 0) {
        *failed |= PART_NO_VALUE;
        r->had[d] = 0;
        return 0;
    }
    if (r->had[d] && r->n[d] == l->n && r->step[d] == l->step &&
        bandwidth_mean_of(l->n, l->step, r->last[d], now, &mean) == 0) {
        r->bytes[d] = mean.gbps * BYTES_PER_GB;
        r->saturated |= (unsigned int)mean.saturated;
        r->have |= 1u << d | 1u << HAVE_SATURATED;
    }
    memcpy(r->last[d], now, l->n * sizeof(now[0]));
    r->n[d] = l->n;
    r->step[d] = l->step;
    r->had[d] = 1;
    return 0;
}

/* One byte counter's reading, served as it is. */
static int
take_counter(struct bandwidth_state *s, unsigned int i, const struct plat_entry *e, unsigned int *failed)
{
    struct channel_slot *c = slot_of(s, &s->counters, i, e, counter_layout);
    struct requestor *r;
    enum bandwidth_direction d;

    if (c == NULL)
        return -ENOMEM;
    if (c->sts < 0)
        return 0;                       /* no requestor's reads or writes ("DCS CAS", "DIE0 AFC RD/WR") */
    d = c->layout.direction;
    r = &s->requestor[c->requestor];
    r->seen |= SOURCE_COUNTERS;
    if (bandwidth_bytes(e, &r->counted[d]) < 0)
        *failed |= PART_NO_VALUE;
    else
        r->have |= 1u << (HAVE_COUNTED + d);
    return 0;
}

/* The answer to query q, each entry taken: the query's status (-ENOENT:
 * the Mac has no such channels), or -ENOMEM. */
static int
read_source(struct bandwidth_state *s, const struct platform *p, enum plat_query_id q, unsigned int *failed,
            int (*take)(struct bandwidth_state *, unsigned int, const struct plat_entry *, unsigned int *))
{
    struct slots *slots = q == PLAT_QUERY_BANDWIDTH ? &s->histograms : &s->counters;
    struct plat_entry_set set;
    int sts;

    if ((sts = p->query(p->ctx, &plat_queries[q], &set)) < 0) {
        slots->n = 0;
        return sts;
    }
    for (unsigned int i = 0; i < set.n; i++)
        if ((sts = take(s, i, &set.entry[i], failed)) < 0)
            return sts;
    slots->n = set.n < slots->n ? set.n : slots->n;
    return 0;
}

/* The requestors these answers did not name are gone (and the slots,
 * which point at requestors by place, are laid out again). */
static void
end(struct bandwidth_state *s)
{
    unsigned int kept = 0;

    for (unsigned int i = 0; i < s->n; i++)
        if (s->requestor[i].seen)
            s->requestor[kept++] = s->requestor[i];
    if (kept < s->n)
        s->histograms.n = s->counters.n = 0;
    s->n = kept;
}

/* The source a row reads. */
static void
bandwidth_want(void *state, const struct metric_row *row)
{
    struct bandwidth_state *s = state;

    s->wanted |= row->item >= FIRST_COUNTED_ITEM ? SOURCE_COUNTERS : SOURCE_HISTOGRAMS;
}

static int
bandwidth_refresh(void *state, struct refresh_call *call)
{
    struct bandwidth_state *s = state;
    const struct platform *p = call->p;
    unsigned int sources = s->wanted ? s->wanted : SOURCE_ALL, failed = 0, counters_failed = 0;
    int sts;

    s->wanted = 0;
    names_begin(call->indom);
    for (unsigned int i = 0; i < s->n; i++)
        unread(&s->requestor[i], sources);
    if (sources & SOURCE_HISTOGRAMS) {
        sts = s->histograms_sts = read_source(s, p, PLAT_QUERY_BANDWIDTH, &failed, take_histogram);
        s->histograms_read = 1;
        if (sts < 0 && sts != -ENOENT) {
            s->n = s->histograms.n = s->counters.n = 0;     /* no baseline survives a gap */
            return collector_error(sts);
        }
        if (failed)
            entry_copy_text(s->why, sizeof(s->why), failed & PART_NOT_HISTOGRAM
                                                        ? "a bandwidth channel is not a whole histogram of GB/s buckets"
                                                        : p->error(p->ctx));
        collector_note_parts(call, NULL, failed, &s->logged, s->why);
    }
    if (sources & SOURCE_COUNTERS) {
        if ((sts = read_source(s, p, PLAT_QUERY_MEMORY_TRAFFIC, &counters_failed, take_counter)) == -ENOMEM)
            return sts;
        if (sts < 0 && (sts != -ENOENT || (s->histograms_read && s->histograms_sts == 0)))
            counters_failed |= PART_UNREADABLE;     /* the Mac has the histograms, its counters fail */
        if (counters_failed)
            entry_copy_text(s->counters_why, sizeof(s->counters_why), p->error(p->ctx));
        collector_note_parts(call, COUNTERS_PART, counters_failed, &s->counters_logged, s->counters_why);
    }
    end(s);
    for (unsigned int i = 0; i < s->n; i++)
        if ((s->requestor[i].inst = names_add(call->indom, s->requestor[i].name)) < 0)
            return s->requestor[i].inst;
    return 0;
}

static void
bandwidth_teardown(void *state)
{
    struct bandwidth_state *s = state;

    free(s->requestor);
    free(s->histograms.slot);
    free(s->counters.slot);
}

const struct collector bandwidth_collector = {
    .name = "bandwidth",
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .indom = &indom,
    .state_size = sizeof(struct bandwidth_state),
    .refresh = bandwidth_refresh,
    .want = bandwidth_want,
    .teardown = bandwidth_teardown,
};
