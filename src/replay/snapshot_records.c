/*
 * The platform structs' descriptions (see snapshot_records.h) and the code
 * that reads, writes, checks and documents any record from them.
 */
#include "snapshot_records.h"
#include "hash_slots.h"
#include "gpu_clients_decode.h"

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NONE REC_NO_STATUS
/* A field: struct type, key, kind, member, the int holding its group's status (or NONE), macOS source. */
#define F(type, key, kind, member, status, source) \
    { key, kind, offsetof(struct type, member), 0, 0, status, 0, source }
#define TEXT(type, key, member, status, source) \
    { key, SNAP_TEXT, offsetof(struct type, member), sizeof(((struct type *)0)->member), 0, status, 0, source }
#define ARRAY(type, key, kind, member, count, source) \
    { key, kind, offsetof(struct type, member), 0, count, NONE, 0, source }
/* F, for a field the agent divides by. */
#define DIVISOR(type, key, kind, member, status, source) \
    { key, kind, offsetof(struct type, member), 0, 0, status, REC_DIVISOR, source }
#define STATUS(type, member) offsetof(struct type, member)
#define DESC(name, record, instancing, instance_doc, fields, most) \
    const struct rec_desc name = { record, instancing, instance_doc, fields, sizeof(fields) / sizeof(fields[0]), most }

static const struct rec_field host_fields[] = {
    DIVISOR(plat_host, "host.page_size", SNAP_GAUGE64, page_size, STATUS(plat_host, page_status), "`host_page_size()`"),
    DIVISOR(plat_host, "host.clock_hz", SNAP_GAUGE32, clock_hz, STATUS(plat_host, clock_status), "`kern.clockrate` hz"),
    F(plat_host, "host.memsize", SNAP_GAUGE64, memsize, STATUS(plat_host, memsize_status), "`hw.memsize`"),
    TEXT(plat_host, "host.model", model, STATUS(plat_host, model_status), "`hw.model`"),
};
DESC(rec_host, NULL, REC_PLAIN, NULL, host_fields, 0);

static const struct rec_field uname_fields[] = {
    TEXT(plat_uname, "uname.sysname", sysname, NONE, "`uname(3)`"),
    TEXT(plat_uname, "uname.nodename", nodename, NONE, NULL),
    TEXT(plat_uname, "uname.release", release, NONE, NULL),
    TEXT(plat_uname, "uname.version", version, NONE, NULL),
    TEXT(plat_uname, "uname.machine", machine, NONE, NULL),
    TEXT(plat_uname, "uname.product_version", product_version, STATUS(plat_uname, product_status),
         "`kern.osproductversion`"),
};
DESC(rec_uname, NULL, REC_PLAIN, NULL, uname_fields, 0);

_Static_assert(offsetof(struct plat_clock, boot_usec) == offsetof(struct plat_clock, boot_sec) + 8,
               "SNAP_TIME fields are an int64_t of seconds and the int32_t of microseconds after it");
static const struct rec_field clock_fields[] = {
    F(plat_clock, "clock.boot", SNAP_TIME, boot_sec, NONE, "`kern.boottime`"),
};
DESC(rec_clock, NULL, REC_PLAIN, NULL, clock_fields, 0);

#define VM(member, kind, source) \
    F(plat_memory, "vm." #member, kind, vm.member, STATUS(plat_memory, vm_status), source)
#define COMPRESSOR(key, stat, source) \
    F(plat_memory, "compressor." key, SNAP_COUNTER64, compressor[stat], STATUS(plat_memory, compressor_status[stat]), source)
static const struct rec_field memory_fields[] = {
    VM(free_count, SNAP_GAUGE32, "`host_statistics64(HOST_VM_INFO64)`"),
    VM(active_count, SNAP_GAUGE32, NULL),
    VM(inactive_count, SNAP_GAUGE32, NULL),
    VM(wire_count, SNAP_GAUGE32, NULL),
    VM(compressor_page_count, SNAP_GAUGE32, NULL),
    VM(total_uncompressed_pages_in_compressor, SNAP_GAUGE64, NULL),
    VM(reactivations, SNAP_COUNTER64, NULL),
    VM(faults, SNAP_COUNTER64, NULL),
    VM(cow_faults, SNAP_COUNTER64, NULL),
    VM(zero_fill_count, SNAP_COUNTER64, NULL),
    VM(pageins, SNAP_COUNTER64, NULL),
    VM(pageouts, SNAP_COUNTER64, NULL),
    VM(swapins, SNAP_COUNTER64, NULL),
    VM(swapouts, SNAP_COUNTER64, NULL),
    VM(compressions, SNAP_COUNTER64, NULL),
    VM(decompressions, SNAP_COUNTER64, NULL),
    VM(speculative_count, SNAP_GAUGE32, NULL),
    VM(throttled_count, SNAP_GAUGE32, NULL),
    VM(purgeable_count, SNAP_GAUGE32, NULL),
    VM(external_page_count, SNAP_GAUGE32, NULL),
    VM(internal_page_count, SNAP_GAUGE32, NULL),
    VM(purges, SNAP_COUNTER64, NULL),
    F(plat_memory, "swap.total", SNAP_GAUGE64, swap.total, STATUS(plat_memory, swap_status), "`vm.swapusage`, bytes"),
    F(plat_memory, "swap.avail", SNAP_GAUGE64, swap.avail, STATUS(plat_memory, swap_status), NULL),
    F(plat_memory, "swap.used", SNAP_GAUGE64, swap.used, STATUS(plat_memory, swap_status), NULL),
    COMPRESSOR("swapouts_under_30s", PLAT_COMP_SWAPOUTS_UNDER_30S, "`vm.compressor_swapouts_under_30s` etc."),
    COMPRESSOR("swapouts_under_60s", PLAT_COMP_SWAPOUTS_UNDER_60S, NULL),
    COMPRESSOR("swapouts_under_300s", PLAT_COMP_SWAPOUTS_UNDER_300S, NULL),
    COMPRESSOR("thrashing_detected", PLAT_COMP_THRASHING_DETECTED,
               "`vm.compressor_swapper_swapout_thrashing_detected`"),
    COMPRESSOR("lz4_compressions", PLAT_COMP_LZ4_COMPRESSIONS, "`vm.lz4_compressions`"),
};
DESC(rec_memory, NULL, REC_PLAIN, NULL, memory_fields, 0);

static const struct rec_field loadavg_fields[] = {
    F(plat_loadavg, "load.avg1", SNAP_GAUGE32, ldavg[0], NONE, "`vm.loadavg` (fixed point)"),
    F(plat_loadavg, "load.avg5", SNAP_GAUGE32, ldavg[1], NONE, NULL),
    F(plat_loadavg, "load.avg15", SNAP_GAUGE32, ldavg[2], NONE, NULL),
    DIVISOR(plat_loadavg, "load.fscale", SNAP_GAUGE64, fscale, NONE, NULL),
};
DESC(rec_loadavg, NULL, REC_PLAIN, NULL, loadavg_fields, 0);

/* "cpu.user" (host totals) and "cpu[NAME].user" (each CPU). */
static const struct rec_field ticks_fields[] = {
    F(plat_cpu_ticks, "user", SNAP_COUNTER32, user, NONE,
      "ticks of each CPU: `host_processor_info(PROCESSOR_CPU_LOAD_INFO)`; the totals are theirs added "
      "up in 32 bits, as `HOST_CPU_LOAD_INFO` adds them (that call is rate-limited)"),
    F(plat_cpu_ticks, "sys", SNAP_COUNTER32, sys, NONE, NULL),
    F(plat_cpu_ticks, "idle", SNAP_COUNTER32, idle, NONE, NULL),
    F(plat_cpu_ticks, "nice", SNAP_COUNTER32, nice, NONE, NULL),
};
DESC(rec_ticks, "cpu", REC_BOTH, "NAME", ticks_fields, PLAT_MAX_CPUS);

static const struct rec_field tasks_fields[] = {
    F(plat_tasks, "tasks.count", SNAP_GAUGE32, tasks, NONE,
      "`processor_set_statistics(PROCESSOR_SET_LOAD_INFO)` on the default processor set"),
    F(plat_tasks, "tasks.threads", SNAP_GAUGE32, threads, NONE, NULL),
};
DESC(rec_tasks, NULL, REC_PLAIN, NULL, tasks_fields, 0);

static const struct rec_field login_fields[] = {
    F(plat_login, "type", SNAP_INT, type, NONE,
      "a utmpx record's `ut_type` (7 is USER_PROCESS); N is the record's position"),
    { "user", SNAP_TEXT, offsetof(struct plat_login, user), sizeof(((struct plat_login *)0)->user), 0, NONE,
      REC_ABSENT_IS_EMPTY, "its `ut_user`; absent when empty" },
};
DESC(rec_login, "utmpx", REC_INSTANCED, "N", login_fields, 0);

static const struct rec_field topology_fields[] = {
    TEXT(plat_topology, "topology.brand", brand, STATUS(plat_topology, brand_status), "`machdep.cpu.brand_string`"),
};
DESC(rec_topology, NULL, REC_PLAIN, NULL, topology_fields, 0);

/* Every value is a uint64_t (plat_perflevel.value[]): a 64-bit kind, so
 * that a read fills all of it, as the live reader's does. */
#define LEVEL(key, field, source) \
    F(plat_perflevel, key, SNAP_GAUGE64, value[field], STATUS(plat_perflevel, status[field]), source)
static const struct rec_field perflevel_fields[] = {
    TEXT(plat_perflevel, "name", name, STATUS(plat_perflevel, name_status), "`hw.perflevelN.name`"),
    LEVEL("physicalcpu", PLAT_PL_PHYSICALCPU, "`hw.perflevelN.*`"),
    LEVEL("logicalcpu", PLAT_PL_LOGICALCPU, NULL),
    LEVEL("l1icachesize", PLAT_PL_L1ICACHESIZE, "`hw.perflevelN.*`, bytes"),
    LEVEL("l1dcachesize", PLAT_PL_L1DCACHESIZE, NULL),
    LEVEL("l2cachesize", PLAT_PL_L2CACHESIZE, NULL),
    LEVEL("cpusperl2", PLAT_PL_CPUSPERL2, "`hw.perflevelN.*`"),
    LEVEL("l3cachesize", PLAT_PL_L3CACHESIZE, "`hw.perflevelN.*`, bytes (absent on Apple Silicon)"),
    LEVEL("cpusperl3", PLAT_PL_CPUSPERL3, "`hw.perflevelN.*` (absent on Apple Silicon)"),
};
DESC(rec_perflevel, "perflevel", REC_INSTANCED, "N", perflevel_fields, PLAT_MAX_PERFLEVELS);

#define NETIF(member, kind, source) F(plat_netif, #member, kind, member, NONE, source)
static const struct rec_field netif_fields[] = {
    NETIF(index, SNAP_GAUGE32, "the interface's `if_msghdr2` in `NET_RT_IFLIST2` (`ifm_index`, `ifm_flags`, "
          "`ifi_type`, `ifi_mtu`)"),
    NETIF(flags, SNAP_GAUGE32, NULL),
    NETIF(type, SNAP_GAUGE32, NULL),
    NETIF(mtu, SNAP_GAUGE32, NULL),
    NETIF(baudrate, SNAP_GAUGE64, "`ifi_baudrate`, bits per second"),
    NETIF(ipackets, SNAP_COUNTER64, "the `if_data64` counters"),
    NETIF(ierrors, SNAP_COUNTER64, NULL),
    NETIF(opackets, SNAP_COUNTER64, NULL),
    NETIF(oerrors, SNAP_COUNTER64, NULL),
    NETIF(collisions, SNAP_COUNTER64, NULL),
    /* as NET_RT_IFLIST2 gives them, possibly truncated to 32 bits: replayed
     * as recorded, not interpolated */
    NETIF(ibytes, SNAP_GAUGE64, "the `if_data64` byte counters as `NET_RT_IFLIST2` gives them: truncated to "
          "32 bits on some releases, so replayed as recorded, not interpolated"),
    NETIF(obytes, SNAP_GAUGE64, NULL),
    NETIF(imcasts, SNAP_COUNTER64, "the `if_data64` counters"),
    NETIF(omcasts, SNAP_COUNTER64, NULL),
    NETIF(iqdrops, SNAP_COUNTER64, NULL),
    NETIF(snd_drops, SNAP_COUNTER32, "`ifm_snd_drops`"),
    F(plat_netif, "functional_type", SNAP_GAUGE32, functional_type, STATUS(plat_netif, functional_status),
      "`SIOCGIFFUNCTIONALTYPE` (0 unknown, 1 loopback, 2 wired, 3 Wi-Fi, 4 AWDL, 5 cellular, ...); absent if "
      "the ioctl failed"),
    F(plat_netif, "mib_ibytes", SNAP_COUNTER64, mib_ibytes, STATUS(plat_netif, mib_status),
      "the interface's `IFMIB_IFDATA` record (`ifmd_data`), the untruncated byte counters; absent if unreadable"),
    F(plat_netif, "mib_obytes", SNAP_COUNTER64, mib_obytes, STATUS(plat_netif, mib_status), NULL),
};
DESC(rec_netif, "netif", REC_INSTANCED, "NAME", netif_fields, PLAT_MAX_NETIFS);

#define UDP(member, source) F(plat_udp, "udp." #member, SNAP_COUNTER32, member, NONE, source)
static const struct rec_field udp_fields[] = {
    UDP(ipackets, "`net.inet.udp.stats` (struct udpstat)"),
    UDP(hdrops, NULL), UDP(badsum, NULL), UDP(badlen, NULL), UDP(noport, NULL), UDP(fullsock, NULL),
    UDP(opackets, NULL),
};
DESC(rec_udp, NULL, REC_PLAIN, NULL, udp_fields, 0);

#define ICMP(member, source) F(plat_icmp, "icmp." #member, SNAP_COUNTER32, member, NONE, source)
static const struct rec_field icmp_fields[] = {
    ICMP(error, "`net.inet.icmp.stats` (struct icmpstat, 368 bytes)"),
    ICMP(badcode, NULL), ICMP(tooshort, NULL), ICMP(checksum, NULL), ICMP(badlen, NULL),
    ARRAY(plat_icmp, "icmp.inhist", SNAP_COUNTER32, inhist, PLAT_ICMP_NTYPES,
          "messages by ICMP type N, 0-40 (XNU's `ICMP_MAXTYPE`), received and sent; snapshots made before "
          "the layout was fixed have types 0-18 only, read from the wrong offsets, and their ICMP metrics "
          "report a missing key"),
    ARRAY(plat_icmp, "icmp.outhist", SNAP_COUNTER32, outhist, PLAT_ICMP_NTYPES, NULL),
};
DESC(rec_icmp, NULL, REC_PLAIN, NULL, icmp_fields, 0);

#define IP6(member, source) F(plat_ip6, "ip6." #member, SNAP_COUNTER64, member, NONE, source)
static const struct rec_field ip6_fields[] = {
    IP6(total, "`net.inet6.ip6.stats` (struct ip6stat)"),
    IP6(tooshort, NULL), IP6(toosmall, NULL), IP6(forward, NULL), IP6(odropped, NULL), IP6(reassembled, NULL),
    IP6(ofragments, NULL),
};
DESC(rec_ip6, NULL, REC_PLAIN, NULL, ip6_fields, 0);

#define TCP(member, source) F(plat_tcp, "tcp." #member, SNAP_COUNTER32, member, NONE, source)
static const struct rec_field tcp_fields[] = {
    TCP(connattempt, "`net.inet.tcp.stats` (struct tcpstat), as handed out: zeros while withheld"),
    TCP(accepts, NULL), TCP(drops, NULL), TCP(conndrops, NULL), TCP(sndtotal, NULL), TCP(sndrexmitpack, NULL),
    TCP(sndctrl, NULL), TCP(rcvtotal, NULL), TCP(rcvbadsum, NULL), TCP(rcvbadoff, NULL), TCP(rcvmemdrop, NULL),
    TCP(rcvshort, NULL),
    F(plat_tcp, "tcp.access_disabled", SNAP_GAUGE32, access_disabled, STATUS(plat_tcp, access_status),
      "`net.inet.tcp.disable_access_to_stats`"),
};
DESC(rec_tcp, NULL, REC_PLAIN, NULL, tcp_fields, 0);

/* By TCPS_* state number (netinet/tcp_fsm.h). */
#define TCPCONN(key, tcps, source) F(plat_tcpconn, "tcpconn." key, SNAP_GAUGE32, state[tcps], NONE, source)
static const struct rec_field tcpconn_fields[] = {
    TCPCONN("closed", 0, "connections by state, counted from `net.inet.tcp.pcblist_n` (the count, not the "
            "records: no addresses are recorded)"),
    TCPCONN("listen", 1, NULL), TCPCONN("syn_sent", 2, NULL), TCPCONN("syn_received", 3, NULL),
    TCPCONN("established", 4, NULL), TCPCONN("close_wait", 5, NULL), TCPCONN("fin_wait_1", 6, NULL),
    TCPCONN("closing", 7, NULL), TCPCONN("last_ack", 8, NULL), TCPCONN("fin_wait_2", 9, NULL),
    TCPCONN("time_wait", 10, NULL),
    F(plat_tcpconn, "tcpconn.unknown_state", SNAP_GAUGE32, unknown_state, NONE, NULL),
};
DESC(rec_tcpconn, NULL, REC_PLAIN, NULL, tcpconn_fields, 0);

#define MOUNT(member, kind, source) F(plat_mount, #member, kind, member, NONE, source)
static const struct rec_field mount_fields[] = {
    TEXT(plat_mount, "on", on, NONE, "`getfsstat(MNT_NOWAIT)`: the kernel's cached `struct statfs` of mount "
         "N: `f_mntonname`"),
    TEXT(plat_mount, "from", from, NONE, "`f_mntfromname`"),
    TEXT(plat_mount, "fstype", fstype, NONE, "`f_fstypename`"),
    MOUNT(flags, SNAP_GAUGE32, "`f_flags` (`MNT_RDONLY` 0x1, `MNT_LOCAL` 0x1000, ...)"),
    MOUNT(bsize, SNAP_GAUGE32, "`f_bsize`, bytes"),
    MOUNT(blocks, SNAP_GAUGE64, "`f_blocks`, `f_bfree`, `f_bavail`, in `f_bsize` units"),
    MOUNT(bfree, SNAP_GAUGE64, NULL),
    MOUNT(bavail, SNAP_GAUGE64, NULL),
    MOUNT(files, SNAP_GAUGE64, "`f_files`, `f_ffree`"),
    MOUNT(ffree, SNAP_GAUGE64, NULL),
};
DESC(rec_mount, "mount", REC_INSTANCED, "N", mount_fields, PLAT_MAX_MOUNTS);

#define CLIENT(member, source) \
    F(plat_nfs, "nfs.client." #member, SNAP_COUNTER64, client.member, STATUS(plat_nfs, client_status), source)
#define SERVER(member, source) \
    F(plat_nfs, "nfs.server." #member, SNAP_COUNTER64, server.member, STATUS(plat_nfs, server_status), source)
static const struct rec_field nfs_fields[] = {
    CLIENT(attrcache_hits, "sysctl {`CTL_VFS`, nfs, `NFS_NFSSTATS`} (struct nfsclntstats); absent when the "
           "NFS client is not loaded"),
    CLIENT(attrcache_misses, NULL), CLIENT(lookupcache_hits, NULL), CLIENT(lookupcache_misses, NULL),
    CLIENT(direofcache_hits, NULL), CLIENT(direofcache_misses, NULL), CLIENT(accesscache_hits, NULL),
    CLIENT(accesscache_misses, NULL), CLIENT(biocache_reads, NULL), CLIENT(read_bios, NULL),
    CLIENT(read_physios, NULL), CLIENT(biocache_writes, NULL), CLIENT(write_bios, NULL),
    CLIENT(write_physios, NULL), CLIENT(biocache_readlinks, NULL), CLIENT(readlink_bios, NULL),
    CLIENT(biocache_readdirs, NULL), CLIENT(readdir_bios, NULL),
    { "nfs.client.rpccnt", SNAP_COUNTER64, offsetof(struct plat_nfs, client.rpccnt), 0, PLAT_NFS_NPROCS,
      STATUS(plat_nfs, client_status), 0, "`rpccntv3[N]`: NFSv3 calls by procedure number N, 0-22 (22: NOOP)" },
    CLIENT(rpcretries, NULL), CLIENT(rpcrequests, NULL), CLIENT(rpctimeouts, NULL), CLIENT(rpcunexpected, NULL),
    CLIENT(rpcinvalid, NULL), CLIENT(pageins, NULL), CLIENT(pageouts, NULL),
    { "nfs.server.rpccnt", SNAP_COUNTER64, offsetof(struct plat_nfs, server.rpccnt), 0, PLAT_NFS_NPROCS,
      STATUS(plat_nfs, server_status), 0, "`nfssvc(NFSSVC_SRVSTATS)` (struct nfsrvstats): `srvrpccntv3[N]`" },
    SERVER(rpc_errs, "`srvrpc_errs`, `srv_errs`, `srvcache_*`, `srvvop_writes`"), SERVER(errs, NULL),
    SERVER(cache_inproghits, NULL), SERVER(cache_idemdonehits, NULL), SERVER(cache_nonidemdonehits, NULL),
    SERVER(cache_misses, NULL), SERVER(vop_writes, NULL),
    F(plat_nfs, "nfs.nfsd_threads", SNAP_GAUGE32, nfsd_threads, STATUS(plat_nfs, nfsd_status),
      "`vfs.generic.nfs.server.nfsd_thread_count`"),
};
DESC(rec_nfs, NULL, REC_PLAIN, NULL, nfs_fields, 0);

static const struct rec_field timebase_fields[] = {
    F(plat_timebase, "timebase.numer", SNAP_GAUGE32, numer, NONE,
      "`mach_timebase_info()`: ns = Mach time * numer / denom (125/3 on Apple Silicon, 1/1 on Intel)"),
    DIVISOR(plat_timebase, "timebase.denom", SNAP_GAUGE32, denom, NONE, NULL),
};
DESC(rec_timebase, NULL, REC_PLAIN, NULL, timebase_fields, 0);

#define KP(member, kind, source) F(snap_proc, #member, kind, proc.member, NONE, source)
#define PTEXT(key, member, source) \
    { key, SNAP_TEXT, offsetof(struct snap_proc_text, member), sizeof(((struct snap_proc_text *)0)->member), 0, \
      NONE, REC_ABSENT_IS_EMPTY, source }
static const struct rec_field proc_fields[] = {
    KP(ppid, SNAP_INT, "sysctl {`CTL_KERN`, `KERN_PROC`, `KERN_PROC_ALL`} (struct kinfo_proc) of process "
       "PID: `e_ppid`, `e_pgid`, `e_tpgid`"),
    KP(pgid, SNAP_INT, NULL), KP(tpgid, SNAP_INT, NULL),
    KP(ruid, SNAP_GAUGE32, "`e_pcred.p_ruid`, `e_ucred.cr_uid`, `e_pcred.p_svuid`"),
    KP(uid, SNAP_GAUGE32, NULL), KP(svuid, SNAP_GAUGE32, NULL),
    KP(rgid, SNAP_GAUGE32, "`e_pcred.p_rgid`, `e_ucred.cr_groups[0]`, `e_pcred.p_svgid`, `e_ucred.cr_ngroups`"),
    KP(gid, SNAP_GAUGE32, NULL), KP(svgid, SNAP_GAUGE32, NULL), KP(ngroups, SNAP_GAUGE32, NULL),
    KP(stat, SNAP_INT, "`p_stat` (1 SIDL, 2 SRUN, 3 SSLEEP, 4 SSTOP, 5 SZOMB)"),
    KP(flag, SNAP_GAUGE32, "`p_flag` (0x20000 P_TRANSLATED)"),
    KP(nice, SNAP_INT, "`p_nice`, `p_priority`, `p_usrpri`"), KP(priority, SNAP_INT, NULL),
    KP(usrpri, SNAP_INT, NULL),
    KP(tdev, SNAP_GAUGE32, "`e_tdev` (4294967295: no terminal)"),
    KP(wchan, SNAP_GAUGE64, "`p_wchan`"),
    F(snap_proc, "start", SNAP_TIME, proc.start_sec, NONE, "`p_starttime`"),
    { "comm", SNAP_TEXT, offsetof(struct snap_proc, proc.comm), PLAT_COMM_MAX, 0, NONE, 0, "`p_comm`" },
    { "wmesg", SNAP_TEXT, offsetof(struct snap_proc, proc.wmesg), PLAT_WMESG_MAX, 0, NONE, REC_ABSENT_IS_EMPTY,
      "`e_wmesg`" },
    F(snap_proc, "refused", SNAP_GAUGE32, refused, NONE,
      "the per-process calls macOS refused the recording user: 1 task, 2 rusage, 4 args, 8 cwd, 16 fds, "
      "32 threads (0 for root)"),
    F(snap_proc, "fds", SNAP_GAUGE32, fds, STATUS(snap_proc, fds_status),
      "`proc_pidinfo(PROC_PIDLISTFDS)`: open descriptors"),
};
DESC(rec_proc, "proc", REC_INSTANCED, "PID", proc_fields, PLAT_PID_LIMIT);

static const struct rec_field proc_text_fields[] = {
    PTEXT("path", path, "`proc_pidpath()`"),
    PTEXT("cwd", cwd, "`proc_pidinfo(PROC_PIDVNODEPATHINFO)` `pvi_cdir`"),
    PTEXT("args", args_hex, "sysctl {`CTL_KERN`, `KERN_PROCARGS2`, PID}: the raw buffer in hex (at most "
          "8192 bytes)"),
    PTEXT("threads", threads, "`proc_pidinfo(PROC_PIDLISTTHREADIDS)`: the thread ids, space-separated"),
};
DESC(rec_proc_text, "proc", REC_INSTANCED, "PID", proc_text_fields, PLAT_PID_LIMIT);

#define TASK(member, kind, source) F(plat_proc_task, "task." #member, kind, member, NONE, source)
static const struct rec_field proc_task_fields[] = {
    TASK(virtual_size, SNAP_GAUGE64, "`proc_pidinfo(PROC_PIDTASKINFO)` (struct proc_taskinfo): `pti_*`; "
         "sizes in bytes, times in Mach time units"),
    TASK(resident_size, SNAP_GAUGE64, NULL), TASK(total_user, SNAP_COUNTER64, NULL),
    TASK(total_system, SNAP_COUNTER64, NULL), TASK(faults, SNAP_INT, NULL), TASK(pageins, SNAP_INT, NULL),
    TASK(cow_faults, SNAP_INT, NULL), TASK(csw, SNAP_INT, NULL), TASK(syscalls_mach, SNAP_INT, NULL),
    TASK(syscalls_unix, SNAP_INT, NULL), TASK(messages_sent, SNAP_INT, NULL),
    TASK(messages_received, SNAP_INT, NULL), TASK(threadnum, SNAP_INT, NULL), TASK(numrunning, SNAP_INT, NULL),
    TASK(priority, SNAP_INT, NULL),
    F(plat_proc_task, "task.policy", SNAP_INT, policy, STATUS(plat_proc_task, policy_status), NULL),
};
DESC(rec_proc_task, "proc", REC_INSTANCED, "PID", proc_task_fields, PLAT_PID_LIMIT);

#define RU(member, source) F(plat_proc_rusage, "rusage." #member, SNAP_COUNTER64, member, NONE, source)
static const struct rec_field proc_rusage_fields[] = {
    F(plat_proc_rusage, "rusage.version", SNAP_GAUGE32, version, NONE,
      "`proc_pid_rusage()`: the flavor answered (6, else 4); fields of newer flavors are absent"),
    RU(user_time, "`ri_*`; times in Mach time units, I/O in bytes, energy in nJ"), RU(system_time, NULL),
    RU(pkg_idle_wkups, NULL), RU(interrupt_wkups, NULL),
    F(plat_proc_rusage, "rusage.phys_footprint", SNAP_GAUGE64, phys_footprint, NONE, NULL),
    F(plat_proc_rusage, "rusage.lifetime_max_phys_footprint", SNAP_GAUGE64, lifetime_max_phys_footprint, NONE,
      NULL),
    RU(diskio_bytesread, NULL), RU(diskio_byteswritten, NULL), RU(logical_writes, NULL),
    { "rusage.qos", SNAP_COUNTER64, offsetof(struct plat_proc_rusage, qos), 0, PLAT_QOS_CLASSES, NONE, 0,
      "`ri_cpu_time_qos_*` by class: 0 default, 1 maintenance, 2 background, 3 utility, 4 legacy, "
      "5 user_initiated, 6 user_interactive" },
    RU(instructions, NULL), RU(cycles, NULL), RU(runnable_time, NULL),
    RU(user_ptime, NULL), RU(system_ptime, NULL), RU(energy_nj, NULL),
};
DESC(rec_proc_rusage, "proc", REC_INSTANCED, "PID", proc_rusage_fields, PLAT_PID_LIMIT);

#define TH(member, kind, source) F(plat_thread, #member, kind, member, NONE, source)
static const struct rec_field thread_fields[] = {
    TH(user_ns, SNAP_COUNTER64, "`proc_pidinfo(PROC_PIDTHREADID64INFO)` (struct proc_threadinfo) of thread "
       "TID: `pth_*`; times in ns"),
    TH(system_ns, SNAP_COUNTER64, NULL), TH(run_state, SNAP_INT, NULL), TH(flags, SNAP_INT, NULL),
    TH(curpri, SNAP_INT, NULL), TH(priority, SNAP_INT, NULL),
    F(plat_thread, "policy", SNAP_INT, policy, STATUS(plat_thread, policy_status), NULL),
    { "name", SNAP_TEXT, offsetof(struct plat_thread, name), PLAT_THREAD_NAME_MAX, 0, NONE, REC_ABSENT_IS_EMPTY,
      "`pth_name`" },
};
DESC(rec_thread, "thread", REC_INSTANCED, "TID", thread_fields, 0);

static const struct rec_field sock_owner_fields[] = {
    F(plat_sock_owner, "tcp", SNAP_GAUGE32, tcp, NONE, "`net.inet.tcp.pcblist_n` and `net.inet.udp.pcblist_n`: "
      "sockets whose `so_last_pid` is PID"),
    F(plat_sock_owner, "udp", SNAP_GAUGE32, udp, NONE, NULL),
};
DESC(rec_sock_owner, "sockets", REC_INSTANCED, "PID", sock_owner_fields, PLAT_PID_LIMIT);

static const struct rec_field user_fields[] = {
    TEXT(snap_name, "name", name, NONE, "`getpwuid_r()` of user UID"),
};
DESC(rec_user, "user", REC_INSTANCED, "UID", user_fields, 0);
static const struct rec_field group_fields[] = {
    TEXT(snap_name, "name", name, NONE, "`getgrgid_r()` of group GID"),
};
DESC(rec_group, "group", REC_INSTANCED, "GID", group_fields, 0);
static const struct rec_field tty_fields[] = {
    TEXT(snap_name, "name", name, NONE, "`devname_r()` of character device DEV"),
};
DESC(rec_tty, "tty", REC_INSTANCED, "DEV", tty_fields, 0);

const struct rec_desc *const rec_all[] = {
    &rec_host, &rec_uname, &rec_clock, &rec_memory, &rec_loadavg, &rec_ticks, &rec_tasks, &rec_login,
    &rec_topology, &rec_perflevel, &rec_netif, &rec_udp, &rec_icmp, &rec_ip6, &rec_tcp, &rec_tcpconn,
    &rec_mount, &rec_nfs, &rec_timebase, &rec_proc, &rec_proc_text, &rec_proc_task, &rec_proc_rusage, &rec_thread,
    &rec_sock_owner, &rec_user, &rec_group, &rec_tty,
};
const unsigned int rec_nall = sizeof(rec_all) / sizeof(rec_all[0]);

/* What only the per-process calls read (procs, proc_*, sock_owners and the
 * user, group and tty names): a snapshot's bulk, which the system agent
 * never asks for. */
static int
per_process(const struct rec_desc *d)
{
    static const struct rec_desc *const process_records[] = {
        &rec_proc, &rec_proc_text, &rec_proc_task, &rec_proc_rusage, &rec_thread, &rec_sock_owner, &rec_user,
        &rec_group, &rec_tty,
    };

    for (size_t i = 0; i < sizeof(process_records) / sizeof(process_records[0]); i++)
        if (d == process_records[i])
            return 1;
    return 0;
}

int
rec_sysctl_is_counter(enum plat_sysctl_group group, unsigned int index)
{
    unsigned int n;
    const struct plat_sysctl_def *defs = plat_sysctl_defs(group, &n);

    return defs != NULL && index < n && defs[index].growth == PLAT_SYSCTL_COUNTER;
}

int
rec_sysctl_listed_before(enum plat_sysctl_group group, const char *name)
{
    for (int f = 0; f < (int)group; f++) {
        unsigned int n;
        const struct plat_sysctl_def *defs = plat_sysctl_defs((enum plat_sysctl_group)f, &n);

        for (unsigned int i = 0; i < n; i++)
            if (strcmp(defs[i].name, name) == 0)
                return 1;
    }
    return 0;
}

/* Registry properties whose numbers only grow, by query: key path prefixes. */
static const char *const statistics[] = { "Statistics.", NULL };
static const char *const simple_value[] = { "value", NULL };   /* an IOReport simple channel's */
static const char *const residencies[] = { "state.", NULL };
static const char *const gpu_usage[] = { GPU_CLIENT_USAGE_KEY ".", NULL };
static const char *const *const registry_counters[PLAT_QUERY_N] = {
    [PLAT_QUERY_DISKS] = statistics,
    [PLAT_QUERY_APFS] = statistics,
    [PLAT_QUERY_ENERGY] = simple_value,
    [PLAT_QUERY_CPU_CLUSTERS] = residencies,
    [PLAT_QUERY_CPU_CORES] = residencies,
    [PLAT_QUERY_GPU_STATES] = residencies,
    [PLAT_QUERY_GPU_CLIENTS] = gpu_usage,
    [PLAT_QUERY_BANDWIDTH] = residencies,
    [PLAT_QUERY_MEMORY_TRAFFIC] = simple_value,
};

int
rec_registry_is_counter(const struct plat_query *q, const char *path)
{
    for (int id = 0; id < PLAT_QUERY_N; id++) {
        if (q != &plat_queries[id])
            continue;
        for (const char *const *c = registry_counters[id]; c != NULL && *c != NULL; c++)
            if (strncmp(path, *c, strlen(*c)) == 0)
                return 1;
    }
    return 0;                           /* a query the agent does not make has none */
}

/* Each field's key has its record: the prefix is written once per record. */
size_t
rec_key_prefix(char *buf, size_t size, const struct rec_desc *d, const char *instance)
{
    int n = 0;

    buf[0] = '\0';
    if (d->record != NULL && instance == NULL)
        n = snprintf(buf, size, "%s.", d->record);
    else if (d->record != NULL)
        n = snprintf(buf, size, "%s[%s].", d->record, instance);
    return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

/* The key of element i of field f after the prefix already in buf
 * ("vm.free_count", "netif[en0].index", "icmp.inhist_3"): plain copies,
 * as replay builds hundreds of keys a round. */
const char *
rec_field_key(char *buf, size_t size, size_t prefix, const struct rec_field *f, unsigned int i)
{
    size_t len = strlen(f->key), at = prefix;
    char digits[12];
    int nd = 0;

    if (at + len >= size)
        len = size - at - 1;
    memcpy(buf + at, f->key, len);
    at += len;
    if (f->count > 1) {
        do
            digits[nd++] = (char)('0' + i % 10);
        while ((i /= 10) > 0);
        if (at + 1 + (size_t)nd < size) {
            buf[at++] = '_';
            while (nd > 0)
                buf[at++] = digits[--nd];
        }
    }
    buf[at] = '\0';
    return buf;
}

unsigned int
rec_elements(const struct rec_field *f)
{
    return f->count > 1 ? f->count : 1;
}

size_t
rec_element_size(const struct rec_field *f)
{
    switch (f->kind) {
    case SNAP_COUNTER32: case SNAP_GAUGE32: case SNAP_INT: return 4;
    case SNAP_COUNTER64: case SNAP_GAUGE64: return 8;
    case SNAP_TEXT: return f->size;
    case SNAP_TIME: return 12;          /* int64_t seconds, int32_t microseconds */
    case SNAP_REGISTRY: break;
    }
    return 0;
}

/* One element of a field from entry e (NULL: the file lacks the key). */
static int
read_one(struct snap *s, const struct rec_field *f, const struct snap_entry *e, unsigned char *at)
{
    uint64_t v;
    int32_t iv;
    const char *text;
    int sts;

    if (f->kind == SNAP_TEXT && (f->flags & REC_ABSENT_IS_EMPTY) && !snap_has_of(s, e)) {
        at[0] = '\0';
        return 0;
    }
    if (e == NULL)
        return -ENOENT;                 /* the caller names the key */
    switch (f->kind) {
    case SNAP_COUNTER32:
    case SNAP_GAUGE32:
        if ((sts = snap_u64_of(s, e, &v)) == 0) {
            uint32_t v32 = (uint32_t)v;     /* the schema bounds 32-bit kinds at parse time */

            memcpy(at, &v32, sizeof(v32));
        }
        return sts;
    case SNAP_COUNTER64:
    case SNAP_GAUGE64:
        if ((sts = snap_u64_of(s, e, &v)) == 0)
            memcpy(at, &v, sizeof(v));
        return sts;
    case SNAP_INT:
        if ((sts = snap_int_of(s, e, &iv)) == 0)
            memcpy(at, &iv, sizeof(iv));
        return sts;
    case SNAP_TEXT:
        if ((sts = snap_text_of(s, e, &text)) == 0) {
            size_t len = strnlen(text, f->size - 1);

            memcpy(at, text, len);
            at[len] = '\0';
        }
        return sts;
    case SNAP_TIME:
        if ((sts = snap_time_of(s, e, &v)) == 0) {
            int64_t sec = (int64_t)(v / 1000000);
            int32_t usec = (int32_t)(v % 1000000);

            memcpy(at, &sec, sizeof(sec));
            memcpy(at + 8, &usec, sizeof(usec));
        }
        return sts;
    case SNAP_REGISTRY:
        break;                          /* registry entries are not described records */
    }
    return -EINVAL;
}

/* The entries of a record's keys (NULL where the file lacks one), one per
 * field element in the description's order; found when first read. */
struct rec_found {
    const struct rec_desc *desc;        /* first: NULL in an empty slot */
    char *instance;                     /* NULL for a plain record */
    const struct snap_entry **entry;
};

static unsigned int
record_elements(const struct rec_desc *d)
{
    unsigned int n = 0;

    for (unsigned int k = 0; k < d->nfields; k++)
        n += rec_elements(&d->fields[k]);
    return n;
}

/* Read a record whose entries are in entry[] (NULL: look each key up). */
static int
read_record(struct snap *s, const struct rec_desc *d, const char *instance, const struct snap_entry *const *entry,
            void *out)
{
    unsigned char *base = out;
    char key[PLAT_NAME_MAX + 96];
    size_t prefix = entry ? 0 : rec_key_prefix(key, sizeof(key), d, instance);    /* entries need no keys */
    unsigned int j = 0;
    int record = 0;

    for (unsigned int k = 0; k < d->nfields; k++)
        if (d->fields[k].status != NONE)
            memset(base + d->fields[k].status, 0, sizeof(int));
    for (unsigned int k = 0; k < d->nfields; k++) {
        const struct rec_field *f = &d->fields[k];
        int *group = f->status != NONE ? (int *)(void *)(base + f->status) : &record;

        for (unsigned int i = 0; i < rec_elements(f); i++, j++) {
            const struct snap_entry *e;
            int sts;

            if (*group < 0)
                continue;           /* the first failure explains the group */
            e = entry ? entry[j] : snap_find(s, rec_field_key(key, sizeof(key), prefix, f, i));
            sts = read_one(s, f, e, base + f->offset + i * rec_element_size(f));
            if (sts == -ENOENT && e == NULL) {          /* name the key the file lacks */
                prefix = rec_key_prefix(key, sizeof(key), d, instance);
                sts = snap_missing(s, rec_field_key(key, sizeof(key), prefix, f, i));
            }
            if (sts < 0)
                *group = sts;
        }
    }
    return record;
}

int
rec_read(struct snap *s, const struct rec_desc *d, const char *instance, void *out)
{
    return read_record(s, d, instance, NULL, out);
}

/* The key of a record in the cache. */
struct record_key {
    const struct rec_desc *desc;
    const char *instance;
};

static uint32_t
record_hash(const struct rec_desc *d, const char *instance)
{
    return hash_text((uint32_t)((uintptr_t)d >> 4) * 2654435761u, instance);
}

static uint32_t
slot_hash(const void *slot)
{
    const struct rec_found *r = slot;

    return record_hash(r->desc, r->instance);
}

static int
same_record(const void *slot, const void *key)
{
    const struct rec_found *r = slot;
    const struct record_key *k = key;

    return r->desc == k->desc &&
           (r->instance == NULL ? k->instance == NULL : k->instance && strcmp(r->instance, k->instance) == 0);
}

/* The record's entries, found now if this is its first read; NULL without memory. */
static const struct rec_found *
found(struct rec_cache *c, struct snap *s, const struct rec_desc *d, const char *instance)
{
    const struct record_key key = { d, instance };
    char text[PLAT_NAME_MAX + 96];
    struct rec_found *r;
    unsigned int j = 0;
    size_t prefix;

    if (c->table.cap != 0 && (r = hash_slots_find(&c->table, record_hash(d, instance), same_record, &key))->desc)
        return r;
    if (hash_slots_room(&c->table, slot_hash) < 0)
        return NULL;
    r = hash_slots_find(&c->table, record_hash(d, instance), same_record, &key);
    r->entry = calloc(record_elements(d) ? record_elements(d) : 1, sizeof(*r->entry));
    r->instance = instance ? strdup(instance) : NULL;
    if (r->entry == NULL || (instance != NULL && r->instance == NULL)) {
        free(r->entry);
        free(r->instance);
        memset(r, 0, sizeof(*r));
        return NULL;
    }
    prefix = rec_key_prefix(text, sizeof(text), d, instance);
    for (unsigned int k = 0; k < d->nfields; k++)
        for (unsigned int e = 0; e < rec_elements(&d->fields[k]); e++)
            r->entry[j++] = snap_find(s, rec_field_key(text, sizeof(text), prefix, &d->fields[k], e));
    r->desc = d;
    c->table.n++;
    return r;
}

int
rec_read_found(struct rec_cache *c, struct snap *s, const struct rec_desc *d, const char *instance, void *out)
{
    const struct rec_found *r = found(c, s, d, instance);

    return r != NULL ? read_record(s, d, instance, r->entry, out) : -ENOMEM;
}

int
rec_present(struct rec_cache *c, struct snap *s, const struct rec_desc *d, const char *instance)
{
    const struct rec_found *r = found(c, s, d, instance);

    return r != NULL && snap_has_of(s, r->entry[0]);
}

void
rec_cache_init(struct rec_cache *c)
{
    memset(c, 0, sizeof(*c));
    c->table.size = sizeof(struct rec_found);
}

void
rec_cache_free(struct rec_cache *c)
{
    struct rec_found *slot = c->table.slot;

    for (size_t i = 0; i < c->table.cap; i++) {
        free(slot[i].entry);
        free(slot[i].instance);
    }
    free(slot);
    rec_cache_init(c);
}

/* A schema entry whose record and field share one allocation, "record\0field". */
static int
schema_entry(struct snap_field *out, const char *record, size_t record_len, const char *field, int instanced,
             enum snap_kind kind, int divisor, unsigned int most)
{
    size_t field_len = strlen(field);
    char *both = malloc(record_len + field_len + 2);

    if (both == NULL)
        return -ENOMEM;
    memcpy(both, record, record_len);
    both[record_len] = '\0';
    memcpy(both + record_len + 1, field, field_len + 1);
    *out = (struct snap_field){ both, both + record_len + 1, instanced, kind, divisor, most };
    return 0;
}

struct snap_field *
rec_schema(const struct snap_field *extra, size_t nextra, int processes)
{
    size_t n = nextra, k = 0;
    struct snap_field *schema;

    for (unsigned int r = 0; r < rec_nall; r++)
        for (unsigned int j = 0; j < rec_all[r]->nfields; j++)
            n += (rec_all[r]->instancing == REC_BOTH ? 2 : 1) * rec_elements(&rec_all[r]->fields[j]);
    for (int group = 0; group < PLAT_SYSCTL_NGROUPS; group++) {
        unsigned int count;

        plat_sysctl_defs((enum plat_sysctl_group)group, &count);
        n += count;
    }
    if ((schema = calloc(n + 1, sizeof(*schema))) == NULL)
        return NULL;
    for (unsigned int r = 0; r < rec_nall; r++) {
        const struct rec_desc *d = rec_all[r];

        for (int inst = 0; inst < 2; inst++) {
            if ((inst == 0 && d->instancing == REC_INSTANCED) || (inst == 1 && d->instancing == REC_PLAIN))
                continue;
            for (unsigned int j = 0; j < d->nfields; j++)
                for (unsigned int i = 0; i < rec_elements(&d->fields[j]); i++) {
                    char key[128];
                    const char *dot = strchr(rec_field_key(key, sizeof(key), rec_key_prefix(key, sizeof(key), d, NULL),
                                                       &d->fields[j], i), '.');

                    if (schema_entry(&schema[k++], key, (size_t)(dot - key), dot + 1, inst, d->fields[j].kind,
                                     (d->fields[j].flags & REC_DIVISOR) != 0, d->most) < 0)
                        goto fail;
                    schema[k - 1].unread = !processes && per_process(d);
                }
        }
    }
    for (int group = 0; group < PLAT_SYSCTL_NGROUPS; group++) {
        unsigned int count;
        const struct plat_sysctl_def *defs = plat_sysctl_defs((enum plat_sysctl_group)group, &count);

        for (unsigned int i = 0; i < count; i++)
            if (!rec_sysctl_listed_before((enum plat_sysctl_group)group, defs[i].name) &&
                schema_entry(&schema[k++], "sysctl", 6, defs[i].name, 0,
                             rec_sysctl_is_counter((enum plat_sysctl_group)group, i) ? SNAP_COUNTER64
                                                                                        : SNAP_GAUGE64, 0, 0) < 0)
                goto fail;
    }
    for (size_t e = 0; e < nextra; e++)
        if (schema_entry(&schema[k++], extra[e].record, strlen(extra[e].record), extra[e].field,
                         extra[e].instanced, extra[e].kind, extra[e].divisor, extra[e].most) < 0)
            goto fail;
    return schema;                      /* calloc left the terminator's record NULL */
fail:
    rec_schema_free(schema);
    return NULL;
}

void
rec_schema_free(struct snap_field *schema)
{
    if (schema == NULL)
        return;
    for (struct snap_field *f = schema; f->record != NULL; f++)
        free((char *)f->record);        /* and the field with it */
    free(schema);
}
