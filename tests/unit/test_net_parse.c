/*
 * The network sysctl decoders over crafted buffers: NET_RT_IFLIST2 and
 * IFMIB_IFDATA (the layouts of net/if.h, net/if_var.h, net/if_dl.h and
 * net/if_mib.h, which the live source checks against Apple's headers),
 * other message types, names, every way a buffer can be short or lie about
 * its lengths; the udpstat, icmpstat, ip6stat and tcpstat structs and the
 * pcblist_n record walk (unknown kinds, odd lengths, generation changes,
 * truncation anywhere), with buffers laid out as XNU's headers declare them
 * (xnu_layouts.h), not from the decoders' offsets.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "netif_parse.h"
#include "netstat_parse.h"
#include "pcblist_build.h"
#include "xnu_layouts.h"

static void
put(unsigned char *p, uint64_t v, unsigned int size)
{
    for (unsigned int i = 0; i < size; i++)
        p[i] = (unsigned char)(v >> (8 * i));       /* little-endian, as on every Mac */
}

/* Append an RTM_IFINFO2 message for an interface with the given name (NULL:
 * no link address) and counters; returns the new length. */
static size_t
add_ifinfo(unsigned char *buf, size_t at, uint16_t index, uint32_t flags, const char *name, uint64_t base)
{
    unsigned char *m = buf + at, *d = m + NETIF_MSG_DATA, *sdl = m + NETIF_MSG_SIZE;
    size_t nlen = name ? strlen(name) : 0, sdl_len = name ? (NETIF_SDL_DATA + nlen + 3) / 4 * 4 : 0;
    size_t len = NETIF_MSG_SIZE + sdl_len;

    memset(m, 0, len);
    put(m + NETIF_MSG_LEN, len, 2);
    m[NETIF_MSG_VERSION] = NETIF_RTM_VERSION;
    m[NETIF_MSG_TYPE] = NETIF_RTM_IFINFO2;
    put(m + NETIF_MSG_FLAGS, flags, 4);
    put(m + NETIF_MSG_INDEX, index, 2);
    put(m + NETIF_MSG_SND_DROPS, base + 9, 4);
    d[NETIF_DATA_TYPE] = 6;
    put(d + NETIF_DATA_MTU, 1500, 4);
    put(d + NETIF_DATA_BAUDRATE, 1000000000, 8);
    for (unsigned int i = 0; i < 10; i++)
        put(d + NETIF_DATA_IPACKETS + 8 * i, base + i, 8);
    if (name) {
        sdl[NETIF_SDL_LEN] = (unsigned char)(NETIF_SDL_DATA + nlen);
        sdl[NETIF_SDL_FAMILY] = NETIF_AF_LINK;
        sdl[NETIF_SDL_NLEN] = (unsigned char)nlen;
        memcpy(sdl + NETIF_SDL_DATA, name, nlen);
    }
    return at + len;
}

/* Append a message of another type (RTM_NEWMADDR2) of len bytes. */
static size_t
add_other(unsigned char *buf, size_t at, size_t len)
{
    memset(buf + at, 0, len);
    put(buf + at + NETIF_MSG_LEN, len, 2);
    buf[at + NETIF_MSG_TYPE] = 0x13;
    return at + len;
}

static unsigned char buf[8192];
static struct plat_netif out[8];

static void
interfaces_names_and_counters(void **state)
{
    size_t len = 0;
    unsigned int n = 0;

    (void)state;
    len = add_ifinfo(buf, len, 1, 0x8049, "lo0", 100);
    len = add_other(buf, len, 20);                  /* skipped by its length */
    len = add_ifinfo(buf, len, 6, 0x8863, "en0", 5ULL << 32);
    assert_int_equal(netif_parse_iflist2(buf, len, out, 8, &n), 0);
    assert_int_equal(n, 2);
    assert_string_equal(out[0].name, "lo0");
    assert_int_equal(out[0].index, 1);
    assert_int_equal(out[0].flags, 0x8049);
    assert_string_equal(out[1].name, "en0");
    assert_int_equal(out[1].type, 6);
    assert_int_equal(out[1].mtu, 1500);
    assert_int_equal(out[1].baudrate, 1000000000);
    assert_int_equal(out[1].ipackets, (5ULL << 32) + 0);
    assert_int_equal(out[1].ierrors, (5ULL << 32) + 1);
    assert_int_equal(out[1].collisions, (5ULL << 32) + 4);
    assert_int_equal(out[1].ibytes, (5ULL << 32) + 5);     /* all 64 bits */
    assert_int_equal(out[1].obytes, (5ULL << 32) + 6);
    assert_int_equal(out[1].iqdrops, (5ULL << 32) + 9);
    assert_int_equal(out[1].snd_drops, (uint32_t)((5ULL << 32) + 9));
    assert_int_equal(out[1].mib_status, -ENOENT);          /* the IFMIB read is the caller's */
    assert_int_equal(out[1].functional_status, -ENOENT);
}

static void
names_without_link_address_odd_bytes_or_too_long(void **state)
{
    char longname[200];
    size_t len = 0;
    unsigned int n;

    (void)state;
    memset(longname, 'x', sizeof(longname) - 1);
    longname[sizeof(longname) - 1] = '\0';
    len = add_ifinfo(buf, len, 3, 0, NULL, 0);
    len = add_ifinfo(buf, len, 4, 0, "a\001b", 0);
    len = add_ifinfo(buf, len, 5, 0, longname, 0);
    assert_int_equal(netif_parse_iflist2(buf, len, out, 8, &n), 0);
    assert_int_equal(n, 3);
    assert_string_equal(out[0].name, "if3");
    assert_string_equal(out[1].name, "a?b");                 /* instance names stay printable */
    assert_int_equal(strlen(out[2].name), PLAT_NAME_MAX - 1);
}

static void
a_name_longer_than_its_message_is_not_read(void **state)
{
    size_t len = add_ifinfo(buf, 0, 7, 0, "en7", 0);
    unsigned int n;

    (void)state;
    buf[NETIF_MSG_SIZE + NETIF_SDL_NLEN] = 200;              /* claims 200 bytes of name */
    assert_int_equal(netif_parse_iflist2(buf, len, out, 8, &n), 0);
    assert_string_equal(out[0].name, "if7");
}

static void
truncated_and_lying_buffers(void **state)
{
    size_t one = add_ifinfo(buf, 0, 1, 0, "lo0", 0), len = add_ifinfo(buf, one, 2, 0, "en0", 0);
    unsigned int n;

    (void)state;
    assert_int_equal(netif_parse_iflist2(buf, 0, out, 8, &n), 0);       /* no interfaces at all */
    assert_int_equal(n, 0);
    for (size_t cut = one + 1; cut < len; cut += 7) {                    /* the second message cut short */
        assert_int_equal(netif_parse_iflist2(buf, cut, out, 8, &n), -EINVAL);
        assert_int_equal(n, 1);                                          /* what came before stands */
    }
    put(buf + one + NETIF_MSG_LEN, 2, 2);                                /* a length below a header */
    assert_int_equal(netif_parse_iflist2(buf, len, out, 8, &n), -EINVAL);
    put(buf + one + NETIF_MSG_LEN, 100, 2);                              /* too short for an if_msghdr2 */
    assert_int_equal(netif_parse_iflist2(buf, len, out, 8, &n), -EINVAL);
    put(buf + one + NETIF_MSG_LEN, 60000, 2);                            /* past the end */
    assert_int_equal(netif_parse_iflist2(buf, len, out, 8, &n), -EINVAL);
}

static void
more_interfaces_than_room(void **state)
{
    size_t len = 0;
    unsigned int n;

    (void)state;
    for (uint16_t i = 0; i < 9; i++)
        len = add_ifinfo(buf, len, i, 0, "en", 0);
    assert_int_equal(netif_parse_iflist2(buf, len, out, 8, &n), -E2BIG);
    assert_int_equal(n, 8);
}

static void
ifmibdata_byte_counters(void **state)
{
    unsigned char rec[NETIF_MIB_SIZE];
    uint64_t ib = 0, ob = 0;

    (void)state;
    memset(rec, 0, sizeof(rec));
    put(rec + NETIF_MIB_DATA + NETIF_DATA_IBYTES, (7ULL << 32) + 3, 8);
    put(rec + NETIF_MIB_DATA + NETIF_DATA_OBYTES, UINT64_MAX, 8);
    assert_int_equal(netif_parse_ifmibdata(rec, sizeof(rec), &ib, &ob), 0);
    assert_int_equal(ib, (7ULL << 32) + 3);
    assert_int_equal(ob, UINT64_MAX);
    ib = 42;
    assert_int_equal(netif_parse_ifmibdata(rec, sizeof(rec) - 1, &ib, &ob), -EINVAL);
    assert_int_equal(ib, 42);                                            /* nothing made up */
}

/* Each 32-bit field of a kernel struct holds base + its index, so that a
 * value read from the wrong field shows which one it came from. */
static void
number_u32_fields(void *st, size_t size, uint32_t base)
{
    for (size_t i = 0; i < size / 4; i++) {
        uint32_t v = base + (uint32_t)i;

        memcpy((unsigned char *)st + 4 * i, &v, 4);
    }
}

static void
udpstat_fields_and_a_short_buffer(void **state)
{
    struct xnu_udpstat k;
    unsigned char b[sizeof(k) + 16];        /* a later release may append fields */
    struct plat_udp u;

    (void)state;
    number_u32_fields(&k, sizeof(k), 0x01000000u);
    memcpy(b, &k, sizeof(k));
    assert_int_equal(netstat_parse_udp(b, sizeof(b), &u), 0);
    assert_int_equal(u.ipackets, k.udps_ipackets);
    assert_int_equal(u.hdrops, k.udps_hdrops);
    assert_int_equal(u.badsum, k.udps_badsum);
    assert_int_equal(u.badlen, k.udps_badlen);
    assert_int_equal(u.noport, k.udps_noport);
    assert_int_equal(u.fullsock, k.udps_fullsock);
    assert_int_equal(u.opackets, k.udps_opackets);
    assert_int_equal(netstat_parse_udp(b, offsetof(struct xnu_udpstat, udps_opackets) + 3, &u), -EINVAL);
}

static void
icmpstat_as_xnu_lays_it_out(void **state)
{
    struct xnu_icmpstat k;
    struct plat_icmp c;

    (void)state;
    number_u32_fields(&k, sizeof(k), 1000);
    assert_int_equal(netstat_parse_icmp((const unsigned char *)&k, sizeof(k), &c), 0);
    assert_int_equal(c.error, k.icps_error);
    assert_int_equal(c.badcode, k.icps_badcode);
    assert_int_equal(c.tooshort, k.icps_tooshort);
    assert_int_equal(c.checksum, k.icps_checksum);
    assert_int_equal(c.badlen, k.icps_badlen);
    for (unsigned int t = 0; t <= XNU_ICMP_MAXTYPE; t++) {
        assert_int_equal(c.outhist[t], k.icps_outhist[t]);
        assert_int_equal(c.inhist[t], k.icps_inhist[t]);
    }
    assert_int_equal(c.inhist[8], 1000 + 3 + 41 + 5 + 8);     /* echo requests: field 57 */
}

static void
icmpstat_of_an_unknown_size_is_refused(void **state)
{
    struct xnu_icmpstat k;
    struct bsd_icmpstat bsd;
    unsigned char longer[sizeof(k) + 4];
    struct plat_icmp c;

    (void)state;
    number_u32_fields(&k, sizeof(k), 1000);
    number_u32_fields(&bsd, sizeof(bsd), 1000);
    memcpy(longer, &k, sizeof(k));
    memset(&c, 0x5a, sizeof(c));
    assert_int_equal(netstat_parse_icmp((const unsigned char *)&bsd, sizeof(bsd), &c), -ENOTSUP);
    assert_int_equal(netstat_parse_icmp(longer, sizeof(longer), &c), -ENOTSUP);
    assert_int_equal(netstat_parse_icmp((const unsigned char *)&k, sizeof(k) - 4, &c), -ENOTSUP);
    assert_int_equal(netstat_parse_icmp((const unsigned char *)&k, 0, &c), -ENOTSUP);
    assert_int_equal(c.inhist[0], 0x5a5a5a5a);                  /* nothing written */
}

static void
ip6stat_64_bit_fields(void **state)
{
    struct xnu_ip6stat_head k;
    struct plat_ip6 i6;

    (void)state;
    for (unsigned int i = 0; i < sizeof(k) / 8; i++) {
        uint64_t v = (7ULL << 40) + i;

        memcpy((unsigned char *)&k + 8 * i, &v, 8);
    }
    assert_int_equal(netstat_parse_ip6((const unsigned char *)&k, sizeof(k), &i6), 0);
    assert_int_equal(i6.total, k.ip6s_total);
    assert_int_equal(i6.tooshort, k.ip6s_tooshort);
    assert_int_equal(i6.toosmall, k.ip6s_toosmall);
    assert_int_equal(i6.forward, k.ip6s_forward);
    assert_int_equal(i6.odropped, k.ip6s_odropped);
    assert_int_equal(i6.reassembled, k.ip6s_reassembled);
    assert_int_equal(i6.ofragments, k.ip6s_ofragments);     /* after atmfrag_rcvd and fragmented */
    assert_int_equal(netstat_parse_ip6((const unsigned char *)&k, sizeof(k) - 1, &i6), -EINVAL);
}

static void
tcpstat_fields(void **state)
{
    static unsigned char b[4 * XNU_TCPSTAT_FIELDS_7195];
    struct xnu_tcpstat_head k;
    struct plat_tcp t;

    (void)state;
    number_u32_fields(b, sizeof(b), 500);
    memcpy(&k, b, sizeof(k));
    assert_int_equal(netstat_parse_tcp(b, sizeof(b), &t), 0);
    assert_int_equal(t.connattempt, k.tcps_connattempt);
    assert_int_equal(t.accepts, k.tcps_accepts);
    assert_int_equal(t.drops, k.tcps_drops);
    assert_int_equal(t.conndrops, k.tcps_conndrops);
    assert_int_equal(t.sndtotal, k.tcps_sndtotal);
    assert_int_equal(t.sndrexmitpack, k.tcps_sndrexmitpack);
    assert_int_equal(t.sndctrl, k.tcps_sndctrl);
    assert_int_equal(t.rcvtotal, k.tcps_rcvtotal);
    assert_int_equal(t.rcvbadsum, k.tcps_rcvbadsum);
    assert_int_equal(t.rcvbadoff, k.tcps_rcvbadoff);
    assert_int_equal(t.rcvmemdrop, k.tcps_rcvmemdrop);
    assert_int_equal(t.rcvshort, k.tcps_rcvshort);
    assert_int_equal(netstat_parse_tcp(b, sizeof(k) - 1, &t), -EINVAL);
}

/* A pcblist_n buffer: an xinpgen header, records, an xinpgen trailer. */
static void
pcblist_counts_states(void **state)
{
    struct plat_tcpconn c;
    size_t len = pcb_xinpgen(buf, 0, 7);

    (void)state;
    len = pcb_connection(buf, len, 4);              /* ESTABLISHED */
    len = pcb_connection(buf, len, 4);
    len = pcb_connection(buf, len, 1);              /* LISTEN */
    len = pcb_record(buf, len, 0x400, 64, 0);       /* a kind this code does not know: skipped */
    len = pcb_connection(buf, len, 99);             /* a state it does not know */
    len = pcb_connection(buf, len, -1);
    len = pcb_xinpgen(buf, len, 7);
    assert_int_equal(netstat_count_tcp_states(buf, len, &c), 0);
    assert_int_equal(c.state[4], 2);
    assert_int_equal(c.state[1], 1);
    assert_int_equal(c.unknown_state, 2);
    assert_int_equal(c.generation_changed, 0);
    pcb_xinpgen(buf, len - sizeof(struct xnu_xinpgen), 8);    /* the list changed while it was read */
    assert_int_equal(netstat_count_tcp_states(buf, len, &c), 0);
    assert_int_equal(c.generation_changed, 1);
}

static void
pcblist_counts_sockets_by_last_pid(void **state)
{
    uint32_t counts[1000];
    size_t len = pcb_xinpgen(buf, 0, 3), full;

    (void)state;
    memset(counts, 0, sizeof(counts));
    len = pcb_connection(buf, len, 4);              /* pid 704 */
    len = pcb_connection(buf, len, 4);              /* pid 704 again */
    len = pcb_connection(buf, len, 1);              /* pid 701 */
    len = pcb_connection(buf, len, 400);            /* pid 1100: beyond the table, skipped */
    full = len = pcb_xinpgen(buf, len, 3);
    assert_int_equal(netstat_count_socket_owners(buf, len, counts, 1000), 0);
    assert_int_equal(counts[704], 2);
    assert_int_equal(counts[701], 1);
    assert_int_equal(counts[700], 0);
    for (size_t cut = 24; cut < full; cut += 7)     /* cut anywhere: no trailer */
        assert_int_equal(netstat_count_socket_owners(buf, cut, counts, 1000), -EINVAL);
    len = pcb_record(buf, pcb_xinpgen(buf, 0, 1), 0x01, 60, 0);   /* a socket record too short for its pid */
    len = pcb_xinpgen(buf, len, 1);
    assert_int_equal(netstat_count_socket_owners(buf, len, counts, 1000), -EINVAL);
}

static void
pcblist_empty_truncated_and_lying(void **state)
{
    struct plat_tcpconn c;
    size_t len = pcb_xinpgen(buf, pcb_xinpgen(buf, 0, 1), 1), full;

    (void)state;
    assert_int_equal(netstat_count_tcp_states(buf, len, &c), 0);            /* no connections */
    assert_int_equal(c.state[4], 0);
    assert_int_equal(netstat_count_tcp_states(buf, 0, &c), -EINVAL);
    assert_int_equal(netstat_count_tcp_states(buf, 23, &c), -EINVAL);       /* not even a header */
    full = pcb_xinpgen(buf, pcb_connection(buf, pcb_xinpgen(buf, 0, 1), 4), 1);
    for (size_t cut = 24; cut < full; cut += 5)                              /* cut anywhere: no trailer */
        assert_int_equal(netstat_count_tcp_states(buf, cut, &c), -EINVAL);
    put(buf + 24, 4000, 4);                                                  /* a record longer than the rest */
    assert_int_equal(netstat_count_tcp_states(buf, full, &c), -EINVAL);
    len = pcb_record(buf, pcb_xinpgen(buf, 0, 1), XNU_XSO_TCPCB, 30, 4);   /* a TCP record too short for its state */
    len = pcb_xinpgen(buf, len, 1);
    assert_int_equal(netstat_count_tcp_states(buf, len, &c), -EINVAL);
    put(buf, 100000, 4);                                                     /* a header longer than the buffer */
    assert_int_equal(netstat_count_tcp_states(buf, len, &c), -EINVAL);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(interfaces_names_and_counters),
        cmocka_unit_test(names_without_link_address_odd_bytes_or_too_long),
        cmocka_unit_test(a_name_longer_than_its_message_is_not_read),
        cmocka_unit_test(truncated_and_lying_buffers),
        cmocka_unit_test(more_interfaces_than_room),
        cmocka_unit_test(ifmibdata_byte_counters),
        cmocka_unit_test(udpstat_fields_and_a_short_buffer),
        cmocka_unit_test(icmpstat_as_xnu_lays_it_out),
        cmocka_unit_test(icmpstat_of_an_unknown_size_is_refused),
        cmocka_unit_test(ip6stat_64_bit_fields),
        cmocka_unit_test(tcpstat_fields),
        cmocka_unit_test(pcblist_counts_states),
        cmocka_unit_test(pcblist_counts_sockets_by_last_pid),
        cmocka_unit_test(pcblist_empty_truncated_and_lying),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
