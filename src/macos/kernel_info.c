/*
 * Kernel identity and timing: uname(3), kern.osproductversion, vm.loadavg,
 * kern.boottime and the wall clock.
 */
#include "live_source.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysctl.h>
#include <sys/time.h>
#include <sys/utsname.h>

int
live_uname(void *ctx, struct plat_uname *out)
{
    struct live_source *src = live_begin(ctx);
    struct utsname u;

    if (uname(&u) == -1)
        return live_fail(src, -errno, "uname: %s", strerror(errno));
    snprintf(out->sysname, sizeof(out->sysname), "%s", u.sysname);
    snprintf(out->nodename, sizeof(out->nodename), "%s", u.nodename);
    snprintf(out->release, sizeof(out->release), "%s", u.release);
    snprintf(out->version, sizeof(out->version), "%s", u.version);
    snprintf(out->machine, sizeof(out->machine), "%s", u.machine);
    /* kern.osproductversion exists since 10.13.4; read it rather than parse
     * SystemVersion.plist, which would need CoreFoundation or file I/O. */
    out->product_status = live_sysctl_text(src, "kern.osproductversion", out->product_version,
                                           sizeof(out->product_version));
    return 0;
}

int
live_loadavg(void *ctx, struct plat_loadavg *out)
{
    struct live_source *src = live_begin(ctx);
    int mib[2] = { CTL_VM, VM_LOADAVG };
    struct loadavg load;
    int sts;

    if ((sts = live_sysctl_struct(src, "vm.loadavg", mib, 2, &load, sizeof(load))) < 0)
        return sts;
    for (int i = 0; i < 3; i++)
        out->ldavg[i] = load.ldavg[i];
    if (load.fscale <= 0)
        return live_fail(src, -ERANGE, "vm.loadavg: fscale is %ld", load.fscale);
    out->fscale = (uint64_t)load.fscale;
    return 0;
}

int
live_clock(void *ctx, struct plat_clock *out)
{
    struct live_source *src = live_begin(ctx);
    int mib[2] = { CTL_KERN, KERN_BOOTTIME };
    struct timeval boot, now;
    int sts;

    if ((sts = live_sysctl_struct(src, "kern.boottime", mib, 2, &boot, sizeof(boot))) < 0)
        return sts;
    if (gettimeofday(&now, NULL) == -1)
        return live_fail(src, -errno, "gettimeofday: %s", strerror(errno));
    out->boot_sec = boot.tv_sec;
    out->boot_usec = boot.tv_usec;
    out->now_sec = now.tv_sec;
    out->now_usec = now.tv_usec;
    return 0;
}
