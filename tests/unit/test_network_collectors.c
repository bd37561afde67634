/*
 * The network clusters through the agent: interface byte counters that the
 * kernel truncates, interface kinds and labels, stable instances across
 * interfaces coming and going, network.all sums that leave out loopback and
 * never go backwards; UDP, ICMP and IPv6 counters and their sums across the
 * kernel's 32-bit wrap; socket counts.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "agent_harness.h"
#include "metric_ids.h"


static int
netif_inst(const char *name)
{
    return harness_inst(INDOM_NETIF, name);
}

static int64_t
if_value(unsigned int cluster, unsigned int item, int type, const char *name)
{
    return harness_inst_value(cluster, item, type, INDOM_NETIF, name);
}

static const char *
if_text(unsigned int cluster, unsigned int item, const char *name)
{
    pmAtomValue v[FAKE_MAX_NETIFS];
    int inst[FAKE_MAX_NETIFS], n = harness_fetch(cluster, item, PM_TYPE_STRING, v, FAKE_MAX_NETIFS, inst);

    for (int i = 0; i < n; i++)
        if (inst[i] == netif_inst(name))
            return v[i].cp;
    return "";
}

static void
interface_counters_and_state(void **state)
{
    (void)state;
    assert_int_equal(if_value(10, 77, PM_TYPE_U64, "en0"), 2000000);          /* in.bytes */
    assert_int_equal(if_value(10, 82, PM_TYPE_U64, "en0"), 800000);           /* out.bytes */
    assert_int_equal(if_value(10, 89, PM_TYPE_U64, "en0"), 2800000);          /* total.bytes */
    assert_int_equal(if_value(10, 78, PM_TYPE_U64, "en1"), 3000);             /* in.packets */
    assert_int_equal(if_value(10, 90, PM_TYPE_U64, "en1"), 4500);             /* total.packets */
    assert_int_equal(if_value(10, 87, PM_TYPE_U64, "en1"), 1500);             /* mtu */
    assert_int_equal(if_value(10, 88, PM_TYPE_U64, "en1"), 1000000000);       /* baudrate, bits/s */
    assert_int_equal(if_value(110, 0, PM_TYPE_U32, "en1"), 1);                /* up */
    fake.netif[2].flags = 0x1;                                                  /* up, not running */
    assert_int_equal(if_value(110, 1, PM_TYPE_U32, "en1"), 0);
    assert_int_equal(if_value(110, 0, PM_TYPE_U32, "en1"), 1);
    assert_int_equal(if_value(110, 4, PM_TYPE_U32, "en1"), 0);                /* bytes_truncated */
}

static void
interface_kinds_as_metric_and_label(void **state)
{
    pmLabelSet *sets = NULL;
    char buf[64];
    int n;

    (void)state;
    assert_string_equal(if_text(110, 2, "lo0"), "loopback");
    assert_string_equal(if_text(110, 2, "en0"), "wifi");         /* IFT_ETHER, but the functional type knows */
    assert_string_equal(if_text(110, 2, "en1"), "ethernet");
    assert_string_equal(if_text(110, 2, "utun0"), "tunnel");
    n = harness_dp.version.seven.label((int)pmInDom_build(78, INDOM_NETIF), PM_LABEL_INSTANCES, &sets,
                                       harness_ext());
    assert_int_equal(n, 4);
    for (int i = 0; i < n; i++) {
        pmLabelSet *one = &sets[i];

        pmMergeLabelSets(&one, 1, buf, sizeof(buf), NULL, NULL);
        if ((int)one->inst == netif_inst("en0"))
            assert_string_equal(buf, "{\"interface_type\":\"wifi\"}");
    }
    pmFreeLabelSets(sets, n);
}

static void
truncated_list_counters_are_reported_and_not_used(void **state)
{
    (void)state;
    fake.netif[1].mib_ibytes = (5ULL << 32) + 1234;
    fake.netif[1].ibytes = 1234 - 77;                   /* the list's: modulo 2^32, read a moment earlier */
    assert_int_equal(if_value(10, 77, PM_TYPE_U64, "en0"), (5ULL << 32) + 1234);
    assert_int_equal(if_value(110, 4, PM_TYPE_U32, "en0"), 1);
    assert_int_equal(if_value(110, 4, PM_TYPE_U32, "en1"), 0);
}

/* The kernel truncates every interface's list counters: the log says so
 * once, not again for each interface or each time one comes back. */
static void
truncation_is_logged_once_for_the_agent(void **state)
{
    struct plat_netif en0;
    unsigned int lines;

    (void)state;
    harness_log_start();
    fake.netif[1].mib_ibytes = (5ULL << 32) + 1234;
    fake.netif[1].ibytes = 1234;
    fake.netif[2].mib_obytes = (7ULL << 32) + 99;
    fake.netif[2].obytes = 99;
    en0 = fake.netif[1];
    for (int round = 0; round < 5; round++) {
        fake.netif[1] = round % 2 ? fake.netif[3] : en0;    /* en0 goes and comes back */
        harness_fetch(10, 77, PM_TYPE_U64, (pmAtomValue[8]){ 0 }, 8, NULL);
    }
    lines = harness_log_lines("truncated");
    harness_log_stop();
    assert_int_equal(lines, 1);
    assert_int_equal(if_value(110, 4, PM_TYPE_U32, "en0"), 1);
    assert_int_equal(if_value(110, 4, PM_TYPE_U32, "en1"), 1);
}

static void
without_ifmib_a_wrapped_list_counter_has_no_value(void **state)
{
    (void)state;
    fake.netif[1].mib_status = -ENOENT;
    fake.netif[1].ibytes = UINT32_MAX - 10;
    assert_int_equal(if_value(10, 77, PM_TYPE_U64, "en0"), UINT32_MAX - 10);    /* cannot tell yet */
    fake.netif[1].ibytes = 100;                                                 /* went back from below 2^32 */
    assert_int_equal(if_value(10, 77, PM_TYPE_U64, "en0"), -1);                 /* no value, not a wrap */
    assert_int_equal(if_value(10, 89, PM_TYPE_U64, "en0"), -1);
    assert_int_equal(if_value(110, 4, PM_TYPE_U32, "en0"), 1);
    assert_int_equal(if_value(10, 78, PM_TYPE_U64, "en0"), 2000);               /* packets still served */
    assert_int_equal(if_value(10, 77, PM_TYPE_U64, "en1"), 3000000);            /* others unaffected */
    fake.netif[1].ibytes = 200;
    assert_int_equal(if_value(10, 77, PM_TYPE_U64, "en0"), -1);                 /* it stays untrusted */
}

/* Where IFMIB_IFDATA fails now and then, the list's counters stand in,
 * which the kernel hands to programs not Apple's rounded down to 1 KiB
 * (xnu-11417.101.15 bsd/net/rtsock.c:158-160 ALIGN_BYTES, applied at
 * :2197-2200): a rounded reading below the exact one before it is the
 * same count, and the counter never steps back nor jumps. */
static void
rounded_list_counters_mixed_with_ifmib_never_go_back(void **state)
{
    static const struct {
        int mib_ok;
        uint64_t exact, list, want;     /* the kernel's count, the list's (exact & ~1023), the metric */
    } rounds[] = {
        { 1, 10000, 9216, 10000 }, { 0, 10100, 9216, 10000 }, { 0, 11300, 11264, 11264 },
        { 1, 11400, 11264, 11400 }, { 0, 11500, 11264, 11400 }, { 1, 12000, 11264, 12000 },
    };

    (void)state;
    for (size_t r = 0; r < sizeof(rounds) / sizeof(rounds[0]); r++) {
        fake.netif[1].mib_status = rounds[r].mib_ok ? 0 : -EIO;
        fake.netif[1].mib_ibytes = fake.netif[1].mib_obytes = rounds[r].exact;
        fake.netif[1].ibytes = fake.netif[1].obytes = rounds[r].list;
        assert_int_equal(if_value(10, 77, PM_TYPE_U64, "en0"), rounds[r].want);     /* in.bytes */
        assert_int_equal(if_value(10, 82, PM_TYPE_U64, "en0"), rounds[r].want);     /* out.bytes */
        assert_int_equal(if_value(110, 4, PM_TYPE_U32, "en0"), 0);                  /* not truncated */
    }
}

static void
instances_survive_interfaces_coming_and_going(void **state)
{
    int en1, utun0;

    (void)state;
    assert_int_equal(if_value(10, 78, PM_TYPE_U64, "lo0"), 1000);
    en1 = netif_inst("en1");
    utun0 = netif_inst("utun0");
    fake.netif[2] = fake.netif[3];                      /* en1 unplugged */
    fake.nnetif = 3;
    assert_int_equal(if_value(10, 78, PM_TYPE_U64, "utun0"), 4000);
    assert_int_equal(netif_inst("en1"), -1);
    assert_int_equal(netif_inst("utun0"), utun0);
    fake_platform_netif(&fake, 3, "en1", 0x06, 2);      /* back, listed last */
    fake_platform_netif(&fake, 4, "en5", 0x06, 2);      /* and a new one */
    assert_int_equal(if_value(10, 78, PM_TYPE_U64, "en1"), 4000);
    assert_int_equal(netif_inst("en1"), en1);
    assert_true(netif_inst("en5") >= 0 && netif_inst("en5") != en1 && netif_inst("en5") != utun0);
}

static void
a_name_listed_twice_counts_once(void **state)
{
    (void)state;
    fake_platform_netif(&fake, 4, "en0", 0x06, 3);
    fake.netif[4].ipackets = 99;
    assert_int_equal(harness_fetch(10, 78, PM_TYPE_U64, (pmAtomValue[8]){ 0 }, 8, NULL), 4);
    assert_int_equal(if_value(10, 78, PM_TYPE_U64, "en0"), 2000);
}

static void
send_queue_drops_extend_past_their_wrap(void **state)
{
    (void)state;
    fake.netif[2].snd_drops = UINT32_MAX;
    fake.netif[2].iqdrops = 5;
    assert_int_equal(if_value(110, 3, PM_TYPE_U64, "en1"), UINT32_MAX);
    fake.netif[2].snd_drops = 4;                        /* wrapped: +5 */
    assert_int_equal(if_value(110, 3, PM_TYPE_U64, "en1"), (uint64_t)UINT32_MAX + 5);
    assert_int_equal(if_value(10, 92, PM_TYPE_U64, "en1"), (uint64_t)UINT32_MAX + 10);  /* total.drops */
}

static void
network_all_leaves_out_loopback(void **state)
{
    (void)state;
    /* en0 2e6, en1 3e6, utun0 4e6 bytes in; lo0's 1e6 left out */
    assert_int_equal(harness_u64(26, 0), 9000000);                         /* in.bytes */
    assert_int_equal(harness_u64(26, 5), 1000 + 1500 + 2000);              /* out.packets */
    assert_int_equal(harness_u64(26, 8), 9000000 + 3600000);               /* total.bytes */
    fake.netif[1].ibytes = fake.netif[1].mib_ibytes += 500;
    fake.netif[0].ibytes = fake.netif[0].mib_ibytes += 777;                 /* loopback traffic */
    assert_int_equal(harness_u64(26, 0), 9000500);
}

static void
network_all_never_goes_backwards(void **state)
{
    uint64_t before;

    (void)state;
    before = harness_u64(26, 0);
    fake.netif[2].ibytes = fake.netif[2].mib_ibytes += 100;
    fake.nnetif = 2;                                    /* en1 and utun0 go away */
    assert_int_equal(harness_u64(26, 0), before);       /* en1's last 100 bytes were not seen */
    fake.netif[1].ibytes = fake.netif[1].mib_ibytes += 10;
    assert_int_equal(harness_u64(26, 0), before + 10);
    fake.nnetif = 4;                                    /* they return with their totals */
    assert_int_equal(harness_u64(26, 0), before + 10);  /* counted from now on */
    fake.netif[3].ibytes = fake.netif[3].mib_ibytes += 7;
    assert_int_equal(harness_u64(26, 0), before + 17);
}

static void
network_all_leaves_out_untrusted_bytes_only(void **state)
{
    uint64_t bytes, packets;

    (void)state;
    bytes = harness_u64(26, 0);
    packets = harness_u64(26, 1);
    fake.netif[1].mib_status = -EIO;                    /* en0: truncated list, no IFMIB */
    fake.netif[1].ibytes = 100;                         /* went back: wrapped */
    fake.netif[1].ipackets += 3;
    assert_int_equal(harness_u64(26, 0), bytes);
    assert_int_equal(harness_u64(26, 1), packets + 3);
    fake.netif[2].ibytes = fake.netif[2].mib_ibytes += 50;
    assert_int_equal(harness_u64(26, 0), bytes + 50);
}

static void
a_failing_interface_list_fails_only_the_network_clusters(void **state)
{
    (void)state;
    assert_int_equal(if_value(110, 0, PM_TYPE_U32, "en1"), 1);     /* interfaces known, then the list fails */
    fake.interfaces_sts = -EIO;
    assert_int_equal(harness_fetch(10, 77, PM_TYPE_U64, (pmAtomValue[8]){ 0 }, 8, NULL), PM_ERR_AGAIN);
    assert_int_equal(harness_fetch(26, 0, PM_TYPE_U64, (pmAtomValue[1]){ 0 }, 1, NULL), PM_ERR_AGAIN);
    assert_int_equal(harness_fetch(110, 0, PM_TYPE_U32, (pmAtomValue[8]){ 0 }, 8, NULL), PM_ERR_AGAIN);
    assert_int_equal(harness_u32(8, 71), 4);            /* hinv.ncpu */
    fake.interfaces_sts = 0;
    assert_int_equal(if_value(10, 77, PM_TYPE_U64, "en1"), 3000000);
}

static void
one_read_serves_all_three_clusters(void **state)
{
    pmID pmids[] = { pmID_build(78, 10, 77), pmID_build(78, 26, 0), pmID_build(78, 110, 2) };
    agent_result *res = NULL;

    (void)state;
    assert_int_equal(harness_dp.version.seven.fetch(3, pmids, (void *)&res, harness_ext()), 0);
    harness_ext()->e_resultCallBack((void *)res);
    assert_int_equal(fake.calls.interfaces, 1);
}

static void
udp_counters_sums_and_wrap(void **state)
{
    (void)state;
    assert_int_equal(harness_u64(13, 142), 1000);                  /* indatagrams */
    assert_int_equal(harness_u64(13, 143), 900);                   /* outdatagrams */
    assert_int_equal(harness_u64(13, 144), 4);                     /* noports */
    assert_int_equal(harness_u64(13, 145), 1 + 2 + 3);             /* inerrors.total */
    assert_int_equal(harness_u64(13, 146), 5);                     /* rcvbuferrors */
    assert_int_equal(harness_u64(13, 149), 3);                     /* inerrors.badlen */
    fake.udp.ipackets = 1u << 31;                                   /* read at least once per 2^31 */
    assert_int_equal(harness_u64(13, 142), 1u << 31);
    fake.udp.ipackets = UINT32_MAX - 1;
    assert_int_equal(harness_u64(13, 142), UINT32_MAX - 1);
    fake.udp.ipackets = 8;                                          /* the kernel's counter wrapped */
    assert_int_equal(harness_u64(13, 142), (uint64_t)UINT32_MAX + 9);
    fake.udp_sts = -EPERM;                                          /* refused: said so, not "try again" */
    assert_int_equal(harness_fetch(13, 142, PM_TYPE_U64, (pmAtomValue[1]){ 0 }, 1, NULL), PM_ERR_PERMISSION);
    fake.udp_sts = -EIO;
    assert_int_equal(harness_fetch(13, 142, PM_TYPE_U64, (pmAtomValue[1]){ 0 }, 1, NULL), PM_ERR_AGAIN);
}

static void
icmp_histogram_sums_and_input_errors(void **state)
{
    (void)state;
    assert_int_equal(harness_u64(14, 147), 861);                   /* inmsgs: 1 + 2 + ... + 41, types 0-40 */
    assert_int_equal(harness_u64(14, 148), 1722);                  /* outmsgs */
    assert_int_equal(harness_u64(14, 149), 1 + 2 + 3 + 4);         /* inerrors: not icps_error (7) */
    assert_int_equal(harness_u64(14, 150), 4);                     /* indestunreachs: type 3 */
    assert_int_equal(harness_u64(14, 151), 9);                     /* inechos: type 8 */
    assert_int_equal(harness_u64(14, 152), 1);                     /* inechoreps: type 0 */
    assert_int_equal(harness_u64(14, 153), 18);                    /* outechos */
    assert_int_equal(harness_u64(14, 154), 2);                     /* outechoreps */
    fake.icmp.inhist[8] = 1u << 31;                                 /* read at least once per 2^31 */
    assert_int_equal(harness_u64(14, 151), 1u << 31);
    fake.icmp.inhist[8] = UINT32_MAX;
    assert_int_equal(harness_u64(14, 151), UINT32_MAX);
    fake.icmp.inhist[8] = 0;                                        /* +1 across the wrap */
    assert_int_equal(harness_u64(14, 151), (uint64_t)UINT32_MAX + 1);
    assert_int_equal(harness_u64(14, 147), 861 - 9 + (uint64_t)UINT32_MAX + 1);
}

static void
ipv6_counters_and_socket_counts(void **state)
{
    (void)state;
    assert_int_equal(harness_u64(23, 187), 5000);                  /* inreceives */
    assert_int_equal(harness_u64(23, 188), 3);                     /* outforwarded */
    assert_int_equal(harness_u64(23, 189), 1 + 2);                 /* indiscards */
    assert_int_equal(harness_u64(23, 190), 4);                     /* outdiscards */
    assert_int_equal(harness_u64(23, 191), 6);                     /* fragcreates */
    assert_int_equal(harness_u64(23, 192), 5);                     /* reasmoks */
    fake.ip6.total = 1ULL << 40;
    assert_int_equal(harness_u64(23, 187), 1ULL << 40);
    assert_int_equal(harness_u32(15, 155), 42);                    /* sockstat.tcp.inuse */
    assert_int_equal(harness_u32(15, 156), 17);
    fake.sysctl[PLAT_SYSCTL_SOCKSTAT].status[PLAT_SOCKSTAT_TCP] = -ENOENT;
    assert_int_equal(harness_fetch(15, 155, PM_TYPE_U32, (pmAtomValue[1]){ 0 }, 1, NULL), PM_ERR_APPVERSION);
    assert_int_equal(harness_u32(15, 156), 17);
}

static void
tcp_statistics_withheld_report_an_error(void **state)
{
    pmAtomValue v[1];

    (void)state;
    memset(&fake.tcp, 0, sizeof(fake.tcp));
    fake.tcp.access_disabled = 1;                                   /* the macOS default: zeros */
    assert_int_equal(harness_fetch(17, 173, PM_TYPE_U64, v, 1, NULL), PM_ERR_PERMISSION);
    assert_int_equal(harness_u32(111, 0), 0);                       /* stats_accessible */
    assert_int_equal(harness_u32(17, 172), 41);                     /* currestab is not withheld */
    fake.tcp.access_disabled = 0;                                   /* turned off: real (zero) values */
    assert_int_equal(harness_u64(17, 173), 0);
    assert_int_equal(harness_u32(111, 0), 1);
    fake.tcp.access_status = -ENOENT;                               /* the setting cannot be read */
    fake.tcp.rcvtotal = 5;
    assert_int_equal(harness_u64(17, 173), 5);
}

static void
tcp_counters_sums_and_wrap(void **state)
{
    pmAtomValue v[1];

    (void)state;
    /* the fake's setting is on, but its counters are not zero: a reader the kernel lets see them */
    assert_int_equal(harness_u32(111, 0), 1);
    assert_int_equal(harness_u64(17, 168), 100);                    /* activeopens */
    assert_int_equal(harness_u64(17, 169), 50);                     /* passiveopens */
    assert_int_equal(harness_u64(17, 170), 4);                      /* attemptfails: conndrops */
    assert_int_equal(harness_u64(17, 171), 3);                      /* estabresets: drops */
    assert_int_equal(harness_u64(17, 174), 9000);                   /* outsegs */
    assert_int_equal(harness_u64(17, 175), 12);                     /* retranssegs */
    assert_int_equal(harness_u64(17, 176), 1 + 2 + 4 + 3);          /* inerrs.total */
    assert_int_equal(harness_u64(17, 177), 300);                    /* outrsts: control segments */
    assert_int_equal(harness_u64(17, 178), 1);                      /* incsumerrors */
    fake.tcp.rcvtotal = 1u << 31;                                   /* read at least once per 2^31 */
    assert_int_equal(harness_u64(17, 173), 1u << 31);
    fake.tcp.rcvtotal = UINT32_MAX;
    assert_int_equal(harness_u64(17, 173), UINT32_MAX);
    fake.tcp.rcvtotal = 9;                                          /* +10 across the kernel's wrap */
    assert_int_equal(harness_u64(17, 173), (uint64_t)UINT32_MAX + 10);
    for (unsigned int item = 179; item <= 182; item++)              /* rtoalgorithm .. maxconn */
        assert_int_equal(harness_fetch(17, item, item == 182 ? PM_TYPE_32 : PM_TYPE_U32, v, 1, NULL),
                         PM_ERR_APPVERSION);
}

static void
connection_states_and_currestab_alone(void **state)
{
    pmAtomValue v[1];

    (void)state;
    assert_int_equal(harness_u32(17, 172), 41);                     /* currestab fetched alone */
    assert_int_equal(fake.calls.tcpconn, 1);                        /* refreshed its source */
    assert_int_equal(harness_u32(16, 157), 41);                     /* established */
    assert_int_equal(harness_u32(16, 166), 11);                     /* listen (state 1) */
    assert_int_equal(harness_u32(16, 163), 1);                      /* close (state 0) */
    assert_int_equal(harness_u32(16, 161), 91);                     /* fin_wait2 (state 9) */
    assert_int_equal(harness_fetch(16, 162, PM_TYPE_U32, v, 1, NULL), PM_ERR_APPVERSION);   /* time_wait */
    fake.tcpconn_sts = -EIO;
    assert_int_equal(harness_fetch(17, 172, PM_TYPE_U32, v, 1, NULL), PM_ERR_AGAIN);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        HARNESS_TEST(interface_counters_and_state),
        HARNESS_TEST(interface_kinds_as_metric_and_label),
        HARNESS_TEST(truncated_list_counters_are_reported_and_not_used),
        HARNESS_TEST(truncation_is_logged_once_for_the_agent),
        HARNESS_TEST(rounded_list_counters_mixed_with_ifmib_never_go_back),
        HARNESS_TEST(without_ifmib_a_wrapped_list_counter_has_no_value),
        HARNESS_TEST(instances_survive_interfaces_coming_and_going),
        HARNESS_TEST(a_name_listed_twice_counts_once),
        HARNESS_TEST(send_queue_drops_extend_past_their_wrap),
        HARNESS_TEST(network_all_leaves_out_loopback),
        HARNESS_TEST(network_all_never_goes_backwards),
        HARNESS_TEST(network_all_leaves_out_untrusted_bytes_only),
        HARNESS_TEST(a_failing_interface_list_fails_only_the_network_clusters),
        HARNESS_TEST(one_read_serves_all_three_clusters),
        HARNESS_TEST(udp_counters_sums_and_wrap),
        HARNESS_TEST(icmp_histogram_sums_and_input_errors),
        HARNESS_TEST(ipv6_counters_and_socket_counts),
        HARNESS_TEST(tcp_statistics_withheld_report_an_error),
        HARNESS_TEST(tcp_counters_sums_and_wrap),
        HARNESS_TEST(connection_states_and_currestab_alone),
    };
    pmSetProgname("test_network_collectors");
    return cmocka_run_group_tests(tests, NULL, NULL);
}
