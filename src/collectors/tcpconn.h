#ifndef PMDA_DARWIN_TCPCONN_H
#define PMDA_DARWIN_TCPCONN_H

#include "platform.h"

#define TCPCONN_CLUSTER 16

/* The connection counts of the last successful cluster 16 refresh, or NULL. */
const struct plat_tcpconn *tcpconn_counts(void);

#endif
