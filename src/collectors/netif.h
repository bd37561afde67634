#ifndef PMDA_DARWIN_NETIF_H
#define PMDA_DARWIN_NETIF_H

#include <pcp/pmapi.h>

#include "platform.h"

/* An interface present at the last refresh, as the netif collector
 * judged it. */
struct netif_view {
    const char *name;
    const char *type;                   /* netif_type() */
    int inst;
    const struct plat_netif *raw;
    int bytes_ok;                       /* ibytes/obytes can be trusted */
    uint64_t ibytes, obytes;            /* from IFMIB_IFDATA, else NET_RT_IFLIST2 */
    uint64_t out_drops;                 /* ifm_snd_drops extended past its 32-bit wrap */
    int truncated;                      /* NET_RT_IFLIST2 bytes were seen truncated to 32 bits */
    int in_packets_frozen, in_bytes_frozen;     /* those input counters do not count */
};

/* The netif collector's state, which a collector that declares
 * netif_collector as a dependency finds in its refresh's call->depends. */
struct netif_state;

/* The i-th interface of s: 0, or -1 past the end. Valid until the next
 * refresh. */
int netif_at(const struct netif_state *s, unsigned int i, struct netif_view *out);

#endif
