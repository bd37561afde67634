/*
 * Internal to the live macOS source: its state and the readers, one per kind of source.
 * Only files under src/macos/ include this.
 */
#ifndef PMDA_DARWIN_LIVE_SOURCE_H
#define PMDA_DARWIN_LIVE_SOURCE_H

#include "platform.h"
#include "entry_set.h"

#include <mach/mach.h>
#include <stddef.h>

/* A buffer kept between calls, grown as a sysctl's answer grows. */
struct live_buffer {
    unsigned char *data;
    size_t cap;
};

struct live_source {
    mach_port_t host;               /* mach_host_self(), taken once at open */
    processor_set_name_t pset;      /* processor_set_default(), taken once at open, or MACH_PORT_NULL */
    kern_return_t pset_error;       /* why pset is MACH_PORT_NULL */
    struct plat_cpu *cpus;          /* per-CPU array handed out by live_cpus() */
    unsigned int cpus_cap;
    struct plat_login *logins;      /* handed out by live_logins() */
    unsigned int logins_cap;
    struct plat_cpu_cluster clusters[PLAT_MAX_CPUS];    /* handed out by live_topology() */
    struct entry_builder entries;    /* the entries handed out by live_query() */
    struct live_buffer iflist;      /* NET_RT_IFLIST2 */
    struct plat_netif *netifs;      /* PLAT_MAX_NETIFS, handed out by live_interfaces() */
    int ioctl_fd;                   /* a datagram socket for interface ioctls, or -1 */
    unsigned char *stats;           /* buffer for the protocol statistics structs */
    struct live_buffer pcblist;     /* net.inet.tcp.pcblist_n */
    struct live_buffer fsstat;      /* getfsstat's struct statfs array */
    struct plat_mount *mounts;      /* PLAT_MAX_MOUNTS, handed out by live_mounts() */
    struct live_buffer proclist;    /* KERN_PROC_ALL's kinfo_proc array */
    struct plat_proc *procs;        /* handed out by live_procs() */
    unsigned int procs_cap;
    struct live_buffer args;        /* KERN_PROCARGS2, kern.argmax bytes */
    struct live_buffer fdlist;      /* PROC_PIDLISTFDS */
    struct live_buffer tids;        /* PROC_PIDLISTTHREADIDS */
    struct plat_thread *threads;    /* handed out by live_proc_threads() */
    unsigned int threads_cap;
    uint32_t *sock_counts;          /* TCP then UDP sockets by pid, PLAT_PID_LIMIT each */
    struct plat_sock_owner *owners; /* handed out by live_sock_owners() */
    unsigned int owners_cap;
    struct plat_vm vm_last;         /* the last HOST_VM_INFO64 reading served */
    int vm_seen;                    /* vm_last holds one */
    size_t nfsrv_size;              /* sizeof(struct nfsrvstats) as the kernel says, once known */
    size_t nfscl_size;              /* sizeof(struct nfsclntstats) as the kext takes it, once known */
    struct live_ioreport *ioreport; /* the IOReport subscription (ioreport.c), made at first use */
    struct live_hid *hid;           /* the HID event system client (hid_sensors.c), made at first use */
    struct live_smc *smc;           /* the AppleSMC connection and key cache (smc.c), made at first use */
    struct live_notify *notify;     /* notify_state.c's registrations, one per name */
    struct live_nvme *nvme;         /* nvme_health.c's rounds, made at first use */
    char error[512];                /* every failure of the current call */
};

/* Nanoseconds on a clock that never steps back and counts sleep
 * (CLOCK_MONOTONIC_RAW: mach_continuous_time), for retry intervals. */
uint64_t live_clock_ns(void);

/* A failing private source asked again at a bounded rate (retry.c):
 * PLAT_RETRY_FIRST_NS after the first failure, twice the last wait after
 * each further one, at most PLAT_RETRY_CAP_NS; a success starts over. */
struct live_retry {
    uint64_t due_ns;                /* the next try; 0: now */
    uint64_t wait_ns;               /* the last wait; 0: the last try succeeded */
    int status;                     /* the last try's: a failure is repeated while waiting */
    char why[256];
};

/* Whether a try is due now. */
int live_retry_due(const struct live_retry *r);
/* The last failure, recorded again in this call's error text. */
int live_retry_repeat(struct live_source *src, const struct live_retry *r);
/* After a try: a failure (sts < 0) keeps this call's error text and sets
 * the next try; a success starts over. Returns sts. */
int live_retry_after(struct live_source *src, struct live_retry *r, int sts);
/* After a try that gave nothing and failed nothing: the next try is set. */
void live_retry_later(struct live_retry *r);
/* After a try that succeeded but must not come again soon (its success
 * may not last): the next try waits longer than the last, and a call
 * meanwhile fails with status and why (live_retry_repeat). */
void live_retry_spaced(struct live_retry *r, int status, const char *why);

/* Start a platform call: clears the failures of the previous one. */
struct live_source *live_begin(void *ctx);

/* Record why a call failed (appended to this call's failures) and return err. */
int live_fail(struct live_source *src, int err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* sysctlbyname into an integer field that may be 4 or 8 bytes wide in the
 * kernel; anything else is -EMSGSIZE rather than a silently partial copy. */
int live_sysctl_uint(struct live_source *src, const char *name, uint64_t *out);

/* sysctl into a fixed-size struct; a size mismatch is -EMSGSIZE. */
int live_sysctl_struct(struct live_source *src, const char *what, int *mib, unsigned int miblen,
                       void *out, size_t size);

/* Read a sysctl whose answer can grow between the size probe and the read
 * (lists): into buf, grown as needed up to max bytes; *len gets the size. */
int live_sysctl_growing(struct live_source *src, const char *what, int *mib, unsigned int miblen,
                        struct live_buffer *buf, size_t max, size_t *len);

/* sysctlbyname of a string into out (always NUL-terminated). */
int live_sysctl_text(struct live_source *src, const char *name, char *out, size_t outlen);

/* Read an integer sysctl group into out (each value with its own status). */
int live_read_sysctls(struct live_source *src, enum plat_sysctl_group group, struct plat_sysctl_set *out);


int live_host(void *ctx, struct plat_host *out);
int live_memory(void *ctx, struct plat_memory *out);
int live_uname(void *ctx, struct plat_uname *out);
int live_loadavg(void *ctx, struct plat_loadavg *out);
int live_clock(void *ctx, struct plat_clock *out);
int live_cpu_total(void *ctx, struct plat_cpu_ticks *out);
int live_cpus(void *ctx, struct plat_cpu_set *out);
int live_sysctls(void *ctx, enum plat_sysctl_group group, struct plat_sysctl_set *out);
int live_tasks(void *ctx, struct plat_tasks *out);
int live_logins(void *ctx, struct plat_login_set *out);
int live_topology(void *ctx, struct plat_topology *out);
int live_interfaces(void *ctx, struct plat_netif_set *out);
int live_udp(void *ctx, struct plat_udp *out);
int live_timebase(void *ctx, struct plat_timebase *out);
int live_procs(void *ctx, struct plat_proc_set *out);
int live_proc_task(void *ctx, int32_t pid, struct plat_proc_task *out);
int live_proc_rusage(void *ctx, int32_t pid, struct plat_proc_rusage *out);
int live_proc_args(void *ctx, int32_t pid, struct plat_bytes *out);
int live_proc_path(void *ctx, int32_t pid, char *out, size_t len);
int live_proc_cwd(void *ctx, int32_t pid, char *out, size_t len);
int live_proc_fds(void *ctx, int32_t pid, struct plat_proc_fds *out);
int live_proc_threads(void *ctx, int32_t pid, struct plat_thread_set *out);
int live_sock_owners(void *ctx, struct plat_sock_owner_set *out);
int live_user_name(void *ctx, uint32_t uid, char *out, size_t len);
int live_group_name(void *ctx, uint32_t gid, char *out, size_t len);
int live_tty_name(void *ctx, uint32_t dev, char *out, size_t len);
int live_icmp(void *ctx, struct plat_icmp *out);
int live_ip6(void *ctx, struct plat_ip6 *out);
int live_tcp(void *ctx, struct plat_tcp *out);
int live_tcpconn(void *ctx, struct plat_tcpconn *out);
int live_mounts(void *ctx, struct plat_mount_set *out);
int live_nfs(void *ctx, struct plat_nfs *out);
/* The IORegistry (registry.c: the only file that uses IOKit's registry
 * calls), also for a reader that is part of a larger call. */
int live_read_registry(struct live_source *src, const struct plat_query *q, struct plat_entry_set *out);
/* The query call: the source its match names (query.c). */
int live_query(void *ctx, const struct plat_query *q, struct plat_entry_set *out);

/* The sources that answer in the registry's shape (platform.h lists their
 * matches); each closes what it holds in the matching *_close, called once
 * at the source's close. */
int live_ioreport(struct live_source *src, const struct plat_query *q, struct plat_entry_set *out);
void live_ioreport_close(struct live_source *src);
int live_hid_sensors(struct live_source *src, const struct plat_query *q, struct plat_entry_set *out);
void live_hid_close(struct live_source *src);
int live_smc(struct live_source *src, const struct plat_query *q, struct plat_entry_set *out);
void live_smc_close(struct live_source *src);
int live_notify_state(struct live_source *src, const struct plat_query *q, struct plat_entry_set *out);
void live_notify_close(struct live_source *src);
int live_nvme_health(struct live_source *src, const struct plat_query *q, struct plat_entry_set *out);
void live_nvme_close(struct live_source *src);

#endif
