/*
 * Memory: host_statistics64(HOST_VM_INFO64), vm.swapusage and the compressor
 * health sysctls. Each part keeps its own status.
 */
#include "live_source.h"
#include "vm_copy_check.h"

#include <errno.h>
#include <sys/sysctl.h>

static const char *const compressor_sysctls[PLAT_COMP_NSTATS] = {
    [PLAT_COMP_SWAPOUTS_UNDER_30S] = "vm.compressor_swapouts_under_30s",
    [PLAT_COMP_SWAPOUTS_UNDER_60S] = "vm.compressor_swapouts_under_60s",
    [PLAT_COMP_SWAPOUTS_UNDER_300S] = "vm.compressor_swapouts_under_300s",
    [PLAT_COMP_THRASHING_DETECTED] = "vm.compressor_swapper_swapout_thrashing_detected",
    [PLAT_COMP_LZ4_COMPRESSIONS] = "vm.lz4_compressions",
};

static int
read_vm(struct live_source *src, struct plat_vm *out)
{
    vm_statistics64_data_t vs;
    mach_msg_type_number_t count = HOST_VM_INFO64_COUNT;
    const char *stepped;
    kern_return_t kr;

    kr = host_statistics64(src->host, HOST_VM_INFO64, (host_info64_t)&vs, &count);
    if (kr != KERN_SUCCESS)
        return live_fail(src, -EIO, "host_statistics64(HOST_VM_INFO64): %s", mach_error_string(kr));
    /* The reply holds only the fields the kernel filled, count integers of
     * them (osfmk/kern/host.c vm_stats: revision 0 leaves out the
     * compressor's): the rest of vs would be whatever the stack held. */
    if (count < HOST_VM_INFO64_COUNT)
        return live_fail(src, -EMSGSIZE, "host_statistics64(HOST_VM_INFO64): %u of %u fields", count,
                         (unsigned int)HOST_VM_INFO64_COUNT);
    out->free_count = vs.free_count;
    out->active_count = vs.active_count;
    out->inactive_count = vs.inactive_count;
    out->wire_count = vs.wire_count;
    out->compressor_page_count = vs.compressor_page_count;
    out->total_uncompressed_pages_in_compressor = vs.total_uncompressed_pages_in_compressor;
    out->reactivations = vs.reactivations;
    out->faults = vs.faults;
    out->cow_faults = vs.cow_faults;
    out->zero_fill_count = vs.zero_fill_count;
    out->pageins = vs.pageins;
    out->pageouts = vs.pageouts;
    out->swapins = vs.swapins;
    out->swapouts = vs.swapouts;
    out->compressions = vs.compressions;
    out->decompressions = vs.decompressions;
    out->speculative_count = vs.speculative_count;
    out->throttled_count = vs.throttled_count;
    out->purgeable_count = vs.purgeable_count;
    out->external_page_count = vs.external_page_count;
    out->internal_page_count = vs.internal_page_count;
    out->purges = vs.purges;
    /* Past the rate limit the kernel answers with the copy another process
     * stored last, which can be older than our last reading (vm_copy_check.h):
     * no reading this time rather than counters that step back. */
    if (src->vm_seen && (stepped = vm_counter_stepped_back(&src->vm_last, out)) != NULL)
        return live_fail(src, -EAGAIN,
                         "host_statistics64(HOST_VM_INFO64): a rate-limited copy older than the last reading (%s)",
                         stepped);
    src->vm_last = *out;
    src->vm_seen = 1;
    return 0;
}

static int
read_swap(struct live_source *src, struct plat_swap *out)
{
    int mib[2] = { CTL_VM, VM_SWAPUSAGE };
    struct xsw_usage usage;
    int sts;

    if ((sts = live_sysctl_struct(src, "vm.swapusage", mib, 2, &usage, sizeof(usage))) < 0)
        return sts;
    out->total = usage.xsu_total;
    out->avail = usage.xsu_avail;
    out->used = usage.xsu_used;
    return 0;
}

int
live_memory(void *ctx, struct plat_memory *out)
{
    struct live_source *src = live_begin(ctx);

    out->vm_status = read_vm(src, &out->vm);
    out->swap_status = read_swap(src, &out->swap);
    for (int i = 0; i < PLAT_COMP_NSTATS; i++)
        out->compressor_status[i] = live_sysctl_uint(src, compressor_sysctls[i], &out->compressor[i]);
    return 0;
}
