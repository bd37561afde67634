/*
 * IOKit's NVMe SMART plug-in and the calls that make and destroy it, as
 * IOKitUser-100222.0.4 IOCFPlugIn.c has them and as Macs answered them:
 *  - IOCreatePlugInInterfaceForService finds the plug-in through the
 *    service's "IOCFPlugInTypes" (:94-242): a service that lists no
 *    plug-in of the type asked is kIOReturnUnsupported (:262-281); the
 *    plug-in's Start opens the user client, and a Start that fails is
 *    kIOReturnNoResources (:329-369); the caller gets a plug-in with one
 *    reference;
 *  - the user client serves one plug-in at a time: while a client keeps
 *    its plug-in, smartctl and every other client fail (netdata 23443);
 *  - IODestroyPlugInInterface is the plug-in's Stop (closing the user
 *    client) then its Release (:372-381); QueryInterface gives the SMART
 *    interface with a reference of its own (CF-1153.18 CFPlugInCOM.h's
 *    IUnknown rule), which the caller releases;
 *  - SMARTReadData fills the 512-byte log page (smartmontools f1d0da9ce8
 *    lib/os_darwin.h:42-44), or fails as a test says: the plug-in refused
 *    (smartctl 7.2 on macOS 12.2, "IOCreatePlugInInterfaceForService
 *    failed": smartmontools 128), a read that times out (kIOReturnTimeout,
 *    errno 60 on an M1 Max: netdata 23443), or a read that does not return
 *    while the test holds it;
 *  - a call on a plug-in or an interface with no reference left, or a read
 *    after the plug-in was stopped, is the live code's fault.
 * CFUUIDGetConstantUUIDWithBytes gives one constant object per UUID, never
 * released (CF-1153.18 CFUUID.h:77-83).
 * The plug-in's calls come from the live code's reading thread: they keep
 * to this file's state, which a test sets before a round starts.
 */
#include "double.h"

#include <CoreFoundation/CoreFoundation.h>
#include <IOKit/IOCFPlugIn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nvme_health_decode.h"
#include "nvme_smart_interface.h"

#define MAX_UUIDS 16
#define MAX_DEVICES 8
#define MACH_SEND_INVALID_DEST 0x10000003   /* xnu-11417.101.15 osfmk/mach/message.h */

struct uuid {
    CFUUIDBytes bytes;
};

struct device {
    uint64_t id;
    unsigned char page[NVME_HEALTH_LOG_BYTES];
    kern_return_t create_fails, read_fails;
    int open;                       /* a plug-in holds the user client */
};

/* A plug-in and its SMART interface: one object, two tables. */
struct plugin {
    IOCFPlugInInterface *plugin_table;
    struct nvme_smart_interface *smart_table;
    IOCFPlugInInterface plugin_vtbl;
    struct nvme_smart_interface smart_vtbl;
    struct device *device;
    int refs, started;
};

static struct uuid uuids[MAX_UUIDS];
static unsigned int nuuids;
static struct device devices[MAX_DEVICES];
static unsigned int ndevices;
static unsigned int sessions;       /* plug-ins made and not yet destroyed */
static unsigned int made;           /* plug-ins made since the reset */

void
dbl_nvme_reset(void)
{
    memset(devices, 0, sizeof(devices));
    ndevices = 0;
    sessions = made = 0;
    dbl_gate_set(1);
}

static struct device *
device_of(uint64_t id)
{
    for (unsigned int i = 0; i < ndevices; i++)
        if (devices[i].id == id)
            return &devices[i];
    if (ndevices == MAX_DEVICES)
        dbl_violation("more than %d NVMe devices", MAX_DEVICES);
    devices[ndevices].id = id;
    return &devices[ndevices++];
}

void
dbl_nvme_page(uint64_t id, const unsigned char *page)
{
    memcpy(device_of(id)->page, page, NVME_HEALTH_LOG_BYTES);
}

void
dbl_nvme_create_fails(uint64_t id, int kr)
{
    device_of(id)->create_fails = kr;
}

void
dbl_nvme_read_fails(uint64_t id, int kr)
{
    device_of(id)->read_fails = kr;
}

void
dbl_nvme_hold_reads(int hold)
{
    dbl_gate_set(!hold);
}

void
dbl_nvme_wait_held(void)
{
    dbl_gate_reached();
}

unsigned int
dbl_nvme_sessions(unsigned int *made_since_reset)
{
    *made_since_reset = made;
    return sessions;
}

CFUUIDRef
CFUUIDGetConstantUUIDWithBytes(CFAllocatorRef alloc, UInt8 b0, UInt8 b1, UInt8 b2, UInt8 b3, UInt8 b4, UInt8 b5,
                               UInt8 b6, UInt8 b7, UInt8 b8, UInt8 b9, UInt8 b10, UInt8 b11, UInt8 b12, UInt8 b13,
                               UInt8 b14, UInt8 b15)
{
    CFUUIDBytes b = { b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12, b13, b14, b15 };

    (void)alloc;
    for (unsigned int i = 0; i < nuuids; i++)
        if (memcmp(&uuids[i].bytes, &b, sizeof(b)) == 0)
            return (CFUUIDRef)&uuids[i];
    if (nuuids == MAX_UUIDS)
        dbl_violation("more than %d constant UUIDs", MAX_UUIDS);
    uuids[nuuids].bytes = b;
    return (CFUUIDRef)&uuids[nuuids++];
}

CFUUIDBytes
CFUUIDGetUUIDBytes(CFUUIDRef uuid)
{
    return ((const struct uuid *)uuid)->bytes;
}

static int
same_uuid(CFUUIDRef a, CFUUIDRef b)
{
    return a == b;                  /* constant UUIDs: one object per UUID */
}

/* A UUID as CFUUIDCreateString writes it, upper case ("AA0FA6F9-C2D6-...") */
static void
uuid_text(CFUUIDRef uuid, char out[37])
{
    CFUUIDBytes b = CFUUIDGetUUIDBytes(uuid);
    const UInt8 *v = &b.byte0;
    char *o = out;

    for (unsigned int i = 0; i < sizeof(b); i++) {
        o += snprintf(o, 3, "%02X", v[i]);
        if (i == 3 || i == 5 || i == 7 || i == 9)
            *o++ = '-';
    }
    *o = '\0';
}

/* The plug-in object from one of its interfaces (what its functions get). */
static struct plugin *
from_plugin(void *interface, const char *caller)
{
    struct plugin *p = (struct plugin *)((char *)interface - offsetof(struct plugin, plugin_table));

    if (p->refs <= 0)
        dbl_violation("%s on a plug-in with no reference left", caller);
    return p;
}

static struct plugin *
from_smart(void *interface, const char *caller)
{
    struct plugin *p = (struct plugin *)((char *)interface - offsetof(struct plugin, smart_table));

    if (p->refs <= 0)
        dbl_violation("%s on an NVMe SMART interface with no reference left", caller);
    return p;
}

static ULONG
release(struct plugin *p)
{
    ULONG left = (ULONG)--p->refs;

    if (left == 0) {
        if (p->started)
            dbl_violation("the last reference of a plug-in went before its Stop: the user client stays open");
        free(p);
    }
    return left;
}

static ULONG
plugin_add_ref(void *self)
{
    return (ULONG)++from_plugin(self, "AddRef")->refs;
}

static ULONG
plugin_release(void *self)
{
    return release(from_plugin(self, "Release"));
}

static HRESULT
plugin_query(void *self, REFIID iid, LPVOID *ppv)
{
    struct plugin *p = from_plugin(self, "QueryInterface");
    CFUUIDBytes want = CFUUIDGetUUIDBytes(NVME_SMART_INTERFACE);

    if (memcmp(&iid, &want, sizeof(want)) != 0) {
        *ppv = NULL;
        return (HRESULT)0x80000004L;        /* E_NOINTERFACE, CF-1153.18 CFPlugInCOM.h:69 */
    }
    p->refs++;
    *ppv = &p->smart_table;
    return S_OK;
}

static IOReturn
plugin_stop(void *self)
{
    struct plugin *p = from_plugin(self, "Stop");

    if (p->started) {
        p->started = 0;
        p->device->open = 0;
        sessions--;
    }
    return kIOReturnSuccess;
}

static HRESULT
smart_query(void *self, REFIID iid, LPVOID *ppv)
{
    return plugin_query(&from_smart(self, "QueryInterface")->plugin_table, iid, ppv);
}

static ULONG
smart_add_ref(void *self)
{
    return (ULONG)++from_smart(self, "AddRef")->refs;
}

static ULONG
smart_release(void *self)
{
    return release(from_smart(self, "Release"));
}

static IOReturn
smart_read(void *self, void *page)
{
    struct plugin *p = from_smart(self, "SMARTReadData");

    if (!p->started)
        return MACH_SEND_INVALID_DEST;       /* the user client is closed */
    dbl_gate_wait();
    if (p->device->read_fails != 0)
        return p->device->read_fails;
    memcpy(page, p->device->page, NVME_HEALTH_LOG_BYTES);
    return kIOReturnSuccess;
}

/* Whether the service lists a plug-in of that type in its IOCFPlugInTypes
 * (keys are UUID strings, as the M1's dump has them). */
static int
lists_type(CFDictionaryRef props, CFUUIDRef type)
{
    CFDictionaryRef types = dbl_cf_get(props, "IOCFPlugInTypes");
    char text[37];

    uuid_text(type, text);
    return types != NULL && dbl_cf_get(types, text) != NULL;
}

kern_return_t
IOCreatePlugInInterfaceForService(io_service_t service, CFUUIDRef plugin_type, CFUUIDRef interface_type,
                                  IOCFPlugInInterface ***interface, SInt32 *score)
{
    uint64_t id;
    CFDictionaryRef props = dbl_io_entry(service, &id, "IOCreatePlugInInterfaceForService");
    struct device *d;
    struct plugin *p;

    if (props == NULL || !lists_type(props, plugin_type))
        return kIOReturnUnsupported;
    d = device_of(id);
    if (d->create_fails != 0)
        return d->create_fails;
    if (!same_uuid(interface_type, kIOCFPlugInInterfaceID) || d->open)
        return kIOReturnNoResources;        /* no interface, or a Start refused: the user client is taken */
    if ((p = calloc(1, sizeof(*p))) == NULL)
        dbl_violation("out of memory");
    p->plugin_vtbl = (IOCFPlugInInterface){ .QueryInterface = plugin_query, .AddRef = plugin_add_ref,
                                            .Release = plugin_release, .Stop = plugin_stop };
    p->smart_vtbl = (struct nvme_smart_interface){ .QueryInterface = smart_query, .AddRef = smart_add_ref,
                                                   .Release = smart_release, .SMARTReadData = smart_read };
    p->plugin_table = &p->plugin_vtbl;
    p->smart_table = &p->smart_vtbl;
    p->device = d;
    p->refs = 1;
    p->started = 1;
    d->open = 1;
    sessions++;
    made++;
    *interface = &p->plugin_table;
    *score = 0;
    return kIOReturnSuccess;
}

kern_return_t
IODestroyPlugInInterface(IOCFPlugInInterface **interface)
{
    IOReturn kr = (*interface)->Stop(interface);

    (*interface)->Release(interface);
    return kr;
}
