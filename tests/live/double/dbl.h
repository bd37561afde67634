/*
 * The test double of the macOS calls src/macos/ makes: how a test
 * sets it up and reads what it saw. The double itself is compiled with
 * Apple's declarations (tests/live/build.sh); this header uses only stdint
 * types so that the test programs, compiled with glibc's, include it too.
 * Errors are Darwin's numbers (darwin_errno.h), as the live code sees them.
 */
#ifndef PMDA_DARWIN_DBL_H
#define PMDA_DARWIN_DBL_H

#include <stddef.h>
#include <stdint.h>

/* Forget every setting, object and count (between tests). */
void dbl_reset(void);

/* The Mac's clocks, virtual: time stands still until a test moves it.
 * mach_absolute_time, mach_continuous_time, clock_gettime_nsec_np and
 * gettimeofday (the wall clock dbl_now set, plus the time moved since)
 * all read it; sleep is not modelled, so the uptime and continuous clocks
 * agree. dbl_clock_ns: nanoseconds since the reset. */
void dbl_clock_advance(uint64_t ns);
uint64_t dbl_clock_ns(void);
#define SECOND_NS 1000000000ull     /* a second of the virtual clock */

/* Faults: the nth call (1 = the next; 0 = every call from now on) of the
 * doubled function named fn fails with err: a Darwin errno for the POSIX
 * calls, a kern_return_t for Mach and IOKit, a status for notify(3). */
void dbl_fail(const char *fn, unsigned int nth, int err);
/* How many times fn was called since the reset. */
unsigned int dbl_calls(const char *fn);
/* The name of the ith doubled function counted since the reset (0 first),
 * or NULL past the last. */
const char *dbl_call_name(unsigned int i);
/* Consulted by each doubled call: nonzero (the error) when it must fail. */
int dbl_failing(const char *fn);

/* What is held: CoreFoundation objects alive (those the double made for its
 * own tables are not counted), IOKit object references given out and not
 * released, Mach send rights and vm_allocate'd regions given out and not
 * returned, files and notify tokens open. */
struct dbl_held {
    long cf, io, ports, vm, fds, tokens;
};
struct dbl_held dbl_held(void);

/* CoreFoundation values a test builds (each call returns a new object with
 * one reference the caller owns; dbl_cf_put and dbl_cf_append consume
 * value's). */
void *dbl_cf_number(int64_t v);
void *dbl_cf_float(double v);
void *dbl_cf_bool(int v);
void *dbl_cf_string(const char *s);
void *dbl_cf_data(const void *bytes, size_t len);
void *dbl_cf_dict(void);
void *dbl_cf_array(void);
void dbl_cf_put(void *dict, const char *key, void *value);
void dbl_cf_append(void *array, void *value);
void dbl_cf_release(void *obj);

/* The IORegistry: entries (id, name, location or NULL, class, and a
 * properties dictionary from dbl_cf_dict, consumed), each attached in a
 * plane below a parent (DBL_REG_ROOT: at the plane's top); an entry may be
 * in two planes, as the CPUs are in IOService and IODeviceTree, and below
 * several parents in one (the first attached is the one
 * IORegistryEntryGetParentEntry gives), as an APFS Fusion container is. A class
 * named with dbl_reg_superclass matches IOServiceMatching too. */
#define DBL_REG_ROOT 0xffffffffu
unsigned int dbl_reg_entry(uint64_t id, const char *name, const char *location, const char *class_name,
                           void *props);
void dbl_reg_attach(unsigned int entry, const char *plane, unsigned int parent);
void dbl_reg_superclass(unsigned int entry, const char *class_name);
/* An entry that is not in the matched state, as a user client never is:
 * matching leaves it out, and it is found only as another entry's child. */
void dbl_reg_unmatched(unsigned int entry);
/* A device appearing during a walk: entry is attached below parent in plane
 * on an IOIteratorNext of a walk of parent's children there (one queued
 * entry per such call, in order), which invalidates that walk. */
void dbl_reg_attach_mid_walk(unsigned int entry, const char *plane, unsigned int parent);

/* sysctl (sysctl.c says how each kind answers): an integer of width 4
 * or 8, a string, a struct or other bytes (by name, or by MIB with name
 * ""), a list (and what it becomes after the next size probe), a name whose
 * read fails with a Darwin errno, the NFS client's statistics. */
void dbl_sysctl_int(const char *name, uint64_t value, unsigned int width);
void dbl_sysctl_string(const char *name, const char *text);
void dbl_sysctl_bytes(const char *name, const int *mib, unsigned int miblen, const void *bytes, size_t len);
void dbl_sysctl_list(const char *name, const int *mib, unsigned int miblen, const void *bytes, size_t len);
void dbl_sysctl_list_next(const char *name, const int *mib, unsigned int miblen, const void *bytes, size_t len);
void dbl_sysctl_error(const char *name, int err);
void dbl_sysctl_nfs(int typenum, const void *stats, size_t len);
/* The struct sysctls, in Darwin's layouts at their MIBs (size 0: the
 * struct's own; another size stands for a struct of another release). */
void dbl_sysctl_clockrate(int hz, unsigned int size);
void dbl_sysctl_loadavg(uint32_t l1, uint32_t l5, uint32_t l15, int64_t fscale);
void dbl_sysctl_boottime(int64_t sec, int32_t usec);
void dbl_sysctl_swapusage(uint64_t total, uint64_t avail, uint64_t used);
void dbl_sysctl_argmax(int argmax);

/* Mach: per-CPU ticks (ncpu rows of user, system, idle, nice), the VM
 * statistics (each field the seed plus its offset in Apple's struct, read
 * back with dbl_vm_value; rev0: a kernel that fills only revision 0),
 * the page size, the default processor set's load, the timebase. */
#define DBL_MAX_CPUS 64
void dbl_mach_cpus(unsigned int ncpu, const uint32_t *ticks);
void dbl_mach_vm(uint64_t seed, int rev0);
uint64_t dbl_vm_value(size_t offset);
size_t dbl_vm_offset(const char *field);
uint64_t dbl_vm_field(const char *field);
void dbl_mach_page_size(uint32_t size);
void dbl_mach_load(int32_t tasks, int32_t threads);
void dbl_mach_timebase(uint32_t numer, uint32_t denom);
/* Time moves the kernel's counts: each CPU's ticks grow by per_second's
 * row (ncpu rows of user, system, idle, nice; set after dbl_mach_cpus),
 * 32 bits wide as the kernel keeps them; every VM field by per_second. */
void dbl_mach_tick_rate(const uint32_t *per_second);
void dbl_mach_vm_rate(uint64_t per_second);
/* host_statistics and host_statistics64 rate-limit a process that is not
 * Apple's (xnu-11417.101.15 osfmk/kern/host.c:733-780): 2 to 10 fresh
 * answers per flavor in each 1 s window, shared by all such processes, then
 * the copy the last of them stored (:626-639, written without a lock,
 * :968-971). Other such processes: a poller like Stats calling both
 * flavors calls_per_second times a second from now on, each of its fresh
 * answers landing in the cache copy_delay_ns after it was taken (0 calls:
 * none). How many of our calls the cache answered. */
void dbl_host_poller(unsigned int calls_per_second, uint64_t copy_delay_ns);
unsigned int dbl_host_stats_cached(void);

/* The C library (libc.c): uname's fields (sysname is Darwin), the wall
 * clock, the utmpx records and whether the file can be read (a Darwin
 * errno, 0: it can), the mounts getfsstat lists, the NFS client (its
 * type number; 0: not loaded) and server (the struct, or the error
 * nfssvc gives), each interface's functional type or ioctl error. */
void dbl_uname(const char *nodename, const char *release, const char *version, const char *machine);
void dbl_now(int64_t sec, int32_t usec);
void dbl_logins_readable(int err);
void dbl_login(int type, const char *user);
void dbl_mount(const char *on, const char *from, const char *fstype, uint32_t flags, uint32_t bsize, uint64_t blocks,
               uint64_t bfree, uint64_t bavail, uint64_t files, uint64_t ffree);
void dbl_nfs_client(int typenum);
void dbl_nfs_server(const void *stats, size_t len, int err);
void dbl_netif_type(const char *name, uint32_t type, int err);

/* Network interfaces (network.c): each with its NET_RT_IFLIST2 message
 * (counters from base up: ipackets base, ierrors +1, opackets +2, oerrors
 * +3, collisions +4, imcasts +7, omcasts +8, iqdrops +9, snd_drops +10;
 * the byte counts, mib_ibytes and mib_obytes or else base +5 and +6,
 * rounded down to 1 KiB and cut to 32 bits as the kernel lists them) and
 * its IFMIB_IFDATA record (none when both byte counts are 0); a multicast
 * message; interfaces en<first>... that
 * arrive between the caller's size probe and its read; a message that runs past
 * the end. */
void dbl_netif_reset(void);
void dbl_netif(unsigned int index, const char *name, uint32_t flags, uint8_t type, uint64_t base,
               uint64_t mib_ibytes, uint64_t mib_obytes);
void dbl_netif_multicast(void);
void dbl_netif_arriving(unsigned int first, unsigned int count);
void dbl_netif_damaged(void);

/* ---- processes and threads (procs.c) ---- */
/* The caller's effective uid (geteuid); 0 (root, as the proc agent runs)
 * until set. Another user's process is refused to anyone but root. */
void dbl_proc_euid(uint32_t uid);
/* A process, in KERN_PROC_ALL's list and known to libproc (described
 * again: replaced). stat 5 (SZOMB): a zombie, listed, found by
 * proc_pid_rusage, not by proc_pidinfo; flag 0x2 (P_CONTROLT): tdev and
 * tpgid are its terminal's. */
struct dbl_proc {
    int32_t pid, ppid, pgid, tpgid;
    uint32_t ruid, uid, svuid, rgid, gid, svgid, ngroups;
    int32_t stat, nice, priority;
    uint32_t flag, tdev;
    int64_t start_sec;
    int32_t start_usec;
    const char *comm;
};
void dbl_proc(const struct dbl_proc *p);
/* Its answers: proc_taskinfo and rusage_info_v6, each field the seed plus
 * its offset in Apple's struct (read back with dbl_proc_field, by Apple's
 * field name: "pti_faults", "ri_energy_nj"); the number of fds open; the
 * cwd (NULL: none); the executable's path (NULL: none); KERN_PROCARGS2's
 * argc and strings (none: no user stack, EINVAL). */
void dbl_proc_task(int32_t pid, uint64_t seed);
void dbl_proc_rusage(int32_t pid, uint64_t seed);
uint64_t dbl_proc_field(int32_t pid, const char *field);
void dbl_proc_fds(int32_t pid, uint32_t count);
void dbl_proc_cwd(int32_t pid, const char *path);
void dbl_proc_path(int32_t pid, const char *path);
void dbl_proc_args(int32_t pid, int32_t argc, const void *strings, size_t len);
/* A thread (proc_threadinfo's fields the seed plus their offset, read back
 * with dbl_thread_field: "pth_curpri"); one that ends right after the
 * thread list names it. */
void dbl_proc_thread(int32_t pid, uint64_t tid, uint64_t seed, const char *name);
void dbl_thread_ends(int32_t pid, uint64_t tid);
uint64_t dbl_thread_field(int32_t pid, uint64_t tid, const char *field);
/* The process exits: first no fds or threads left (still found), then gone
 * (out of the list, ESRCH; KERN_PROCARGS2 EINVAL). */
void dbl_proc_exiting(int32_t pid);
void dbl_proc_gone(int32_t pid);
/* The newest proc_pid_rusage flavor the kernel knows: 6 (macOS 12 on)
 * until set; 5 on macOS 11. */
void dbl_rusage_newest(int flavor);
/* Directory services: a user (its gecos and home make its entry's size),
 * a group with members named member0, member1, ...; a terminal in /dev. */
void dbl_user(uint32_t uid, const char *name, const char *gecos, const char *dir);
void dbl_group(uint32_t gid, const char *name, unsigned int members);
void dbl_tty(uint32_t dev, const char *name);
/* A socket in net.inet.tcp.pcblist_n (tcp nonzero) or
 * net.inet.udp.pcblist_n, last used by last_pid; the first one makes both. */
void dbl_socket(int tcp, int32_t last_pid);

/* ---- The private and notify sources (private.c, smc.c, notify.c) ---- */

/* dlsym finds no symbol of that name (in libIOReport, or for the HID
 * event system's functions with RTLD_DEFAULT); the handles dlopen gave
 * and dlclose has not taken back. dlopen of libIOReport fails (no such
 * library, dlerror says so) as dbl_fail("dlopen", ...) says. */
void dbl_dl_missing(const char *symbol);
long dbl_dl_handles(void);

/* IOReport channels, each of a group with a subgroup (NULL: none) and a
 * unit label: simple ones (format 1) with a value a test changes between
 * samples, state ones (format 2) with states added one by one (a NULL
 * name: a state whose ID is not printable); each call returns the
 * channel's number. What IOReportCopyChannelsInGroup gives for a group
 * without channels: a dictionary without any, as libIOReport does, or NULL
 * (as_null). A channel's provider goes away (its channels are listed no
 * more, and no subscription that holds them gets a sample again) and comes
 * back, registered under a new entry ID (its channels listed again). */
unsigned int dbl_ioreport_simple(const char *group, const char *name, const char *subgroup, const char *unit,
                                 int64_t value);
unsigned int dbl_ioreport_states(const char *group, const char *name, const char *subgroup, const char *unit);
void dbl_ioreport_state(unsigned int channel, const char *state, int64_t residency);
void dbl_ioreport_set(unsigned int channel, int64_t value);
/* A state channel's state (its index, in the order added) gets another
 * residency. The channels added from now on are another provider's, so
 * that a test can take one provider away and leave the others. */
void dbl_ioreport_residency(unsigned int channel, unsigned int state, int64_t residency);
void dbl_ioreport_provider_next(void);
void dbl_ioreport_empty_group(int as_null);
void dbl_ioreport_provider_gone(unsigned int channel);
void dbl_ioreport_provider_back(unsigned int channel);
/* IOReportCreateSubscription and IOReportCreateSamples are also counted
 * and failed per group, as "IOReportCreateSamples CPU Core Performance
 * States": the subgroup of the channels they are given, or their group
 * where they have none ("IOReportCreateSamples Energy Model"). */

/* HID temperature services: a sensor's "Product" (NULL: it has none) and
 * reading, changed later or taken away (no event); a service going away
 * (lists copied since lack it, it gives no event); hidd restarting: the
 * clients and services made before it answer no more. dbl_calls counts
 * the calls to hidd (IOHIDEventSystemClientCreate, ...CopyServices). */
unsigned int dbl_hid_sensor(const char *product, double celsius);
void dbl_hid_set(unsigned int sensor, double celsius);
void dbl_hid_no_reading(unsigned int sensor);
void dbl_hid_remove(unsigned int sensor);
void dbl_hid_restart(void);

/* The AppleSMC user client: a key (four characters), its type (four
 * characters, trailing spaces as the SMC has them) and bytes; a key whose
 * bytes the SMC refuses with result (0x85: not readable); the nth call
 * naming key (1 = the next) answered with result (0: every call from the
 * next on). IOServiceOpen and IOConnectCallStructMethod fail as dbl_fail
 * says, and answer kIOReturnBusy while the Mac sleeps and wakes: from now
 * for ns of the virtual clock. */
void dbl_smc_key(const char *key, const char *type, const void *bytes, size_t len);
void dbl_smc_unreadable(const char *key, uint8_t result);
void dbl_smc_fail(const char *key, unsigned int nth, uint8_t result);
void dbl_smc_sleep_wake(uint64_t ns);

/* notify(3): the state a name holds (a name never set holds 0). */
void dbl_notify_state(const char *name, uint64_t state);

/* NVMe SMART plug-ins (nvme_smart.c), per registry entry id: the log page
 * a read gives, IOCreatePlugInInterfaceForService or SMARTReadData failing
 * with kr, reads held (they return when let go; dbl_nvme_wait_held
 * returns once a read is held); how many plug-ins are
 * made and not destroyed (and in *made, how many were made). Threads the live code starts run for real:
 * dbl_threads_wait returns when every one has returned. */
void dbl_nvme_page(uint64_t id, const unsigned char *page);
void dbl_nvme_create_fails(uint64_t id, int kr);
void dbl_nvme_read_fails(uint64_t id, int kr);
void dbl_nvme_hold_reads(int hold);
void dbl_nvme_wait_held(void);
unsigned int dbl_nvme_sessions(unsigned int *made);
void dbl_threads_wait(void);

/* Provided by the test program: print what the double found wrong. */
void dbl_report(const char *text);

#endif
