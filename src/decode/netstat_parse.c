#include "netstat_parse.h"

#include <errno.h>
#include <stddef.h>
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

/* Where a 32-bit kernel field (by index) goes in a platform struct. */
struct u32_field {
    unsigned int index;
    size_t offset;
};

/* Copy the fields of a struct of 32-bit fields that has at least min of them. */
static int
decode_u32(const unsigned char *buf, size_t len, unsigned int min, const struct u32_field *fields, size_t n,
           void *out)
{
    if (len < 4 * (size_t)min)
        return -EINVAL;
    for (size_t i = 0; i < n; i++) {
        uint32_t v = u32_at(buf, fields[i].index);

        memcpy((unsigned char *)out + fields[i].offset, &v, sizeof(v));
    }
    return 0;
}

#define FIELD(s, index, name) { index, offsetof(struct s, name) }

int
netstat_parse_udp(const unsigned char *buf, size_t len, struct plat_udp *out)
{
    static const struct u32_field fields[] = {
        FIELD(plat_udp, UDPSTAT_IPACKETS, ipackets), FIELD(plat_udp, UDPSTAT_HDROPS, hdrops),
        FIELD(plat_udp, UDPSTAT_BADSUM, badsum), FIELD(plat_udp, UDPSTAT_BADLEN, badlen),
        FIELD(plat_udp, UDPSTAT_NOPORT, noport), FIELD(plat_udp, UDPSTAT_FULLSOCK, fullsock),
        FIELD(plat_udp, UDPSTAT_OPACKETS, opackets),
    };

    return decode_u32(buf, len, UDPSTAT_MIN_FIELDS, fields, sizeof(fields) / sizeof(fields[0]), out);
}

int
netstat_parse_icmp(const unsigned char *buf, size_t len, struct plat_icmp *out)
{
    static const struct u32_field fields[] = {
        FIELD(plat_icmp, ICMPSTAT_ERROR, error), FIELD(plat_icmp, ICMPSTAT_BADCODE, badcode),
        FIELD(plat_icmp, ICMPSTAT_TOOSHORT, tooshort), FIELD(plat_icmp, ICMPSTAT_CHECKSUM, checksum),
        FIELD(plat_icmp, ICMPSTAT_BADLEN, badlen),
    };

    if (len != ICMPSTAT_SIZE)       /* the histograms' size moves every field after them */
        return -ENOTSUP;
    decode_u32(buf, len, ICMPSTAT_FIELDS, fields, sizeof(fields) / sizeof(fields[0]), out);
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
    static const struct u32_field fields[] = {
        FIELD(plat_tcp, TCPSTAT_CONNATTEMPT, connattempt), FIELD(plat_tcp, TCPSTAT_ACCEPTS, accepts),
        FIELD(plat_tcp, TCPSTAT_DROPS, drops), FIELD(plat_tcp, TCPSTAT_CONNDROPS, conndrops),
        FIELD(plat_tcp, TCPSTAT_SNDTOTAL, sndtotal), FIELD(plat_tcp, TCPSTAT_SNDREXMITPACK, sndrexmitpack),
        FIELD(plat_tcp, TCPSTAT_SNDCTRL, sndctrl), FIELD(plat_tcp, TCPSTAT_RCVTOTAL, rcvtotal),
        FIELD(plat_tcp, TCPSTAT_RCVBADSUM, rcvbadsum), FIELD(plat_tcp, TCPSTAT_RCVBADOFF, rcvbadoff),
        FIELD(plat_tcp, TCPSTAT_RCVMEMDROP, rcvmemdrop), FIELD(plat_tcp, TCPSTAT_RCVSHORT, rcvshort),
    };

    return decode_u32(buf, len, TCPSTAT_MIN_FIELDS, fields, sizeof(fields) / sizeof(fields[0]), out);
}

static size_t
roundup8(size_t n)
{
    return (n + 7) & ~(size_t)7;
}

/*
 * Walk a pcblist_n stream: visit(record, its length, arg) for each record
 * between the header and the trailer; *changed says whether the trailer's
 * generation differs from the header's. 0, or -EINVAL for a truncated
 * stream, or what visit returned when it failed.
 */
static int
walk_pcblist(const unsigned char *buf, size_t len, int (*visit)(const unsigned char *, uint32_t, void *),
             void *arg, int *changed)
{
    uint64_t head_gen;
    size_t at;

    if (len < PCBLIST_XINPGEN_SIZE || u32_at(buf, 0) < PCBLIST_XINPGEN_SIZE || u32_at(buf, 0) > len)
        return -EINVAL;
    head_gen = u64_at(buf + PCBLIST_XINPGEN_GEN, 0);
    for (at = roundup8(u32_at(buf, 0)); at < len;) {
        uint32_t rlen;
        int sts;

        if (len - at < 8)
            return -EINVAL;
        rlen = u32_at(buf + at, 0);
        if (rlen <= PCBLIST_XINPGEN_SIZE) {             /* the trailer */
            if (len - at < PCBLIST_XINPGEN_SIZE)
                return -EINVAL;
            *changed = u64_at(buf + at + PCBLIST_XINPGEN_GEN, 0) != head_gen;
            return 0;
        }
        if (rlen > len - at)
            return -EINVAL;
        if ((sts = visit(buf + at, rlen, arg)) < 0)
            return sts;
        at += roundup8(rlen);
    }
    return -EINVAL;                                     /* no trailer: cut short */
}

static int
count_state(const unsigned char *rec, uint32_t rlen, void *arg)
{
    struct plat_tcpconn *out = arg;
    int32_t state;

    if (u32_at(rec, 1) != PCBLIST_KIND_TCPCB)
        return 0;
    if (rlen < PCBLIST_TCPCB_STATE + 4)
        return -EINVAL;
    state = (int32_t)u32_at(rec + PCBLIST_TCPCB_STATE, 0);
    if (state >= 0 && state < PLAT_TCP_NSTATES)
        out->state[state]++;
    else
        out->unknown_state++;
    return 0;
}

int
netstat_count_tcp_states(const unsigned char *buf, size_t len, struct plat_tcpconn *out)
{
    int changed = 0, sts;

    memset(out, 0, sizeof(*out));
    sts = walk_pcblist(buf, len, count_state, out, &changed);
    out->generation_changed = changed;
    return sts;
}

struct owner_counts {
    uint32_t *counts;
    uint32_t npids;
};

static int
count_owner(const unsigned char *rec, uint32_t rlen, void *arg)
{
    const struct owner_counts *oc = arg;
    uint32_t pid;

    if (u32_at(rec, 1) != PCBLIST_KIND_SOCKET)
        return 0;
    if (rlen < PCBLIST_SOCKET_LAST_PID + 4)
        return -EINVAL;
    pid = u32_at(rec + PCBLIST_SOCKET_LAST_PID, 0);
    if (pid < oc->npids)
        oc->counts[pid]++;
    return 0;
}

int
netstat_count_socket_owners(const unsigned char *buf, size_t len, uint32_t *counts, uint32_t npids)
{
    struct owner_counts oc = { counts, npids };
    int changed = 0;

    return walk_pcblist(buf, len, count_owner, &oc, &changed);
}
