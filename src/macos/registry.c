/*
 * The one file that reads the IORegistry. It finds the entries a query
 * names, copies each one's id, name, class, parent id and properties into
 * plain data (entry_set.h), and decides and converts nothing: what a
 * property means is portable code's business (registry_decode.c).
 *
 * Ownership (Apple's Create/Copy rule, IOKitLib.h): IORegistryEntryFromPath,
 * IOServiceGetMatchingServices' iterator, IOIteratorNext, the child
 * iterator and IORegistryEntryGetParentEntry return objects this file
 * releases with IOObjectRelease; IORegistryEntryCreateCFProperty and
 * IORegistryEntryCreateCFProperties return CF objects it releases with
 * CFRelease; IOServiceMatching's dictionary is consumed by
 * IOServiceGetMatchingServices. Values got from a container (Get) are not
 * released. MACH_PORT_NULL is the default main port, on SDKs that call it
 * kIOMasterPortDefault and on those that call it kIOMainPortDefault.
 *
 * A child iterator walks its parent's live set of children: an entry
 * attached or gone there during the walk (a process opening the GPU, a
 * disk plugged in) invalidates it, and IOIteratorNext then answers
 * IO_OBJECT_NULL as at the end (xnu-11417.101.15
 * libkern/c++/OSCollectionIterator.cpp:316-324, iokit/Kernel/
 * IORegistryEntry.cpp:2482-2520; IOUserClient.cpp:2575-2604, IOKitUser
 * IOKitLib.c:464-473). Only IOIteratorIsValid tells the two apart
 * (IOUserClient.cpp:2618-2629, IOKitLib.c:482-492); IOIteratorReset walks
 * the children as they are now (IORegistryEntry.cpp:2454-2466).
 */
#include "live_source.h"
#include "entry_set.h"

#include <CoreFoundation/CoreFoundation.h>
#include <IOKit/IOKitLib.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

_Static_assert(sizeof(io_name_t) == PLAT_ENTRY_NAME_MAX, "entry names and classes fit whole");

struct walk {
    struct live_source *src;
    char path[REG_PATH_MAX];
    int sts;                        /* the first failure to record a value */
    unsigned int restarts;          /* iterators the registry invalidated, walked again */
};

static void add_value(struct walk *w, size_t at, CFTypeRef value);

static void
add_dictionary_entry(const void *key, const void *value, void *context)
{
    struct walk *w = context;
    size_t at = strlen(w->path);
    char part[256];
    int len;

    if (w->sts < 0 || CFGetTypeID((CFTypeRef)key) != CFStringGetTypeID() ||
        !CFStringGetCString((CFStringRef)key, part, sizeof(part), kCFStringEncodingUTF8))
        return;                     /* registry keys are strings; a longer one is not one a collector reads */
    if ((len = entry_path_append(w->path, sizeof(w->path), at, part, strlen(part))) >= 0)
        add_value(w, (size_t)len, (CFTypeRef)value);
    w->path[at] = '\0';
}

/* Record value at w->path (of length at), descending into containers. */
static void
add_value(struct walk *w, size_t at, CFTypeRef value)
{
    struct entry_builder *b = &w->src->entries;
    CFTypeID type = CFGetTypeID(value);
    int sts = 0;

    if (type == CFNumberGetTypeID()) {
        SInt64 n;

        /* Floating-point numbers are left out: no collector reads one. */
        if (!CFNumberIsFloatType((CFNumberRef)value) && CFNumberGetValue((CFNumberRef)value, kCFNumberSInt64Type, &n))
            sts = entry_builder_number(b, w->path, (uint64_t)n);
    } else if (type == CFBooleanGetTypeID()) {
        sts = entry_builder_bool(b, w->path, CFBooleanGetValue((CFBooleanRef)value));
    } else if (type == CFStringGetTypeID()) {
        char text[1024];

        if (CFStringGetCString((CFStringRef)value, text, sizeof(text), kCFStringEncodingUTF8))
            sts = entry_builder_string(b, w->path, text);
    } else if (type == CFDataGetTypeID()) {
        sts = entry_builder_data(b, w->path, CFDataGetBytePtr((CFDataRef)value),
                               (size_t)CFDataGetLength((CFDataRef)value));
    } else if (type == CFDictionaryGetTypeID()) {
        CFDictionaryApplyFunction((CFDictionaryRef)value, add_dictionary_entry, w);
    } else if (type == CFArrayGetTypeID()) {
        CFIndex count = CFArrayGetCount((CFArrayRef)value);

        for (CFIndex i = 0; i < count && w->sts == 0; i++) {
            char index[24];
            int len;

            snprintf(index, sizeof(index), "%ld", (long)i);
            if ((len = entry_path_append(w->path, sizeof(w->path), at, index, strlen(index))) >= 0)
                add_value(w, (size_t)len, CFArrayGetValueAtIndex((CFArrayRef)value, i));
            w->path[at] = '\0';
        }
    }
    if (sts < 0 && w->sts == 0)
        w->sts = sts;
}

/* A wanted key: a property, or with '.' in it a value inside a dictionary
 * property, recorded at the path of all its parts. The property is a Create
 * (released here); values inside it are Gets. */
static void
add_wanted(struct walk *w, io_registry_entry_t entry, const char *key)
{
    CFTypeRef top = NULL, value = NULL;
    size_t at = 0;

    w->path[0] = '\0';
    for (const char *part = key; part != NULL;) {
        const char *end = strchr(part, '.');
        size_t len = end ? (size_t)(end - part) : strlen(part);
        char name[256];
        CFStringRef cfkey;
        int n;

        snprintf(name, sizeof(name), "%.*s", (int)len, part);
        if ((n = entry_path_append(w->path, sizeof(w->path), at, part, len)) < 0 ||
            (cfkey = CFStringCreateWithCString(kCFAllocatorDefault, name, kCFStringEncodingUTF8)) == NULL)
            break;
        at = (size_t)n;
        if (top == NULL)
            value = top = IORegistryEntryCreateCFProperty(entry, cfkey, kCFAllocatorDefault, 0);
        else
            value = CFGetTypeID(value) == CFDictionaryGetTypeID()
                        ? CFDictionaryGetValue((CFDictionaryRef)value, cfkey) : NULL;
        CFRelease(cfkey);
        if (value == NULL)
            break;
        part = end ? end + 1 : NULL;
        if (part == NULL)
            add_value(w, at, value);
    }
    if (top != NULL)
        CFRelease(top);
    w->path[0] = '\0';
}

static uint64_t
entry_id(io_registry_entry_t entry)
{
    uint64_t id = 0;

    return IORegistryEntryGetRegistryEntryID(entry, &id) == KERN_SUCCESS ? id : 0;
}

/* The next entry of it, or IO_OBJECT_NULL at its end. An iterator the
 * registry invalidated is walked again from its start (what is recorded
 * already is not recorded twice), at most PLAT_REGISTRY_WALK_RESTARTS times
 * in one query; past that the walk fails with -EAGAIN rather than answer
 * with part of the entries. */
static io_registry_entry_t
next_entry(struct walk *w, io_iterator_t it)
{
    io_registry_entry_t entry;

    while ((entry = IOIteratorNext(it)) == IO_OBJECT_NULL && !IOIteratorIsValid(it)) {
        if (w->restarts == PLAT_REGISTRY_WALK_RESTARTS) {
            w->sts = -EAGAIN;
            break;
        }
        w->restarts++;
        IOIteratorReset(it);
    }
    return entry;
}

/* One entry and its wanted properties, then its descendants to depth. */
static int
add_entry(struct walk *w, io_registry_entry_t entry, const char *plane, const struct plat_query *q,
          unsigned int depth)
{
    io_name_t name, class_name;
    io_registry_entry_t parent;
    io_iterator_t children;
    uint64_t parent_id = 0;
    int sts;

    if (IORegistryEntryGetName(entry, name) != KERN_SUCCESS)
        name[0] = '\0';
    if (IOObjectGetClass(entry, class_name) != KERN_SUCCESS)
        class_name[0] = '\0';
    if (IORegistryEntryGetParentEntry(entry, plane, &parent) == KERN_SUCCESS) {
        parent_id = entry_id(parent);
        IOObjectRelease(parent);
    }
    if (entry_builder_has(&w->src->entries, entry_id(entry)))
        goto descend;                   /* already recorded as another entry's ancestor */
    if ((sts = entry_builder_entry(&w->src->entries, entry_id(entry), parent_id, name, class_name)) < 0)
        return sts;
    w->path[0] = '\0';
    if (q->keys == NULL) {
        CFMutableDictionaryRef props = NULL;

        if (IORegistryEntryCreateCFProperties(entry, &props, kCFAllocatorDefault, 0) == KERN_SUCCESS &&
            props != NULL) {
            CFDictionaryApplyFunction(props, add_dictionary_entry, w);
            CFRelease(props);
        }
    } else {
        for (const char *const *key = q->keys; *key != NULL && w->sts == 0; key++)
            add_wanted(w, entry, *key);
    }
descend:
    if (w->sts < 0 || depth == 0)
        return w->sts;
    if (IORegistryEntryGetChildIterator(entry, plane, &children) != KERN_SUCCESS)
        return 0;
    for (io_registry_entry_t child; w->sts == 0 && (child = next_entry(w, children)) != IO_OBJECT_NULL;) {
        if ((sts = add_entry(w, child, plane, q, depth - 1)) < 0 && w->sts == 0)
            w->sts = sts;
        IOObjectRelease(child);
    }
    IOObjectRelease(children);
    return w->sts;
}

/* An entry's ancestors, levels up, each recorded once however many
 * matched entries share it. */
static void
add_ancestors(struct walk *w, io_registry_entry_t entry, const char *plane, const struct plat_query *q,
              unsigned int levels)
{
    io_registry_entry_t parent;
    int sts;

    if (levels == 0 || w->sts < 0 || IORegistryEntryGetParentEntry(entry, plane, &parent) != KERN_SUCCESS)
        return;
    if (!entry_builder_has(&w->src->entries, entry_id(parent)) &&
        (sts = add_entry(w, parent, plane, q, 0)) < 0 && w->sts == 0)
        w->sts = sts;
    add_ancestors(w, parent, plane, q, levels - 1);
    IOObjectRelease(parent);
}

/* The entries an iterator hands out, each with its descendants and ancestors. */
static int
add_all(struct walk *w, io_iterator_t it, const char *plane, const struct plat_query *q)
{
    for (io_registry_entry_t entry; w->sts == 0 && (entry = next_entry(w, it)) != IO_OBJECT_NULL;) {
        int sts = add_entry(w, entry, plane, q, q->depth);

        add_ancestors(w, entry, plane, q, q->ancestors);

        if (sts < 0 && w->sts == 0)
            w->sts = sts;
        IOObjectRelease(entry);
    }
    return w->sts;
}

int
live_read_registry(struct live_source *src, const struct plat_query *q, struct plat_entry_set *out)
{
    struct walk w = { .src = src };
    const char *colon = strchr(q->match, ':');
    io_iterator_t it = IO_OBJECT_NULL;
    kern_return_t kr;

    entry_builder_reset(&w.src->entries);
    out->n = 0;
    if (colon != NULL) {                /* "Plane:/path": that entry, or its children */
        char plane[sizeof(io_name_t)];
        io_registry_entry_t at = IORegistryEntryFromPath(MACH_PORT_NULL, q->match);

        if (at == IO_OBJECT_NULL)
            return live_fail(w.src, -ENOENT, "%s: not in the IORegistry", q->match);
        snprintf(plane, sizeof(plane), "%.*s", (int)(colon - q->match), q->match);
        if (q->itself) {
            w.sts = add_entry(&w, at, plane, q, q->depth);
            IOObjectRelease(at);
        } else {
            kr = IORegistryEntryGetChildIterator(at, plane, &it);
            IOObjectRelease(at);
            if (kr != KERN_SUCCESS)
                return live_fail(w.src, -EIO, "%s: no child iterator: %s", q->match, mach_error_string(kr));
            add_all(&w, it, plane, q);
        }
    } else {                            /* a class: every service of it */
        CFMutableDictionaryRef matching = IOServiceMatching(q->match);

        if (matching == NULL)
            return live_fail(w.src, -ENOMEM, "IOServiceMatching(%s) failed", q->match);
        kr = IOServiceGetMatchingServices(MACH_PORT_NULL, matching, &it);     /* consumes matching */
        if (kr != KERN_SUCCESS)
            return live_fail(w.src, -EIO, "%s: IOServiceGetMatchingServices: %s", q->match, mach_error_string(kr));
        add_all(&w, it, kIOServicePlane, q);
    }
    if (it != IO_OBJECT_NULL)
        IOObjectRelease(it);
    if (w.sts < 0 && w.restarts == PLAT_REGISTRY_WALK_RESTARTS)
        return live_fail(w.src, w.sts, "%s: the IORegistry changed during the walk %u times in a row", q->match,
                         w.restarts + 1);
    if (w.sts < 0)
        return live_fail(w.src, w.sts, "%s: %s", q->match, strerror(-w.sts));
    entry_builder_finish(&w.src->entries, out);
    return 0;
}
