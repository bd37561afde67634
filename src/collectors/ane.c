/*
 * Cluster 134: the Apple Neural Engine. Its power state, from its
 * driver's IORegistry entry (H11ANEIn), which any user can read: the one
 * signal of the engine left on an M5 under macOS 27, where IOReport gives
 * users other than root none (context-labs/mactop pull request 76). And
 * how busy its controller was between two refreshes: the share of the
 * time IOReport's "ANE" group ("IOP State") spent in the "Running" state
 * (ane_decode.h), where the chip has that group. Its energy is cluster
 * 126's power.energy.ane. Each part is read only when one of its metrics
 * is asked.
 */
#include "collector.h"
#include "metric_ids.h"
#include "metric_units.h"
#include "ane_decode.h"

#include <errno.h>
#include <stddef.h>


enum { PART_STATE = 1u << 0, PART_BUSY = 1u << 1 };

struct ane_state {
    uint32_t power_state, power_state_max;
    int state_sts;
    double busy;
    int busy_sts;
    uint64_t running, total;            /* the last reading's residencies */
    int based;                          /* they are one to compare with */
    unsigned int wanted;                /* the parts the coming refresh reads; 0: all */
    unsigned int failed, logged;        /* collector_note_parts' */
};

#define ROW(name, item, type, sem, units, field) \
    { "kernel.ane." name, CLUSTER_ANE, item, type, COLLECTOR_NO_INDOM, sem, units, field }

static const struct metric_row rows[] = {
    ROW("power_state", 0, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_NONE,
        FIELD_OF(struct ane_state, power_state, state_sts, FIELD_PLAIN)),
    ROW("power_state_max", 1, PM_TYPE_U32, PM_SEM_DISCRETE, UNITS_NONE,
        FIELD_OF(struct ane_state, power_state_max, state_sts, FIELD_PLAIN)),
    ROW("busy", 2, PM_TYPE_DOUBLE, PM_SEM_INSTANT, UNITS_NONE, FIELD_OF(struct ane_state, busy, busy_sts, FIELD_DOUBLE)),
};

static void
ane_want(void *state, const struct metric_row *row)
{
    struct ane_state *s = state;

    s->wanted |= row->field.status == offsetof(struct ane_state, busy_sts) ? PART_BUSY : PART_STATE;
}

static int
read_state(struct ane_state *s, const struct platform *p)
{
    struct plat_entry_set set;
    int sts = p->query(p->ctx, &plat_queries[PLAT_QUERY_ANE], &set);

    return sts < 0 ? sts : ane_power_state(&set, &s->power_state, &s->power_state_max);
}

/* The running share since the last reading: none at the first, nor when
 * no time passed or the counters went back (a subscription made again
 * continues them, so that is a reset the source did not smooth over). */
static int
read_busy(struct ane_state *s, const struct platform *p)
{
    struct plat_entry_set set;
    uint64_t running, total;
    int sts = p->query(p->ctx, &plat_queries[PLAT_QUERY_ANE_STATES], &set), based = s->based;

    if (sts == 0)
        sts = ane_residency(&set, &running, &total);
    s->based = sts == 0;
    if (sts < 0)
        return sts;
    sts = !based || total <= s->total || running < s->running || running - s->running > total - s->total
              ? -EAGAIN : 0;
    if (sts == 0)
        s->busy = (double)(running - s->running) / (double)(total - s->total);
    s->running = running;
    s->total = total;
    return sts;
}

/* Part's bit of s->failed from its status (its first busy share's
 * -EAGAIN is no failure), and why, from the source, when it failed. */
static void
note_part(struct ane_state *s, unsigned int part, int sts, const struct platform *p, const char **why)
{
    int failing = sts != -EAGAIN && collector_failing(sts);

    s->failed = failing ? s->failed | part : s->failed & ~part;
    if (failing)
        *why = p->error(p->ctx);
}

static int
ane_refresh(void *state, struct refresh_call *call)
{
    struct ane_state *s = state;
    const struct platform *p = call->p;
    unsigned int parts = s->wanted ? s->wanted : PART_STATE | PART_BUSY;
    const char *why = "";

    s->wanted = 0;
    if (parts & PART_STATE) {
        s->state_sts = read_state(s, p);
        note_part(s, PART_STATE, s->state_sts, p, &why);
        s->state_sts = collector_error(s->state_sts);
    }
    if (parts & PART_BUSY) {
        s->busy_sts = read_busy(s, p);
        note_part(s, PART_BUSY, s->busy_sts, p, &why);
        s->busy_sts = collector_error(s->busy_sts);
    }
    collector_note_parts(call, NULL, s->failed, &s->logged, why);
    return 0;
}

const struct collector ane_collector = {
    .name = "ane",
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .state_size = sizeof(struct ane_state),
    .refresh = ane_refresh,
    .want = ane_want,
};
