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

struct tcp_state {
    int accessible;                     /* 1, 0 (withheld), or the read's error: its own status */
    int counters;                       /* 0, or why the counters have no value (PM_ERR_PERMISSION:
                                         * withheld) */
    uint32_t established;               /* tcpconn's, at the last refresh */
    int established_status;
    /* each counter extended to 64 bits (collector_extend) */
    struct wrap32 connattempt, accepts, drops, conndrops, sndtotal, sndrexmitpack, sndctrl;
    struct wrap32 rcvtotal, rcvbadsum, rcvbadoff, rcvmemdrop, rcvshort;
    int logged_blocked;
};

static row_derive inerrs;

#define COUNTER(name, item, member) \
    { name, CLUSTER_TCP, item, PM_TYPE_U64, COLLECTOR_NO_INDOM, PM_SEM_COUNTER, UNITS_COUNT, \
      FIELD_WRAP32_OF(struct tcp_state, member, offsetof(struct tcp_state, counters), struct plat_tcp, member) }
/* What macOS has no source for. */
#define NONE(name, item, type, units) { name, CLUSTER_TCP, item, type, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, units, \
                                        .derive = collector_no_source }

static const struct metric_row rows[] = {
    COUNTER("network.tcp.activeopens", 168, connattempt),
    COUNTER("network.tcp.passiveopens", 169, accepts),
    COUNTER("network.tcp.attemptfails", 170, conndrops),
    COUNTER("network.tcp.estabresets", 171, drops),
    { "network.tcp.currestab", CLUSTER_TCP, 172, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, UNITS_NONE,
      FIELD_OF(struct tcp_state, established, established_status, FIELD_PLAIN) },
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
    COUNTER("network.tcp.inerrs.badsum", 183, rcvbadsum),
    COUNTER("network.tcp.inerrs.badoff", 184, rcvbadoff),
    COUNTER("network.tcp.inerrs.short", 185, rcvshort),
    COUNTER("network.tcp.inerrs.memdrop", 186, rcvmemdrop),
    { "network.tcp.stats_accessible", CLUSTER_TCP_ACCESS, 0, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT,
      UNITS_NONE, FIELD_OF(struct tcp_state, accessible, accessible, FIELD_PLAIN) },
};

#define NROWS (sizeof(rows) / sizeof(rows[0]))

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
    const struct plat_tcpconn *conns = tcpconn_counts(call->depends[0]);
    struct plat_tcp t;
    int sts;

    s->established_status = conns == NULL ? PM_ERR_AGAIN : 0;       /* tcpconn, a dependency, failed */
    s->established = conns == NULL ? 0 : conns->state[TCPS_ESTABLISHED];
    memset(&t, 0, sizeof(t));
    if ((sts = call->p->tcp(call->p->ctx, &t)) < 0) {
        s->accessible = s->counters = collector_error(sts);
        return s->accessible;
    }
    s->accessible = !withheld(&t);
    s->counters = s->accessible ? 0 : PM_ERR_PERMISSION;
    if ((!s->accessible) != s->logged_blocked) {
        pmNotifyErr(s->accessible ? LOG_INFO : LOG_WARNING, s->accessible
                    ? "darwin: tcp: statistics readable again"
                    : "darwin: tcp: statistics withheld by net.inet.tcp.disable_access_to_stats; "
                      "network.tcp counters report an error (sysctl -w net.inet.tcp.disable_access_to_stats=0 shows them)");
        s->logged_blocked = !s->accessible;
    }
    if (!s->accessible)
        return 0;
    collector_extend(rows, NROWS, &t, s);
    return 0;
}

static int
inerrs(const void *state, const void *entry, const struct metric_row *row, unsigned int inst,
       pmAtomValue *atom)
{
    const struct tcp_state *s = state;

    (void)entry;
    (void)row;
    (void)inst;
    if (s->counters < 0)
        return s->counters;
    atom->ull = s->rcvbadsum.total + s->rcvbadoff.total + s->rcvshort.total + s->rcvmemdrop.total;
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
};
