/*
 * Cluster 16: TCP connections by state, counted from the records of
 * net.inet.tcp.pcblist_n (the walk is src/decode/netstat_parse.c).
 *
 * macOS keeps connections in TIME_WAIT off that list, so their count is
 * not available: network.tcpconn.time_wait reports an error, not 0.
 */
#include "collector.h"
#include "metric_ids.h"
#include "tcpconn.h"

struct tcpconn_state {
    struct plat_tcpconn counts;
    int have_counts;
    uint32_t logged_unknown;
};

#define ROW(name, item, ...) { name, CLUSTER_TCPCONN, item, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, \
                               PMDA_PMUNITS(0, 0, 0, 0, 0, 0), __VA_ARGS__ }
#define STATE(tcps) FIELD_ALWAYS(struct tcpconn_state, counts.state[tcps], FIELD_PLAIN)

static const struct metric_row rows[] = {
    ROW("network.tcpconn.established", 157, STATE(TCPS_ESTABLISHED)),
    ROW("network.tcpconn.syn_sent", 158, STATE(TCPS_SYN_SENT)),
    ROW("network.tcpconn.syn_recv", 159, STATE(TCPS_SYN_RECEIVED)),
    ROW("network.tcpconn.fin_wait1", 160, STATE(TCPS_FIN_WAIT_1)),
    ROW("network.tcpconn.fin_wait2", 161, STATE(TCPS_FIN_WAIT_2)),
    ROW("network.tcpconn.time_wait", 162, .derive = collector_no_source),   /* not on the list macOS hands out */
    ROW("network.tcpconn.close", 163, STATE(TCPS_CLOSED)),
    ROW("network.tcpconn.close_wait", 164, STATE(TCPS_CLOSE_WAIT)),
    ROW("network.tcpconn.last_ack", 165, STATE(TCPS_LAST_ACK)),
    ROW("network.tcpconn.listen", 166, STATE(TCPS_LISTEN)),
    ROW("network.tcpconn.closing", 167, STATE(TCPS_CLOSING)),
};

const struct plat_tcpconn *
tcpconn_counts(const struct tcpconn_state *s)
{
    return s->have_counts ? &s->counts : NULL;
}

static int
tcpconn_refresh(void *state, struct refresh_call *call)
{
    struct tcpconn_state *s = state;
    int sts;

    s->have_counts = 0;
    if ((sts = call->p->tcpconn(call->p->ctx, &s->counts)) < 0)
        return collector_error(sts);
    s->have_counts = 1;
    if (s->counts.unknown_state != 0 && s->logged_unknown == 0)
        pmNotifyErr(LOG_WARNING, "darwin: tcpconn: %u connections in a state this agent does not know",
                    (unsigned int)s->counts.unknown_state);
    s->logged_unknown = s->counts.unknown_state;
    return 0;
}

const struct collector tcpconn_collector = {
    .name = "tcpconn",
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .state_size = sizeof(struct tcpconn_state),
    .refresh = tcpconn_refresh,
};
