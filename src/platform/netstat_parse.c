#include "netstat_parse.h"

#include <errno.h>
#include <string.h>

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

int
netstat_parse_tcp(const unsigned char *buf, size_t len, struct plat_tcp *out)
{
    if (len < 4 * TCPSTAT_MIN_FIELDS)
        return -EINVAL;
    out->connattempt = u32_at(buf, TCPSTAT_CONNATTEMPT);
    out->accepts = u32_at(buf, TCPSTAT_ACCEPTS);
    out->drops = u32_at(buf, TCPSTAT_DROPS);
    out->conndrops = u32_at(buf, TCPSTAT_CONNDROPS);
    out->sndtotal = u32_at(buf, TCPSTAT_SNDTOTAL);
    out->sndrexmitpack = u32_at(buf, TCPSTAT_SNDREXMITPACK);
    out->sndctrl = u32_at(buf, TCPSTAT_SNDCTRL);
    out->rcvtotal = u32_at(buf, TCPSTAT_RCVTOTAL);
    out->rcvbadsum = u32_at(buf, TCPSTAT_RCVBADSUM);
    out->rcvbadoff = u32_at(buf, TCPSTAT_RCVBADOFF);
    out->rcvmemdrop = u32_at(buf, TCPSTAT_RCVMEMDROP);
    out->rcvshort = u32_at(buf, TCPSTAT_RCVSHORT);
    return 0;
}

static size_t
roundup8(size_t n)
{
    return (n + 7) & ~(size_t)7;
}

int
netstat_count_tcp_states(const unsigned char *buf, size_t len, struct plat_tcpconn *out)
{
    uint64_t head_gen;
    size_t at;

    memset(out, 0, sizeof(*out));
    if (len < PCBLIST_XINPGEN_SIZE || u32_at(buf, 0) < PCBLIST_XINPGEN_SIZE || u32_at(buf, 0) > len)
        return -EINVAL;
    head_gen = u64_at(buf + PCBLIST_XINPGEN_GEN, 0);
    for (at = roundup8(u32_at(buf, 0)); at < len;) {
        uint32_t rlen, kind;

        if (len - at < 8)
            return -EINVAL;
        rlen = u32_at(buf + at, 0);
        kind = u32_at(buf + at, 1);
        if (rlen <= PCBLIST_XINPGEN_SIZE) {             /* the trailer */
            if (len - at < PCBLIST_XINPGEN_SIZE)
                return -EINVAL;
            out->generation_changed = u64_at(buf + at + PCBLIST_XINPGEN_GEN, 0) != head_gen;
            return 0;
        }
        if (rlen > len - at)
            return -EINVAL;
        if (kind == PCBLIST_KIND_TCPCB) {
            int32_t state;

            if (rlen < PCBLIST_TCPCB_STATE + 4)
                return -EINVAL;
            state = (int32_t)u32_at(buf + at + PCBLIST_TCPCB_STATE, 0);
            if (state >= 0 && state < PLAT_TCP_NSTATES)
                out->state[state]++;
            else
                out->unknown_state++;
        }
        at += roundup8(rlen);
    }
    return -EINVAL;                                     /* no trailer: cut short */
}
