/*
 * Protocol statistics: net.inet.udp.stats, net.inet.icmp.stats and
 * net.inet6.ip6.stats, read as bytes and decoded by the portable
 * netstat_parse.c (their headers are not in every SDK).
 */
#include "live_source.h"
#include "netstat_parse.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysctl.h>

/* Where the SDK has the public headers (Apple's does; the cross-check's
 * does not), hold the layouts written out in netstat_parse.h to Apple's own.
 * Included in the order Apple's netstat uses (network_cmds, inet.c). */
#if __has_include(<netinet/icmp_var.h>) && __has_include(<netinet/udp_var.h>)
#include <sys/param.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/in_systm.h>
#include <netinet/ip.h>
#include <netinet/ip_icmp.h>
#include <netinet/icmp_var.h>
#include <netinet/ip_var.h>
#include <netinet/udp.h>
#include <netinet/udp_var.h>
_Static_assert(sizeof(struct icmpstat) == ICMPSTAT_SIZE, "struct icmpstat differs from netstat_parse.h");
_Static_assert(offsetof(struct icmpstat, icps_badcode) == 4 * ICMPSTAT_BADCODE, "icps_badcode");
_Static_assert(offsetof(struct icmpstat, icps_inhist) == 4 * ICMPSTAT_INHIST, "icps_inhist");
_Static_assert(ICMP_MAXTYPE + 1 == PLAT_ICMP_NTYPES, "ICMP_MAXTYPE");
_Static_assert(offsetof(struct udpstat, udps_opackets) == 4 * UDPSTAT_OPACKETS, "udps_opackets");
_Static_assert(offsetof(struct udpstat, udps_fullsock) == 4 * UDPSTAT_FULLSOCK, "udps_fullsock");
#endif

/* Larger than any of the structs (ip6stat, the largest, is a few KiB). A
 * struct larger than the buffer is refused whole by the ICMP statistics
 * (SYSCTL_STRUCT: ENOMEM, nothing copied; xnu-11417.101.15
 * bsd/kern/kern_newsysctl.c:1636-1661 sysctl_old_user), but the TCP, UDP
 * and IPv6 handlers copy what fits and succeed (tcp_input.c:7593,
 * udp_usrreq.c:2811, netinet6/in6_proto.c:606): a copy that fills the
 * buffer may be cut short, and is refused. */
#define STATS_BUFFER 65536

static int
read_stats(struct live_source *src, const char *name, size_t *len)
{
    if (src->stats == NULL && (src->stats = malloc(STATS_BUFFER)) == NULL)
        return live_fail(src, -ENOMEM, "sysctl %s: out of memory", name);
    *len = STATS_BUFFER;
    if (sysctlbyname(name, src->stats, len, NULL, 0) == -1)
        return live_fail(src, -errno, "sysctl %s: %s", name, strerror(errno));
    if (*len == STATS_BUFFER)
        return live_fail(src, -EMSGSIZE, "sysctl %s: cut short at %d bytes", name, STATS_BUFFER);
    return 0;
}

/* Read the sysctl and decode it; a buffer too short for the fields, or of
 * a size whose layout the decoder does not know, is a failure. */
#define READ_AND_PARSE(src, name, parse, out)                                               \
    do {                                                                                    \
        size_t len;                                                                         \
        int sts;                                                                            \
        if ((sts = read_stats(src, name, &len)) < 0)                                        \
            return sts;                                                                     \
        if ((sts = parse(src->stats, len, out)) < 0)                                        \
            return live_fail(src, sts, "sysctl %s: %zu bytes, %s", name, len,              \
                             sts == -ENOTSUP ? "not a layout of XNU's struct that this agent " \
                             "decodes (netstat_parse.h)" : "too short");                    \
        return 0;                                                                           \
    } while (0)

int
live_udp(void *ctx, struct plat_udp *out)
{
    struct live_source *src = live_begin(ctx);

    READ_AND_PARSE(src, "net.inet.udp.stats", netstat_parse_udp, out);
}

int
live_icmp(void *ctx, struct plat_icmp *out)
{
    struct live_source *src = live_begin(ctx);

    READ_AND_PARSE(src, "net.inet.icmp.stats", netstat_parse_icmp, out);
}

int
live_ip6(void *ctx, struct plat_ip6 *out)
{
    struct live_source *src = live_begin(ctx);

    READ_AND_PARSE(src, "net.inet6.ip6.stats", netstat_parse_ip6, out);
}

int
live_tcp(void *ctx, struct plat_tcp *out)
{
    struct live_source *src = live_begin(ctx);
    uint64_t disabled;

    if ((out->access_status = live_sysctl_uint(src, "net.inet.tcp.disable_access_to_stats", &disabled)) == 0)
        out->access_disabled = (uint32_t)disabled;
    READ_AND_PARSE(src, "net.inet.tcp.stats", netstat_parse_tcp, out);
}

/* The list can change while it is copied out (its generation moves): read
 * it again, a bounded number of times, and keep the last read. */
#define PCBLIST_TRIES 3
#define PCBLIST_MAX (64u << 20)

int
live_tcpconn(void *ctx, struct plat_tcpconn *out)
{
    struct live_source *src = live_begin(ctx);
    int mib[CTL_MAXNAME];
    size_t miblen = CTL_MAXNAME, len;
    int sts;

    if (sysctlnametomib("net.inet.tcp.pcblist_n", mib, &miblen) == -1)
        return live_fail(src, -errno, "sysctl net.inet.tcp.pcblist_n: %s", strerror(errno));
    for (int attempt = 0; attempt < PCBLIST_TRIES; attempt++) {
        if ((sts = live_sysctl_growing(src, "net.inet.tcp.pcblist_n", mib, (unsigned int)miblen, &src->pcblist,
                                       PCBLIST_MAX, &len)) < 0)
            return sts;
        if ((sts = netstat_count_tcp_states(src->pcblist.data, len, out)) < 0)
            return live_fail(src, sts, "net.inet.tcp.pcblist_n: malformed list of %zu bytes", len);
        if (!out->generation_changed)
            break;
    }
    return 0;               /* if it changed on every read, the last count stands */
}
