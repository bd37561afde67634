/*
 * Decoding the protocol statistics sysctls' structs from their bytes:
 * struct udpstat, icmpstat (netinet/udp_var.h, icmp_var.h: 32-bit fields)
 * and ip6stat (netinet6/ip6_var.h: 64-bit fields). Those headers are not in
 * every SDK (ip6_var.h is never public), so the layouts are written out
 * here from XNU's sources. Portable, unit-tested with crafted buffers.
 */
#ifndef PMDA_DARWIN_NETSTAT_PARSE_H
#define PMDA_DARWIN_NETSTAT_PARSE_H

#include <stddef.h>

#include "platform.h"

/* Index of each field, in units of the struct's field size. */
enum { UDPSTAT_IPACKETS = 0, UDPSTAT_HDROPS, UDPSTAT_BADSUM, UDPSTAT_BADLEN, UDPSTAT_NOPORT,
       UDPSTAT_NOPORTBCAST, UDPSTAT_FULLSOCK, UDPSTAT_PCBCACHEMISS, UDPSTAT_PCBHASHMISS, UDPSTAT_OPACKETS,
       UDPSTAT_MIN_FIELDS };
enum { ICMPSTAT_ERROR = 0, ICMPSTAT_OLDSHORT, ICMPSTAT_OLDICMP, ICMPSTAT_OUTHIST,
       ICMPSTAT_BADCODE = ICMPSTAT_OUTHIST + PLAT_ICMP_NTYPES, ICMPSTAT_TOOSHORT, ICMPSTAT_CHECKSUM,
       ICMPSTAT_BADLEN, ICMPSTAT_REFLECT, ICMPSTAT_INHIST, ICMPSTAT_MIN_FIELDS = ICMPSTAT_INHIST + PLAT_ICMP_NTYPES };
/* XNU added ip6s_atmfrag_rcvd after ip6s_reassembled (before macOS 11). */
enum { IP6STAT_TOTAL = 0, IP6STAT_TOOSHORT, IP6STAT_TOOSMALL, IP6STAT_FORWARD = 7, IP6STAT_ODROPPED = 12,
       IP6STAT_REASSEMBLED = 13, IP6STAT_OFRAGMENTS = 16, IP6STAT_MIN_FIELDS };

enum { TCPSTAT_CONNATTEMPT = 0, TCPSTAT_ACCEPTS = 1, TCPSTAT_DROPS = 3, TCPSTAT_CONNDROPS = 4,
       TCPSTAT_SNDTOTAL = 15, TCPSTAT_SNDREXMITPACK = 18, TCPSTAT_SNDCTRL = 24, TCPSTAT_RCVTOTAL = 25,
       TCPSTAT_RCVBADSUM = 28, TCPSTAT_RCVBADOFF = 29, TCPSTAT_RCVMEMDROP = 30, TCPSTAT_RCVSHORT = 31,
       TCPSTAT_MIN_FIELDS };

/* net.inet.tcp.pcblist_n (bsd/netinet/in_pcblist.c): an xinpgen header,
 * records each starting with u_int32 length and kind and padded to 8
 * bytes, and an xinpgen trailer whose generation tells whether the list
 * changed while it was copied out. */
#define PCBLIST_XINPGEN_SIZE    24      /* xig_len, xig_count, xig_gen (u_int64), xig_sogen */
#define PCBLIST_XINPGEN_GEN     8
#define PCBLIST_KIND_TCPCB      0x20    /* XSO_TCPCB */
#define PCBLIST_TCPCB_STATE     36      /* xt_len, xt_kind, t_segq, t_dupacks, t_timer[4], t_state */

/* Each returns 0, or -EINVAL when len is too short for the fields used. */
int netstat_parse_tcp(const unsigned char *buf, size_t len, struct plat_tcp *out);

/*
 * Count the TCP connections of a pcblist_n buffer by state. Records of
 * other kinds, and kinds this code does not know, are skipped by their
 * length. Returns 0, or -EINVAL when the buffer is truncated (no trailer),
 * a record's length runs past the end, or a TCP record is too short to
 * hold its state.
 */
int netstat_count_tcp_states(const unsigned char *buf, size_t len, struct plat_tcpconn *out);
int netstat_parse_udp(const unsigned char *buf, size_t len, struct plat_udp *out);
int netstat_parse_icmp(const unsigned char *buf, size_t len, struct plat_icmp *out);
int netstat_parse_ip6(const unsigned char *buf, size_t len, struct plat_ip6 *out);

#endif
