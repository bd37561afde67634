/*
 * The tcp collector: statistics (net.inet.tcp.stats, cluster 17) with the
 * established connection count from the tcpconn collector, and whether macOS
 * lets the statistics be read (cluster 111).
 *
 * While net.inet.tcp.disable_access_to_stats is set (the default) the
 * kernel hands out zeros instead of the statistics. Then every counter
 * reports PM_ERR_PERMISSION, not 0, network.tcp.stats_accessible says so,
 * and pmcd's log says it once. Counters that are not all zero are real even
 * with the setting on (whoever the kernel lets see them).
 *
 * The kernel's counters are 32-bit; they are extended to 64 bits here so
 * that rates survive the wrap. rtoalgorithm, rtomin, rtomax and maxconn
 * have no macOS source and report an error.
 */
#include "collector.h"
#include "metric_ids.h"
#include "collectors.h"
#include "metric_units.h"
#include "convert.h"
#include "tcpconn.h"

#include <string.h>

/* The rows the input error total adds up. */
enum { ROW_BADSUM = 15, ROW_BADOFF, ROW_SHORT, ROW_MEMDROP };

/* What the rows bind, at the start of the collector's state (the rest of it,
 * one count per row, needs the rows' number). */
struct tcp_bound {
    int accessible;                     /* 1, 0 (withheld), or the read's error: its own status */
    uint32_t established;               /* tcpconn's, at the last refresh */
    int established_status;
};

static row_derive inerrs;

#define COUNTER(name, item, member) { name, CLUSTER_TCP, item, PM_TYPE_U64, COLLECTOR_NO_INDOM, PM_SEM_COUNTER, \
                                      UNITS_COUNT, FIELD_ALWAYS(struct plat_tcp, member, FIELD_WRAP32) }
/* What macOS has no source for. */
#define NONE(name, item, type, units) { name, CLUSTER_TCP, item, type, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, units, \
                                        .derive = collector_no_source }

static const struct metric_row rows[] = {
    COUNTER("network.tcp.activeopens", 168, connattempt),
    COUNTER("network.tcp.passiveopens", 169, accepts),
    COUNTER("network.tcp.attemptfails", 170, conndrops),
    COUNTER("network.tcp.estabresets", 171, drops),
    { "network.tcp.currestab", CLUSTER_TCP, 172, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, UNITS_NONE,
      FIELD_OF(struct tcp_bound, established, established_status, FIELD_PLAIN) },
    COUNTER("network.tcp.insegs", 173, rcvtotal),
    COUNTER("network.tcp.outsegs", 174, sndtotal),
    COUNTER("network.tcp.retranssegs", 175, sndrexmitpack),
    { "network.tcp.inerrs.total", CLUSTER_TCP, 176, PM_TYPE_U64, COLLECTOR_NO_INDOM, PM_SEM_COUNTER, UNITS_COUNT,
      .derive = inerrs },
    COUNTER("network.tcp.outrsts", 177, sndctrl),
    COUNTER("network.tcp.incsumerrors", 178, rcvbadsum),
    NONE("network.tcp.rtoalgorithm", 179, PM_TYPE_U32, UNITS_NONE),
    NONE("network.tcp.rtomin", 180, PM_TYPE_U32, UNITS_MSEC),
    NONE("network.tcp.rtomax", 181, PM_TYPE_U32, UNITS_MSEC),
    NONE("network.tcp.maxconn", 182, PM_TYPE_32, UNITS_NONE),
    [ROW_BADSUM] = COUNTER("network.tcp.inerrs.badsum", 183, rcvbadsum),
    [ROW_BADOFF] = COUNTER("network.tcp.inerrs.badoff", 184, rcvbadoff),
    [ROW_SHORT] = COUNTER("network.tcp.inerrs.short", 185, rcvshort),
    [ROW_MEMDROP] = COUNTER("network.tcp.inerrs.memdrop", 186, rcvmemdrop),
    { "network.tcp.stats_accessible", CLUSTER_TCP_ACCESS, 0, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT,
      UNITS_NONE, FIELD_OF(struct tcp_bound, accessible, accessible, FIELD_PLAIN) },
};

#define NROWS (sizeof(rows) / sizeof(rows[0]))

struct tcp_state {
    struct tcp_bound bound;             /* first: the bindings are offsets into it */
    struct wrap32 wraps[NROWS];
    int logged_blocked;
};

static int
withheld(const struct plat_tcp *t)
{
    if (t->access_status < 0 || t->access_disabled == 0)
        return 0;
    return (t->connattempt | t->accepts | t->drops | t->conndrops | t->sndtotal | t->sndrexmitpack | t->sndctrl |
            t->rcvtotal | t->rcvbadsum | t->rcvbadoff | t->rcvmemdrop | t->rcvshort) == 0;
}

static int
tcp_refresh(void *state, struct refresh_call *call)
{
    struct tcp_state *s = state;
    struct tcp_bound *b = &s->bound;
    const struct plat_tcpconn *conns = tcpconn_counts(call->depends[0]);
    struct plat_tcp t;
    int sts;

    b->established_status = conns == NULL ? PM_ERR_AGAIN : 0;       /* tcpconn, a dependency, failed */
    b->established = conns == NULL ? 0 : conns->state[TCPS_ESTABLISHED];
    memset(&t, 0, sizeof(t));
    if ((sts = call->p->tcp(call->p->ctx, &t)) < 0) {
        b->accessible = collector_error(sts);
        return b->accessible;
    }
    b->accessible = !withheld(&t);
    if ((!b->accessible) != s->logged_blocked) {
        pmNotifyErr(b->accessible ? LOG_INFO : LOG_WARNING, b->accessible
                    ? "darwin: tcp: statistics readable again"
                    : "darwin: tcp: statistics withheld by net.inet.tcp.disable_access_to_stats; "
                      "network.tcp counters report an error (sysctl -w net.inet.tcp.disable_access_to_stats=0 shows them)");
        s->logged_blocked = !b->accessible;
    }
    if (!b->accessible)
        return 0;
    collector_extend(rows, NROWS, &t, s->wraps);
    return 0;
}

static int
counters_unreadable(const struct tcp_state *s)
{
    return s->bound.accessible == 1 ? 0 : s->bound.accessible < 0 ? s->bound.accessible : PM_ERR_PERMISSION;
}

static int
tcp_fetch(const void *state, const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    const struct tcp_state *s = state;
    int sts;

    (void)inst;
    if (row->field.kind != FIELD_WRAP32)
        return collector_field(row, s, atom);
    if ((sts = counters_unreadable(s)) < 0)
        return sts;
    atom->ull = s->wraps[row - rows].total;
    return PMDA_FETCH_STATIC;
}

static int
inerrs(const void *state, const void *entry, const struct metric_row *row, unsigned int inst,
       pmAtomValue *atom)
{
    const struct tcp_state *s = state;
    int sts;

    (void)entry;
    (void)row;
    (void)inst;
    if ((sts = counters_unreadable(s)) < 0)
        return sts;
    atom->ull = s->wraps[ROW_BADSUM].total + s->wraps[ROW_BADOFF].total + s->wraps[ROW_SHORT].total +
                s->wraps[ROW_MEMDROP].total;
    return PMDA_FETCH_STATIC;
}

const struct collector tcp_collector = {
    .name = "tcp",
    .ndepends = 1,
    .depends = { &tcpconn_collector },
    .rows = rows,
    .nrows = NROWS,
    .state_size = sizeof(struct tcp_state),
    .refresh = tcp_refresh,
    .fetch = tcp_fetch,
};
