#ifndef PMDA_DARWIN_TCP_H
#define PMDA_DARWIN_TCP_H

#define TCP_CLUSTER 17

/* After a cluster 17 refresh: 1 when the TCP statistics could be read, 0
 * when macOS withholds them (disable_access_to_stats), a negative error
 * when that cannot be told. */
int tcp_stats_accessible(void);

#endif
