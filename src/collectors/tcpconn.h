#ifndef PMDA_DARWIN_TCPCONN_H
#define PMDA_DARWIN_TCPCONN_H

#include "platform.h"

/* TCP states (netinet/tcp_fsm.h), the index of plat_tcpconn.state[]. */
enum { TCPS_CLOSED, TCPS_LISTEN, TCPS_SYN_SENT, TCPS_SYN_RECEIVED, TCPS_ESTABLISHED, TCPS_CLOSE_WAIT,
       TCPS_FIN_WAIT_1, TCPS_CLOSING, TCPS_LAST_ACK, TCPS_FIN_WAIT_2, TCPS_TIME_WAIT };

/* The connection counts of the last successful cluster 16 refresh, or NULL. */
/* The tcpconn collector's state, which a collector that declares tcpconn_collector
 * as a dependency finds in its refresh's call->depends. */
struct tcpconn_state;

/* The counts of the last refresh of s, or NULL when it failed. */
const struct plat_tcpconn *tcpconn_counts(const struct tcpconn_state *s);

#endif
