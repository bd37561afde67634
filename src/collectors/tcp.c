/*
 * The TCP family: statistics (net.inet.tcp.stats, cluster 17) with the
 * established connection count from the tcpconn family, and whether macOS
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
#include "families.h"
#include "metric_units.h"
#include "convert.h"
#include "tcpconn.h"

#include <string.h>

enum {
    ITEM_ACTIVEOPENS = 168, ITEM_PASSIVEOPENS, ITEM_ATTEMPTFAILS, ITEM_ESTABRESETS, ITEM_CURRESTAB, ITEM_INSEGS,
    ITEM_OUTSEGS, ITEM_RETRANSSEGS, ITEM_INERRS, ITEM_OUTRSTS, ITEM_INCSUMERRORS, ITEM_RTOALGORITHM, ITEM_RTOMIN,
    ITEM_RTOMAX, ITEM_MAXCONN, ITEM_BADSUM, ITEM_BADOFF, ITEM_SHORT, ITEM_MEMDROP
};
enum { F_CONNATTEMPT, F_ACCEPTS, F_CONNDROPS, F_DROPS, F_RCVTOTAL, F_SNDTOTAL, F_SNDREXMITPACK, F_SNDCTRL,
       F_RCVBADSUM, F_RCVBADOFF, F_RCVSHORT, F_RCVMEMDROP, NFIELDS };

#define ROW(name, item) { name, CLUSTER_TCP, item, PM_TYPE_U64, COLLECTOR_NO_INDOM, PM_SEM_COUNTER, UNITS_COUNT }

static const struct metric_row rows[] = {
    ROW("network.tcp.activeopens", ITEM_ACTIVEOPENS),
    ROW("network.tcp.passiveopens", ITEM_PASSIVEOPENS),
    ROW("network.tcp.attemptfails", ITEM_ATTEMPTFAILS),
    ROW("network.tcp.estabresets", ITEM_ESTABRESETS),
    { "network.tcp.currestab", CLUSTER_TCP, ITEM_CURRESTAB, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, UNITS_NONE },
    ROW("network.tcp.insegs", ITEM_INSEGS),
    ROW("network.tcp.outsegs", ITEM_OUTSEGS),
    ROW("network.tcp.retranssegs", ITEM_RETRANSSEGS),
    ROW("network.tcp.inerrs.total", ITEM_INERRS),
    ROW("network.tcp.outrsts", ITEM_OUTRSTS),
    ROW("network.tcp.incsumerrors", ITEM_INCSUMERRORS),
    { "network.tcp.rtoalgorithm", CLUSTER_TCP, ITEM_RTOALGORITHM, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, UNITS_NONE },
    { "network.tcp.rtomin", CLUSTER_TCP, ITEM_RTOMIN, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, UNITS_MSEC },
    { "network.tcp.rtomax", CLUSTER_TCP, ITEM_RTOMAX, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, UNITS_MSEC },
    { "network.tcp.maxconn", CLUSTER_TCP, ITEM_MAXCONN, PM_TYPE_32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, UNITS_NONE },
    ROW("network.tcp.inerrs.badsum", ITEM_BADSUM),
    ROW("network.tcp.inerrs.badoff", ITEM_BADOFF),
    ROW("network.tcp.inerrs.short", ITEM_SHORT),
    ROW("network.tcp.inerrs.memdrop", ITEM_MEMDROP),
    { "network.tcp.stats_accessible", CLUSTER_TCP_ACCESS, 0, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT,
      UNITS_NONE },
};

static struct wrap32 field[NFIELDS];
/* 1 when the statistics could be read, 0 when macOS withholds them
 * (disable_access_to_stats), a negative error when that cannot be told. */
static int accessible = PM_ERR_AGAIN;
static int logged_blocked;

/* Zeros from the kernel with the setting on mean the statistics were withheld. */
static int
withheld(const struct plat_tcp *t)
{
    if (t->access_status < 0 || t->access_disabled == 0)
        return 0;
    return (t->connattempt | t->accepts | t->drops | t->conndrops | t->sndtotal | t->sndrexmitpack | t->sndctrl |
            t->rcvtotal | t->rcvbadsum | t->rcvbadoff | t->rcvmemdrop | t->rcvshort) == 0;
}

static int
tcp_refresh(const struct platform *p, pmInDom indom)
{
    struct plat_tcp t;
    int sts;

    (void)indom;
    memset(&t, 0, sizeof(t));
    if ((sts = p->tcp(p->ctx, &t)) < 0) {
        accessible = collector_error(sts);
        return accessible;
    }
    accessible = !withheld(&t);
    if ((!accessible) != logged_blocked) {
        pmNotifyErr(accessible ? LOG_INFO : LOG_WARNING, accessible
                    ? "darwin: tcp: statistics readable again"
                    : "darwin: tcp: statistics withheld by net.inet.tcp.disable_access_to_stats; "
                      "network.tcp counters report an error (sysctl -w net.inet.tcp.disable_access_to_stats=0 shows them)");
        logged_blocked = !accessible;
    }
    if (!accessible)
        return 0;
    wrap32_extend(&field[F_CONNATTEMPT], t.connattempt);
    wrap32_extend(&field[F_ACCEPTS], t.accepts);
    wrap32_extend(&field[F_CONNDROPS], t.conndrops);
    wrap32_extend(&field[F_DROPS], t.drops);
    wrap32_extend(&field[F_RCVTOTAL], t.rcvtotal);
    wrap32_extend(&field[F_SNDTOTAL], t.sndtotal);
    wrap32_extend(&field[F_SNDREXMITPACK], t.sndrexmitpack);
    wrap32_extend(&field[F_SNDCTRL], t.sndctrl);
    wrap32_extend(&field[F_RCVBADSUM], t.rcvbadsum);
    wrap32_extend(&field[F_RCVBADOFF], t.rcvbadoff);
    wrap32_extend(&field[F_RCVSHORT], t.rcvshort);
    wrap32_extend(&field[F_RCVMEMDROP], t.rcvmemdrop);
    return 0;
}

static int
tcp_fetch(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    static const int of_item[] = {
        [ITEM_ACTIVEOPENS - ITEM_ACTIVEOPENS] = F_CONNATTEMPT, [ITEM_PASSIVEOPENS - ITEM_ACTIVEOPENS] = F_ACCEPTS,
        [ITEM_ATTEMPTFAILS - ITEM_ACTIVEOPENS] = F_CONNDROPS, [ITEM_ESTABRESETS - ITEM_ACTIVEOPENS] = F_DROPS,
        [ITEM_INSEGS - ITEM_ACTIVEOPENS] = F_RCVTOTAL, [ITEM_OUTSEGS - ITEM_ACTIVEOPENS] = F_SNDTOTAL,
        [ITEM_RETRANSSEGS - ITEM_ACTIVEOPENS] = F_SNDREXMITPACK, [ITEM_OUTRSTS - ITEM_ACTIVEOPENS] = F_SNDCTRL,
        [ITEM_INCSUMERRORS - ITEM_ACTIVEOPENS] = F_RCVBADSUM, [ITEM_BADSUM - ITEM_ACTIVEOPENS] = F_RCVBADSUM,
        [ITEM_BADOFF - ITEM_ACTIVEOPENS] = F_RCVBADOFF, [ITEM_SHORT - ITEM_ACTIVEOPENS] = F_RCVSHORT,
        [ITEM_MEMDROP - ITEM_ACTIVEOPENS] = F_RCVMEMDROP,
    };
    const struct plat_tcpconn *conns;

    (void)inst;
    if (row->cluster == CLUSTER_TCP_ACCESS) {
        if (accessible < 0)
            return accessible;
        atom->ul = (uint32_t)accessible;
        return PMDA_FETCH_STATIC;
    }
    switch (row->item) {
    case ITEM_CURRESTAB:
        if ((conns = tcpconn_counts()) == NULL)
            return PM_ERR_AGAIN;                /* cluster 16, a dependency, failed */
        atom->ul = conns->state[TCPS_ESTABLISHED];
        return PMDA_FETCH_STATIC;
    case ITEM_RTOALGORITHM:
    case ITEM_RTOMIN:
    case ITEM_RTOMAX:
    case ITEM_MAXCONN:
        return PM_ERR_APPVERSION;               /* macOS has no such value */
    default:
        break;
    }
    if (accessible != 1)
        return accessible < 0 ? accessible : PM_ERR_PERMISSION;
    if (row->item == ITEM_INERRS)
        atom->ull = field[F_RCVBADSUM].total + field[F_RCVBADOFF].total + field[F_RCVSHORT].total +
                    field[F_RCVMEMDROP].total;
    else
        atom->ull = field[of_item[row->item - ITEM_ACTIVEOPENS]].total;
    return PMDA_FETCH_STATIC;
}

static void
tcp_teardown(pmInDom indom)
{
    (void)indom;
    memset(field, 0, sizeof(field));
    accessible = PM_ERR_AGAIN;
    logged_blocked = 0;
}

const struct collector tcp_collector = {
    .name = "tcp",
    .ndepends = 1,
    .depends = { &tcpconn_collector },
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .refresh = tcp_refresh,
    .fetch = tcp_fetch,
    .teardown = tcp_teardown,
};
