/*
 * interfaces.c, netstat.c and nfs.c on the double: the interface list and
 * its per-interface records, the protocol statistics structs (laid out as
 * XNU declares them, xnu_layouts.h), the TCP connection list, and the NFS
 * client's and server's statistics as the kernel and the NFS kext hand
 * them out.
 */
#include "harness.h"
#include "pcblist_build.h"
#include "xnu_layouts.h"

#include <string.h>

static void
test_interfaces(void **state)
{
    struct platform *p = *state;
    struct plat_netif_set set;

    dbl_netif(1, "lo0", 0x8049, 24, 100, 0, 0);
    dbl_netif(6, "en0", 0x8863, 6, 5ull << 32, (7ull << 32) + 5000, (9ull << 32) + 3000);
    dbl_netif_multicast();
    dbl_netif_type("en0", 2 /* IFRTYPE_FUNCTIONAL_WIFI_INFRA */, 0);
    dbl_netif_type("lo0", 0, 6 /* ENXIO */);
    assert_int_equal(p->interfaces(p->ctx, &set), 0);
    assert_int_equal(set.n, 2);
    assert_string_equal(set.netif[0].name, "lo0");
    assert_string_equal(set.netif[1].name, "en0");
    assert_int_equal(set.netif[1].index, 6);
    assert_int_equal(set.netif[1].flags, 0x8863);
    assert_int_equal(set.netif[1].type, 6);
    assert_int_equal(set.netif[1].ipackets, 5ull << 32);
    assert_int_equal(set.netif[1].ibytes, 4096);            /* the list's: rounded to 1 KiB, cut to 32 bits */
    assert_int_equal(set.netif[1].obytes, 2048);
    assert_int_equal(set.netif[1].iqdrops, (5ull << 32) + 9);
    assert_int_equal(set.netif[1].mib_status, 0);
    assert_int_equal(set.netif[1].mib_ibytes, (7ull << 32) + 5000);
    assert_int_equal(set.netif[1].mib_obytes, (9ull << 32) + 3000);
    assert_int_equal(set.netif[1].functional_status, 0);
    assert_int_equal(set.netif[1].functional_type, 2);
    assert_int_equal(set.netif[0].mib_status, -2);          /* no IFMIB record */
    assert_int_equal(set.netif[0].functional_status, -6);
    assert_error_has(p, "IFMIB_IFDATA lo0: No such file or directory");
}

/* Interfaces that arrive between the size probe and the read are read. */
static void
test_interfaces_arriving(void **state)
{
    struct platform *p = *state;
    struct plat_netif_set set;

    dbl_netif(1, "lo0", 0x8049, 24, 100, 0, 0);
    dbl_netif_arriving(10, 3);
    assert_int_equal(p->interfaces(p->ctx, &set), 0);
    assert_int_equal(set.n, 4);
    assert_string_equal(set.netif[3].name, "en12");
}

/* More arrive than the read's slack holds: the kernel says ENOMEM and the
 * list is asked again. */
static void
test_interfaces_arriving_past_the_slack(void **state)
{
    struct platform *p = *state;
    struct plat_netif_set set;

    dbl_netif(1, "lo0", 0x8049, 24, 100, 0, 0);
    dbl_netif_arriving(10, 60);
    assert_int_equal(p->interfaces(p->ctx, &set), 0);
    assert_int_equal(set.n, 61);
    assert_int_equal(dbl_calls("sysctl") >= 4, 1);           /* probe, short read, probe, read, ... */
}

static void
test_interfaces_refused(void **state)
{
    struct platform *p = *state;
    struct plat_netif_set set;

    assert_int_equal(p->interfaces(p->ctx, &set), -2);       /* no list at all */
    assert_error_has(p, "NET_RT_IFLIST2 (size): No such file or directory");
    dbl_netif(1, "lo0", 0x8049, 24, 100, 0, 0);
    dbl_fail("sysctl", 2, 1);
    assert_int_equal(p->interfaces(p->ctx, &set), -1);       /* the read after the probe */
    assert_error_has(p, "NET_RT_IFLIST2: Operation not permitted");
    dbl_netif_damaged();
    assert_int_equal(p->interfaces(p->ctx, &set), -22);
    assert_error_has(p, "malformed message after 1 interfaces");
}

/* Without the ioctl socket (refused at open) no functional type is known. */
static void
test_interfaces_without_a_socket(void **state)
{
    struct platform p;
    struct plat_netif_set set;

    (void)state;
    live_setup_failing(&p, "socket", 24 /* EMFILE */);
    dbl_netif(6, "en0", 0x8863, 6, 0, 1, 1);
    assert_int_equal(p.interfaces(p.ctx, &set), 0);
    assert_int_equal(set.netif[0].functional_status, -9);    /* EBADF */
    live_teardown(&p);
}

static void
interfaces_round(struct platform *p)
{
    struct plat_netif_set set;

    assert_int_equal(p->interfaces(p->ctx, &set), 0);
}

static void
test_interfaces_hold_nothing(void **state)
{
    dbl_netif(1, "lo0", 0x8049, 24, 100, 0, 0);
    dbl_netif(6, "en0", 0x8863, 6, 5, 7, 9);
    assert_steady(*state, interfaces_round, 500);
}

static void
test_udp_icmp_ip6(void **state)
{
    struct platform *p = *state;
    struct xnu_udpstat udp = { .udps_ipackets = 11, .udps_noport = 12, .udps_opackets = 13, .udps_fullsock = 14 };
    struct xnu_icmpstat icmp = { .icps_error = 21, .icps_badlen = 22 };
    struct xnu_ip6stat_head ip6 = { .ip6s_total = 31, .ip6s_forward = 32, .ip6s_ofragments = 33 };
    struct plat_udp u;
    struct plat_icmp i;
    struct plat_ip6 v6;

    icmp.icps_inhist[8] = 23;                           /* echo requests in */
    icmp.icps_outhist[0] = 24;                          /* echo replies out */
    dbl_sysctl_bytes("net.inet.udp.stats", NULL, 0, &udp, sizeof(udp));
    dbl_sysctl_bytes("net.inet.icmp.stats", NULL, 0, &icmp, sizeof(icmp));
    dbl_sysctl_bytes("net.inet6.ip6.stats", NULL, 0, &ip6, sizeof(ip6));
    assert_int_equal(p->udp(p->ctx, &u), 0);
    assert_int_equal(u.ipackets, 11);
    assert_int_equal(u.noport, 12);
    assert_int_equal(u.opackets, 13);
    assert_int_equal(u.fullsock, 14);
    assert_int_equal(p->icmp(p->ctx, &i), 0);
    assert_int_equal(i.error, 21);
    assert_int_equal(i.badlen, 22);
    assert_int_equal(i.inhist[8], 23);
    assert_int_equal(i.outhist[0], 24);
    assert_int_equal(p->ip6(p->ctx, &v6), 0);
    assert_int_equal(v6.total, 31);
    assert_int_equal(v6.forward, 32);
    assert_int_equal(v6.ofragments, 33);
}

static void
test_protocol_statistics_refused(void **state)
{
    struct platform *p = *state;
    struct bsd_icmpstat bsd = { { 0 } };
    unsigned char shortudp[8] = { 0 };
    static unsigned char huge[70000];
    struct plat_icmp i;
    struct plat_udp u;

    assert_int_equal(p->icmp(p->ctx, &i), -2);
    assert_error_has(p, "sysctl net.inet.icmp.stats: No such file or directory");
    dbl_sysctl_bytes("net.inet.icmp.stats", NULL, 0, &bsd, sizeof(bsd));   /* BSD's histograms: not a Mac's */
    assert_int_equal(p->icmp(p->ctx, &i), -D_ENOTSUP);
    assert_error_has(p, "not a layout of XNU's struct that this agent decodes");
    dbl_sysctl_bytes("net.inet.udp.stats", NULL, 0, shortudp, sizeof(shortudp));
    assert_int_equal(p->udp(p->ctx, &u), -22);
    assert_error_has(p, "8 bytes, too short");
    dbl_sysctl_bytes("net.inet.icmp.stats", NULL, 0, huge, sizeof(huge));   /* larger than the buffer */
    assert_int_equal(p->icmp(p->ctx, &i), -12);
    assert_error_has(p, "sysctl net.inet.icmp.stats: Cannot allocate memory");
}

/* The TCP, UDP and IPv6 statistics' handlers copy what fits and succeed
 * (xnu-11417.101.15 tcp_getstat, udp_getstat, ip6_getstat): a struct
 * larger than the buffer is seen by the length, and refused as cut short. */
static void
test_statistics_cut_short_are_refused(void **state)
{
    static const char *const names[] = { "net.inet.tcp.stats", "net.inet.udp.stats", "net.inet6.ip6.stats" };
    struct platform *p = *state;
    static unsigned char huge[70000];
    struct plat_tcp t;
    struct plat_udp u;
    struct plat_ip6 v6;

    for (size_t n = 0; n < sizeof(names) / sizeof(names[0]); n++)
        dbl_sysctl_bytes(names[n], NULL, 0, huge, sizeof(huge));
    assert_int_equal(p->tcp(p->ctx, &t), -D_EMSGSIZE);
    assert_error_has(p, "sysctl net.inet.tcp.stats: cut short at 65536 bytes");
    assert_int_equal(p->udp(p->ctx, &u), -D_EMSGSIZE);
    assert_error_has(p, "sysctl net.inet.udp.stats: cut short at 65536 bytes");
    assert_int_equal(p->ip6(p->ctx, &v6), -D_EMSGSIZE);
    assert_error_has(p, "sysctl net.inet6.ip6.stats: cut short at 65536 bytes");
}

static void
test_tcp(void **state)
{
    struct platform *p = *state;
    uint32_t stats[XNU_TCPSTAT_FIELDS_7195] = { 0 };
    struct xnu_tcpstat_head head = { .tcps_connattempt = 41, .tcps_accepts = 42, .tcps_drops = 43,
                                     .tcps_sndtotal = 44, .tcps_rcvtotal = 45, .tcps_rcvshort = 46 };
    struct plat_tcp t;

    memcpy(stats, &head, sizeof(head));
    dbl_sysctl_bytes("net.inet.tcp.stats", NULL, 0, stats, sizeof(stats));
    dbl_sysctl_int("net.inet.tcp.disable_access_to_stats", 0, 4);
    assert_int_equal(p->tcp(p->ctx, &t), 0);
    assert_int_equal(t.connattempt, 41);
    assert_int_equal(t.accepts, 42);
    assert_int_equal(t.drops, 43);
    assert_int_equal(t.sndtotal, 44);
    assert_int_equal(t.rcvtotal, 45);
    assert_int_equal(t.rcvshort, 46);
    assert_int_equal(t.access_status, 0);
    assert_int_equal(t.access_disabled, 0);
}

/* Paint the stack where the next call's locals will be. */
static void __attribute__((noinline))
paint_stack(void)
{
    volatile unsigned char junk[8192];

    for (size_t i = 0; i < sizeof(junk); i++)
        junk[i] = 0xa5;
}

/* Without net.inet.tcp.disable_access_to_stats (before macOS 12) its flag
 * has no value: nothing is copied from a read that failed. */
static void
test_tcp_without_the_access_switch(void **state)
{
    struct platform *p = *state;
    uint32_t stats[XNU_TCPSTAT_FIELDS_7195] = { 0 };
    struct plat_tcp t;

    dbl_sysctl_bytes("net.inet.tcp.stats", NULL, 0, stats, sizeof(stats));
    memset(&t, 0, sizeof(t));
    paint_stack();
    assert_int_equal(p->tcp(p->ctx, &t), 0);
    assert_int_equal(t.access_status, -2);
    assert_int_equal(t.access_disabled, 0);
}

static size_t
connections(unsigned char *buf, uint64_t gen_first, uint64_t gen_last)
{
    size_t len = pcb_xinpgen(buf, 0, gen_first);

    len = pcb_connection(buf, len, 4);              /* ESTABLISHED */
    len = pcb_connection(buf, len, 4);
    len = pcb_connection(buf, len, 1);              /* LISTEN */
    return pcb_xinpgen(buf, len, gen_last);
}

static void
test_tcp_connections(void **state)
{
    struct platform *p = *state;
    static unsigned char buf[8192];
    struct plat_tcpconn c;

    dbl_sysctl_list("net.inet.tcp.pcblist_n", NULL, 0, buf, connections(buf, 7, 7));
    assert_int_equal(p->tcpconn(p->ctx, &c), 0);
    assert_int_equal(c.state[4], 2);
    assert_int_equal(c.state[1], 1);
    assert_int_equal(c.generation_changed, 0);
    /* The list changes on every read (its generation moves): the last count stands. */
    dbl_sysctl_list("net.inet.tcp.pcblist_n", NULL, 0, buf, connections(buf, 7, 8));
    assert_int_equal(p->tcpconn(p->ctx, &c), 0);
    assert_int_equal(c.generation_changed, 1);
    assert_int_equal(c.state[4], 2);
    dbl_sysctl_list("net.inet.tcp.pcblist_n", NULL, 0, buf, 20);
    assert_int_equal(p->tcpconn(p->ctx, &c), -22);
    assert_error_has(p, "malformed list of 20 bytes");
    dbl_fail("sysctlnametomib", 1, 2);
    assert_int_equal(p->tcpconn(p->ctx, &c), -2);
}

static void
nfs_client_stats(struct xnu_nfsclntstats_11417 *c)
{
    memset(c, 0, sizeof(*c));
    c->attrcache_hits = 51;
    c->accesscache_misses = 52;
    c->rpccntv3[3] = 53;                /* NFSPROC_LOOKUP */
    c->rpcretries = 54;
    c->pageouts = 55;
}

/* The NFS kext copies the struct out and the caller gets a length of 0
 * (NFS-339 kext/nfs_vfsops.c): the layout is not told by the length. */
static void
test_nfs_client_of_macos_15_4(void **state)
{
    struct platform *p = *state;
    struct xnu_nfsclntstats_11417 c;
    struct plat_nfs n;

    nfs_client_stats(&c);
    dbl_nfs_client(2);
    dbl_sysctl_nfs(2, &c, sizeof(c));
    assert_int_equal(p->nfs(p->ctx, &n), 0);
    assert_int_equal(n.client_status, 0);
    assert_int_equal(n.client.attrcache_hits, 51);
    assert_int_equal(n.client.accesscache_misses, 52);
    assert_int_equal(n.client.rpccnt[3], 53);
    assert_int_equal(n.client.rpcretries, 54);
    assert_int_equal(n.client.pageouts, 55);
    /* the size is found once: a second read is one sysctl */
    {
        unsigned int before = dbl_calls("sysctl");

        assert_int_equal(p->nfs(p->ctx, &n), 0);
        assert_int_equal(dbl_calls("sysctl") - before, 1);
    }
}

static void
test_nfs_client_of_macos_14(void **state)
{
    struct platform *p = *state;
    struct xnu_nfsclntstats_10002 c = { .attrcache_hits = 61, .accesscache_hits = 62, .pageouts = 63 };
    struct plat_nfs n;

    dbl_nfs_client(2);
    dbl_sysctl_nfs(2, &c, sizeof(c));
    assert_int_equal(p->nfs(p->ctx, &n), 0);
    assert_int_equal(n.client_status, 0);
    assert_int_equal(n.client.attrcache_hits, 61);
    assert_int_equal(n.client.accesscache_hits, 62);
    assert_int_equal(n.client.pageouts, 63);
}

/* A struct of no known layout (between two, or larger than all) is refused. */
static void
test_nfs_client_of_an_unknown_layout(void **state)
{
    struct platform *p = *state;
    static unsigned char between[1000], larger[2000];
    struct plat_nfs n;

    dbl_nfs_client(2);
    dbl_sysctl_nfs(2, between, sizeof(between));
    assert_int_equal(p->nfs(p->ctx, &n), 0);
    assert_int_equal(n.client_status, -D_ENOTSUP);
    assert_error_has(p, "none of the layouts this agent decodes");
    dbl_sysctl_nfs(2, larger, sizeof(larger));
    assert_int_equal(p->nfs(p->ctx, &n), 0);
    assert_int_equal(n.client_status, -D_ENOTSUP);
    dbl_fail("sysctl", 1, 1);
    assert_int_equal(p->nfs(p->ctx, &n), 0);
    assert_int_equal(n.client_status, -1);
}

static void
test_nfs_absent(void **state)
{
    struct platform *p = *state;
    struct plat_nfs n;

    assert_int_equal(p->nfs(p->ctx, &n), 0);
    assert_int_equal(n.client_status, -2);
    assert_error_has(p, "NFS client: not loaded");
    assert_int_equal(n.server_status, -2);                  /* ENOSYS: no NFS server in this kernel */
    assert_int_equal(n.nfsd_status, -2);
}

static void
test_nfs_server(void **state)
{
    struct platform *p = *state;
    struct xnu_nfsrvstats_11215 s = { .srvrpc_errs = 71, .srvcache_misses = 72, .srvvop_writes = 73 };
    struct plat_nfs n;

    s.srvrpccntv3[6] = 74;              /* NFSPROC_READ */
    dbl_nfs_server(&s, sizeof(s), 0);
    dbl_sysctl_int("vfs.generic.nfs.server.nfsd_thread_count", 4, 4);
    assert_int_equal(p->nfs(p->ctx, &n), 0);
    assert_int_equal(n.server_status, 0);
    assert_int_equal(n.server.rpc_errs, 71);
    assert_int_equal(n.server.cache_misses, 72);
    assert_int_equal(n.server.vop_writes, 73);
    assert_int_equal(n.server.rpccnt[6], 74);
    assert_int_equal(n.nfsd_status, 0);
    assert_int_equal(n.nfsd_threads, 4);
    dbl_fail("nfssvc", 1, 1);                                /* the size is kept: the read fails */
    assert_int_equal(p->nfs(p->ctx, &n), 0);
    assert_int_equal(n.server_status, -1);
}

static void
test_nfs_server_refused(void **state)
{
    struct platform *p = *state;
    static unsigned char huge[8192];
    struct plat_nfs n;

    dbl_nfs_server(NULL, 0, 1);                              /* EPERM */
    assert_int_equal(p->nfs(p->ctx, &n), 0);
    assert_int_equal(n.server_status, -1);
    dbl_nfs_server(huge, sizeof(huge), 0);
    assert_int_equal(p->nfs(p->ctx, &n), 0);
    assert_int_equal(n.server_status, -D_ENOTSUP);
    assert_error_has(p, "8192 bytes, larger than any layout");
}

static void
test_nfs_server_of_an_unknown_layout(void **state)
{
    struct platform *p = *state;
    static unsigned char odd[300];
    struct plat_nfs n;

    dbl_nfs_server(odd, sizeof(odd), 0);
    assert_int_equal(p->nfs(p->ctx, &n), 0);
    assert_int_equal(n.server_status, -D_ENOTSUP);
    assert_error_has(p, "300 bytes, not a layout of XNU's struct nfsrvstats");
}

#define T(name) cmocka_unit_test_setup_teardown(name, live_test_setup, live_test_teardown)

int
main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_interfaces), T(test_interfaces_arriving), T(test_interfaces_arriving_past_the_slack),
        T(test_interfaces_refused), cmocka_unit_test(test_interfaces_without_a_socket),
        T(test_interfaces_hold_nothing), T(test_udp_icmp_ip6), T(test_protocol_statistics_refused),
        T(test_statistics_cut_short_are_refused), T(test_tcp),
        T(test_tcp_without_the_access_switch), T(test_tcp_connections), T(test_nfs_client_of_macos_15_4),
        T(test_nfs_client_of_macos_14), T(test_nfs_client_of_an_unknown_layout), T(test_nfs_absent),
        T(test_nfs_server), T(test_nfs_server_refused), T(test_nfs_server_of_an_unknown_layout),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
