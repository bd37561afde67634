/*
 * Each CPU's cluster type from the IORegistry device tree: the children of
 * IODeviceTree:/cpus carry "logical-cpu-id" (a number, or 4 bytes of data)
 * and "cluster-type" (data: "E", "P", ...). Apple Silicon only; Intel Macs
 * have no such nodes. Needs IOKit and CoreFoundation, so it is compiled only
 * on a Mac (needs-macos-sdk.txt).
 */
#include "live_source.h"

#include <CoreFoundation/CoreFoundation.h>
#include <IOKit/IOKitLib.h>
#include <errno.h>
#include <stdio.h>

/* A number property stored as CFNumber or as little-endian CFData. */
static int
number_property(io_registry_entry_t entry, CFStringRef key, uint32_t *out)
{
    CFTypeRef value = IORegistryEntryCreateCFProperty(entry, key, kCFAllocatorDefault, 0);
    int found = 0;

    if (value == NULL)
        return 0;
    if (CFGetTypeID(value) == CFNumberGetTypeID()) {
        SInt64 n = -1;

        if (CFNumberGetValue((CFNumberRef)value, kCFNumberSInt64Type, &n) && n >= 0 && n <= UINT32_MAX) {
            *out = (uint32_t)n;
            found = 1;
        }
    } else if (CFGetTypeID(value) == CFDataGetTypeID() && CFDataGetLength((CFDataRef)value) >= 4) {
        const UInt8 *b = CFDataGetBytePtr((CFDataRef)value);

        *out = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
        found = 1;
    }
    CFRelease(value);
    return found;
}

/* The cluster type: the data's printable bytes up to the first NUL. */
static int
type_property(io_registry_entry_t entry, char *out, size_t outlen)
{
    CFTypeRef value = IORegistryEntryCreateCFProperty(entry, CFSTR("cluster-type"), kCFAllocatorDefault, 0);
    size_t n = 0;

    if (value == NULL)
        return 0;
    if (CFGetTypeID(value) == CFDataGetTypeID()) {
        const UInt8 *b = CFDataGetBytePtr((CFDataRef)value);
        CFIndex len = CFDataGetLength((CFDataRef)value);

        for (CFIndex i = 0; i < len && n + 1 < outlen && b[i] > ' ' && b[i] < 0x7f; i++)
            out[n++] = (char)b[i];
    }
    out[n] = '\0';
    CFRelease(value);
    return n > 0;
}

int
live_cpu_clusters(struct live_source *src, const struct plat_cpu_cluster **out, unsigned int *n)
{
    /* MACH_PORT_NULL is the default main port, on SDKs that call it
     * kIOMasterPortDefault and on those that call it kIOMainPortDefault. */
    io_registry_entry_t cpus = IORegistryEntryFromPath(MACH_PORT_NULL, "IODeviceTree:/cpus");
    io_iterator_t children = IO_OBJECT_NULL;
    io_registry_entry_t cpu;
    unsigned int count = 0;
    kern_return_t kr;

    *n = 0;
    if (cpus == IO_OBJECT_NULL)
        return live_fail(src, -ENOENT, "IODeviceTree:/cpus: not present");
    kr = IORegistryEntryGetChildIterator(cpus, kIODeviceTreePlane, &children);
    if (kr != KERN_SUCCESS) {
        IOObjectRelease(cpus);
        return live_fail(src, -EIO, "IODeviceTree:/cpus: no child iterator: %s", mach_error_string(kr));
    }
    while (count < PLAT_MAX_CPUS && (cpu = IOIteratorNext(children)) != IO_OBJECT_NULL) {
        struct plat_cpu_cluster *c = &src->clusters[count];
        uint32_t id;

        if (number_property(cpu, CFSTR("logical-cpu-id"), &id) && type_property(cpu, c->type, sizeof(c->type))) {
            snprintf(c->cpu, sizeof(c->cpu), "cpu%u", (unsigned int)id);
            count++;
        }
        IOObjectRelease(cpu);
    }
    IOObjectRelease(children);
    IOObjectRelease(cpus);
    if (count == 0)
        return live_fail(src, -ENOENT, "IODeviceTree:/cpus: no cpu with logical-cpu-id and cluster-type");
    *out = src->clusters;
    *n = count;
    return 0;
}
