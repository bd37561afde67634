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
 * The client, its services and their names are taken once, at the first
 * read, and released at close; each read copies one event per service (a
 * call into the HID event system) and releases it. Values are recorded as
 * given; hardware_decode.c drops the junk some sensors report.
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

typedef CFTypeRef (*client_create_fn)(CFAllocatorRef);
typedef int (*client_set_matching_fn)(CFTypeRef, CFDictionaryRef);
typedef CFArrayRef (*client_copy_services_fn)(CFTypeRef);
typedef CFTypeRef (*service_copy_property_fn)(CFTypeRef, CFStringRef);
typedef CFTypeRef (*service_copy_event_fn)(CFTypeRef, int64_t, int32_t, int64_t);
typedef double (*event_get_float_fn)(CFTypeRef, int32_t);

struct live_hid {
    CFTypeRef client;
    CFArrayRef services;
    unsigned int n;
    char names[HID_MAX_SENSORS][PLAT_NAME_MAX];
    service_copy_event_fn copy_event;
    event_get_float_fn get_float;
};

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

static int
hid_open(struct live_source *src)
{
    client_create_fn create = (client_create_fn)dlsym(RTLD_DEFAULT, "IOHIDEventSystemClientCreate");
    client_set_matching_fn set_matching =
        (client_set_matching_fn)dlsym(RTLD_DEFAULT, "IOHIDEventSystemClientSetMatching");
    client_copy_services_fn copy_services =
        (client_copy_services_fn)dlsym(RTLD_DEFAULT, "IOHIDEventSystemClientCopyServices");
    service_copy_property_fn copy_property =
        (service_copy_property_fn)dlsym(RTLD_DEFAULT, "IOHIDServiceClientCopyProperty");
    struct live_hid *hid;
    CFDictionaryRef match;
    CFStringRef product;

    if ((hid = src->hid = calloc(1, sizeof(*hid))) == NULL)
        return live_fail(src, -ENOMEM, "HID: out of memory");
    hid->copy_event = (service_copy_event_fn)dlsym(RTLD_DEFAULT, "IOHIDServiceClientCopyEvent");
    hid->get_float = (event_get_float_fn)dlsym(RTLD_DEFAULT, "IOHIDEventGetFloatValue");
    if (!create || !set_matching || !copy_services || !copy_property || !hid->copy_event || !hid->get_float)
        return live_fail(src, -ENOENT, "HID: the event system client functions are missing");
    if ((hid->client = create(kCFAllocatorDefault)) == NULL || (match = matching()) == NULL)
        return live_fail(src, -ENOENT, "HID: no event system client");
    set_matching(hid->client, match);
    CFRelease(match);
    if ((hid->services = copy_services(hid->client)) == NULL)
        return live_fail(src, -ENOENT, "HID: no temperature services");
    product = CFStringCreateWithCString(kCFAllocatorDefault, "Product", kCFStringEncodingUTF8);
    for (CFIndex i = 0; product != NULL && i < CFArrayGetCount(hid->services) && hid->n < HID_MAX_SENSORS; i++) {
        CFTypeRef name = copy_property(CFArrayGetValueAtIndex(hid->services, i), product);
        char *at = hid->names[hid->n++];

        if (name == NULL || CFGetTypeID(name) != CFStringGetTypeID() ||
            !CFStringGetCString((CFStringRef)name, at, PLAT_NAME_MAX, kCFStringEncodingUTF8))
            at[0] = '\0';
        if (name != NULL)
            CFRelease(name);
    }
    if (product != NULL)
        CFRelease(product);
    return 0;
}

int
live_hid_sensors(struct live_source *src, const struct plat_reg_query *q, struct plat_reg_set *out)
{
    struct live_hid *hid;
    int sts;

    if (src->hid == NULL && (sts = hid_open(src)) < 0)
        return sts;
    if ((hid = src->hid)->services == NULL)
        return live_fail(src, -ENOENT, "HID: no temperature services");
    for (unsigned int i = 0; i < hid->n; i++) {
        CFTypeRef event = hid->copy_event(CFArrayGetValueAtIndex(hid->services, (CFIndex)i),
                                          HID_TEMPERATURE_EVENT, 0, 0);

        sts = reg_builder_entry(&src->registry, i + 1, 0, hid->names[i], "IOHIDServiceClient");
        if (sts == 0 && event != NULL)
            sts = reg_builder_float(&src->registry, "celsius",
                                    hid->get_float(event, HID_FIELD(HID_TEMPERATURE_EVENT)));
        if (event != NULL)
            CFRelease(event);
        if (sts < 0)
            return live_fail(src, sts, "HID %s: %s", q->match, strerror(-sts));
    }
    reg_builder_finish(&src->registry, out);
    return out->n > 0 ? 0 : live_fail(src, -ENOENT, "HID: no temperature sensors");
}

void
live_hid_close(struct live_source *src)
{
    if (src->hid != NULL) {
        if (src->hid->services != NULL)
            CFRelease(src->hid->services);
        if (src->hid->client != NULL)
            CFRelease(src->hid->client);
    }
    free(src->hid);
    src->hid = NULL;
}
