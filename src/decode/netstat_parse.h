/*
 * Decoding the protocol statistics sysctls' structs from their bytes:
 * struct udpstat, icmpstat, tcpstat (32-bit fields), ip6stat (64-bit fields)
 * and the net.inet.tcp.pcblist_n record stream. Their headers are missing
 * from the SDKs that the cross-check has (ip6_var.h is never public), so each
 * layout is written out here from XNU's own headers, never another OS's
 * (BSD and glibc's struct icmpstat differ from XNU's). Portable, unit-tested
 * with buffers that tests/unit/xnu_layouts.h lays out field by field.
 *
 * Checked against xnu-11417.121.6 (macOS 15.5); the fields used sit where
 * they are in every release from xnu-7195 (macOS 11) on. The kernel copies
 * out sizeof(struct) (the SYSCTL_OUT of udp_getstat, tcp_getstat,
 * ip6_getstat, and SYSCTL_STRUCT for icmpstat), so a read's length is the
 * struct's size on that release.
 */
#ifndef PMDA_DARWIN_NETSTAT_PARSE_H
#define PMDA_DARWIN_NETSTAT_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "platform.h"

/* Index of each field, in units of the struct's field size. */

/* struct udpstat, bsd/netinet/udp_var.h: 22 u_int32_t fields (88 bytes)
 * in every release from xnu-7195 to xnu-11417. */
enum { UDPSTAT_IPACKETS = 0, UDPSTAT_HDROPS, UDPSTAT_BADSUM, UDPSTAT_BADLEN, UDPSTAT_NOPORT,
       UDPSTAT_NOPORTBCAST, UDPSTAT_FULLSOCK, UDPSTAT_PCBCACHEMISS, UDPSTAT_PCBHASHMISS, UDPSTAT_OPACKETS,
       UDPSTAT_MIN_FIELDS };

/* struct icmpstat, bsd/netinet/icmp_var.h: error, oldshort, oldicmp,
 * outhist[ICMP_MAXTYPE + 1], badcode, tooshort, checksum, badlen, reflect,
 * inhist[ICMP_MAXTYPE + 1], bmcastecho, bmcasttstamp; all u_int32_t, with
 * XNU's ICMP_MAXTYPE of 40 (bsd/netinet/ip_icmp.h): 92 fields, 368 bytes,
 * unchanged from xnu-1504 (Mac OS X 10.6) to xnu-11417. The histograms sit
 * mid-struct, so a struct of another size is a layout this code does not
 * know: it is refused, not read at guessed offsets. */
enum { ICMPSTAT_ERROR = 0, ICMPSTAT_OLDSHORT, ICMPSTAT_OLDICMP, ICMPSTAT_OUTHIST,
       ICMPSTAT_BADCODE = ICMPSTAT_OUTHIST + PLAT_ICMP_NTYPES, ICMPSTAT_TOOSHORT, ICMPSTAT_CHECKSUM,
       ICMPSTAT_BADLEN, ICMPSTAT_REFLECT, ICMPSTAT_INHIST, ICMPSTAT_BMCASTECHO = ICMPSTAT_INHIST + PLAT_ICMP_NTYPES,
       ICMPSTAT_BMCASTTSTAMP, ICMPSTAT_FIELDS };
#define ICMPSTAT_SIZE (4 * ICMPSTAT_FIELDS)

/* struct ip6stat, bsd/netinet6/ip6_var.h: u_quad_t fields; ip6s_atmfrag_rcvd
 * follows ip6s_reassembled (as it has since before xnu-7195). */
enum { IP6STAT_TOTAL = 0, IP6STAT_TOOSHORT, IP6STAT_TOOSMALL, IP6STAT_FORWARD = 7, IP6STAT_ODROPPED = 12,
       IP6STAT_REASSEMBLED = 13, IP6STAT_OFRAGMENTS = 16, IP6STAT_MIN_FIELDS };

/* struct tcpstat, bsd/netinet/tcp_var.h: u_int32_t fields, 232 of them in
 * xnu-7195 and 241 in xnu-11417, each release adding at the end. */
enum { TCPSTAT_CONNATTEMPT = 0, TCPSTAT_ACCEPTS = 1, TCPSTAT_DROPS = 3, TCPSTAT_CONNDROPS = 4,
       TCPSTAT_SNDTOTAL = 15, TCPSTAT_SNDREXMITPACK = 18, TCPSTAT_SNDCTRL = 24, TCPSTAT_RCVTOTAL = 25,
       TCPSTAT_RCVBADSUM = 28, TCPSTAT_RCVBADOFF = 29, TCPSTAT_RCVMEMDROP = 30, TCPSTAT_RCVSHORT = 31,
       TCPSTAT_MIN_FIELDS };

/* net.inet.tcp.pcblist_n (tcp_pcblist_n, bsd/netinet/in_pcblist.c): an
 * xinpgen header, records each starting with u_int32 length and kind and
 * padded to 8 bytes (ROUNDUP64), and an xinpgen trailer whose generation
 * tells whether the list changed while it was copied out. struct xinpgen
 * (bsd/netinet/in_pcb.h, #pragma pack(4)): u_int32_t xig_len, u_int
 * xig_count, inp_gen_t (u_quad_t) xig_gen, so_gen_t (u_quad_t) xig_sogen.
 * struct xtcpcb_n (bsd/netinet/tcp_var.h, #pragma pack(4)): u_int32_t xt_len,
 * xt_kind, u_int64_t t_segq, int t_dupacks, int t_timer[TCPT_NTIMERS_EXT = 4],
 * int t_state. XSO_TCPCB is bsd/sys/socketvar.h's. */
#define PCBLIST_XINPGEN_SIZE    24
#define PCBLIST_XINPGEN_GEN     8
#define PCBLIST_KIND_TCPCB      0x20
#define PCBLIST_TCPCB_STATE     36

/* Each returns 0, or -EINVAL when len is too short for the fields used
 * (later releases append fields, so a longer struct is read as well). */
int netstat_parse_udp(const unsigned char *buf, size_t len, struct plat_udp *out);
int netstat_parse_ip6(const unsigned char *buf, size_t len, struct plat_ip6 *out);
int netstat_parse_tcp(const unsigned char *buf, size_t len, struct plat_tcp *out);

/* Returns 0, or -ENOTSUP (out untouched) unless len is ICMPSTAT_SIZE. */
int netstat_parse_icmp(const unsigned char *buf, size_t len, struct plat_icmp *out);

/*
 * Count the TCP connections of a pcblist_n buffer by state. Records of
 * other kinds, and kinds this code does not know, are skipped by their
 * length. Returns 0, or -EINVAL when the buffer is truncated (no trailer),
 * a record's length runs past the end, or a TCP record is too short to
 * hold its state.
 */
int netstat_count_tcp_states(const unsigned char *buf, size_t len, struct plat_tcpconn *out);

/* struct xsocket_n (bsd/sys/socketvar.h, #pragma pack(4), xnu-11417.121.6):
 * xso_len 0, xso_kind 4 (XSO_SOCKET 0x1), xso_so 8, so_type 16, so_options
 * 20, so_linger 24, so_state 26, so_pcb 28, xso_protocol 36, xso_family 40,
 * so_qlen..so_timeo 44-51, so_error 52, so_pgid 56, so_oobmark 60, so_uid
 * 64, so_last_pid 68. Same place since xnu-7195. */
#define PCBLIST_KIND_SOCKET     0x1
#define PCBLIST_SOCKET_LAST_PID 68

/*
 * Count a pcblist_n buffer's sockets (tcp or udp) by the pid that last used
 * each: counts[pid] += 1 for pid < npids (others are skipped). Returns 0, or
 * -EINVAL as netstat_count_tcp_states does.
 */
int netstat_count_socket_owners(const unsigned char *buf, size_t len, uint32_t *counts, uint32_t npids);

#endif
