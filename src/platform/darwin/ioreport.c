/*
 * IOReport channels: a private interface (/usr/lib/libIOReport.dylib, no
 * public header), resolved at run time with dlopen/dlsym so that a macOS
 * without it leaves these metrics unsupported. Apple Silicon Macs report
 * the energy their CPU clusters, GPU, Neural Engine and DRAM used through
 * the "Energy Model" group, to any user (no root, unlike powermetrics).
 * What it relies on, as macmon and socpowerbud call it (signatures are
 * not published; the formats and energy units are XNU's own,
 * iokit/IOKit/IOReportTypes.h, xnu-11417.121.6):
 *  - IOReportCopyChannelsInGroup(group, NULL, 0, 0, 0) -> the channels,
 *    IOReportCreateSubscription(NULL, channels, &subscribed, 0, NULL),
 *    IOReportCreateSamples(subscription, subscribed, NULL) -> a dictionary
 *    whose "IOReportChannels" array holds one dictionary per channel;
 *  - IOReportChannelGetChannelName/GetSubGroup/GetUnitLabel (CFStrings it
 *    keeps), IOReportChannelGetFormat (1 simple, 2 state),
 *    IOReportSimpleGetIntegerValue(channel, 0): a counter since boot;
 *    IOReportStateGetCount/GetNameForIndex/GetResidency for state channels.
 * The subscription is made once, at the first read, and released at close;
 * each read takes one sample and releases it. Raw values and unit labels
 * are recorded; ioreport_decode.c converts them.
 */
#include "live_source.h"

#include <CoreFoundation/CoreFoundation.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define IOREPORT_LIBRARY "/usr/lib/libIOReport.dylib"
enum { FORMAT_SIMPLE = 1, FORMAT_STATE = 2 };     /* kIOReportFormatSimple, kIOReportFormatState */

/* The groups the queries name ("IOReport:energy"). */
static const struct {
    const char *token, *group;
} groups[] = {
    { "energy", "Energy Model" },
};
#define NGROUPS (sizeof(groups) / sizeof(groups[0]))

struct ioreport_api {
    CFMutableDictionaryRef (*copy_channels_in_group)(CFStringRef, CFStringRef, uint64_t, uint64_t, uint64_t);
    CFTypeRef (*create_subscription)(void *, CFMutableDictionaryRef, CFMutableDictionaryRef *, uint64_t, CFTypeRef);
    CFDictionaryRef (*create_samples)(CFTypeRef, CFMutableDictionaryRef, CFTypeRef);
    CFStringRef (*channel_name)(CFDictionaryRef);
    CFStringRef (*subgroup)(CFDictionaryRef);
    CFStringRef (*unit_label)(CFDictionaryRef);
    int (*format)(CFDictionaryRef);
    int64_t (*simple_value)(CFDictionaryRef, int32_t);
    int32_t (*state_count)(CFDictionaryRef);
    CFStringRef (*state_name)(CFDictionaryRef, int32_t);
    int64_t (*state_residency)(CFDictionaryRef, int32_t);
};

struct subscription {
    int tried;
    CFMutableDictionaryRef channels, subscribed;
    CFTypeRef sub;
};

struct live_ioreport {
    void *library;
    struct ioreport_api api;
    struct subscription group[NGROUPS];
};

static int
resolve(struct live_source *src, struct live_ioreport *r)
{
    static const char *const names[] = {
        "IOReportCopyChannelsInGroup", "IOReportCreateSubscription", "IOReportCreateSamples",
        "IOReportChannelGetChannelName", "IOReportChannelGetSubGroup", "IOReportChannelGetUnitLabel",
        "IOReportChannelGetFormat", "IOReportSimpleGetIntegerValue", "IOReportStateGetCount",
        "IOReportStateGetNameForIndex", "IOReportStateGetResidency",
    };
    void **slot = (void **)&r->api;

    _Static_assert(sizeof(names) / sizeof(names[0]) * sizeof(void *) == sizeof(struct ioreport_api),
                   "one name per function");
    if ((r->library = dlopen(IOREPORT_LIBRARY, RTLD_LAZY | RTLD_LOCAL)) == NULL)
        return live_fail(src, -ENOENT, "IOReport: %s: %s", IOREPORT_LIBRARY, dlerror());
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if ((slot[i] = dlsym(r->library, names[i])) == NULL)
            return live_fail(src, -ENOENT, "IOReport: %s is missing", names[i]);
    return 0;
}

static int
subscribe(struct live_source *src, struct live_ioreport *r, struct subscription *s, const char *group)
{
    CFStringRef name = CFStringCreateWithCString(kCFAllocatorDefault, group, kCFStringEncodingUTF8);

    s->tried = 1;
    if (name == NULL)
        return live_fail(src, -ENOMEM, "IOReport %s: out of memory", group);
    s->channels = r->api.copy_channels_in_group(name, NULL, 0, 0, 0);
    CFRelease(name);
    if (s->channels == NULL)
        return live_fail(src, -ENOENT, "IOReport: no group \"%s\"", group);
    if ((s->sub = r->api.create_subscription(NULL, s->channels, &s->subscribed, 0, NULL)) == NULL)
        return live_fail(src, -ENOENT, "IOReport %s: no subscription", group);
    return 0;
}

static void
text(CFStringRef s, char *out, size_t len)
{
    if (s == NULL || !CFStringGetCString(s, out, (CFIndex)len, kCFStringEncodingUTF8))
        out[0] = '\0';
}

/* One channel of a sample as an entry. */
static int
add_channel(struct live_source *src, const struct ioreport_api *api, CFDictionaryRef ch, uint64_t id)
{
    struct reg_builder *b = &src->registry;
    char name[PLAT_REG_NAME_MAX], subgroup[PLAT_REG_NAME_MAX], unit[32], path[REG_PATH_MAX];
    int sts;

    text(api->channel_name(ch), name, sizeof(name));
    text(api->subgroup(ch), subgroup, sizeof(subgroup));
    text(api->unit_label(ch), unit, sizeof(unit));
    if ((sts = reg_builder_entry(b, id, 0, name, "IOReportChannel")) < 0 ||
        (sts = reg_builder_string(b, "subgroup", subgroup)) < 0 || (sts = reg_builder_string(b, "unit", unit)) < 0)
        return sts;
    switch (api->format(ch)) {
    case FORMAT_SIMPLE:
        return reg_builder_number(b, "value", (uint64_t)api->simple_value(ch, 0));
    case FORMAT_STATE:
        for (int32_t i = 0; i < api->state_count(ch); i++) {
            char state[PLAT_REG_NAME_MAX];
            int len;

            text(api->state_name(ch, i), state, sizeof(state));
            memcpy(path, "state", 6);
            if ((len = reg_path_append(path, sizeof(path), 5, state, strlen(state))) < 0 ||
                (sts = reg_builder_number(b, path, (uint64_t)api->state_residency(ch, i))) < 0)
                return len < 0 ? len : sts;
        }
        return 0;
    }
    return 0;                           /* histograms and arrays: no family reads one */
}

int
live_ioreport(struct live_source *src, const struct plat_reg_query *q, struct plat_reg_set *out)
{
    const char *token = strchr(q->match, ':') + 1;
    struct live_ioreport *r = src->ioreport;
    struct subscription *s = NULL;
    CFDictionaryRef sample;
    CFStringRef key;
    CFArrayRef channels;
    int sts = 0;

    for (size_t i = 0; i < NGROUPS; i++)
        if (strcmp(token, groups[i].token) == 0 && r != NULL)
            s = &r->group[i];
    if (r == NULL) {
        if ((r = src->ioreport = calloc(1, sizeof(*r))) == NULL)
            return live_fail(src, -ENOMEM, "IOReport: out of memory");
        if ((sts = resolve(src, r)) < 0)
            return sts;                 /* not retried: the library is what it is until a restart */
        return live_ioreport(src, q, out);
    }
    if (s == NULL)
        return live_fail(src, -EINVAL, "IOReport: no group for %s", q->match);
    if (r->api.create_samples == NULL)
        return live_fail(src, -ENOENT, "IOReport: not available");
    if (!s->tried && (sts = subscribe(src, r, s, groups[s - r->group].group)) < 0)
        return sts;
    if (s->sub == NULL)
        return live_fail(src, -ENOENT, "IOReport: no subscription for %s", q->match);
    if ((sample = r->api.create_samples(s->sub, s->subscribed, NULL)) == NULL)
        return live_fail(src, -EIO, "IOReport %s: no sample", q->match);
    key = CFStringCreateWithCString(kCFAllocatorDefault, "IOReportChannels", kCFStringEncodingUTF8);
    channels = key != NULL ? CFDictionaryGetValue(sample, key) : NULL;
    if (channels != NULL && CFGetTypeID(channels) == CFArrayGetTypeID())
        for (CFIndex i = 0; sts == 0 && i < CFArrayGetCount(channels); i++)
            sts = add_channel(src, &r->api, CFArrayGetValueAtIndex(channels, i), (uint64_t)i + 1);
    if (key != NULL)
        CFRelease(key);
    CFRelease(sample);
    if (sts < 0)
        return live_fail(src, sts, "IOReport %s: %s", q->match, strerror(-sts));
    reg_builder_finish(&src->registry, out);
    return out->n > 0 ? 0 : live_fail(src, -ENOENT, "IOReport %s: no channels", q->match);
}

void
live_ioreport_close(struct live_source *src)
{
    struct live_ioreport *r = src->ioreport;

    if (r == NULL)
        return;
    for (size_t i = 0; i < NGROUPS; i++) {
        if (r->group[i].sub != NULL)
            CFRelease(r->group[i].sub);
        if (r->group[i].subscribed != NULL)
            CFRelease(r->group[i].subscribed);
        if (r->group[i].channels != NULL)
            CFRelease(r->group[i].channels);
    }
    if (r->library != NULL)
        dlclose(r->library);
    free(r);
    src->ioreport = NULL;
}
