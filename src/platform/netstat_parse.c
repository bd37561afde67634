#include "netstat_parse.h"

#include <errno.h>

/* Little-endian, as on every Mac. */
static uint32_t
u32_at(const unsigned char *buf, unsigned int index)
{
    const unsigned char *p = buf + 4 * index;

    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t
u64_at(const unsigned char *buf, unsigned int index)
{
    return (uint64_t)u32_at(buf, 2 * index) | (uint64_t)u32_at(buf, 2 * index + 1) << 32;
}

int
netstat_parse_udp(const unsigned char *buf, size_t len, struct plat_udp *out)
{
    if (len < 4 * UDPSTAT_MIN_FIELDS)
        return -EINVAL;
    out->ipackets = u32_at(buf, UDPSTAT_IPACKETS);
    out->hdrops = u32_at(buf, UDPSTAT_HDROPS);
    out->badsum = u32_at(buf, UDPSTAT_BADSUM);
    out->badlen = u32_at(buf, UDPSTAT_BADLEN);
    out->noport = u32_at(buf, UDPSTAT_NOPORT);
    out->fullsock = u32_at(buf, UDPSTAT_FULLSOCK);
    out->opackets = u32_at(buf, UDPSTAT_OPACKETS);
    return 0;
}

int
netstat_parse_icmp(const unsigned char *buf, size_t len, struct plat_icmp *out)
{
    if (len < 4 * ICMPSTAT_MIN_FIELDS)
        return -EINVAL;
    out->error = u32_at(buf, ICMPSTAT_ERROR);
    out->badcode = u32_at(buf, ICMPSTAT_BADCODE);
    out->tooshort = u32_at(buf, ICMPSTAT_TOOSHORT);
    out->checksum = u32_at(buf, ICMPSTAT_CHECKSUM);
    out->badlen = u32_at(buf, ICMPSTAT_BADLEN);
    for (unsigned int t = 0; t < PLAT_ICMP_NTYPES; t++) {
        out->outhist[t] = u32_at(buf, ICMPSTAT_OUTHIST + t);
        out->inhist[t] = u32_at(buf, ICMPSTAT_INHIST + t);
    }
    return 0;
}

int
netstat_parse_ip6(const unsigned char *buf, size_t len, struct plat_ip6 *out)
{
    if (len < 8 * IP6STAT_MIN_FIELDS)
        return -EINVAL;
    out->total = u64_at(buf, IP6STAT_TOTAL);
    out->tooshort = u64_at(buf, IP6STAT_TOOSHORT);
    out->toosmall = u64_at(buf, IP6STAT_TOOSMALL);
    out->forward = u64_at(buf, IP6STAT_FORWARD);
    out->odropped = u64_at(buf, IP6STAT_ODROPPED);
    out->reassembled = u64_at(buf, IP6STAT_REASSEMBLED);
    out->ofragments = u64_at(buf, IP6STAT_OFRAGMENTS);
    return 0;
}
