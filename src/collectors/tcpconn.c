/*
 * Cluster 16: TCP connections by state, counted from the records of
 * net.inet.tcp.pcblist_n (the walk is src/platform/netstat_parse.c).
 *
 * macOS keeps connections in TIME_WAIT off that list, so their count is
 * not available: network.tcpconn.time_wait reports an error, not 0.
 */
#include "collector.h"
#include "tcpconn.h"

enum {
    ITEM_ESTABLISHED = 157, ITEM_SYN_SENT, ITEM_SYN_RECV, ITEM_FIN_WAIT1, ITEM_FIN_WAIT2, ITEM_TIME_WAIT,
    ITEM_CLOSE, ITEM_CLOSE_WAIT, ITEM_LAST_ACK, ITEM_LISTEN, ITEM_CLOSING
};

#define ROW(name, item) { name, CLUSTER_TCPCONN, item, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, PMDA_PMUNITS(0, 0, 0, 0, 0, 0) }

static const struct metric_row rows[] = {
    ROW("network.tcpconn.established", ITEM_ESTABLISHED),
    ROW("network.tcpconn.syn_sent", ITEM_SYN_SENT),
    ROW("network.tcpconn.syn_recv", ITEM_SYN_RECV),
    ROW("network.tcpconn.fin_wait1", ITEM_FIN_WAIT1),
    ROW("network.tcpconn.fin_wait2", ITEM_FIN_WAIT2),
    ROW("network.tcpconn.time_wait", ITEM_TIME_WAIT),
    ROW("network.tcpconn.close", ITEM_CLOSE),
    ROW("network.tcpconn.close_wait", ITEM_CLOSE_WAIT),
    ROW("network.tcpconn.last_ack", ITEM_LAST_ACK),
    ROW("network.tcpconn.listen", ITEM_LISTEN),
    ROW("network.tcpconn.closing", ITEM_CLOSING),
};

static struct plat_tcpconn counts;
static int have_counts;
static uint32_t logged_unknown;

const struct plat_tcpconn *
tcpconn_counts(void)
{
    return have_counts ? &counts : NULL;
}

static int
tcpconn_refresh(const struct platform *p, pmInDom indom, const char **reason)
{
    int sts;

    (void)reason;
    (void)indom;
    have_counts = 0;
    if ((sts = p->tcpconn(p->ctx, &counts)) < 0)
        return collector_error(sts);
    have_counts = 1;
    if (counts.unknown_state != 0 && logged_unknown == 0)
        pmNotifyErr(LOG_WARNING, "darwin: tcpconn: %u connections in a state this agent does not know",
                    (unsigned int)counts.unknown_state);
    logged_unknown = counts.unknown_state;
    return 0;
}

static int
tcpconn_fetch(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    static const int state_of[] = {
        [ITEM_ESTABLISHED - ITEM_ESTABLISHED] = TCPS_ESTABLISHED, [ITEM_SYN_SENT - ITEM_ESTABLISHED] = TCPS_SYN_SENT,
        [ITEM_SYN_RECV - ITEM_ESTABLISHED] = TCPS_SYN_RECEIVED, [ITEM_FIN_WAIT1 - ITEM_ESTABLISHED] = TCPS_FIN_WAIT_1,
        [ITEM_FIN_WAIT2 - ITEM_ESTABLISHED] = TCPS_FIN_WAIT_2, [ITEM_TIME_WAIT - ITEM_ESTABLISHED] = TCPS_TIME_WAIT,
        [ITEM_CLOSE - ITEM_ESTABLISHED] = TCPS_CLOSED, [ITEM_CLOSE_WAIT - ITEM_ESTABLISHED] = TCPS_CLOSE_WAIT,
        [ITEM_LAST_ACK - ITEM_ESTABLISHED] = TCPS_LAST_ACK, [ITEM_LISTEN - ITEM_ESTABLISHED] = TCPS_LISTEN,
        [ITEM_CLOSING - ITEM_ESTABLISHED] = TCPS_CLOSING,
    };

    (void)inst;
    if (row->item == ITEM_TIME_WAIT)
        return PM_ERR_APPVERSION;       /* not on the list macOS hands out */
    atom->ul = counts.state[state_of[row->item - ITEM_ESTABLISHED]];
    return PMDA_FETCH_STATIC;
}

static void
tcpconn_teardown(pmInDom indom)
{
    (void)indom;
    have_counts = 0;
    logged_unknown = 0;
}

const struct collector tcpconn_collector = {
    .name = "tcpconn",
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .refresh = tcpconn_refresh,
    .fetch = tcpconn_fetch,
    .teardown = tcpconn_teardown,
};
