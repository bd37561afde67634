/*
 * IOReport channels: a private interface (/usr/lib/libIOReport.dylib, no
 * public header), resolved at run time with dlopen/dlsym so that a macOS
 * without it, or with a library that lacks one of the functions, leaves
 * these metrics unsupported. Apple Silicon Macs report the energy their CPU
 * clusters, GPU, Neural Engine and DRAM used through the "Energy Model"
 * group, to any user (no root, unlike powermetrics). What it relies on, as
 * macmon, mactop, Stats and socpowerbud call it (signatures are not
 * published; the formats and energy units are XNU's own,
 * iokit/IOKit/IOReportTypes.h, xnu-11417.101.15):
 *  - IOReportCopyChannelsInGroup(group, NULL, 0, 0, 0) -> the channels (a
 *    dictionary whose "IOReportChannels" array holds one dictionary per
 *    channel; one without that array where the group does not exist, as
 *    the decompilation below has it, and NULL taken as none too),
 *    IOReportCreateSubscription(NULL, channels, &subscribed, 0, NULL),
 *    IOReportCreateSamples(subscription, subscribed, NULL) -> a dictionary
 *    of the same shape, or NULL now and then;
 *  - IOReportChannelGetChannelName/GetSubGroup/GetUnitLabel (CFStrings it
 *    keeps), IOReportChannelGetFormat (1 simple, 2 state),
 *    IOReportSimpleGetIntegerValue(channel, NULL): a counter since boot
 *    (the second argument is where it would write the channel's unit);
 *    IOReportStateGetCount/GetNameForIndex/GetResidency for state channels.
 * What libIOReport cannot read it answers with a sentinel, not an error
 * (its decompilation, iOS 18.2: EthanArbuckle/iPhone17-1_18.2_22C152_Restore
 * usr/lib/libIOReport/libIOReport.m): kIOReportInvalidValue (INT64_MIN,
 * IOReportTypes.h:40-50, which providers report too) for a value,
 * 0xFFFFFFFF for a state count (nelements is 16 bits: IOReportTypes.h:142),
 * NULL for a state name (every one of the channel's, when one state ID is
 * not printable). Such a channel has no value this round, never the
 * sentinel as a reading; a state channel has all its states or none.
 * The subscription is asked for once, at the first read, and released at
 * close; each read takes one sample and releases it. A subscription that
 * gives no sample may be dead for good: libIOReport finds a subscribed
 * channel by its provider's registry entry ID (DriverID; xnu
 * iokit/Kernel/IOReporter.cpp:174), and a provider that went away or
 * registered again (GPU, display and Neural Engine drivers) is not found
 * again (the decompilation's _visitSample); so it is given back and made
 * again from the channels listed then, at the rate every failing private
 * source is asked again (retry.c), each value continuing from its last
 * reading (counter_baseline.h). Unit labels are recorded as they are;
 * energy_decode.c converts the values.
 */
#include "live_source.h"
#include "counter_baseline.h"

#include <CoreFoundation/CoreFoundation.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IOREPORT_LIBRARY "/usr/lib/libIOReport.dylib"
enum { FORMAT_SIMPLE = 1, FORMAT_STATE = 2 };     /* kIOReportFormatSimple, kIOReportFormatState */
#define INVALID_VALUE INT64_MIN                    /* kIOReportInvalidValue */

/* The groups the queries name ("IOReport:energy"), each with the one
 * subgroup it needs (NULL: all of them), so that a subscription holds no
 * channel nobody reads: "CPU Stats" also has voltage-state times, per
 * cluster and per core, that no collector reads; and the places the same
 * channels have on other chips, tried in turn where one lists no
 * channels. The power manager's group is "PMP" up to the M4 and "PMP0"
 * on the M5 (kennss/SiliconScope issue 30, an M5 Max on 26.5.2; issue 46,
 * an M3 Max on 27.0); its "DCS BW" subgroup holds the memory bandwidth
 * histograms (bandwidth_decode.h), which an M1 on macOS 11 has as the
 * "Bandwidth" subgroup instead (its IOReportLegend: "DCS RD", "GPU WR",
 * ... in shared/real-macs/ioreport); the rest of the group (about 540
 * channels on an M4 Pro: metaspartan/mactop pull request 91) no collector
 * reads. The memory controllers' byte counters per requestor are "AMC
 * Stats" "Perf Counters" (simple channels "DCS RD", "GFX WR", ... in the
 * same M1's legend); on macOS 27 the group gives INT64_MIN for every value
 * (SiliconScope issue 14, an M3 Max) or cannot be subscribed (issue 46, an
 * M3 Max; metaspartan/mactop pull request 91, an M4 Pro; SiliconScope
 * issue 30, an M5 Max on 26.5.2). */
#define MAX_PLACES 3
struct place {
    const char *group, *subgroup;
};
static const struct {
    const char *token;
    struct place place[MAX_PLACES];     /* up to the first without a group */
} groups[] = {
    { "energy", { { "Energy Model", NULL } } },
    { "cpu-clusters", { { "CPU Stats", "CPU Complex Performance States" } } },
    { "cpu-cores", { { "CPU Stats", "CPU Core Performance States" } } },
    { "gpu", { { "GPU Stats", "GPU Performance States" } } },
    { "bandwidth", { { "PMP", "DCS BW" }, { "PMP0", "DCS BW" }, { "PMP", "Bandwidth" } } },
    { "memory-traffic", { { "AMC Stats", "Perf Counters" } } },
    { "ane", { { "ANE", "IOP State" } } },
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
    int64_t (*simple_value)(CFDictionaryRef, uint64_t *);
    uint64_t (*state_count)(CFDictionaryRef);
    CFStringRef (*state_name)(CFDictionaryRef, int32_t);
    int64_t (*state_residency)(CFDictionaryRef, int32_t);
};

struct subscription {
    int tried;                      /* the group was asked: sub, or why there is none */
    const char *why, *group;        /* group: the name it was last asked by */
    CFMutableDictionaryRef channels, subscribed;
    CFTypeRef sub;
    int lost;                       /* a subscription gave no sample: made again */
    struct live_retry retry;        /* when */
    struct counter_baseline counters;
};

struct live_ioreport {
    int status;                     /* 0, or why IOReport cannot be used (kept: the library */
    char why[256];                  /* is what it is until pmcd restarts) */
    void *library;
    struct ioreport_api api;
    CFStringRef channels_key;       /* "IOReportChannels" */
    struct subscription group[NGROUPS];
};

/* Every function, or none: a library without one is of no use (a call
 * through a missing one would crash pmcd). */
static int
resolve(struct live_ioreport *r)
{
    static const char *const names[] = {
        "IOReportCopyChannelsInGroup", "IOReportCreateSubscription", "IOReportCreateSamples",
        "IOReportChannelGetChannelName", "IOReportChannelGetSubGroup", "IOReportChannelGetUnitLabel",
        "IOReportChannelGetFormat", "IOReportSimpleGetIntegerValue", "IOReportStateGetCount",
        "IOReportStateGetNameForIndex", "IOReportStateGetResidency",
    };
    void **slot = (void **)&r->api;
    const char *why;

    _Static_assert(sizeof(names) / sizeof(names[0]) * sizeof(void *) == sizeof(struct ioreport_api),
                   "one name per function");
    if ((r->library = dlopen(IOREPORT_LIBRARY, RTLD_LAZY | RTLD_LOCAL)) == NULL) {
        why = dlerror();
        snprintf(r->why, sizeof(r->why), "%s: %s", IOREPORT_LIBRARY, why != NULL ? why : "cannot be loaded");
        return -ENOENT;
    }
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if ((slot[i] = dlsym(r->library, names[i])) == NULL) {
            snprintf(r->why, sizeof(r->why), "%s is missing", names[i]);
            dlclose(r->library);
            r->library = NULL;
            return -ENOENT;
        }
    return 0;
}

/* The library and what every read needs of it, made at the first read. */
static int
library(struct live_source *src, struct live_ioreport **out)
{
    struct live_ioreport *r = src->ioreport;

    if (r == NULL) {
        if ((r = src->ioreport = calloc(1, sizeof(*r))) == NULL)
            return live_fail(src, -ENOMEM, "IOReport: out of memory");
        for (size_t i = 0; i < NGROUPS; i++)
            counter_baseline_init(&r->group[i].counters);
        r->status = resolve(r);
    }
    if (r->status < 0)
        return live_fail(src, r->status, "IOReport: %s", r->why);
    if (r->channels_key == NULL &&
        (r->channels_key = CFStringCreateWithCString(kCFAllocatorDefault, "IOReportChannels",
                                                     kCFStringEncodingUTF8)) == NULL)
        return live_fail(src, -ENOMEM, "IOReport: out of memory");
    *out = r;
    return 0;
}

/* The "IOReportChannels" array of a channel list or a sample, or NULL. */
static CFArrayRef
channels_of(const struct live_ioreport *r, CFDictionaryRef d)
{
    CFTypeRef list = d != NULL ? CFDictionaryGetValue(d, r->channels_key) : NULL;

    return list != NULL && CFGetTypeID(list) == CFArrayGetTypeID() ? list : NULL;
}

static void
unsubscribe(struct subscription *s)
{
    if (s->sub != NULL)
        CFRelease(s->sub);
    if (s->subscribed != NULL)
        CFRelease(s->subscribed);
    if (s->channels != NULL)
        CFRelease(s->channels);
    s->sub = s->subscribed = s->channels = NULL;
}

/* The channels IOReport lists for group (and subgroup) into s->channels,
 * or -ENOMEM (asked again at the next read). */
static int
copy_channels(struct live_source *src, struct live_ioreport *r, struct subscription *s, const char *group,
              const char *subgroup)
{
    CFStringRef name = CFStringCreateWithCString(kCFAllocatorDefault, group, kCFStringEncodingUTF8);
    CFStringRef sub = subgroup != NULL ? CFStringCreateWithCString(kCFAllocatorDefault, subgroup,
                                                                   kCFStringEncodingUTF8) : NULL;

    if (name == NULL || (subgroup != NULL && sub == NULL)) {
        if (name != NULL)
            CFRelease(name);
        return live_fail(src, -ENOMEM, "IOReport \"%s\": out of memory", group);
    }
    if (s->channels != NULL)
        CFRelease(s->channels);
    s->channels = r->api.copy_channels_in_group(name, sub, 0, 0, 0);
    s->group = group;
    CFRelease(name);
    if (sub != NULL)
        CFRelease(sub);
    return 0;
}

/* Group g's subscription, asked once: a group without channels in any of
 * its places (Intel Macs and VMs have no "Energy Model" and no "CPU
 * Stats") is not subscribed, as every peer checks first; one IOReport
 * refuses stays refused (SiliconScope saw groups that list channels and
 * are never subscribable). */
static int
subscribe(struct live_source *src, struct live_ioreport *r, size_t g)
{
    struct subscription *s = &r->group[g];
    CFArrayRef list = NULL;
    int sts;

    for (size_t k = 0; k < MAX_PLACES && groups[g].place[k].group != NULL; k++) {
        if ((sts = copy_channels(src, r, s, groups[g].place[k].group, groups[g].place[k].subgroup)) < 0)
            return sts;
        if ((list = channels_of(r, s->channels)) != NULL && CFArrayGetCount(list) > 0)
            break;
    }
    s->tried = 1;
    if (list == NULL || CFArrayGetCount(list) == 0)
        s->why = "no channels in";
    else if ((s->sub = r->api.create_subscription(NULL, s->channels, &s->subscribed, 0, NULL)) == NULL)
        s->why = "no subscription to";
    if (s->sub == NULL)
        unsubscribe(s);
    return 0;
}

static void
text(CFStringRef s, char *out, size_t len)
{
    if (s == NULL || !CFStringGetCString(s, out, (CFIndex)len, kCFStringEncodingUTF8))
        out[0] = '\0';
}

/* Why a state channel cannot be read whole this round, or NULL. */
static const char *
states_missing(const struct ioreport_api *api, CFDictionaryRef ch, uint64_t count)
{
    if (count > UINT16_MAX)
        return "no state count";
    for (int32_t i = 0; i < (int32_t)count; i++) {
        if (api->state_name(ch, i) == NULL)
            return "a state without a name";
        if (api->state_residency(ch, i) == INVALID_VALUE)
            return "kIOReportInvalidValue";
    }
    return NULL;
}

/* A counter at path of the channel whose key is in key (its length at):
 * as it continues across subscriptions. */
static int
add_counter(struct entry_builder *b, struct counter_baseline *counters, char *key, size_t at, const char *path,
            int64_t raw)
{
    uint64_t value;
    int sts;

    _Static_assert(2 * PLAT_ENTRY_NAME_MAX + REG_PATH_MAX + 2 <= COUNTER_KEY_MAX, "a key is never cut");
    snprintf(key + at, COUNTER_KEY_MAX - at, "\n%s", path);
    if ((sts = counter_baseline_value(counters, key, (uint64_t)raw, &value)) < 0)
        return sts;
    return entry_builder_number(b, path, value);
}

static int
add_states(struct entry_builder *b, struct subscription *s, const struct ioreport_api *api, CFDictionaryRef ch,
           uint64_t count, char *key, size_t at)
{
    for (int32_t i = 0; i < (int32_t)count; i++) {
        char state[PLAT_ENTRY_NAME_MAX], path[REG_PATH_MAX];
        int len, sts;

        text(api->state_name(ch, i), state, sizeof(state));
        memcpy(path, "state", 6);
        if ((len = entry_path_append(path, sizeof(path), 5, state, strlen(state))) < 0)
            return len;
        if ((sts = add_counter(b, &s->counters, key, at, path, api->state_residency(ch, i))) < 0)
            return sts;
    }
    return 0;
}

/* One channel of a sample as an entry: its values, or none (the call's
 * error text says why). */
static int
add_channel(struct live_source *src, const char *match, struct subscription *s, const struct ioreport_api *api,
            CFDictionaryRef ch, uint64_t id)
{
    struct entry_builder *b = &src->entries;
    char name[PLAT_ENTRY_NAME_MAX], subgroup[PLAT_ENTRY_NAME_MAX], unit[32], key[COUNTER_KEY_MAX];
    const char *missing = NULL;
    int64_t value;
    uint64_t count;
    int at, sts;

    text(api->channel_name(ch), name, sizeof(name));
    text(api->subgroup(ch), subgroup, sizeof(subgroup));
    text(api->unit_label(ch), unit, sizeof(unit));
    at = snprintf(key, sizeof(key), "%s\n%s", subgroup, name);
    if ((sts = entry_builder_entry(b, id, 0, name, "IOReportChannel")) < 0 ||
        (sts = entry_builder_string(b, "subgroup", subgroup)) < 0 || (sts = entry_builder_string(b, "unit", unit)) < 0)
        return sts;
    switch (api->format(ch)) {
    case FORMAT_SIMPLE:
        if ((value = api->simple_value(ch, NULL)) != INVALID_VALUE)
            return add_counter(b, &s->counters, key, (size_t)at, "value", value);
        missing = "kIOReportInvalidValue";
        break;
    case FORMAT_STATE:
        count = api->state_count(ch);
        if ((missing = states_missing(api, ch, count)) == NULL)
            return add_states(b, s, api, ch, count, key, (size_t)at);
        break;
    default:
        return 0;                       /* histograms and arrays: no collector reads one */
    }
    return live_fail(src, 0, "IOReport %s: \"%s\": no value (%s)", match, name, missing);
}

/* Group g's subscription made again, and its first sample. */
static int
resample(struct live_source *src, struct live_ioreport *r, size_t g, const char *match, CFDictionaryRef *out)
{
    struct subscription *s = &r->group[g];
    int sts;

    if ((sts = subscribe(src, r, g)) < 0)
        return sts;
    if (s->sub == NULL)
        return live_fail(src, -EIO, "IOReport %s: no sample; %s \"%s\"", match, s->why, s->group);
    counter_baseline_new_source(&s->counters);
    if ((*out = r->api.create_samples(s->sub, s->subscribed, NULL)) == NULL)
        return live_fail(src, -EIO, "IOReport %s: no sample from a subscription made again", match);
    return 0;
}

/* A sample of group g's subscription. One that gives none may be dead
 * for good: it is given back, and made again and sampled at once, or when
 * the retry is due. Each subscription made again waits longer than the
 * last before the next (retry.c's doubling), until one outlives its wait:
 * a provider that keeps going away, or a library that keeps giving no
 * sample, costs one new subscription a PLAT_RETRY_CAP_NS at most. */
static int
sample_of(struct live_source *src, struct live_ioreport *r, size_t g, const char *match, CFDictionaryRef *out)
{
    struct subscription *s = &r->group[g];
    char why[sizeof(s->retry.why)];
    int sts;

    if (s->sub != NULL && (*out = r->api.create_samples(s->sub, s->subscribed, NULL)) != NULL) {
        if (s->retry.wait_ns != 0 && live_retry_due(&s->retry))
            live_retry_after(src, &s->retry, 0);    /* outlived its wait: a loss is made good at once */
        return 0;
    }
    s->lost |= s->sub != NULL;
    unsubscribe(s);
    if (!live_retry_due(&s->retry))
        return live_retry_repeat(src, &s->retry);
    if ((sts = resample(src, r, g, match, out)) < 0)
        return live_retry_after(src, &s->retry, sts);
    snprintf(why, sizeof(why), "IOReport %s: no sample; the subscription was made again within its wait", match);
    live_retry_spaced(&s->retry, -EIO, why);
    return 0;
}

static size_t
group_index(const char *token)
{
    size_t i = 0;

    while (i < NGROUPS && strcmp(token, groups[i].token) != 0)
        i++;
    return i;
}

int
live_ioreport(struct live_source *src, const struct plat_query *q, struct plat_entry_set *out)
{
    size_t g = group_index(strchr(q->match, ':') + 1);
    struct live_ioreport *r;
    struct subscription *s;
    CFDictionaryRef sample;
    CFArrayRef channels;
    int sts;

    if (g == NGROUPS)
        return live_fail(src, -EINVAL, "IOReport: no group for %s", q->match);
    if ((sts = library(src, &r)) < 0)
        return sts;
    s = &r->group[g];
    if (!s->tried && (sts = subscribe(src, r, g)) < 0)
        return sts;
    if (s->sub == NULL && !s->lost)
        return live_fail(src, -ENOENT, "IOReport: %s \"%s\"", s->why, s->group);
    if ((sts = sample_of(src, r, g, q->match, &sample)) < 0)
        return sts;
    counter_baseline_reading(&s->counters);
    channels = channels_of(r, sample);
    for (CFIndex i = 0; sts == 0 && channels != NULL && i < CFArrayGetCount(channels); i++)
        sts = add_channel(src, q->match, s, &r->api, CFArrayGetValueAtIndex(channels, i), (uint64_t)i + 1);
    CFRelease(sample);
    if (sts < 0)
        return live_fail(src, sts, "IOReport %s: %s", q->match, strerror(-sts));
    entry_builder_finish(&src->entries, out);
    return out->n > 0 ? 0 : live_fail(src, -ENOENT, "IOReport %s: no channels", q->match);
}

void
live_ioreport_close(struct live_source *src)
{
    struct live_ioreport *r = src->ioreport;

    if (r == NULL)
        return;
    for (size_t i = 0; i < NGROUPS; i++) {
        unsubscribe(&r->group[i]);
        counter_baseline_free(&r->group[i].counters);
    }
    if (r->channels_key != NULL)
        CFRelease(r->channels_key);
    if (r->library != NULL)
        dlclose(r->library);
    free(r);
    src->ioreport = NULL;
}
