/*
 * A platform source for tests: values and failures set field by field, and a
 * count of every call so that tests can prove what a request refreshed.
 */
#ifndef PMDA_DARWIN_FAKE_PLATFORM_H
#define PMDA_DARWIN_FAKE_PLATFORM_H

#include "platform.h"

#define FAKE_MAX_CPUS 1100

struct fake_calls {
    unsigned int host, memory, uname, loadavg, cpu_total, cpus, clock, tasks, logins, topology, interfaces, tcp,
        tcpconn, mounts, nfs;
    unsigned int sysctls[PLAT_SYSCTL_NGROUPS];
    unsigned int query[PLAT_QUERY_N];
};

#define FAKE_MAX_LOGINS 16
#define FAKE_MAX_NETIFS 16
#define FAKE_MAX_MOUNTS 16

struct fake_platform {
    struct platform p;
    struct plat_host host;
    struct plat_memory memory;
    struct plat_uname uname;
    struct plat_loadavg load;
    struct plat_cpu_ticks total;
    struct plat_cpu cpu[FAKE_MAX_CPUS];
    unsigned int ncpu;
    struct plat_clock clock;
    struct plat_sysctl_set sysctl[PLAT_SYSCTL_NGROUPS];
    struct plat_tasks tasks;
    struct plat_login login[FAKE_MAX_LOGINS];
    unsigned int nlogin;
    struct plat_topology topology;
    struct plat_cpu_cluster cluster[FAKE_MAX_CPUS];
    struct plat_netif netif[FAKE_MAX_NETIFS];
    struct plat_udp udp;
    struct plat_icmp icmp;
    struct plat_ip6 ip6;
    struct plat_tcp tcp;
    struct plat_tcpconn tcpconn;
    unsigned int nnetif;
    struct plat_entry_set reg[PLAT_QUERY_N];   /* each query's answer (none: -ENOENT, as a Mac without it) */
    int reg_sts[PLAT_QUERY_N];
    struct plat_mount mount[FAKE_MAX_MOUNTS];
    unsigned int nmount;
    int mounts_sts;
    struct plat_nfs nfs;
    int nfs_sts;
    /* a negative errno makes that call fail */
    int host_sts, memory_sts, uname_sts, load_sts, total_sts, cpus_sts, clock_sts, tasks_sts, logins_sts,
        topology_sts, interfaces_sts, udp_sts, icmp_sts, ip6_sts, tcp_sts, tcpconn_sts;
    int sysctl_sts[PLAT_SYSCTL_NGROUPS];
    struct fake_calls calls;
};

/* An Apple-Silicon-like machine: 16 KiB pages, 100 Hz, 4 CPUs: cpu0 and
 * cpu1 efficiency ("E"), cpu2 and cpu3 performance ("P"), two levels. */
void fake_platform_init(struct fake_platform *f);

/* Set CPU i to name, with the cluster type cluster_type ("" or NULL: none). */
void fake_platform_cpu(struct fake_platform *f, unsigned int i, const char *name, const char *cluster_type);

/* Set performance level i's name and CPU count; n is the number of levels. */
void fake_platform_level(struct fake_platform *f, unsigned int i, const char *name, uint64_t ncpu, unsigned int n);

/* Set interface i: name, IFT type, functional type (negative: unknown), and
 * IFMIB byte counters equal to the listed ones (as where nothing truncates). */
void fake_platform_netif(struct fake_platform *f, unsigned int i, const char *name, uint32_t type, int functional);

/* Append a utmpx record. */
void fake_platform_login(struct fake_platform *f, int type, const char *user);

#endif
