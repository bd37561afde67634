#include "fake_platform.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define FAKE(f) ((struct fake_platform *)(f))

static int fake_host(void *c, struct plat_host *o) { FAKE(c)->calls.host++; *o = FAKE(c)->host; return FAKE(c)->host_sts; }
static int fake_memory(void *c, struct plat_memory *o) { FAKE(c)->calls.memory++; *o = FAKE(c)->memory; return FAKE(c)->memory_sts; }
static int fake_uname(void *c, struct plat_uname *o) { FAKE(c)->calls.uname++; *o = FAKE(c)->uname; return FAKE(c)->uname_sts; }
static int fake_loadavg(void *c, struct plat_loadavg *o) { FAKE(c)->calls.loadavg++; *o = FAKE(c)->load; return FAKE(c)->load_sts; }
static int fake_cpu_total(void *c, struct plat_cpu_ticks *o) { FAKE(c)->calls.cpu_total++; *o = FAKE(c)->total; return FAKE(c)->total_sts; }
static int fake_clock(void *c, struct plat_clock *o) { FAKE(c)->calls.clock++; *o = FAKE(c)->clock; return FAKE(c)->clock_sts; }

static int
fake_cpus(void *c, struct plat_cpu_set *o)
{
    FAKE(c)->calls.cpus++;
    o->ncpu = FAKE(c)->ncpu;
    o->cpu = FAKE(c)->cpu;
    return FAKE(c)->cpus_sts;
}

static int
fake_sysctls(void *c, enum plat_sysctl_group group, struct plat_sysctl_set *o)
{
    FAKE(c)->calls.sysctls[group]++;
    *o = FAKE(c)->sysctl[group];
    return FAKE(c)->sysctl_sts[group];
}

static int fake_tasks(void *c, struct plat_tasks *o) { FAKE(c)->calls.tasks++; *o = FAKE(c)->tasks; return FAKE(c)->tasks_sts; }

static int
fake_logins(void *c, struct plat_login_set *o)
{
    FAKE(c)->calls.logins++;
    o->n = FAKE(c)->nlogin;
    o->login = FAKE(c)->login;
    return FAKE(c)->logins_sts;
}

static int
fake_topology(void *c, struct plat_topology *o)
{
    FAKE(c)->calls.topology++;
    *o = FAKE(c)->topology;
    o->cluster = FAKE(c)->cluster;
    return FAKE(c)->topology_sts;
}

/* No registry entries: every query answers as on a Mac without them. */
static int
fake_query(void *c, const struct plat_query *q, struct plat_entry_set *o)
{
    unsigned int i = (unsigned int)(q - plat_queries);

    o->n = 0;
    if (i >= PLAT_QUERY_N)
        return -EINVAL;
    FAKE(c)->calls.query[i]++;
    if (FAKE(c)->reg_sts[i] < 0)
        return FAKE(c)->reg_sts[i];
    *o = FAKE(c)->reg[i];
    return o->n > 0 ? 0 : -ENOENT;
}

/* The system agent's machine: Apple Silicon's timebase and no processes,
 * for darwin-snapshot's writer, which records them too. */
static int
fake_timebase(void *c, struct plat_timebase *o)
{
    (void)c;
    *o = (struct plat_timebase){ .numer = 125, .denom = 3 };
    return 0;
}

static int
fake_procs(void *c, struct plat_proc_set *o)
{
    (void)c;
    *o = (struct plat_proc_set){ 0 };
    return 0;
}

static int
fake_sock_owners(void *c, struct plat_sock_owner_set *o)
{
    (void)c;
    *o = (struct plat_sock_owner_set){ 0 };
    return 0;
}

static int
fake_mounts(void *c, struct plat_mount_set *o)
{
    FAKE(c)->calls.mounts++;
    o->n = FAKE(c)->nmount;
    o->mount = FAKE(c)->mount;
    return FAKE(c)->mounts_sts;
}

static int fake_nfs(void *c, struct plat_nfs *o) { FAKE(c)->calls.nfs++; *o = FAKE(c)->nfs; return FAKE(c)->nfs_sts; }

static int
fake_interfaces(void *c, struct plat_netif_set *o)
{
    FAKE(c)->calls.interfaces++;
    o->n = FAKE(c)->nnetif;
    o->netif = FAKE(c)->netif;
    return FAKE(c)->interfaces_sts;
}

static int fake_udp(void *c, struct plat_udp *o) { *o = FAKE(c)->udp; return FAKE(c)->udp_sts; }
static int fake_icmp(void *c, struct plat_icmp *o) { *o = FAKE(c)->icmp; return FAKE(c)->icmp_sts; }
static int fake_ip6(void *c, struct plat_ip6 *o) { *o = FAKE(c)->ip6; return FAKE(c)->ip6_sts; }

static int fake_tcp(void *c, struct plat_tcp *o) { FAKE(c)->calls.tcp++; *o = FAKE(c)->tcp; return FAKE(c)->tcp_sts; }
static int fake_tcpconn(void *c, struct plat_tcpconn *o) { FAKE(c)->calls.tcpconn++; *o = FAKE(c)->tcpconn; return FAKE(c)->tcpconn_sts; }

static const char *fake_error(void *c) { (void)c; return "injected failure"; }
static void fake_close(void *c) { (void)c; }

void
fake_platform_cpu(struct fake_platform *f, unsigned int i, const char *name, const char *cluster_type)
{
    memset(&f->cpu[i], 0, sizeof(f->cpu[i]));
    snprintf(f->cpu[i].name, sizeof(f->cpu[i].name), "%s", name);
    /* the clusters are listed by CPU: the count covers every CPU set so far */
    snprintf(f->cluster[i].cpu, sizeof(f->cluster[i].cpu), "%s", name);
    snprintf(f->cluster[i].type, sizeof(f->cluster[i].type), "%s", cluster_type ? cluster_type : "");
    if (i + 1 > f->topology.nclusters)
        f->topology.nclusters = i + 1;
}

void
fake_platform_level(struct fake_platform *f, unsigned int i, const char *name, uint64_t ncpu, unsigned int n)
{
    struct plat_perflevel *l = &f->topology.level[i];

    memset(l, 0, sizeof(*l));
    snprintf(l->name, sizeof(l->name), "%s", name);
    l->value[PLAT_PL_PHYSICALCPU] = l->value[PLAT_PL_LOGICALCPU] = ncpu;
    l->value[PLAT_PL_L2CACHESIZE] = 4u << 20;
    l->value[PLAT_PL_CPUSPERL2] = ncpu;
    l->status[PLAT_PL_L3CACHESIZE] = l->status[PLAT_PL_CPUSPERL3] = -ENOENT;
    f->topology.nlevels = n;
    f->topology.counts.value[PLAT_CPU_NPERFLEVELS] = n;
}

void
fake_platform_netif(struct fake_platform *f, unsigned int i, const char *name, uint32_t type, int functional)
{
    struct plat_netif *n = &f->netif[i];

    memset(n, 0, sizeof(*n));
    snprintf(n->name, sizeof(n->name), "%s", name);
    n->index = i + 1;
    n->flags = 0x1 | 0x40;                      /* up, running */
    n->type = type;
    n->functional_status = functional < 0 ? -ENOTTY : 0;
    n->functional_type = functional < 0 ? 0 : (uint32_t)functional;
    n->mtu = 1500;
    n->baudrate = 1000000000;
    n->ipackets = 1000 * (i + 1);
    n->opackets = 500 * (i + 1);
    n->ibytes = n->mib_ibytes = 1000000 * (i + 1);
    n->obytes = n->mib_obytes = 400000 * (i + 1);
    if (i + 1 > f->nnetif)
        f->nnetif = i + 1;
}

void
fake_platform_login(struct fake_platform *f, int type, const char *user)
{
    struct plat_login *l = &f->login[f->nlogin++];

    l->type = type;
    snprintf(l->user, sizeof(l->user), "%s", user);
}

/* A group's values in its order; a value the fake does not give (one
 * added to the group since) is absent, as on a release without it. */
static void
set_sysctls(struct fake_platform *f, enum plat_sysctl_group group, const uint64_t *values, unsigned int given)
{
    plat_sysctl_defs(group, &f->sysctl[group].n);
    for (unsigned int i = 0; i < f->sysctl[group].n; i++) {
        f->sysctl[group].value[i] = i < given ? values[i] : 0;
        f->sysctl[group].status[i] = i < given ? 0 : -ENOENT;
    }
}
#define SET_SYSCTLS(f, group, ...) \
    set_sysctls(f, group, (const uint64_t[]){ __VA_ARGS__ }, sizeof((const uint64_t[]){ __VA_ARGS__ }) / sizeof(uint64_t))

void
fake_platform_init(struct fake_platform *f)
{
    memset(f, 0, sizeof(*f));
    f->p = (struct platform){
        .name = "fake", .ctx = f, .host = fake_host, .memory = fake_memory, .uname = fake_uname,
        .loadavg = fake_loadavg, .cpu_total = fake_cpu_total, .cpus = fake_cpus, .clock = fake_clock,
        .sysctls = fake_sysctls, .tasks = fake_tasks, .logins = fake_logins, .topology = fake_topology,
        .interfaces = fake_interfaces, .udp = fake_udp, .icmp = fake_icmp, .ip6 = fake_ip6,
        .tcp = fake_tcp, .tcpconn = fake_tcpconn, .query = fake_query,
        .mounts = fake_mounts, .nfs = fake_nfs, .timebase = fake_timebase, .procs = fake_procs,
        .sock_owners = fake_sock_owners,
        .error = fake_error, .close = fake_close,
    };
    f->host = (struct plat_host){ .page_size = 16384, .clock_hz = 100, .memsize = 16ULL << 30 };
    snprintf(f->host.model, sizeof(f->host.model), "Mac14,2");
    f->memory.vm.free_count = 1000;
    f->memory.vm.active_count = 2000;
    f->memory.vm.inactive_count = 3000;
    f->memory.vm.wire_count = 400;
    f->memory.vm.compressor_page_count = 50;
    f->memory.vm.total_uncompressed_pages_in_compressor = 160;
    f->memory.vm.speculative_count = 100;
    f->memory.vm.purgeable_count = 300;
    f->memory.vm.internal_page_count = 2600;    /* + external = active + inactive + speculative */
    f->memory.vm.external_page_count = 2500;
    f->memory.vm.purges = 77;
    f->memory.swap = (struct plat_swap){ .total = 2ULL << 30, .used = 1ULL << 29, .avail = 3ULL << 29 };
    snprintf(f->uname.sysname, sizeof(f->uname.sysname), "Darwin");
    snprintf(f->uname.nodename, sizeof(f->uname.nodename), "test.local");
    snprintf(f->uname.release, sizeof(f->uname.release), "23.5.0");
    snprintf(f->uname.version, sizeof(f->uname.version), "Darwin Kernel Version 23.5.0");
    snprintf(f->uname.machine, sizeof(f->uname.machine), "arm64");
    snprintf(f->uname.product_version, sizeof(f->uname.product_version), "14.5");
    f->load = (struct plat_loadavg){ .ldavg = { 5120, 4096, 2048 }, .fscale = 2048 };
    f->total = (struct plat_cpu_ticks){ .user = 12345, .sys = 2000, .idle = 90000, .nice = 7 };
    f->ncpu = 4;
    fake_platform_cpu(f, 0, "cpu0", "E");
    fake_platform_cpu(f, 1, "cpu1", "E");
    fake_platform_cpu(f, 2, "cpu2", "P");
    fake_platform_cpu(f, 3, "cpu3", "P");
    f->clock = (struct plat_clock){ .boot_sec = 1000, .boot_usec = 250000, .now_sec = 4600, .now_usec = 250000 };
    SET_SYSCTLS(f, PLAT_SYSCTL_VFS, 9000, 245760, 140000, 263168);
    SET_SYSCTLS(f, PLAT_SYSCTL_LIMITS, 8000, 5333, 245760, 122880, 5ULL << 32, 40960, 8192);
    SET_SYSCTLS(f, PLAT_SYSCTL_IPC, 65536, 8388608, 128, 12);
    SET_SYSCTLS(f, PLAT_SYSCTL_PRESSURE, 1, 63);
    SET_SYSCTLS(f, PLAT_SYSCTL_CPU_COUNTS, 4, 4, 2, 4);
    f->tasks = (struct plat_tasks){ .tasks = 520, .threads = 2400 };
    fake_platform_login(f, 2, "");                          /* BOOT_TIME */
    fake_platform_login(f, PLAT_UTMPX_USER_PROCESS, "alice");
    fake_platform_login(f, PLAT_UTMPX_USER_PROCESS, "root");
    fake_platform_login(f, 8, "");                          /* DEAD_PROCESS */
    snprintf(f->topology.brand, sizeof(f->topology.brand), "Apple M2");
    f->topology.counts = f->sysctl[PLAT_SYSCTL_CPU_COUNTS];
    fake_platform_level(f, 0, "Performance", 2, 2);
    fake_platform_level(f, 1, "Efficiency", 2, 2);
    fake_platform_netif(f, 0, "lo0", 0x18, 1);
    fake_platform_netif(f, 1, "en0", 0x06, 3);             /* Wi-Fi */
    fake_platform_netif(f, 2, "en1", 0x06, 2);             /* Ethernet */
    fake_platform_netif(f, 3, "utun0", 0x01, -1);          /* no functional type: a tunnel by name */
    SET_SYSCTLS(f, PLAT_SYSCTL_SOCKSTAT, 42, 17);
    f->udp = (struct plat_udp){ .ipackets = 1000, .hdrops = 1, .badsum = 2, .badlen = 3, .noport = 4,
                                .fullsock = 5, .opackets = 900 };
    f->icmp = (struct plat_icmp){ .error = 7, .badcode = 1, .tooshort = 2, .checksum = 3, .badlen = 4 };
    for (unsigned int t = 0; t < PLAT_ICMP_NTYPES; t++) {
        f->icmp.inhist[t] = t + 1;                          /* inmsgs = 861 */
        f->icmp.outhist[t] = 2 * (t + 1);                   /* outmsgs = 1722 */
    }
    f->tcp = (struct plat_tcp){ .connattempt = 100, .accepts = 50, .drops = 3, .conndrops = 4, .sndtotal = 9000,
                                .sndrexmitpack = 12, .sndctrl = 300, .rcvtotal = 8000, .rcvbadsum = 1, .rcvbadoff = 2,
                                .rcvmemdrop = 3, .rcvshort = 4, .access_disabled = 1 };
    for (int s = 0; s < PLAT_TCP_NSTATES; s++)
        f->tcpconn.state[s] = 10 * (uint32_t)s + 1;         /* established (4): 41 */
    f->ip6 = (struct plat_ip6){ .total = 5000, .tooshort = 1, .toosmall = 2, .forward = 3, .odropped = 4,
                                .reassembled = 5, .ofragments = 6 };
}
