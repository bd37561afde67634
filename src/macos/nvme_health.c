/*
 * The NVMe SMART / Health log page of each NVMe device through IOKit's
 * NVMe SMART plug-in (nvme_smart_interface.h), the way smartctl reads it
 * on a Mac: the block storage devices whose "NVMe SMART Capable" is Yes
 * (IONVMeBlockStorageDevice on Intel Macs, IOEmbeddedNVMeBlockDevice on
 * Apple Silicon), each read in one short session: the plug-in made
 * (IOCreatePlugInInterfaceForService), its SMART interface asked for,
 * SMARTReadData, then the interface released and the plug-in destroyed
 * (IODestroyPlugInInterface: Stop, which closes the user client, then
 * Release: IOKitUser-100222.0.4 IOCFPlugIn.c:372-381). A client that
 * keeps the plug-in keeps the user client, and smartctl and every other
 * client fail while it does (netdata 23443, fixed by netdata pull request
 * 23445).
 *
 * The read can stall: on an M1 Max the plug-in's calls timed out
 * (errno 60, netdata 23443), and a timeout takes seconds. So no read
 * runs in the caller's thread: a query starts a round in a thread of its
 * own when PLAT_NVME_INTERVAL_NS has passed since the last round began,
 * and answers at once with the pages of the last round that finished,
 * never older than PLAT_NVME_STALE_NS. No round starts while none is
 * asked for. The thread touches only the round's devices; the caller
 * finds the services before and releases them after, so every other
 * IOKit object stays in one thread.
 *
 * Where the plug-in cannot be made (smartctl 7.2 on macOS 12.2:
 * "IOCreatePlugInInterfaceForService failed", smartmontools 128) or a
 * read fails, the device gives no page, and the call says why.
 */
#include "live_source.h"
#include "nvme_health_decode.h"
#include "nvme_smart_interface.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NVME_MAX_DEVICES 8

struct nvme_device {
    io_service_t service;           /* held from the round's start until the caller takes its end */
    uint64_t id;
    char name[PLAT_ENTRY_NAME_MAX];
    char class_name[PLAT_ENTRY_NAME_MAX];
    int status;                     /* the session's: 0, or a negative errno and why */
    char why[128];
    unsigned char page[NVME_HEALTH_LOG_BYTES];
};

struct nvme_round {
    unsigned int n;
    struct nvme_device device[NVME_MAX_DEVICES];
};

enum round_state { ROUND_NONE, ROUND_RUNNING, ROUND_DONE };

struct live_nvme {
    _Atomic int state;              /* enum round_state: the thread stores DONE (release) after its last write */
    pthread_t thread;
    uint64_t started_ns;            /* the running or last round's start */
    uint64_t next_ns;               /* when the next round may start */
    struct nvme_round reading;      /* the thread's while RUNNING */
    struct nvme_round served;       /* the last round that finished */
    uint64_t served_ns;             /* its start */
    int have_served;
    int find_status;                /* the last search for devices: 0, or why there were none */
    char find_why[128];
};

static int
read_error(IOReturn kr)
{
    return kr == kIOReturnTimeout ? -ETIMEDOUT : kr == kIOReturnNoResources ? -EBUSY : -EIO;
}

/* One session: made, asked, read, released, destroyed. */
static void
read_device(struct nvme_device *d)
{
    IOCFPlugInInterface **plugin = NULL;
    struct nvme_smart_interface **smart = NULL;
    SInt32 score = 0;
    IOReturn kr;

    kr = IOCreatePlugInInterfaceForService(d->service, NVME_SMART_USER_CLIENT_TYPE, kIOCFPlugInInterfaceID, &plugin,
                                           &score);
    if (kr != kIOReturnSuccess || plugin == NULL) {
        d->status = kr == kIOReturnNoResources ? -EBUSY : -ENOTSUP;
        snprintf(d->why, sizeof(d->why), "IOCreatePlugInInterfaceForService: %s", mach_error_string(kr));
        return;
    }
    if ((*plugin)->QueryInterface(plugin, CFUUIDGetUUIDBytes(NVME_SMART_INTERFACE), (LPVOID *)&smart) != S_OK ||
        smart == NULL) {
        d->status = -ENOTSUP;
        snprintf(d->why, sizeof(d->why), "no NVMe SMART interface");
    } else {
        if ((kr = (*smart)->SMARTReadData(smart, d->page)) != kIOReturnSuccess) {
            d->status = read_error(kr);
            snprintf(d->why, sizeof(d->why), "SMARTReadData: %s", mach_error_string(kr));
        }
        (*smart)->Release(smart);
    }
    IODestroyPlugInInterface(plugin);
}

static void *
read_round(void *arg)
{
    struct live_nvme *nv = arg;

    for (unsigned int i = 0; i < nv->reading.n; i++)
        read_device(&nv->reading.device[i]);
    atomic_store_explicit(&nv->state, ROUND_DONE, memory_order_release);
    return NULL;
}

/* The round's devices: the services whose "NVMe SMART Capable" is Yes. */
static int
find_devices(struct live_nvme *nv)
{
    struct nvme_round *r = &nv->reading;
    io_iterator_t it;
    io_service_t s;
    kern_return_t kr;

    r->n = 0;
    if ((kr = IOServiceGetMatchingServices(MACH_PORT_NULL, IOServiceMatching("IOBlockStorageDevice"), &it)) !=
        KERN_SUCCESS) {
        snprintf(nv->find_why, sizeof(nv->find_why), "IOServiceGetMatchingServices: %s", mach_error_string(kr));
        return nv->find_status = -EIO;
    }
    while ((s = IOIteratorNext(it)) != IO_OBJECT_NULL) {
        CFStringRef key = CFStringCreateWithCString(kCFAllocatorDefault, NVME_SMART_CAPABLE_KEY, kCFStringEncodingUTF8);
        CFTypeRef capable = key ? IORegistryEntryCreateCFProperty(s, key, kCFAllocatorDefault, 0) : NULL;
        int yes = capable != NULL && CFGetTypeID(capable) == CFBooleanGetTypeID() && CFBooleanGetValue(capable);
        struct nvme_device *d = &r->device[r->n];

        if (capable != NULL)
            CFRelease(capable);
        if (key != NULL)
            CFRelease(key);
        if (!yes || r->n == NVME_MAX_DEVICES || IORegistryEntryGetRegistryEntryID(s, &d->id) != KERN_SUCCESS ||
            IORegistryEntryGetName(s, d->name) != KERN_SUCCESS || IOObjectGetClass(s, d->class_name) != KERN_SUCCESS) {
            IOObjectRelease(s);
            continue;
        }
        d->service = s;
        d->status = 0;
        r->n++;
    }
    IOObjectRelease(it);
    if (r->n == 0) {
        snprintf(nv->find_why, sizeof(nv->find_why), "no block storage device is NVMe SMART capable");
        return nv->find_status = -ENOENT;
    }
    return nv->find_status = 0;
}

static void
release_devices(struct nvme_round *r)
{
    for (unsigned int i = 0; i < r->n; i++)
        IOObjectRelease(r->device[i].service);
}

/* A finished round becomes the one served; its services go back. */
static void
take_round(struct live_nvme *nv)
{
    pthread_join(nv->thread, NULL);
    release_devices(&nv->reading);
    nv->served = nv->reading;
    nv->served_ns = nv->started_ns;
    nv->have_served = 1;
    atomic_store_explicit(&nv->state, ROUND_NONE, memory_order_relaxed);
}

static void
start_round(struct live_nvme *nv)
{
    int err;

    nv->started_ns = live_clock_ns();
    nv->next_ns = nv->started_ns + PLAT_NVME_INTERVAL_NS;
    if (find_devices(nv) < 0)
        return;
    atomic_store_explicit(&nv->state, ROUND_RUNNING, memory_order_relaxed);
    if ((err = pthread_create(&nv->thread, NULL, read_round, nv)) != 0) {
        atomic_store_explicit(&nv->state, ROUND_NONE, memory_order_relaxed);
        release_devices(&nv->reading);
        snprintf(nv->find_why, sizeof(nv->find_why), "pthread_create: %s", strerror(err));
        nv->find_status = -err;
    }
}

/* The last finished round's pages as entries. */
static int
serve(struct live_source *src, struct live_nvme *nv, struct plat_entry_set *out)
{
    uint64_t now = live_clock_ns();
    int first = 0, sts;

    if (nv->find_status < 0)
        return live_fail(src, nv->find_status, "NVMe: %s", nv->find_why);
    if (!nv->have_served || now - nv->served_ns > PLAT_NVME_STALE_NS)
        return atomic_load_explicit(&nv->state, memory_order_acquire) == ROUND_RUNNING
                   ? live_fail(src, nv->have_served ? -ETIMEDOUT : -EAGAIN,
                               "NVMe: the read started %llu s ago has not returned",
                               (unsigned long long)((now - nv->started_ns) / 1000000000ull))
                   : live_fail(src, -EAGAIN, "NVMe: no read yet");
    for (unsigned int i = 0; i < nv->served.n; i++) {
        const struct nvme_device *d = &nv->served.device[i];

        if (d->status < 0) {
            first = first ? first : live_fail(src, d->status, "NVMe %s: %s", d->name, d->why);
            continue;
        }
        if ((sts = entry_builder_entry(&src->entries, d->id, 0, d->name, d->class_name)) < 0 ||
            (sts = entry_builder_data(&src->entries, "smart", d->page, sizeof(d->page))) < 0)
            return live_fail(src, sts, "NVMe %s: %s", d->name, strerror(-sts));
    }
    entry_builder_finish(&src->entries, out);
    return out->n > 0 ? 0 : first;
}

int
live_nvme_health(struct live_source *src, const struct plat_query *q, struct plat_entry_set *out)
{
    struct live_nvme *nv = src->nvme;
    int state;

    (void)q;
    if (nv == NULL && (nv = src->nvme = calloc(1, sizeof(*nv))) == NULL)
        return live_fail(src, -ENOMEM, "NVMe: out of memory");
    state = atomic_load_explicit(&nv->state, memory_order_acquire);
    if (state == ROUND_DONE)
        take_round(nv);
    if (state != ROUND_RUNNING && live_clock_ns() >= nv->next_ns)
        start_round(nv);
    return serve(src, nv, out);
}

void
live_nvme_close(struct live_source *src)
{
    struct live_nvme *nv = src->nvme;

    if (nv != NULL && atomic_load_explicit(&nv->state, memory_order_acquire) != ROUND_NONE) {
        pthread_join(nv->thread, NULL);     /* a stalled read holds the close, never a fetch */
        release_devices(&nv->reading);
    }
    free(nv);
    src->nvme = NULL;
}
