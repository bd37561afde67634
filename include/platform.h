/*
 * The platform interface: what the agent needs from the operating system,
 * as plain C structs. No PCP type appears here.
 *
 * The live macOS source (src/macos/) implements it; anything
 * that answers the same calls can stand in for it. Each call fills one
 * struct from one OS request and returns 0, or a negative errno when the
 * source failed. Fields mirror the width of the
 * kernel field they come from; conversions happen in the collectors.
 * Every char array holds a NUL-terminated string: a source cuts what does
 * not fit (macOS's own fixed arrays, p_comm and pth_name, are terminated
 * by the live source, not trusted to be), and the collectors rely on it.
 */
#ifndef PMDA_DARWIN_PLATFORM_H
#define PMDA_DARWIN_PLATFORM_H

#include <stddef.h>
#include <stdint.h>

#define PLAT_NAME_MAX 64
#define PLAT_TEXT_MAX 256

/* Facts fixed while the machine runs. */
/* Each fact has its own status (0, or a negative errno): a source may lack
 * one (a capture of `sysctl hw` has no kern.clockrate) and keep the others. */
struct plat_host {
    int page_status;
    uint64_t page_size;             /* bytes per VM page (host_page_size) */
    int clock_status;
    uint32_t clock_hz;              /* scheduler ticks per second (KERN_CLOCKRATE) */
    int memsize_status;
    uint64_t memsize;               /* physical memory in bytes (hw.memsize) */
    int model_status;
    char model[PLAT_NAME_MAX];      /* hw.model, e.g. "Mac14,2" */
};

/* The subset of vm_statistics64 the agent serves. Page counts are natural_t
 * (32-bit) in the kernel; event counters are 64-bit. */
struct plat_vm {
    uint32_t free_count;
    uint32_t active_count;
    uint32_t inactive_count;
    uint32_t wire_count;
    uint32_t compressor_page_count;     /* physical pages the compressor occupies */
    uint64_t total_uncompressed_pages_in_compressor; /* logical pages stored */
    uint64_t reactivations;
    uint64_t faults;
    uint64_t cow_faults;
    uint64_t zero_fill_count;
    uint64_t pageins;
    uint64_t pageouts;
    uint64_t swapins;
    uint64_t swapouts;
    uint64_t compressions;
    uint64_t decompressions;
    /* What vm_stat prints besides the above. The kernel's free_count already
     * includes speculative pages (vm_stat subtracts them for "Pages free"). */
    uint32_t speculative_count;
    uint32_t throttled_count;
    uint32_t purgeable_count;
    uint32_t external_page_count;       /* file-backed pages */
    uint32_t internal_page_count;       /* anonymous pages */
    uint64_t purges;
};

/* vm.swapusage (struct xsw_usage), in bytes. */
struct plat_swap {
    uint64_t total;
    uint64_t avail;
    uint64_t used;
};

/* The compressor health sysctls, each read on its own and able to fail on
 * its own (some are absent on older releases). */
enum plat_compressor_stat {
    PLAT_COMP_SWAPOUTS_UNDER_30S,
    PLAT_COMP_SWAPOUTS_UNDER_60S,
    PLAT_COMP_SWAPOUTS_UNDER_300S,
    PLAT_COMP_THRASHING_DETECTED,
    PLAT_COMP_LZ4_COMPRESSIONS,
    PLAT_COMP_NSTATS
};

/* Everything the memory cluster reads; each part carries its own status
 * (0, or a negative errno) so that one failing source fails only its metrics. */
struct plat_memory {
    int vm_status;
    struct plat_vm vm;
    int swap_status;
    struct plat_swap swap;
    int compressor_status[PLAT_COMP_NSTATS];
    uint64_t compressor[PLAT_COMP_NSTATS];
};

struct plat_uname {
    char sysname[PLAT_TEXT_MAX];
    char nodename[PLAT_TEXT_MAX];
    char release[PLAT_TEXT_MAX];
    char version[PLAT_TEXT_MAX];
    char machine[PLAT_TEXT_MAX];
    int product_status;                 /* product_version may be missing alone */
    char product_version[PLAT_NAME_MAX]; /* kern.osproductversion, e.g. "14.5" */
};

/* vm.loadavg: fixed-point averages over 1, 5 and 15 minutes. */
struct plat_loadavg {
    uint32_t ldavg[3];
    uint64_t fscale;
};

/* Scheduler ticks by CPU state. The kernel keeps them as natural_t, so they
 * wrap at 2^32; the summed host totals wrap soonest. */
struct plat_cpu_ticks {
    uint32_t user;
    uint32_t sys;
    uint32_t idle;
    uint32_t nice;
};

struct plat_cpu {
    char name[PLAT_NAME_MAX];               /* "cpu0", ...: "cpu" and the logical CPU number */
    struct plat_cpu_ticks ticks;
};

/* The per-CPU list. The array belongs to the source and stays valid until
 * the next cpus() call or close(). */
struct plat_cpu_set {
    unsigned int ncpu;
    const struct plat_cpu *cpu;
};

/* Wall-clock time of the sample and the kernel's boot time (kern.boottime). */
struct plat_clock {
    int64_t boot_sec;
    int32_t boot_usec;
    int64_t now_sec;
    int32_t now_usec;
};

/*
 * Integer sysctls read by name, in groups that one collector reads
 * together. Each value has its own status. plat_sysctl_defs() names them.
 */
enum plat_sysctl_group {
    PLAT_SYSCTL_VFS,
    PLAT_SYSCTL_LIMITS,
    PLAT_SYSCTL_IPC,
    PLAT_SYSCTL_PRESSURE,
    PLAT_SYSCTL_CPU_COUNTS,
    PLAT_SYSCTL_SOCKSTAT,
    PLAT_SYSCTL_NGROUPS
};
/* Each group's sysctls, in set order: the value's index, the sysctl (a
 * group may share one with another), and whether it only ever increases
 * (COUNTER: replay interpolates it as a counter) or not (GAUGE). */
#define PLAT_VFS_SYSCTLS(X) \
    X(PLAT_VFS_NUM_FILES, "kern.num_files", GAUGE) \
    X(PLAT_VFS_MAXFILES, "kern.maxfiles", GAUGE) \
    X(PLAT_VFS_NUM_VNODES, "kern.num_vnodes", GAUGE) \
    X(PLAT_VFS_MAXVNODES, "kern.maxvnodes", GAUGE)
/* kern.num_recycledvnodes is a long in XNU (SYSCTL_LONG): 8 bytes on 64-bit kernels. */
#define PLAT_LIMITS_SYSCTLS(X) \
    X(PLAT_LIMITS_MAXPROC, "kern.maxproc", GAUGE) \
    X(PLAT_LIMITS_MAXPROCPERUID, "kern.maxprocperuid", GAUGE) \
    X(PLAT_LIMITS_MAXFILES, "kern.maxfiles", GAUGE) \
    X(PLAT_LIMITS_MAXFILESPERPROC, "kern.maxfilesperproc", GAUGE) \
    X(PLAT_LIMITS_RECYCLED_VNODES, "kern.num_recycledvnodes", COUNTER) \
    X(PLAT_LIMITS_MAXTHREADS, "kern.num_threads", GAUGE) \
    X(PLAT_LIMITS_MAXTASKTHREADS, "kern.num_taskthreads", GAUGE)
#define PLAT_IPC_SYSCTLS(X) \
    X(PLAT_IPC_NMBCLUSTERS, "kern.ipc.nmbclusters", GAUGE) \
    X(PLAT_IPC_MAXSOCKBUF, "kern.ipc.maxsockbuf", GAUGE) \
    X(PLAT_IPC_SOMAXCONN, "kern.ipc.somaxconn", GAUGE) \
    X(PLAT_IPC_SODEFUNCT_CALLS, "kern.ipc.sodefunct_calls", COUNTER)
/* Masked from `sysctl -a` but readable by name without privilege on macOS;
 * XNU converts its internal level to the dispatch flags (1 normal, 2
 * warning, 4 critical) in sysctl_memorystatus_vm_pressure_level. */
#define PLAT_PRESSURE_SYSCTLS(X) \
    X(PLAT_PRESSURE_LEVEL, "kern.memorystatus_vm_pressure_level", GAUGE) \
    X(PLAT_PRESSURE_AVAILABLE, "kern.memorystatus_level", GAUGE)
/* hw.nperflevels since macOS 12; absent before, which leaves the levels unknown.
 * hw.activecpu: the CPUs available now (HW_AVAILCPU, bsd/kern/kern_mib.c). */
#define PLAT_CPU_COUNTS_SYSCTLS(X) \
    X(PLAT_CPU_PHYSICAL, "hw.physicalcpu", GAUGE) \
    X(PLAT_CPU_LOGICAL, "hw.logicalcpu", GAUGE) \
    X(PLAT_CPU_NPERFLEVELS, "hw.nperflevels", GAUGE) \
    X(PLAT_CPU_ACTIVE, "hw.activecpu", GAUGE)
#define PLAT_SOCKSTAT_SYSCTLS(X) \
    X(PLAT_SOCKSTAT_TCP, "net.inet.tcp.pcbcount", GAUGE) \
    X(PLAT_SOCKSTAT_UDP, "net.inet.udp.pcbcount", GAUGE)

#define PLAT_SYSCTL_INDEX(index, sysctl, growth) index,
enum { PLAT_VFS_SYSCTLS(PLAT_SYSCTL_INDEX) PLAT_VFS_N };
enum { PLAT_LIMITS_SYSCTLS(PLAT_SYSCTL_INDEX) PLAT_LIMITS_N };
enum { PLAT_IPC_SYSCTLS(PLAT_SYSCTL_INDEX) PLAT_IPC_N };
enum { PLAT_PRESSURE_SYSCTLS(PLAT_SYSCTL_INDEX) PLAT_PRESSURE_N };
enum { PLAT_CPU_COUNTS_SYSCTLS(PLAT_SYSCTL_INDEX) PLAT_CPU_COUNTS_N };
enum { PLAT_SOCKSTAT_SYSCTLS(PLAT_SYSCTL_INDEX) PLAT_SOCKSTAT_N };

#define PLAT_SYSCTL_SET_MAX 8

enum plat_sysctl_growth { PLAT_SYSCTL_GAUGE, PLAT_SYSCTL_COUNTER };

struct plat_sysctl_def {
    const char *name;           /* the sysctl, e.g. "kern.num_files" (a group may share one with another) */
    enum plat_sysctl_growth growth;
};

/* The definitions of a group; *n receives how many. */
const struct plat_sysctl_def *plat_sysctl_defs(enum plat_sysctl_group group, unsigned int *n);

struct plat_sysctl_set {
    unsigned int n;
    int status[PLAT_SYSCTL_SET_MAX];        /* 0, or a negative errno for that value alone */
    uint64_t value[PLAT_SYSCTL_SET_MAX];
};

/* Live task and thread totals (the default processor set's load info). */
struct plat_tasks {
    uint32_t tasks;
    uint32_t threads;
};

/* One utmpx record: ut_type as the kernel defines it, and ut_user ("" if none). */
#define PLAT_UTMPX_USER_PROCESS 7
struct plat_login {
    int type;
    char user[PLAT_NAME_MAX];
};

/* The records; the array belongs to the source until the next call. */
struct plat_login_set {
    unsigned int n;
    const struct plat_login *login;
};

/* hw.perflevelN.<field>: plat_perflevel_fields[] names them. */
enum {
    PLAT_PL_PHYSICALCPU, PLAT_PL_LOGICALCPU, PLAT_PL_L1ICACHESIZE, PLAT_PL_L1DCACHESIZE,
    PLAT_PL_L2CACHESIZE, PLAT_PL_CPUSPERL2, PLAT_PL_L3CACHESIZE, PLAT_PL_CPUSPERL3, PLAT_PL_N
};
extern const char *const plat_perflevel_fields[PLAT_PL_N];

#define PLAT_MAX_PERFLEVELS 8
#define PLAT_MAX_CPUS 1024

struct plat_perflevel {
    int name_status;
    char name[PLAT_NAME_MAX];               /* hw.perflevelN.name, e.g. "Performance" */
    int status[PLAT_PL_N];
    uint64_t value[PLAT_PL_N];
};

/* A CPU's cluster type from the IORegistry (IODeviceTree:/cpus/cpuN
 * "cluster-type"): "E", "P", ... Decoded from the registry entries of
 * PLAT_QUERY_CPUS by reg_cpu_clusters() (registry_decode.h). */
struct plat_cpu_cluster {
    char cpu[PLAT_NAME_MAX];                /* named as in plat_cpu */
    char type[8];
};

/* The processor topology: fixed while the machine runs. */
struct plat_topology {
    int brand_status;
    char brand[PLAT_TEXT_MAX];              /* machdep.cpu.brand_string */
    struct plat_sysctl_set counts;          /* PLAT_SYSCTL_CPU_COUNTS */
    unsigned int nlevels;                   /* levels read: min(hw.nperflevels, PLAT_MAX_PERFLEVELS) */
    struct plat_perflevel level[PLAT_MAX_PERFLEVELS];
    int clusters_status;
    unsigned int nclusters;
    const struct plat_cpu_cluster *cluster; /* belongs to the source until the next call */
};

/* UDP statistics (net.inet.udp.stats, struct udpstat): 32-bit kernel counters. */
struct plat_udp {
    uint32_t ipackets, hdrops, badsum, badlen, noport, fullsock, opackets;
};

/* ICMP statistics (net.inet.icmp.stats, struct icmpstat): 32-bit counters,
 * and a histogram of messages by ICMP type in each direction. XNU's
 * ICMP_MAXTYPE is 40 (bsd/netinet/ip_icmp.h, every release since xnu-1504,
 * Mac OS X 10.6); BSD's and glibc's is 18. */
#define PLAT_ICMP_NTYPES 41         /* XNU's ICMP_MAXTYPE + 1 */
struct plat_icmp {
    uint32_t error, badcode, tooshort, checksum, badlen;
    uint32_t inhist[PLAT_ICMP_NTYPES], outhist[PLAT_ICMP_NTYPES];
};

/* IPv6 statistics (net.inet6.ip6.stats, struct ip6stat): 64-bit counters. */
struct plat_ip6 {
    uint64_t total, tooshort, toosmall, forward, odropped, reassembled, ofragments;
};

/* TCP statistics (net.inet.tcp.stats, struct tcpstat: 32-bit counters),
 * and net.inet.tcp.disable_access_to_stats, while set (the default) the
 * kernel hands out zeros instead. */
struct plat_tcp {
    uint32_t connattempt, accepts, drops, conndrops, sndtotal, sndrexmitpack, sndctrl;
    uint32_t rcvtotal, rcvbadsum, rcvbadoff, rcvmemdrop, rcvshort;
    int access_status;              /* of the disable_access_to_stats read */
    uint32_t access_disabled;
};

/* TCP connections by state (netinet/tcp_fsm.h: CLOSED 0 ... TIME_WAIT 10),
 * from the records of net.inet.tcp.pcblist_n. */
#define PLAT_TCP_NSTATES 11
struct plat_tcpconn {
    uint32_t state[PLAT_TCP_NSTATES];
    uint32_t unknown_state;         /* records with a state outside 0..10 */
    int generation_changed;         /* the list changed while it was read (every retry) */
};

/* One network interface: what NET_RT_IFLIST2 reports for it (its
 * if_msghdr2 and link address), the byte counters of its IFMIB_IFDATA
 * sysctl, and its functional type. */
struct plat_netif {
    char name[PLAT_NAME_MAX];
    uint32_t index;
    uint32_t flags;                 /* IFF_* (PLAT_IFF_*) */
    uint32_t type;                  /* IFT_* (if_data64.ifi_type) */
    int functional_status;          /* 0, or why functional_type is unknown */
    uint32_t functional_type;       /* IFRTYPE_FUNCTIONAL_* (SIOCGIFFUNCTIONALTYPE) */
    uint32_t mtu;
    uint64_t baudrate;              /* bits per second */
    uint64_t ipackets, ierrors, opackets, oerrors, collisions;
    uint64_t ibytes, obytes;        /* as NET_RT_IFLIST2 gives them: truncated to 32 bits on some releases */
    uint64_t imcasts, omcasts, iqdrops;
    uint32_t snd_drops;             /* ifm_snd_drops: packets dropped from the send queue (int in the kernel) */
    int mib_status;                 /* 0, or why mib_ibytes/mib_obytes are unknown */
    uint64_t mib_ibytes, mib_obytes;
};

/* The bits of plat_netif.flags the agent serves (xnu-11417.101.15
 * bsd/net/if.h:98, :104). */
#define PLAT_IFF_UP 0x1u            /* IFF_UP: up */
#define PLAT_IFF_RUNNING 0x40u      /* IFF_RUNNING: resources allocated */
#define PLAT_MAX_NETIFS 1024

/*
 * Entries as plain data: what the query call returns from the IORegistry
 * and from the sources that answer in the same shape (IOReport channels,
 * HID services, SMC keys, a notify name; see the queries below). One live
 * file reads each source (src/macos/registry.c the IORegistry); none
 * decides or converts anything. A property is a key
 * path (nested dictionary keys and array indexes joined by '.', each part
 * escaped as entry_set.h says) and a value: a number (the 64 bits the
 * CFNumber holds: a signed quantity arrives in two's complement), a
 * floating-point number, a string, a boolean, or bytes.
 */
enum plat_prop_kind { PLAT_PROP_NUMBER, PLAT_PROP_STRING, PLAT_PROP_BOOL, PLAT_PROP_DATA, PLAT_PROP_FLOAT };

struct plat_prop {
    const char *path;
    enum plat_prop_kind kind;
    uint64_t number;                /* NUMBER; BOOL: 0 or 1 */
    double real;                    /* FLOAT */
    const char *text;               /* STRING */
    const unsigned char *data;      /* DATA */
    uint32_t len;                   /* DATA: bytes */
};

#define PLAT_ENTRY_NAME_MAX 128       /* io_name_t */
struct plat_entry {
    uint64_t id;                    /* IORegistryEntryGetRegistryEntryID */
    uint64_t parent;                /* the parent's id in the query's plane; 0 if none */
    char name[PLAT_ENTRY_NAME_MAX];   /* IORegistryEntryGetName */
    char class_name[PLAT_ENTRY_NAME_MAX]; /* IOObjectGetClass */
    unsigned int nprops;
    const struct plat_prop *prop;
};

/* What a collector asks of the query call: of the IORegistry, the children of a plane path
 * ("IODeviceTree:/cpus"), or the services of a class ("IOBlockStorageDriver"),
 * and with each, its descendants down to depth levels and its ancestors up
 * to ancestors levels (each entry once, however many share it); the
 * property keys wanted (NULL-terminated; NULL: every property). */
struct plat_query {
    const char *match;
    unsigned int depth;
    const char *const *keys;
    unsigned int ancestors;
    unsigned int itself;            /* a plane path: the entry it names, not its children */
};

/*
 * The queries the agent makes (a recorder records them all). A match
 * names the IORegistry, or with a prefix another source (one live file
 * each, src/macos/query.c routes them; resolved at run time where the
 * interface is private):
 *   "IOReport:NAME"  the channels of an IOReport group (src/macos/ioreport.c):
 *                    "energy" ("Energy Model"), "cpu-clusters" and
 *                    "cpu-cores" ("CPU Stats", its subgroups "CPU Complex
 *                    Performance States" and "CPU Core Performance
 *                    States"), "gpu" ("GPU Stats", "GPU Performance
 *                    States"), "bandwidth" ("PMP", on the M5 "PMP0": its
 *                    "DCS BW" memory bandwidth histograms), "ane" ("ANE",
 *                    "IOP State"): entries are
 *                    channels (class IOReportChannel)
 *                    named as the channel; props "subgroup" and "unit"
 *                    (text), "value" (simple channels) and "state.STATE"
 *                    (state residencies, in the order IOReport gives them);
 *                    values are counters, since boot, that never step
 *                    back across a subscription made again (one whose
 *                    channel's provider went away or registered again
 *                    gives no sample ever again: the live source makes it
 *                    again at the rate below, each time waiting longer
 *                    than the last; counter_baseline.h)
 *   "HID:temperature" the HID temperature services (src/macos/hid_sensors.c):
 *                    name the service's "Product", prop "celsius" (float)
 *   "SMC:NAME"       the SMC keys listed in keys (src/macos/smc.c): entries are
 *                    the keys the SMC has, props "type" (the four-character
 *                    data type) and "bytes" (its raw value)
 *   "notify:NAME"    the state of a notify(3) name (src/macos/notify_state.c):
 *                    one entry, prop "state" (number)
 *   "NVMe:health"    the NVMe SMART / Health log page of each NVMe block
 *                    storage device (src/macos/nvme_health.c): entries are
 *                    the devices (id, name and class the registry's), prop
 *                    "smart" (the page's 512 bytes), read in a thread of
 *                    their own at most once per PLAT_NVME_INTERVAL_NS while
 *                    asked, each answer the last finished read's, never one
 *                    older than PLAT_NVME_STALE_NS
 */
#define PLAT_NVME_INTERVAL_NS (600 * 1000000000ull)   /* the log changes slowly: wear, hours, totals */
#define PLAT_NVME_STALE_NS (2 * PLAT_NVME_INTERVAL_NS)
/* A private source that fails (no HID temperature service, an SMC that
 * refuses or is busy, an IOReport subscription that gives no sample) is asked again after a wait that starts at
 * PLAT_RETRY_FIRST_NS and doubles up to PLAT_RETRY_CAP_NS: a Mac without
 * the service costs one call a cap, and one that gains it (hidd restarted,
 * a sensor listed, the SMC awake) has it back within the cap. */
/* An IORegistry walk whose iterator the registry invalidates (an entry
 * attached or gone below the parent walked) starts that iterator again, at
 * most this many times in one query; then the query fails with -EAGAIN. */
#define PLAT_REGISTRY_WALK_RESTARTS 3
#define PLAT_RETRY_FIRST_NS 1000000000ull
#define PLAT_RETRY_CAP_NS 60000000000ull
extern const char *const plat_smc_temperature_keys[];    /* PLAT_QUERY_SMC_TEMPERATURES' keys */

enum plat_query_id {
    PLAT_QUERY_CPUS, PLAT_QUERY_DISKS, PLAT_QUERY_APFS, PLAT_QUERY_GPUS, PLAT_QUERY_BATTERY, PLAT_QUERY_BATTERY_PACK,
    PLAT_QUERY_ENERGY,
    PLAT_QUERY_HID_TEMPERATURES, PLAT_QUERY_SMC_TEMPERATURES, PLAT_QUERY_SMC_FANS, PLAT_QUERY_THERMAL_PRESSURE,
    PLAT_QUERY_PMGR, PLAT_QUERY_CPU_CLUSTERS, PLAT_QUERY_CPU_CORES, PLAT_QUERY_GPU_STATES, PLAT_QUERY_SMC_POWER,
    PLAT_QUERY_SMC_CPU_DIE, PLAT_QUERY_GPU_CLIENTS, PLAT_QUERY_WIFI, PLAT_QUERY_BANDWIDTH,
    PLAT_QUERY_MEMORY_TRAFFIC, PLAT_QUERY_NVME_HEALTH,
    PLAT_QUERY_SMC_CPU_RAILS, PLAT_QUERY_ANE, PLAT_QUERY_ANE_STATES,
    PLAT_QUERY_N
};
extern const struct plat_query plat_queries[PLAT_QUERY_N];

/* The entries; the arrays belong to the source until its next call. */
struct plat_entry_set {
    unsigned int n;
    const struct plat_entry *entry;
};

/*
 * One mounted filesystem as getfsstat(MNT_NOWAIT) reports it: the kernel's
 * cached struct statfs, never a fresh one, so a dead NFS or SMB server
 * cannot stall the caller (its figures are then as of its last refresh).
 * Counts are 64-bit in the kernel's 64-bit-inode statfs.
 */
#define PLAT_FSTYPE_MAX 16          /* MFSTYPENAMELEN */
#define PLAT_PATH_MAX 1024          /* MAXPATHLEN */
struct plat_mount {
    char on[PLAT_PATH_MAX];         /* f_mntonname: the mount point */
    char from[PLAT_PATH_MAX];       /* f_mntfromname: "/dev/disk3s1", "server:/export", "map auto_home" */
    char fstype[PLAT_FSTYPE_MAX];   /* f_fstypename: "apfs", "nfs", "devfs", ... */
    uint32_t flags;                 /* f_flags: MNT_* */
    uint32_t bsize;                 /* f_bsize: fundamental block size, bytes */
    uint64_t blocks, bfree, bavail; /* f_blocks, f_bfree, f_bavail, in f_bsize units */
    uint64_t files, ffree;          /* f_files, f_ffree */
};

#define PLAT_MNT_RDONLY 0x00000001u /* MNT_RDONLY (sys/mount.h) */
#define PLAT_MNT_LOCAL 0x00001000u  /* MNT_LOCAL */
#define PLAT_MAX_MOUNTS 4096

/* The mounts; the array belongs to the source until the next call. */
struct plat_mount_set {
    unsigned int n;
    const struct plat_mount *mount;
};

/*
 * NFS statistics. The client's come from sysctl {CTL_VFS, nfs's type
 * number, NFS_NFSSTATS} (struct nfsclntstats), the server's from
 * nfssvc(NFSSVC_SRVSTATS) (struct nfsrvstats); both structs as XNU's
 * bsd/nfs/nfs.h declares them since xnu-8019.41.5 (macOS 12.2), all
 * 64-bit counters. Each side has its own status: -ENOENT when the NFS
 * client is not loaded (getvfsbyname fails) or the server is absent.
 */
#define PLAT_NFS_NPROCS 23          /* NFS_NPROCS (bsd/nfs/nfsproto.h): NFSv3 procedures and NOOP */
struct plat_nfs_client {
    uint64_t attrcache_hits, attrcache_misses, lookupcache_hits, lookupcache_misses;
    uint64_t direofcache_hits, direofcache_misses, accesscache_hits, accesscache_misses;
    uint64_t biocache_reads, read_bios, read_physios, biocache_writes, write_bios, write_physios;
    uint64_t biocache_readlinks, readlink_bios, biocache_readdirs, readdir_bios;
    uint64_t rpccnt[PLAT_NFS_NPROCS];
    uint64_t rpcretries, rpcrequests, rpctimeouts, rpcunexpected, rpcinvalid, pageins, pageouts;
};
struct plat_nfs_server {
    uint64_t rpccnt[PLAT_NFS_NPROCS];
    uint64_t rpc_errs, errs, cache_inproghits, cache_idemdonehits, cache_nonidemdonehits, cache_misses;
    uint64_t vop_writes;
};
struct plat_nfs {
    int client_status;
    struct plat_nfs_client client;
    int server_status;
    struct plat_nfs_server server;
    int nfsd_status;
    uint32_t nfsd_threads;          /* vfs.generic.nfs.server.nfsd_thread_count: 0 while nfsd is not running */
};

/* The interfaces; the array belongs to the source until the next call. */
struct plat_netif_set {
    unsigned int n;
    const struct plat_netif *netif;
};

/* ---- processes and threads (the proc agent) ---- */

#define PLAT_COMM_MAX 17                /* MAXCOMLEN + 1 */
#define PLAT_WMESG_MAX 8                /* WMESGLEN + 1 */
#define PLAT_THREAD_NAME_MAX 64         /* MAXTHREADNAMESIZE */
#define PLAT_NODEV 0xffffffffu          /* e_tdev of a process without a terminal */
#define PLAT_PID_LIMIT 100000u          /* PID_MAX + 1 (bsd/sys/proc_internal.h): pids are below it */

/* One process as sysctl {CTL_KERN, KERN_PROC, KERN_PROC_ALL} lists it
 * (struct kinfo_proc: extern_proc kp_proc, eproc kp_eproc). Open to every
 * user; nothing here needs a per-process call. */
struct plat_proc {
    int32_t pid;                    /* p_pid */
    int32_t ppid;                   /* e_ppid */
    int32_t pgid;                   /* e_pgid */
    int32_t tpgid;                  /* e_tpgid */
    uint32_t ruid, uid, svuid;      /* e_pcred.p_ruid, e_ucred.cr_uid (effective), e_pcred.p_svuid */
    uint32_t rgid, gid, svgid;      /* e_pcred.p_rgid, e_ucred.cr_groups[0] (effective), e_pcred.p_svgid */
    uint32_t ngroups;               /* e_ucred.cr_ngroups */
    int32_t stat;                   /* p_stat: SIDL 1, SRUN 2, SSLEEP 3, SSTOP 4, SZOMB 5 */
    uint32_t flag;                  /* p_flag (P_TRANSLATED 0x20000, P_SYSTEM 0x200) */
    int32_t nice;                   /* p_nice */
    int32_t priority;               /* p_priority */
    int32_t usrpri;                 /* p_usrpri */
    uint32_t tdev;                  /* e_tdev, PLAT_NODEV without a terminal */
    uint64_t wchan;                 /* p_wchan (zeroed by current kernels) */
    int64_t start_sec;              /* p_starttime, since the epoch */
    int32_t start_usec;
    char comm[PLAT_COMM_MAX];       /* p_comm: the executable's name, truncated */
    char wmesg[PLAT_WMESG_MAX];     /* e_wmesg */
};

/* The processes; the array belongs to the source until the next call. */
struct plat_proc_set {
    unsigned int n;
    const struct plat_proc *proc;
};

/* proc_pidinfo(PROC_PIDTASKINFO), struct proc_taskinfo. Times are Mach
 * absolute time units (xnu osfmk/kern/bsd_kern.c fill_taskprocinfo copies
 * recount's rtm_user/rtm_system); the 32-bit counts saturate at INT32_MAX. */
struct plat_proc_task {
    uint64_t virtual_size;          /* bytes */
    uint64_t resident_size;         /* bytes */
    uint64_t total_user;            /* Mach time, live and exited threads */
    uint64_t total_system;
    int32_t faults, pageins, cow_faults, csw;
    int32_t syscalls_mach, syscalls_unix, messages_sent, messages_received;
    int32_t threadnum, numrunning, priority;
    int policy_status;              /* a capture older than the field lacks it alone */
    int32_t policy;                 /* pti_policy, new threads' Mach policy: POLICY_TIMESHARE 1, RR 2, FIFO 4 */
};

/* proc_pid_rusage: the newest flavor the kernel answers (6, else 4); the
 * fields of a newer flavor are 0 when version is older. Times are Mach
 * absolute time units (xnu osfmk/kern/task.c task_power_info_locked,
 * thread_policy.c thread_update_qos_cpu_time_locked); logical_writes is
 * bytes (the "logical_writes" ledger, declared in bytes in task.c). */
#define PLAT_QOS_CLASSES 7
struct plat_proc_rusage {
    uint32_t version;
    uint64_t user_time, system_time;
    uint64_t pkg_idle_wkups, interrupt_wkups;
    uint64_t phys_footprint, lifetime_max_phys_footprint;
    uint64_t diskio_bytesread, diskio_byteswritten, logical_writes;
    uint64_t qos[PLAT_QOS_CLASSES];  /* default, maintenance, background, utility, legacy,
                                      * user_initiated, user_interactive */
    uint64_t instructions, cycles, runnable_time;           /* flavor 4 on */
    uint64_t user_ptime, system_ptime, energy_nj;           /* flavor 6 on */
};

/* A byte buffer the source owns until its next call. */
struct plat_bytes {
    size_t len;
    const unsigned char *data;
};

/* proc_pidinfo(PROC_PIDLISTFDS): the open descriptors. */
struct plat_proc_fds {
    uint32_t count;
};

/* One thread: PROC_PIDLISTTHREADIDS then PROC_PIDTHREADID64INFO (struct
 * proc_threadinfo). Times are nanoseconds (fill_taskthreadinfo converts
 * the thread's time_value_t). */
struct plat_thread {
    uint64_t tid;                   /* the thread's unique id */
    uint64_t user_ns, system_ns;
    int32_t run_state;              /* TH_STATE_RUNNING 1, STOPPED 2, WAITING 3, UNINTERRUPTIBLE 4, HALTED 5 */
    int32_t flags;                  /* TH_FLAGS_SWAPPED 1, TH_FLAGS_IDLE 2 */
    int32_t curpri, priority;
    int policy_status;              /* a capture older than the field lacks it alone */
    int32_t policy;                 /* pth_policy, the Mach policy in effect (as pti_policy) */
    char name[PLAT_THREAD_NAME_MAX];
};

struct plat_thread_set {
    unsigned int n;
    const struct plat_thread *thread;
};

/* Sockets by the process that last used them (xsocket_n so_last_pid in
 * net.inet.tcp.pcblist_n and net.inet.udp.pcblist_n): one read for all
 * processes instead of one call per socket of each. */
struct plat_sock_owner {
    int32_t pid;
    uint32_t tcp, udp;
};

struct plat_sock_owner_set {
    unsigned int n;
    const struct plat_sock_owner *owner;
};

/* mach_timebase_info: nanoseconds = Mach time * numer / denom
 * (125/3 on Apple Silicon, 1/1 on Intel). */
struct plat_timebase {
    uint32_t numer, denom;
};

/*
 * The calls of struct platform, by the shape of their arguments, for what
 * stands in front of a whole platform (the tests' fault injector): the
 * struct is declared from these lists, so a new call is in them.
 */
#define PLATFORM_CALLS(X)                                                                         \
    X(host, struct plat_host) X(memory, struct plat_memory) X(uname, struct plat_uname)               \
    X(loadavg, struct plat_loadavg) X(cpu_total, struct plat_cpu_ticks) X(cpus, struct plat_cpu_set)  \
    X(clock, struct plat_clock) X(tasks, struct plat_tasks) X(logins, struct plat_login_set)          \
    X(topology, struct plat_topology) X(interfaces, struct plat_netif_set) X(udp, struct plat_udp)    \
    X(icmp, struct plat_icmp) X(ip6, struct plat_ip6) X(tcp, struct plat_tcp)                         \
    X(tcpconn, struct plat_tcpconn) X(mounts, struct plat_mount_set) X(nfs, struct plat_nfs)          \
    X(timebase, struct plat_timebase) X(procs, struct plat_proc_set)                                  \
    X(sock_owners, struct plat_sock_owner_set)
/* Per process: 0, -ESRCH when it has gone, -EPERM when macOS refuses this
 * user (root sees all). proc_args is KERN_PROCARGS2, raw. */
#define PLATFORM_PROCESS_CALLS(X)                                                                 \
    X(proc_task, struct plat_proc_task) X(proc_rusage, struct plat_proc_rusage)                       \
    X(proc_args, struct plat_bytes) X(proc_fds, struct plat_proc_fds) X(proc_threads, struct plat_thread_set)
/* A process's text into out: proc_pidpath, PROC_PIDVNODEPATHINFO's cwd. */
#define PLATFORM_PROCESS_TEXT_CALLS(X) X(proc_path) X(proc_cwd)
/* getpwuid_r / getgrgid_r / devname_r; -ENOENT when there is none. */
#define PLATFORM_NAME_CALLS(X) X(user_name) X(group_name) X(tty_name)

#define PLATFORM_CALL(call, type) int (*call)(void *ctx, type *out);
#define PLATFORM_PROCESS_CALL(call, type) int (*call)(void *ctx, int32_t pid, type *out);
#define PLATFORM_PROCESS_TEXT_CALL(call) int (*call)(void *ctx, int32_t pid, char *out, size_t len);
#define PLATFORM_NAME_CALL(call) int (*call)(void *ctx, uint32_t id, char *out, size_t len);

struct platform {
    const char *name;           /* what the source is, for the agent's "data_source" label: "live" on a Mac */
    void *ctx;
    PLATFORM_CALLS(PLATFORM_CALL)
    int (*sysctls)(void *ctx, enum plat_sysctl_group group, struct plat_sysctl_set *out);
    /* The entries a query asks for, from the source its match names. */
    int (*query)(void *ctx, const struct plat_query *q, struct plat_entry_set *out);
    PLATFORM_PROCESS_CALLS(PLATFORM_PROCESS_CALL)
    PLATFORM_PROCESS_TEXT_CALLS(PLATFORM_PROCESS_TEXT_CALL)
    PLATFORM_NAME_CALLS(PLATFORM_NAME_CALL)
    /* Why the last call failed: every failure it met, "; "-separated (never NULL). */
    const char *(*error)(void *ctx);
    void (*close)(void *ctx);
};

/* The live macOS source; returns -ENOSYS where the module was not built
 * for macOS, with a message that says why in msg (always NUL-terminated). */
int platform_live_open(struct platform *out, char *msg, unsigned int msglen);

#endif
