/*
 * The private interfaces the live layer resolves at run time, as the Macs
 * that peers have run on answer them (no Apple header or source exists):
 *
 * dyld (dlfcn.h of the macOS 13 SDK, the man page dlopen(3)):
 *  - dlopen of a path that is not there is NULL, and dlerror() then says
 *    why; dlerror() gives the last error once and then NULL ("no error
 *    since the last call", dlerror(3));
 *  - dlsym of a name the image lacks is NULL (and dlerror says so);
 *    RTLD_DEFAULT searches every image loaded, where IOKit's HID event
 *    system client functions are;
 *  - each dlopen adds a reference that one dlclose gives back.
 *
 * libIOReport (/usr/lib/libIOReport.dylib), as macmon
 * (crates/lib/src/platform/io_report.rs @0424a190), mactop
 * (internal/app/ioreport.m @7c6aa36), Stats (Modules/GPU/reader.swift,
 * Modules/Sensors/readers.swift @1ab6adb5) and socpowerbud
 * (IOReportDump/iorepdump.m) call it on real Macs:
 *  - IOReportCopyChannelsInGroup(group, subgroup, 0, 0, 0) is a new
 *    dictionary whose "IOReportChannels" array holds one dictionary per
 *    channel (the caller releases it: Copy rule); a group with no channels
 *    gives a dictionary without channels, not NULL (the decompilation below:
 *    IOReportCopyFilteredChannels returns the aggregate it made whether or
 *    not a service matched; Stats checks "IOReportChannels" before
 *    subscribing), so NULL is a failure (dbl_ioreport_empty_group(1) gives
 *    NULL for a group without channels: the live code takes both);
 *  - IOReportCreateSubscription(NULL, channels, &subscribed, 0, NULL) is a
 *    new subscription, and *subscribed a new dictionary of the channels it
 *    took (Stats releases both); it may be NULL for a group that lists
 *    channels (SiliconScope issues 14 and 30: "AMC Stats" on M4 Max and M5
 *    Max; issue 46: "AMC Stats" on an M3 Max under macOS 27.0 26A5388g,
 *    shared/real-macs/ioreport/m3max-macos27.0b-*; metaspartan/mactop
 *    pull request 91: "AMC Stats" alone on an M4 Pro under macOS 27);
 *    subscribing to no channel at all no peer does: NULL here;
 *  - IOReportCreateSamples(subscription, channels, NULL) is a new
 *    dictionary with an "IOReportChannels" array of the channels' values at
 *    that moment; every peer checks it for NULL at each sample;
 *  - IOReportChannelGetChannelName/GetSubGroup/GetUnitLabel hand out the
 *    channel's own strings (Get rule: the peers never release them), NULL
 *    where there is none; IOReportChannelGetFormat is 1 (simple) or 2
 *    (state), xnu-11417.101.15 iokit/IOKit/IOReportTypes.h;
 *    IOReportSimpleGetIntegerValue and the state accessors read a sample's
 *    channel of that format.
 * What the library does with those reads, from its decompilation (iOS 18.2
 * 22C152: EthanArbuckle/iPhone17-1_18.2_22C152_Restore @f2374d1a,
 * usr/lib/libIOReport/libIOReport.m; the macOS library is not published):
 *  - IOReportSimpleGetIntegerValue(channel, uint64_t *unit): the second
 *    argument is where it writes the channel's unit (IOReportChannelGetUnit,
 *    kIOReportInvalidValue for a channel without one, as the double's are),
 *    only when it gives a value, and only when it is not NULL (its own
 *    _compareSamples passes 0); it is not an index;
 *  - a value it cannot give is a sentinel, not an error: a channel that is
 *    not a sample's, or of another format than the call's, reads
 *    kIOReportInvalidValue (INT64_MIN) from IOReportSimpleGetIntegerValue
 *    and IOReportStateGetResidency, 0xFFFFFFFF from IOReportStateGetCount
 *    (a uint64_t) and NULL from IOReportStateGetNameForIndex; so does a
 *    state index below 0 or past the last, except the index one past the
 *    last, which IOReportStateGetResidency lets through (_getStateValues
 *    checks count >= index) and reads beyond the sample: the double stops
 *    the test there;
 *  - state names are the states' 64-bit IDs printed as text, made for every
 *    state at once: one ID that is not printable leaves every state of
 *    the channel without a name (copyPrintableIDString);
 *  - providers report kIOReportInvalidValue themselves ("cardinal value
 *    used to indicate data errors", xnu-11417.101.15
 *    iokit/IOKit/IOReportTypes.h:40-50; every "AMC Stats" channel of an M3
 *    Max on the macOS 27 beta: shared/real-macs/ioreport/m3max-macos27.0b-*),
 *    which a test sets as any other value;
 *  - a sample holds each subscribed channel's elements, found in the
 *    subscription's kernel buffer by (DriverID, ChannelID) (_visitSample);
 *    DriverID is the provider's registry entry ID (xnu-11417.101.15
 *    iokit/Kernel/IOReporter.cpp:174). A channel whose provider went away,
 *    or registered again under a new entry ID, is found no more, and
 *    IOReportCreateSamples is NULL for that subscription at every call from
 *    then on (_iterate fails, cloneAggregate gives NULL); a subscription
 *    made from a channel list copied after the provider is back works.
 * The channels' dictionaries hold the double's own keys: the real layout
 * is private, and the live code reads them only through the accessors.
 *
 * The HID event system client (IOKit; IOHIDFamily-2222.0.24
 * HID/HIDEventSystemClient.m and tools/IOHIDEventSystemMonitor.c use it so;
 * macmon crates/lib/src/platform/io_hid.rs @52b2ea78 reads temperatures
 * with it):
 *  - IOHIDEventSystemClientCreate is a new client the caller releases;
 *    SetMatching with PrimaryUsagePage 0xff00 and PrimaryUsage 5 limits it
 *    to the temperature sensors (without matching it lists every service,
 *    keyboards included: HIDEventSystemClient.m's setMatching nil);
 *  - IOHIDEventSystemClientCopyServices is a new array of the services
 *    (Copy rule: HIDEventSystemClient.m's services bridges it with
 *    CFBridgingRelease), or NULL (IOHIDEventSystemMonitor.c checks);
 *  - IOHIDServiceClientCopyProperty(service, "Product") a new string, or
 *    NULL; IOHIDServiceClientCopyEvent(service, 15, 0, 0) a new event of
 *    type 15 (temperature), or NULL when the sensor gives none;
 *    IOHIDEventGetFloatValue(event, 15 << 16) its level in degrees Celsius
 *    (HID/HIDEventAccessors.m: kIOHIDEventFieldTemperatureLevel).
 * A service can go away while a client holds it (IOHIDFamily-2222.0.24
 * HID/HIDServiceClient.m:49-73, setRemovalHandler registers
 * IOHIDServiceClientRegisterRemovalCallback for it):
 * the double's gone service gives no event and a list copied since lacks it.
 * What a client made before hidd restarted does no source says; the
 * double takes the worst: it and its services answer nothing more (its
 * service list NULL, their events NULL), and a new client sees the new
 * services.
 * dbl_fail makes dlopen, IOReportCopyChannelsInGroup,
 * IOReportCreateSubscription, IOReportCreateSamples,
 * IOHIDEventSystemClientCreate and IOHIDEventSystemClientCopyServices
 * return NULL.
 */
#include "double.h"

#include <CoreFoundation/CoreFoundation.h>
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IOREPORT_PATH "/usr/lib/libIOReport.dylib"
#define HID_TEMPERATURE_EVENT 15
#define HID_TEMPERATURE_LEVEL (HID_TEMPERATURE_EVENT << 16)

/* ---- dyld ---- */

static struct {
    char missing[8][64];            /* names dlsym does not find */
    unsigned int nmissing;
    long handles;                   /* dlopen'ed, not dlclose'd */
    char error[256];                /* for dlerror() */
    int has_error;
} dl;

static int library;                 /* the address is the handle dlopen gives */

void
dbl_dl_missing(const char *symbol)
{
    if (dl.nmissing == sizeof(dl.missing) / sizeof(dl.missing[0]))
        dbl_violation("too many missing symbols");
    snprintf(dl.missing[dl.nmissing++], sizeof(dl.missing[0]), "%s", symbol);
}

long
dbl_dl_handles(void)
{
    return dl.handles;
}

static void __attribute__((format(printf, 1, 2)))
dl_error(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(dl.error, sizeof(dl.error), fmt, ap);
    va_end(ap);
    dl.has_error = 1;
}

void *
dlopen(const char *path, int mode)
{
    if ((mode & (RTLD_LAZY | RTLD_NOW)) == 0)
        dbl_violation("dlopen(%s, %#x): neither RTLD_LAZY nor RTLD_NOW", path, mode);
    if (dbl_failing("dlopen") || strcmp(path, IOREPORT_PATH) != 0) {
        dl_error("dlopen(%s, %#06x): tried: '%s' (no such file)", path, (unsigned int)mode, path);
        return NULL;
    }
    dl.handles++;
    return &library;
}

int
dlclose(void *handle)
{
    if (handle != &library || dl.handles == 0)
        dbl_violation("dlclose of a handle dlopen did not give, or closed already");
    dl.handles--;
    return 0;
}

char *
dlerror(void)
{
    if (!dl.has_error)
        return NULL;
    dl.has_error = 0;
    return dl.error;
}

/* ---- libIOReport ---- */

#define MAX_CHANNELS 1024
#define MAX_STATES 32

static struct channel {
    char group[64], name[128], subgroup[128], unit[32];
    int has_subgroup;
    int format;                     /* kIOReportFormatSimple or ...State */
    int64_t value;
    unsigned int nstates;
    char state[MAX_STATES][64];
    int unnamed;                    /* a state's ID is not printable */
    int64_t residency[MAX_STATES];
    uint64_t driver;                /* its provider's registry entry ID */
    int gone;                       /* the provider is not registered */
} *channels;
static unsigned int nchannels;
static int empty_group_is_null;
static uint64_t last_driver = 1;    /* the provider of the channels added now (dbl_ioreport_provider_next) */

enum { FORMAT_SIMPLE = 1, FORMAT_STATE = 2 };
#define INVALID_VALUE INT64_MIN     /* kIOReportInvalidValue */
#define NO_STATE_COUNT 0xFFFFFFFFu

static unsigned int
add_channel(const char *group, const char *name, const char *subgroup, const char *unit, int format)
{
    struct channel *c;

    if (channels == NULL && (channels = calloc(MAX_CHANNELS, sizeof(*channels))) == NULL)
        dbl_violation("out of memory");
    if (nchannels == MAX_CHANNELS)
        dbl_violation("more than %d IOReport channels", MAX_CHANNELS);
    c = &channels[nchannels];
    memset(c, 0, sizeof(*c));
    snprintf(c->group, sizeof(c->group), "%s", group);
    snprintf(c->name, sizeof(c->name), "%s", name);
    snprintf(c->subgroup, sizeof(c->subgroup), "%s", subgroup ? subgroup : "");
    snprintf(c->unit, sizeof(c->unit), "%s", unit);
    c->has_subgroup = subgroup != NULL;
    c->format = format;
    c->driver = last_driver;
    return nchannels++;
}

unsigned int
dbl_ioreport_simple(const char *group, const char *name, const char *subgroup, const char *unit, int64_t value)
{
    unsigned int i = add_channel(group, name, subgroup, unit, FORMAT_SIMPLE);

    channels[i].value = value;
    return i;
}

unsigned int
dbl_ioreport_states(const char *group, const char *name, const char *subgroup, const char *unit)
{
    return add_channel(group, name, subgroup, unit, FORMAT_STATE);
}

void
dbl_ioreport_state(unsigned int channel, const char *state, int64_t residency)
{
    struct channel *c;

    if (channel >= nchannels || channels[channel].format != FORMAT_STATE ||
        channels[channel].nstates == MAX_STATES)
        dbl_violation("dbl_ioreport_state(%u): no state channel with room", channel);
    c = &channels[channel];
    snprintf(c->state[c->nstates], sizeof(c->state[0]), "%s", state != NULL ? state : "");
    c->unnamed |= state == NULL;
    c->residency[c->nstates++] = residency;
}

void
dbl_ioreport_set(unsigned int channel, int64_t value)
{
    if (channel >= nchannels)
        dbl_violation("dbl_ioreport_set(%u)", channel);
    channels[channel].value = value;
}

void
dbl_ioreport_residency(unsigned int channel, unsigned int state, int64_t residency)
{
    if (channel >= nchannels || channels[channel].format != FORMAT_STATE || state >= channels[channel].nstates)
        dbl_violation("dbl_ioreport_residency(%u, %u): no such state", channel, state);
    channels[channel].residency[state] = residency;
}

void
dbl_ioreport_provider_next(void)
{
    last_driver++;
}

void
dbl_ioreport_empty_group(int as_null)
{
    empty_group_is_null = as_null;
}

/* The channels of channel's provider go (gone) or come back under the
 * provider's new registry entry ID. */
static void
provider_moves(unsigned int channel, int gone, const char *caller)
{
    uint64_t driver;

    if (channel >= nchannels || channels[channel].gone == gone)
        dbl_violation("%s(%u): no such channel, or its provider is %s already", caller, channel,
                      gone ? "gone" : "there");
    driver = channels[channel].driver;
    if (!gone)
        last_driver++;
    for (unsigned int i = 0; i < nchannels; i++)
        if (channels[i].driver == driver) {
            channels[i].gone = gone;
            channels[i].driver = gone ? driver : last_driver;
        }
}

void
dbl_ioreport_provider_gone(unsigned int channel)
{
    provider_moves(channel, 1, "dbl_ioreport_provider_gone");
}

void
dbl_ioreport_provider_back(unsigned int channel)
{
    provider_moves(channel, 0, "dbl_ioreport_provider_back");
}

static void
text_of(CFStringRef s, char *out, size_t len, const char *caller)
{
    if (s == NULL || CFGetTypeID(s) != CFStringGetTypeID() || !CFStringGetCString(s, out, (CFIndex)len,
                                                                                   kCFStringEncodingUTF8))
        dbl_violation("%s: not a string the live code could mean", caller);
}

static CFTypeRef
value_of(CFDictionaryRef dict, const char *key)
{
    return dbl_cf_get(dict, key);
}

static int64_t
number_of(CFDictionaryRef dict, const char *key)
{
    CFTypeRef v = value_of(dict, key);
    int64_t n = 0;

    if (v == NULL)
        dbl_violation("a channel without %s: not one IOReport gave", key);
    CFNumberGetValue(v, kCFNumberSInt64Type, &n);
    return n;
}

/* A channel as a list or a sample holds it: its format and, in a sample,
 * its values (first, and each state's name and residency in arrays at its
 * index: every state read asks for them), then its name, group, subgroup and
 * unit and its number in the table. */
static void *
channel_dict(unsigned int i, int sampled)
{
    const struct channel *c = &channels[i];
    void *d = dbl_cf_dict();

    dbl_cf_put(d, "Format", dbl_cf_number(c->format));
    if (sampled) {
        void *names = dbl_cf_array(), *residencies = dbl_cf_array();

        dbl_cf_put(d, "Value", dbl_cf_number(c->value));
        dbl_cf_put(d, "States", dbl_cf_number(c->nstates));
        for (unsigned int s = 0; s < c->nstates; s++) {
            dbl_cf_append(names, dbl_cf_string(c->state[s]));
            dbl_cf_append(residencies, dbl_cf_number(c->residency[s]));
        }
        if (c->unnamed)
            dbl_cf_release(names);
        else
            dbl_cf_put(d, "StateNames", names);
        dbl_cf_put(d, "Residencies", residencies);
    }
    dbl_cf_put(d, "IOReportGroupName", dbl_cf_string(c->group));
    dbl_cf_put(d, "IOReportChannelName", dbl_cf_string(c->name));
    if (c->has_subgroup)
        dbl_cf_put(d, "IOReportSubGroupName", dbl_cf_string(c->subgroup));
    dbl_cf_put(d, "Unit", dbl_cf_string(c->unit));
    dbl_cf_put(d, "Channel", dbl_cf_number(i));
    dbl_cf_put(d, "DriverID", dbl_cf_number((int64_t)c->driver));
    return d;
}

static CFArrayRef
channel_list(CFDictionaryRef dict, const char *caller)
{
    CFTypeRef list = dict != NULL ? value_of(dict, "IOReportChannels") : NULL;

    if (list == NULL || CFGetTypeID(list) != CFArrayGetTypeID())
        dbl_violation("%s of a dictionary IOReport did not make", caller);
    return list;
}

static CFMutableDictionaryRef
IOReportCopyChannelsInGroup(CFStringRef group, CFStringRef subgroup, uint64_t a, uint64_t b, uint64_t c)
{
    char g[64], sg[128] = "";
    void *list = dbl_cf_array(), *dict;
    unsigned int n = 0;

    if (a != 0 || b != 0 || c != 0)
        dbl_violation("IOReportCopyChannelsInGroup with options no peer passes");
    if (dbl_failing("IOReportCopyChannelsInGroup")) {
        dbl_cf_release(list);
        return NULL;
    }
    text_of(group, g, sizeof(g), "IOReportCopyChannelsInGroup group");
    if (subgroup != NULL)
        text_of(subgroup, sg, sizeof(sg), "IOReportCopyChannelsInGroup subgroup");
    for (unsigned int i = 0; i < nchannels; i++)
        if (!channels[i].gone && strcmp(channels[i].group, g) == 0 &&
            (subgroup == NULL || strcmp(channels[i].subgroup, sg) == 0)) {
            dbl_cf_append(list, channel_dict(i, 0));
            n++;
        }
    if (n == 0) {
        dbl_cf_release(list);
        return empty_group_is_null ? NULL : dbl_cf_dict();
    }
    dict = dbl_cf_dict();
    dbl_cf_put(dict, "IOReportChannels", list);
    return dict;
}

/* Whether a call of fn for these channels fails, counted (dbl_calls) and
 * failed (dbl_fail) under "fn SUBGROUP" too, or "fn GROUP" for channels
 * of no subgroup: a call for one group, as the first channel's. */
static int
failing_for(const char *fn, CFArrayRef list)
{
    const struct channel *c;
    char name[64];

    if (CFArrayGetCount(list) == 0)
        return 0;
    c = &channels[number_of(CFArrayGetValueAtIndex(list, 0), "Channel")];
    snprintf(name, sizeof(name), "%s %s", fn, c->has_subgroup ? c->subgroup : c->group);
    return dbl_failing(name);
}

/* A subscription: an object of its own kind (CF data with a mark). */
static const char subscription_mark[] = "IOReportSubscription";

static CFTypeRef
IOReportCreateSubscription(void *a, CFMutableDictionaryRef chans, CFMutableDictionaryRef *subscribed, uint64_t d,
                           CFTypeRef e)
{
    CFTypeRef list;
    int failed;

    if (a != NULL || chans == NULL || d != 0 || e != NULL || subscribed == NULL)
        dbl_violation("IOReportCreateSubscription with arguments no peer passes");
    list = value_of(chans, "IOReportChannels");
    failed = dbl_failing("IOReportCreateSubscription");
    if (list != NULL)
        failed |= failing_for("IOReportCreateSubscription", list);
    if (failed || list == NULL || CFArrayGetCount(list) == 0)
        return NULL;
    *subscribed = dbl_cf_copy(chans);
    return dbl_cf_data(subscription_mark, sizeof(subscription_mark));
}

static CFDictionaryRef
IOReportCreateSamples(CFTypeRef sub, CFMutableDictionaryRef chans, CFTypeRef unused)
{
    CFArrayRef list = channel_list(chans, "IOReportCreateSamples");
    void *samples, *values;

    if (sub == NULL || CFGetTypeID(sub) != CFDataGetTypeID() || CFDataGetLength(sub) != sizeof(subscription_mark) ||
        memcmp(CFDataGetBytePtr(sub), subscription_mark, sizeof(subscription_mark)) != 0 || unused != NULL)
        dbl_violation("IOReportCreateSamples without a subscription");
    if ((dbl_failing("IOReportCreateSamples") | failing_for("IOReportCreateSamples", list)) != 0)
        return NULL;
    for (CFIndex i = 0; i < CFArrayGetCount(list); i++) {
        const struct channel *c = &channels[number_of(CFArrayGetValueAtIndex(list, i), "Channel")];

        if (c->gone || (int64_t)c->driver != number_of(CFArrayGetValueAtIndex(list, i), "DriverID"))
            return NULL;            /* its provider's elements are not in the buffer */
    }
    values = dbl_cf_array();
    for (CFIndex i = 0; i < CFArrayGetCount(list); i++)
        dbl_cf_append(values, channel_dict((unsigned int)number_of(CFArrayGetValueAtIndex(list, i), "Channel"), 1));
    samples = dbl_cf_dict();
    dbl_cf_put(samples, "IOReportChannels", values);
    return samples;
}

static CFStringRef
IOReportChannelGetChannelName(CFDictionaryRef ch)
{
    return value_of(ch, "IOReportChannelName");
}

static CFStringRef
IOReportChannelGetSubGroup(CFDictionaryRef ch)
{
    return value_of(ch, "IOReportSubGroupName");
}

static CFStringRef
IOReportChannelGetUnitLabel(CFDictionaryRef ch)
{
    return value_of(ch, "Unit");
}

static int
IOReportChannelGetFormat(CFDictionaryRef ch)
{
    return (int)number_of(ch, "Format");
}

/* Whether ch is a sample's channel of that format: what libIOReport reads
 * a value from (getRawElements finds the elements of that format). */
static int
sampled(CFDictionaryRef ch, int format)
{
    return value_of(ch, "Value") != NULL && number_of(ch, "Format") == format;
}

static int64_t
IOReportSimpleGetIntegerValue(CFDictionaryRef ch, uint64_t *unit)
{
    if (!sampled(ch, FORMAT_SIMPLE))
        return INVALID_VALUE;
    if (unit != NULL)
        *unit = (uint64_t)INVALID_VALUE;    /* the channel has no IOReportChannelUnit */
    return number_of(ch, "Value");
}

static uint64_t
IOReportStateGetCount(CFDictionaryRef ch)
{
    return sampled(ch, FORMAT_STATE) ? (uint64_t)number_of(ch, "States") : NO_STATE_COUNT;
}

/* Whether state index of ch is one libIOReport reads (the one past the
 * last it reads beyond the sample). */
static int
state_index_read(CFDictionaryRef ch, int32_t index, const char *caller)
{
    uint64_t count = IOReportStateGetCount(ch);

    if (count != NO_STATE_COUNT && index >= 0 && (uint64_t)index == count)
        dbl_violation("%s(%d) of a channel of %d states: libIOReport reads past its elements", caller, index,
                      (int)count);
    return count != NO_STATE_COUNT && index >= 0 && (uint64_t)index < count;
}

static CFStringRef
IOReportStateGetNameForIndex(CFDictionaryRef ch, int32_t index)
{
    CFArrayRef names;

    if (!sampled(ch, FORMAT_STATE) || index < 0 || (uint64_t)index >= IOReportStateGetCount(ch))
        return NULL;
    names = value_of(ch, "StateNames");
    return names != NULL ? CFArrayGetValueAtIndex(names, index) : NULL;
}

static int64_t
IOReportStateGetResidency(CFDictionaryRef ch, int32_t index)
{
    int64_t residency = 0;

    if (!state_index_read(ch, index, "IOReportStateGetResidency"))
        return INVALID_VALUE;
    CFNumberGetValue(CFArrayGetValueAtIndex(value_of(ch, "Residencies"), index), kCFNumberSInt64Type, &residency);
    return residency;
}

/* ---- The HID event system ---- */

#define MAX_SENSORS 256

static struct sensor {
    char product[128];
    int has_product;
    int gone;                       /* its service went away */
    int reading;                    /* CopyEvent gives an event */
    double celsius;
    CFDataRef service;              /* this generation's service, the double's reference */
} *sensors;
static unsigned int nsensors;
static unsigned int generation;     /* hidd's life: a restart starts the next */

/* Clients, services and events: CF data holding what they are. */
enum hid_kind { HID_CLIENT = 0x48494443, HID_SERVICE, HID_EVENT };

struct hid_object {
    enum hid_kind kind;
    unsigned int generation;
    unsigned int sensor;
    int matching;                   /* a client's: set to the temperature sensors */
    double celsius;                 /* an event's */
};

static CFDataRef
hid_new(struct hid_object o)
{
    return dbl_cf_data(&o, sizeof(o));
}

/* The object behind a reference the live code passes (a freed one stops
 * the test in CFDataGetBytePtr). */
static struct hid_object *
hid_of(CFTypeRef ref, enum hid_kind kind, const char *caller)
{
    struct hid_object *o;

    if (ref == NULL || CFGetTypeID(ref) != CFDataGetTypeID() || CFDataGetLength(ref) != sizeof(*o))
        dbl_violation("%s on something that is not one", caller);
    o = (struct hid_object *)CFDataGetBytePtr(ref);
    if (o->kind != kind)
        dbl_violation("%s on a HID object of another kind", caller);
    return o;
}

unsigned int
dbl_hid_sensor(const char *product, double celsius)
{
    struct sensor *s;

    if (sensors == NULL && (sensors = calloc(MAX_SENSORS, sizeof(*sensors))) == NULL)
        dbl_violation("out of memory");
    if (nsensors == MAX_SENSORS)
        dbl_violation("more than %d HID sensors", MAX_SENSORS);
    s = &sensors[nsensors];
    memset(s, 0, sizeof(*s));
    snprintf(s->product, sizeof(s->product), "%s", product ? product : "");
    s->has_product = product != NULL;
    s->reading = 1;
    s->celsius = celsius;
    return nsensors++;
}

void
dbl_hid_set(unsigned int sensor, double celsius)
{
    if (sensor >= nsensors)
        dbl_violation("dbl_hid_set(%u)", sensor);
    sensors[sensor].reading = 1;
    sensors[sensor].celsius = celsius;
}

void
dbl_hid_no_reading(unsigned int sensor)
{
    if (sensor >= nsensors)
        dbl_violation("dbl_hid_no_reading(%u)", sensor);
    sensors[sensor].reading = 0;
}

/* A service that goes away (its driver stopped): a list copied since no
 * longer has it, and its service from before gives no event. */
void
dbl_hid_remove(unsigned int sensor)
{
    if (sensor >= nsensors)
        dbl_violation("dbl_hid_remove(%u)", sensor);
    sensors[sensor].gone = 1;
    if (sensors[sensor].service != NULL) {
        CFRelease(sensors[sensor].service);
        sensors[sensor].service = NULL;
    }
}

static void
forget_services(void)
{
    for (unsigned int i = 0; i < nsensors; i++)
        if (sensors[i].service != NULL) {
            CFRelease(sensors[i].service);
            sensors[i].service = NULL;
        }
}

void
dbl_hid_restart(void)
{
    forget_services();
    generation++;
}

static CFTypeRef
IOHIDEventSystemClientCreate(CFAllocatorRef allocator)
{
    (void)allocator;
    if (dbl_failing("IOHIDEventSystemClientCreate"))
        return NULL;
    return hid_new((struct hid_object){ .kind = HID_CLIENT, .generation = generation });
}

static int
matches_temperature_sensors(CFDictionaryRef match)
{
    CFTypeRef page = value_of(match, "PrimaryUsagePage"), usage = value_of(match, "PrimaryUsage");
    int64_t p = 0, u = 0;

    if (page == NULL || usage == NULL)
        return 0;
    CFNumberGetValue(page, kCFNumberSInt64Type, &p);
    CFNumberGetValue(usage, kCFNumberSInt64Type, &u);
    return p == 0xff00 && u == 5;
}

static int
IOHIDEventSystemClientSetMatching(CFTypeRef client, CFDictionaryRef match)
{
    struct hid_object *c = hid_of(client, HID_CLIENT, "IOHIDEventSystemClientSetMatching");

    if (match == NULL || !matches_temperature_sensors(match))
        dbl_violation("IOHIDEventSystemClientSetMatching: not the temperature sensors (page 0xff00, usage 5)");
    c->matching = 1;
    return 0;
}

static CFArrayRef
IOHIDEventSystemClientCopyServices(CFTypeRef client)
{
    struct hid_object *c = hid_of(client, HID_CLIENT, "IOHIDEventSystemClientCopyServices");
    void *list;

    if (!c->matching)
        dbl_violation("IOHIDEventSystemClientCopyServices without matching: every HID service");
    if (dbl_failing("IOHIDEventSystemClientCopyServices") || c->generation != generation)
        return NULL;
    list = dbl_cf_array();
    for (unsigned int i = 0; i < nsensors; i++) {
        if (sensors[i].gone)
            continue;
        if (sensors[i].service == NULL)
            sensors[i].service = hid_new((struct hid_object){ .kind = HID_SERVICE, .generation = generation,
                                                               .sensor = i });
        dbl_cf_append(list, dbl_cf_retain((void *)sensors[i].service));
    }
    return list;
}

static CFTypeRef
IOHIDServiceClientCopyProperty(CFTypeRef service, CFStringRef key)
{
    struct hid_object *s = hid_of(service, HID_SERVICE, "IOHIDServiceClientCopyProperty");
    char k[32];

    text_of(key, k, sizeof(k), "IOHIDServiceClientCopyProperty key");
    if (strcmp(k, "Product") != 0)
        dbl_violation("IOHIDServiceClientCopyProperty(%s): not a property the double has", k);
    if (s->generation != generation || !sensors[s->sensor].has_product)
        return NULL;
    return dbl_cf_string(sensors[s->sensor].product);
}

static CFTypeRef
IOHIDServiceClientCopyEvent(CFTypeRef service, int64_t type, int32_t options, int64_t timestamp)
{
    struct hid_object *s = hid_of(service, HID_SERVICE, "IOHIDServiceClientCopyEvent");
    const struct sensor *sensor = &sensors[s->sensor];

    if (type != HID_TEMPERATURE_EVENT || options != 0 || timestamp != 0)
        dbl_violation("IOHIDServiceClientCopyEvent(%lld, %d, %lld): not a temperature event", (long long)type,
                      options, (long long)timestamp);
    if (s->generation != generation || sensor->gone || !sensor->reading)
        return NULL;
    return hid_new((struct hid_object){ .kind = HID_EVENT, .generation = generation, .celsius = sensor->celsius });
}

static double
IOHIDEventGetFloatValue(CFTypeRef event, int32_t field)
{
    struct hid_object *e = hid_of(event, HID_EVENT, "IOHIDEventGetFloatValue");

    if (field != HID_TEMPERATURE_LEVEL)
        dbl_violation("IOHIDEventGetFloatValue(%#x): not the temperature level", (unsigned int)field);
    return e->celsius;
}

/* ---- dlsym ---- */

#define FN(name) { #name, (void *)name }
static const struct symbol {
    const char *name;
    void *fn;
} ioreport_symbols[] = {
    FN(IOReportCopyChannelsInGroup), FN(IOReportCreateSubscription), FN(IOReportCreateSamples),
    FN(IOReportChannelGetChannelName), FN(IOReportChannelGetSubGroup), FN(IOReportChannelGetUnitLabel),
    FN(IOReportChannelGetFormat), FN(IOReportSimpleGetIntegerValue), FN(IOReportStateGetCount),
    FN(IOReportStateGetNameForIndex), FN(IOReportStateGetResidency),
}, hid_symbols[] = {
    FN(IOHIDEventSystemClientCreate), FN(IOHIDEventSystemClientSetMatching), FN(IOHIDEventSystemClientCopyServices),
    FN(IOHIDServiceClientCopyProperty), FN(IOHIDServiceClientCopyEvent), FN(IOHIDEventGetFloatValue),
};

static void *
lookup(const struct symbol *table, size_t n, const char *name)
{
    for (unsigned int i = 0; i < dl.nmissing; i++)
        if (strcmp(dl.missing[i], name) == 0)
            return NULL;
    for (size_t i = 0; i < n; i++)
        if (strcmp(table[i].name, name) == 0)
            return table[i].fn;
    return NULL;
}

void *
dlsym(void *handle, const char *name)
{
    void *fn;

    if (handle == RTLD_DEFAULT)
        fn = lookup(hid_symbols, sizeof(hid_symbols) / sizeof(hid_symbols[0]), name);
    else if (handle == &library && dl.handles > 0)
        fn = lookup(ioreport_symbols, sizeof(ioreport_symbols) / sizeof(ioreport_symbols[0]), name);
    else
        dbl_violation("dlsym(%s) on a handle dlopen did not give, or closed", name);
    if (fn == NULL)
        dl_error("dlsym(0x1, %s): symbol not found", name);
    return fn;
}

void dbl_smc_reset(void);          /* smc.c: the SMC's keys, private too */

void
dbl_private_reset(void)
{
    dbl_smc_reset();
    forget_services();
    memset(&dl, 0, sizeof(dl));
    nchannels = 0;
    empty_group_is_null = 0;
    last_driver = 1;
    nsensors = 0;
    generation = 0;
}
