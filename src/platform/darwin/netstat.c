/*
 * Protocol statistics: net.inet.udp.stats, net.inet.icmp.stats and
 * net.inet6.ip6.stats, read as bytes and decoded by the portable
 * netstat_parse.c (their headers are not in every SDK).
 */
#include "live_source.h"
#include "netstat_parse.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysctl.h>

/* Larger than any of the structs (ip6stat, the largest, is a few KiB). The
 * kernel copies at most the buffer's size and then says ENOMEM: the fields
 * used are at the start, so a short copy that holds them is still good. */
#define STATS_BUFFER 65536

static int
read_stats(struct live_source *src, const char *name, size_t *len)
{
    if (src->stats == NULL && (src->stats = malloc(STATS_BUFFER)) == NULL)
        return live_fail(src, -ENOMEM, "sysctl %s: out of memory", name);
    *len = STATS_BUFFER;
    if (sysctlbyname(name, src->stats, len, NULL, 0) == -1 && !(errno == ENOMEM && *len > 0))
        return live_fail(src, -errno, "sysctl %s: %s", name, strerror(errno));
    return 0;
}

/* Read the sysctl and decode it; a buffer too short for the fields is a failure. */
#define READ_AND_PARSE(src, name, parse, out)                                               \
    do {                                                                                    \
        size_t len;                                                                         \
        int sts;                                                                            \
        if ((sts = read_stats(src, name, &len)) < 0)                                        \
            return sts;                                                                     \
        if ((sts = parse(src->stats, len, out)) < 0)                                        \
            return live_fail(src, sts, "sysctl %s: %zu bytes, too short", name, len);       \
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
