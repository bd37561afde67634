/*
 * Host facts: page size, scheduler clock rate, physical memory, model.
 */
#include "live_source.h"

#include <errno.h>
#include <sys/sysctl.h>
#include <sys/time.h>

/* Each fact on its own: one that fails leaves the others. */
static int
page_size_of(struct live_source *src, uint64_t *out)
{
    vm_size_t page_size;
    kern_return_t kr;

    /* 16 KiB on Apple Silicon, 4 KiB on Intel (and 4 KiB for x86_64
     * processes under Rosetta, which this agent is not). */
    if ((kr = host_page_size(src->host, &page_size)) != KERN_SUCCESS)
        return live_fail(src, -EIO, "host_page_size: %s", mach_error_string(kr));
    if (page_size == 0)
        return live_fail(src, -ERANGE, "host_page_size: 0");
    *out = page_size;
    return 0;
}

static int
clock_hz_of(struct live_source *src, uint32_t *out)
{
    int mib[2] = { CTL_KERN, KERN_CLOCKRATE };
    struct clockinfo clock;
    int sts;

    if ((sts = live_sysctl_struct(src, "kern.clockrate", mib, 2, &clock, sizeof(clock))) < 0)
        return sts;
    if (clock.hz <= 0)
        return live_fail(src, -ERANGE, "kern.clockrate: hz is %d", clock.hz);
    *out = (uint32_t)clock.hz;
    return 0;
}

int
live_host(void *ctx, struct plat_host *out)
{
    struct live_source *src = live_begin(ctx);

    out->page_status = page_size_of(src, &out->page_size);
    out->clock_status = clock_hz_of(src, &out->clock_hz);
    out->memsize_status = live_sysctl_uint(src, "hw.memsize", &out->memsize);
    out->model_status = live_sysctl_text(src, "hw.model", out->model, sizeof(out->model));
    return 0;
}
