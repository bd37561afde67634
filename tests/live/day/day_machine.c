#include "day_machine.h"
#include "day_disk.h"
#include "day_silicon.h"
#include "dbl.h"
#include "platform.h"
#include "pcblist_build.h"
#include "xnu_layouts.h"

#include <stdio.h>
#include <string.h>

#define NCPU 4
#define HZ 100                      /* kern.clockrate's hz: each CPU's ticks a second */
#define PAGE_SIZE 16384             /* Apple Silicon */
#define CPU_STATES 4
#define TDIE_CELSIUS 41.5                /* user, system, idle, nice: dbl_mach_cpus's rows */

/* What one second adds to each kind of counter. */
enum {
    USER_TICKS = 30, SYSTEM_TICKS = 10, NICE_TICKS = 0,
    VM_STEP = 1000,                 /* every vm_statistics64 field */
    NET_STEP = 1500,                /* every interface counter */
    PROTO_STEP = 40,                /* every protocol statistics field */
    MILLIJOULES = 4200,             /* each Energy Model channel */
};

static unsigned int hid_sensor;
static unsigned int energy_channels[3];

static void
cpus_at(unsigned int second)
{
    uint32_t ticks[NCPU * CPU_STATES];

    for (unsigned int c = 0; c < NCPU; c++) {
        uint32_t *row = &ticks[c * CPU_STATES];

        row[0] = USER_TICKS * second;
        row[1] = SYSTEM_TICKS * second;
        row[2] = (HZ - USER_TICKS - SYSTEM_TICKS - NICE_TICKS) * second;
        row[3] = NICE_TICKS * second;
    }
    dbl_mach_cpus(NCPU, ticks);
}

static void
interfaces_at(unsigned int second)
{
    uint64_t base = (uint64_t)NET_STEP * second;

    dbl_netif_reset();
    dbl_netif(1, "lo0", 0x8049, 24 /* IFT_LOOP */, base, 0, 0);
    dbl_netif(6, "en0", 0x8863, 6 /* IFT_ETHER */, base, base * 2, base * 3);
}

static void
protocols_at(unsigned int second)
{
    uint32_t n = PROTO_STEP * second;
    struct xnu_udpstat udp = { .udps_ipackets = n, .udps_opackets = n, .udps_noport = n / 8 };
    struct xnu_icmpstat icmp = { .icps_error = n / 8 };
    struct xnu_ip6stat_head ip6 = { .ip6s_total = n, .ip6s_localout = n };

    icmp.icps_inhist[8] = n / 4;
    icmp.icps_outhist[0] = n / 4;
    uint32_t tcp[XNU_TCPSTAT_FIELDS_7195] = { 0 };
    struct xnu_tcpstat_head head = { .tcps_connattempt = n / 8, .tcps_accepts = n / 8, .tcps_sndtotal = n,
                                     .tcps_rcvtotal = n, .tcps_sndbyte = n * 64, .tcps_rcvbyte = n * 64 };

    memcpy(tcp, &head, sizeof(head));
    dbl_sysctl_bytes("net.inet.tcp.stats", NULL, 0, tcp, sizeof(tcp));
    dbl_sysctl_bytes("net.inet.udp.stats", NULL, 0, &udp, sizeof(udp));
    dbl_sysctl_bytes("net.inet.icmp.stats", NULL, 0, &icmp, sizeof(icmp));
    dbl_sysctl_bytes("net.inet6.ip6.stats", NULL, 0, &ip6, sizeof(ip6));
}

static void
energy_at(unsigned int second)
{
    for (unsigned int i = 0; i < sizeof(energy_channels) / sizeof(energy_channels[0]); i++)
        dbl_ioreport_set(energy_channels[i], (int64_t)MILLIJOULES * second);
}

/* The SMC (its service, as every Mac but a VM has it) with one fan and
 * the system's power, in the types smc_entry_value decodes. */
static void
smc_float(const char *key, float value)
{
    unsigned char bytes[sizeof(value)];

    memcpy(bytes, &value, sizeof(bytes));           /* "flt ": little-endian, as x86_64 and arm64 keep it */
    dbl_smc_key(key, "flt ", bytes, sizeof(bytes));
}

static void
smc(void)
{
    dbl_reg_attach(dbl_reg_entry(0x100000400, "SMC", "0", "AppleSMC", NULL), "IOService", DBL_REG_ROOT);
    dbl_smc_key("FNum", "ui8 ", "\x01", 1);
    smc_float("F0Ac", 1850.0f);
    smc_float("F0Tg", 1850.0f);
    smc_float("F0Mn", 1200.0f);
    smc_float("F0Mx", 4900.0f);
    dbl_smc_key("F0Md", "ui8 ", "\x00", 1);
    smc_float("PSTR", 12.5f);
}

/* Two connections established and one listening, in a list whose
 * generation does not move (nothing connects during the day). */
static void
connections(void)
{
    static unsigned char list[4096];
    size_t len = pcb_xinpgen(list, 0, 7);

    len = pcb_connection(list, len, 4 /* TCPS_ESTABLISHED, xnu bsd/netinet/tcp_fsm.h */);
    len = pcb_connection(list, len, 4);
    len = pcb_connection(list, len, 1 /* TCPS_LISTEN */);
    len = pcb_xinpgen(list, len, 7);
    dbl_sysctl_list("net.inet.tcp.pcblist_n", NULL, 0, list, len);
}

/* The integer sysctls of the groups that grow (or not) as growth says:
 * each of value, in width bytes. */
static void
sysctl_group_ints(enum plat_sysctl_growth growth, uint64_t value, unsigned int width)
{
    for (int g = 0; g < PLAT_SYSCTL_NGROUPS; g++) {
        unsigned int n;
        const struct plat_sysctl_def *defs = plat_sysctl_defs((enum plat_sysctl_group)g, &n);

        for (unsigned int i = 0; i < n; i++)
            if (defs[i].growth == growth)
                dbl_sysctl_int(defs[i].name, value, width);
    }
}

void
machine_sysctls(void)
{
    dbl_sysctl_clockrate(HZ, 0);
    dbl_sysctl_int("hw.memsize", 17179869184ull, 8);
    dbl_sysctl_string("hw.model", "Mac14,2");
    dbl_sysctl_string("kern.osproductversion", "15.4");
    dbl_sysctl_string("machdep.cpu.brand_string", "Apple M2");
    dbl_sysctl_loadavg(2048, 1024, 512, 2048);
    dbl_sysctl_boottime(1764000000, 0);
    dbl_sysctl_swapusage(1073741824ull, 805306368ull, 268435456ull);
    dbl_sysctl_argmax(1048576);
    dbl_sysctl_int("net.inet.tcp.disable_access_to_stats", 0, 4);
    sysctl_group_ints(PLAT_SYSCTL_GAUGE, NCPU, 4);     /* a counter is 8 bytes (machine_tick), a gauge 4 */
    dbl_sysctl_int("kern.memorystatus_vm_pressure_level", 1, 4);    /* normal */
    dbl_sysctl_int("kern.memorystatus_level", 60, 4);
    silicon_sysctls(NCPU);
}

/* As getfsstat lists APFS volumes: MNT_LOCAL and, for / , MNT_ROOTFS. */
static void
mount_apfs(const char *on, const char *from, uint32_t flags)
{
    dbl_mount(on, from, "apfs", flags, 4096, 120000000, 60000000, 59000000, 4000000000ull, 3990000000ull);
}

void
machine_mount_volume(void)
{
    static unsigned int volumes;
    char on[64], from[64];

    snprintf(on, sizeof(on), "/Volumes/Backup %u", ++volumes);
    snprintf(from, sizeof(from), "/dev/disk%us1", 4 + volumes);
    mount_apfs(on, from, 0x1000 /* MNT_LOCAL */);
}

void
machine_build(void)
{
    dbl_mach_page_size(PAGE_SIZE);
    dbl_mach_timebase(125, 3);
    dbl_mach_load(500, 2000);
    dbl_uname("day-mac", "24.4.0", "Darwin Kernel Version 24.4.0", "arm64");
    dbl_now(1764100000, 0);
    dbl_login(7 /* USER_PROCESS */, "admin");
    mount_apfs("/", "/dev/disk3s1s1", 0x5001 /* MNT_ROOTFS | MNT_LOCAL | MNT_RDONLY, xnu bsd/sys/mount.h */);
    mount_apfs("/System/Volumes/Data", "/dev/disk3s5", 0x1000 /* MNT_LOCAL */);
    dbl_netif_type("en0", 2 /* IFRTYPE_FUNCTIONAL_WIFI_INFRA */, 0);
    connections();
    smc();
    machine_sysctls();
    energy_channels[0] = dbl_ioreport_simple(MACHINE_ENERGY_GROUP, "CPU Energy", NULL, "mJ", 0);
    energy_channels[1] = dbl_ioreport_simple(MACHINE_ENERGY_GROUP, "GPU Energy", NULL, "mJ", 0);
    energy_channels[2] = dbl_ioreport_simple(MACHINE_ENERGY_GROUP, "ANE", NULL, "mJ", 0);
    silicon_build(NCPU);
    disk_build();
    hid_sensor = dbl_hid_sensor("PMU tdie1", TDIE_CELSIUS);
    dbl_hid_sensor("PMU tdie2", 40.25);
    machine_tick(0);
}

void
machine_tick(unsigned int second)
{
    cpus_at(second);
    silicon_tick(second, USER_TICKS + SYSTEM_TICKS + NICE_TICKS, HZ);
    disk_tick(second);
    dbl_mach_vm((uint64_t)VM_STEP * second, 0);
    interfaces_at(second);
    protocols_at(second);
    energy_at(second);
    sysctl_group_ints(PLAT_SYSCTL_COUNTER, second, 8);
}

void
machine_hid_reading(void)
{
    dbl_hid_set(hid_sensor, TDIE_CELSIUS);
}

unsigned int
machine_hid_sensor(void)
{
    return hid_sensor;
}

unsigned int
machine_energy_channel(void)
{
    return energy_channels[0];
}
