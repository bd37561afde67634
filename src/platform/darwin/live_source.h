/*
 * Internal to the live macOS source: its state and the per-family readers.
 * Only files under src/platform/darwin/ include this.
 */
#ifndef PMDA_DARWIN_LIVE_SOURCE_H
#define PMDA_DARWIN_LIVE_SOURCE_H

#include "platform.h"

#include <mach/mach.h>
#include <stddef.h>

struct live_source {
    mach_port_t host;               /* mach_host_self(), taken once at open */
    struct plat_cpu *cpus;          /* per-CPU array handed out by live_cpus() */
    unsigned int cpus_cap;
    char error[512];                /* every failure of the current call */
};

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

/* sysctlbyname of a string into out (always NUL-terminated). */
int live_sysctl_text(struct live_source *src, const char *name, char *out, size_t outlen);

int live_host(void *ctx, struct plat_host *out);
int live_memory(void *ctx, struct plat_memory *out);
int live_uname(void *ctx, struct plat_uname *out);
int live_loadavg(void *ctx, struct plat_loadavg *out);
int live_clock(void *ctx, struct plat_clock *out);
int live_cpu_total(void *ctx, struct plat_cpu_ticks *out);
int live_cpus(void *ctx, struct plat_cpu_set *out);

#endif
