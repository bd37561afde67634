/*
 * The struct sysctls the live code reads, laid out by Apple's headers (this
 * file is compiled with them), each at its MIB (sys/sysctl.h):
 * kern.clockrate (struct clockinfo), vm.loadavg (struct loadavg),
 * kern.boottime (struct timeval: tv_usec is 32 bits on Darwin),
 * vm.swapusage (struct xsw_usage), kern.argmax (int).
 */
#include "double.h"

#include <sys/sysctl.h>
#include <mach/mach.h>
#include <stddef.h>
#include <string.h>
#include <sys/time.h>

void
dbl_sysctl_clockrate(int hz, unsigned int size)
{
    int mib[2] = { CTL_KERN, KERN_CLOCKRATE };
    struct clockinfo c = { .hz = hz, .tick = 1000000 / (hz > 0 ? hz : 1), .stathz = hz, .profhz = hz };

    dbl_sysctl_bytes("kern.clockrate", mib, 2, &c, size ? size : sizeof(c));
}

void
dbl_sysctl_loadavg(uint32_t l1, uint32_t l5, uint32_t l15, int64_t fscale)
{
    int mib[2] = { CTL_VM, VM_LOADAVG };
    struct loadavg l = { { l1, l5, l15 }, (long)fscale };

    dbl_sysctl_bytes("vm.loadavg", mib, 2, &l, sizeof(l));
}

void
dbl_sysctl_boottime(int64_t sec, int32_t usec)
{
    int mib[2] = { CTL_KERN, KERN_BOOTTIME };
    struct timeval tv = { .tv_sec = sec, .tv_usec = usec };

    dbl_sysctl_bytes("kern.boottime", mib, 2, &tv, sizeof(tv));
}

void
dbl_sysctl_swapusage(uint64_t total, uint64_t avail, uint64_t used)
{
    int mib[2] = { CTL_VM, VM_SWAPUSAGE };
    struct xsw_usage u = { .xsu_total = total, .xsu_avail = avail, .xsu_used = used, .xsu_pagesize = 16384 };

    dbl_sysctl_bytes("vm.swapusage", mib, 2, &u, sizeof(u));
}

void
dbl_sysctl_argmax(int argmax)
{
    int mib[2] = { CTL_KERN, KERN_ARGMAX };

    dbl_sysctl_bytes("kern.argmax", mib, 2, &argmax, sizeof(argmax));
}

#define F(name) { #name, offsetof(vm_statistics64_data_t, name), sizeof(((vm_statistics64_data_t *)0)->name) }
static const struct vm_field {
    const char *name;
    size_t offset, size;
} vm_fields[] = {
    F(free_count), F(active_count), F(inactive_count), F(wire_count), F(zero_fill_count), F(reactivations),
    F(pageins), F(pageouts), F(faults), F(cow_faults), F(lookups), F(hits), F(purges), F(purgeable_count),
    F(speculative_count), F(decompressions), F(compressions), F(swapins), F(swapouts),
    F(compressor_page_count), F(throttled_count), F(external_page_count), F(internal_page_count),
    F(total_uncompressed_pages_in_compressor),
};
#undef F

static const struct vm_field *
vm_field(const char *name)
{
    for (size_t i = 0; i < sizeof(vm_fields) / sizeof(vm_fields[0]); i++)
        if (strcmp(vm_fields[i].name, name) == 0)
            return &vm_fields[i];
    dbl_violation("vm_statistics64 has no field %s", name);
}

size_t
dbl_vm_offset(const char *field)
{
    return vm_field(field)->offset;
}

/* The value host_statistics64 put in the field, as wide as the field is. */
uint64_t
dbl_vm_field(const char *field)
{
    const struct vm_field *f = vm_field(field);
    uint64_t v = dbl_vm_value(f->offset);

    return f->size == sizeof(uint32_t) ? (uint32_t)v : v;
}

/* Every field of a vm_statistics64 its own value at virtual time ns
 * (mach.c's seed plus its offset, grown since), as wide as the field. */
void
dbl_vm_fill(void *vs, uint64_t ns)
{
    memset(vs, 0, sizeof(vm_statistics64_data_t));
    for (size_t i = 0; i < sizeof(vm_fields) / sizeof(vm_fields[0]); i++) {
        uint64_t v = dbl_vm_value_at(vm_fields[i].offset, ns);
        uint32_t v32 = (uint32_t)v;

        memcpy((char *)vs + vm_fields[i].offset, vm_fields[i].size == sizeof(v32) ? (void *)&v32 : (void *)&v,
               vm_fields[i].size);
    }
}
