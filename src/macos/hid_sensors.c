/*
 * Temperature sensors through IOKit's HID event system: a private
 * interface, resolved at run time with dlsym so that a macOS without it
 * (or one that renames it) leaves these metrics unsupported instead of
 * failing to load. Apple Silicon Macs publish their die, battery and SSD
 * sensors this way, without root; Intel Macs publish none (their sensors
 * are SMC keys, smc.c). What it relies on, as macmon, Stats and
 * node_exporter read it (none of it is in a public header; IOHIDFamily's
 * open source uses the same names, HID/HIDEventAccessors.m):
 *  - IOHIDEventSystemClientCreate, ...SetMatching with PrimaryUsagePage
 *    0xff00 and PrimaryUsage 5 (Apple's vendor page, temperature sensor),
 *    ...CopyServices; IOHIDServiceClientCopyProperty(service, "Product");
 *  - IOHIDServiceClientCopyEvent(service, 15, 0, 0): 15 is the
 *    temperature event type, and IOHIDEventGetFloatValue(event, 15 << 16)
 *    its level in degrees Celsius.
 * The client, its services and their names are kept between reads and
 * released at close; each read copies one event per service (a call into
 * the HID event system) and releases it. The list is copied again, client
 * and all (macmon, and Stats in Modules/Sensors/reader.m @57cfb479
 * AppleSiliconSensors, make their client and copy the list at every sample
 * on real Macs; a client hears of services added after it was made through a
 * matching callback on its dispatch queue, IOHIDFamily-2222.0.24
 * HID/HIDEventSystemClient.m:114-117, :198-209, and this one has neither),
 * a cap after the last copy (services come and go),
 * and sooner when it is empty (an Intel Mac lists none; at early boot
 * hidd lists none yet) or no service gave an event (hidd restarted: the
 * old services answer nothing more), then at the bounded rate of retry.c,
 * so that neither costs a call to hidd at every read. Values are recorded
 * as given; thermal_decode.c drops the junk some sensors report.
 */
#include "live_source.h"

#include <CoreFoundation/CoreFoundation.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define HID_TEMPERATURE_EVENT 15
#define HID_FIELD(type) ((type) << 16)
#define HID_MAX_SENSORS 256

struct hid_api {
    CFTypeRef (*client_create)(CFAllocatorRef);
    int (*set_matching)(CFTypeRef, CFDictionaryRef);
    CFArrayRef (*copy_services)(CFTypeRef);
    CFTypeRef (*copy_property)(CFTypeRef, CFStringRef);
    CFTypeRef (*copy_event)(CFTypeRef, int64_t, int32_t, int64_t);
    double (*get_float)(CFTypeRef, int32_t);
};

struct live_hid {
    int status;                     /* 0, or -ENOENT: a function is missing (kept) */
    struct hid_api api;
    CFTypeRef client;
    CFArrayRef services;
    uint64_t listed_ns;             /* when the services were copied */
    struct live_retry retry;        /* after a copy that gave no sensor or no reading */
    unsigned int n;
    char names[HID_MAX_SENSORS][PLAT_NAME_MAX];
};

static int
resolve(struct hid_api *api)
{
    static const char *const names[] = {
        "IOHIDEventSystemClientCreate", "IOHIDEventSystemClientSetMatching", "IOHIDEventSystemClientCopyServices",
        "IOHIDServiceClientCopyProperty", "IOHIDServiceClientCopyEvent", "IOHIDEventGetFloatValue",
    };
    void **slot = (void **)api;

    _Static_assert(sizeof(names) / sizeof(names[0]) * sizeof(void *) == sizeof(struct hid_api),
                   "one name per function");
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if ((slot[i] = dlsym(RTLD_DEFAULT, names[i])) == NULL)
            return -ENOENT;
    return 0;
}

static CFDictionaryRef
matching(void)
{
    int page = 0xff00, usage = 5;
    CFStringRef keys[2] = { CFStringCreateWithCString(kCFAllocatorDefault, "PrimaryUsagePage", kCFStringEncodingUTF8),
                            CFStringCreateWithCString(kCFAllocatorDefault, "PrimaryUsage", kCFStringEncodingUTF8) };
    CFNumberRef values[2] = { CFNumberCreate(kCFAllocatorDefault, kCFNumberIntType, &page),
                              CFNumberCreate(kCFAllocatorDefault, kCFNumberIntType, &usage) };
    CFDictionaryRef dict = NULL;

    if (keys[0] && keys[1] && values[0] && values[1])
        dict = CFDictionaryCreate(kCFAllocatorDefault, (const void **)keys, (const void **)values, 2,
                                  &kCFTypeDictionaryKeyCallBacks, &kCFTypeDictionaryValueCallBacks);
    for (int i = 0; i < 2; i++) {
        if (keys[i])
            CFRelease(keys[i]);
        if (values[i])
            CFRelease(values[i]);
    }
    return dict;
}

static void
forget(struct live_hid *hid)
{
    if (hid->services != NULL)
        CFRelease(hid->services);
    if (hid->client != NULL)
        CFRelease(hid->client);
    hid->services = NULL;
    hid->client = NULL;
    hid->n = 0;
}

static void
copy_names(struct live_hid *hid)
{
    CFStringRef product = CFStringCreateWithCString(kCFAllocatorDefault, "Product", kCFStringEncodingUTF8);

    for (CFIndex i = 0; product != NULL && i < CFArrayGetCount(hid->services) && hid->n < HID_MAX_SENSORS; i++) {
        CFTypeRef name = hid->api.copy_property(CFArrayGetValueAtIndex(hid->services, i), product);
        char *at = hid->names[hid->n++];

        if (name == NULL || CFGetTypeID(name) != CFStringGetTypeID() ||
            !CFStringGetCString((CFStringRef)name, at, PLAT_NAME_MAX, kCFStringEncodingUTF8))
            at[0] = '\0';
        if (name != NULL)
            CFRelease(name);
    }
    if (product != NULL)
        CFRelease(product);
}

/* A new client and its list of temperature services, with their names. */
static int
copy_services(struct live_source *src, struct live_hid *hid)
{
    CFDictionaryRef match;

    forget(hid);
    if ((hid->client = hid->api.client_create(kCFAllocatorDefault)) == NULL)
        return live_fail(src, -ENOENT, "HID: no event system client");
    if ((match = matching()) == NULL)
        return live_fail(src, -ENOMEM, "HID: out of memory");
    hid->api.set_matching(hid->client, match);
    CFRelease(match);
    if ((hid->services = hid->api.copy_services(hid->client)) == NULL)
        return live_fail(src, -ENOENT, "HID: no temperature services");
    hid->listed_ns = live_clock_ns();
    copy_names(hid);
    return hid->n > 0 ? 0 : live_fail(src, -ENOENT, "HID: no temperature sensors");
}

/* An entry per service, with its reading where it gave one. */
static int
add_sensors(struct live_source *src, struct live_hid *hid, unsigned int *readings)
{
    *readings = 0;
    entry_builder_reset(&src->entries);
    for (unsigned int i = 0; i < hid->n; i++) {
        CFTypeRef event = hid->api.copy_event(CFArrayGetValueAtIndex(hid->services, (CFIndex)i),
                                              HID_TEMPERATURE_EVENT, 0, 0);
        int sts = entry_builder_entry(&src->entries, i + 1, 0, hid->names[i], "IOHIDServiceClient");

        if (sts == 0 && event != NULL) {
            sts = entry_builder_float(&src->entries, "celsius",
                                    hid->api.get_float(event, HID_FIELD(HID_TEMPERATURE_EVENT)));
            (*readings)++;
        }
        if (event != NULL)
            CFRelease(event);
        if (sts < 0)
            return live_fail(src, sts, "HID: %s", strerror(-sts));
    }
    return 0;
}

int
live_hid_sensors(struct live_source *src, const struct plat_query *q, struct plat_entry_set *out)
{
    struct live_hid *hid = src->hid;
    unsigned int readings;
    int copied = 0, sts;

    (void)q;
    if (hid == NULL) {
        if ((hid = src->hid = calloc(1, sizeof(*hid))) == NULL)
            return live_fail(src, -ENOMEM, "HID: out of memory");
        hid->status = resolve(&hid->api);
    }
    if (hid->status < 0)
        return live_fail(src, hid->status, "HID: the event system client functions are missing");
    if (hid->n == 0 && !live_retry_due(&hid->retry))
        return live_retry_repeat(src, &hid->retry);
    if (hid->n == 0 || live_clock_ns() - hid->listed_ns >= PLAT_RETRY_CAP_NS) {
        copied = 1;
        if ((sts = copy_services(src, hid)) < 0)
            return live_retry_after(src, &hid->retry, sts);
    }
    if ((sts = add_sensors(src, hid, &readings)) < 0)
        return sts;
    if (readings == 0 && !copied && live_retry_due(&hid->retry)) {     /* all silent: hidd may have restarted */
        if ((sts = copy_services(src, hid)) < 0)
            return live_retry_after(src, &hid->retry, sts);
        if ((sts = add_sensors(src, hid, &readings)) < 0)
            return sts;
    }
    if (readings > 0)
        live_retry_after(src, &hid->retry, 0);
    else if (copied || live_retry_due(&hid->retry))
        live_retry_later(&hid->retry);
    entry_builder_finish(&src->entries, out);
    return 0;
}

void
live_hid_close(struct live_source *src)
{
    if (src->hid != NULL)
        forget(src->hid);
    free(src->hid);
    src->hid = NULL;
}
