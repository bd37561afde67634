/*
 * The platform interface: what the agent needs from the operating system,
 * as plain C structs. No PCP type appears here.
 *
 * Two sources implement it: the live macOS source (src/platform/darwin/)
 * and the snapshot replay source (src/platform/snapshot/). Each call fills
 * one struct from one OS request (or one recorded sample) and returns 0, or
 * a negative errno when the source failed. Fields mirror the width of the
 * kernel field they come from; conversions happen in the collectors.
 */
#ifndef PMDA_DARWIN_PLATFORM_H
#define PMDA_DARWIN_PLATFORM_H

#include <stdint.h>

#define PLAT_NAME_MAX 64
#define PLAT_TEXT_MAX 256

/* Facts fixed while the machine runs. */
struct plat_host {
    uint64_t page_size;             /* bytes per VM page (host_page_size) */
    uint32_t clock_hz;              /* scheduler ticks per second (KERN_CLOCKRATE) */
    uint64_t memsize;               /* physical memory in bytes (hw.memsize) */
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
    PLAT_COMP_MAJOR_COMPACTIONS,
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

#define PLAT_PERFLEVEL_UNKNOWN (-1)

struct plat_cpu {
    char name[PLAT_NAME_MAX];               /* "cpu0", ... */
    int perflevel;                          /* hw.perflevelN index, or PLAT_PERFLEVEL_UNKNOWN */
    char perflevel_name[PLAT_NAME_MAX];     /* "Performance", "Efficiency"; "" if unknown */
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

struct platform {
    const char *name;           /* "live" or "snapshot" */
    void *ctx;
    int (*host)(void *ctx, struct plat_host *out);
    int (*memory)(void *ctx, struct plat_memory *out);
    int (*uname)(void *ctx, struct plat_uname *out);
    int (*loadavg)(void *ctx, struct plat_loadavg *out);
    int (*cpu_total)(void *ctx, struct plat_cpu_ticks *out);
    int (*cpus)(void *ctx, struct plat_cpu_set *out);
    int (*clock)(void *ctx, struct plat_clock *out);
    /* Why the last call failed: every failure it met, "; "-separated (never NULL). */
    const char *(*error)(void *ctx);
    /* Problems found at open that failed nothing by themselves; "" if none. */
    const char *(*notes)(void *ctx);
    void (*close)(void *ctx);
};

/*
 * Open the source selected by the environment: the snapshot file named by
 * PMDA_DARWIN_SNAPSHOT when it is set, else the live source (macOS only).
 * Returns 0 and fills *out, or a negative errno and writes a message that
 * says why into msg (always NUL-terminated).
 */
int platform_open(struct platform *out, char *msg, unsigned int msglen);

/* The live macOS source; returns -ENOSYS where the module was not built for macOS. */
int platform_live_open(struct platform *out, char *msg, unsigned int msglen);

/* The snapshot source over the file at path. */
int platform_snapshot_open(struct platform *out, const char *path, char *msg, unsigned int msglen);

/*
 * Replace the snapshot source's clock (microseconds, any origin) so that a
 * test chooses the replay position. Replay time starts at the clock's first
 * reading after this call.
 */
void platform_snapshot_set_clock(struct platform *p, uint64_t (*now_usec)(void));

#endif
