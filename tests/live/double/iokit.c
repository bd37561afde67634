/*
 * IOKit: the IORegistry and its objects, as IOKitUser-100222.0.4
 * (IOKitLib.c) and xnu-11417.101.15 (iokit/Kernel/IOUserClient.cpp,
 * IORegistryEntry.cpp) behave:
 *  - every object handed out (an entry, an iterator, a connection) is a
 *    port name with a reference the caller gives back with IOObjectRelease
 *    (mach_port_deallocate; connections with IOServiceClose, which
 *    releases the name too);
 *  - IOServiceMatching(name) is a new dictionary {IOProviderClass: name};
 *    IOServiceGetMatchingServices and IOServiceGetMatchingService release
 *    it, whatever they return ("One reference is always consumed");
 *    a NULL dictionary is kIOReturnBadArgument, or no service;
 *  - matching takes an entry of the class or of a subclass, in the
 *    IOService plane, that is in the matched state: a user client, never
 *    registered, is not (xnu-11417.101.15 iokit/Kernel/IOService.cpp:
 *    6239-6247 getMatchingServices asks copyExistingServices for
 *    kIOServiceMatchedState, which instanceMatch checks, 6066-6068);
 *  - IORegistryEntryGetChildIterator succeeds for any entry; the iterator
 *    of a plane that does not exist hands out nothing;
 *  - an entry may have several parents in a plane (an APFS Fusion
 *    container below both of its stores): attaching appends to the
 *    entry's parents, once each (iokit/Kernel/IORegistryEntry.cpp
 *    makeLink), and it is among the children of each;
 *  - IORegistryEntryGetParentEntry is the parent iterator's first entry,
 *    the one attached first (IORegistryEntry.cpp getParentIterator and
 *    copyParentEntry: index 0 of the parents), kIOReturnNoDevice at the
 *    plane's top;
 *  - IORegistryEntryFromPath("Plane:/a/b") walks names ("name" or
 *    "name@location") down from the plane's top; no entry: IO_OBJECT_NULL;
 *  - IORegistryEntryCreateCFProperty and ...CFProperties unserialize a
 *    fresh copy the caller releases (Copy rule); a missing key is NULL;
 *  - a child iterator walks the parent's live set of children: an entry
 *    attached below that parent during the walk invalidates it
 *    (libkern/c++/OSCollectionIterator.cpp:100-109 and 316-324: the set's
 *    update stamp moved, so the next object is NULL; IORegistryEntry.cpp:
 *    2482-2520 getNextObjectFlat then marks the registry iterator invalid,
 *    2385-2405 isValid says so until 2454-2466 reset walks the children as
 *    they are now). IOIteratorNext answers IO_OBJECT_NULL as at the end
 *    (IOUserClient.cpp:2575-2604 kIOReturnNoDevice, IOKitLib.c:464-473), so
 *    only IOIteratorIsValid (IOUserClient.cpp:2618-2629, IOKitLib.c:482-492)
 *    tells the two apart. A matching iterator walks a set of its own,
 *    which nothing changes: it stays valid (IOService.cpp getMatchingServices).
 * Entry ids, names, classes and properties come from dumps recorded on
 * real Macs (tests/live/harness/ioreg_tree.c) or from a test.
 */
#include "double.h"
#include "dbl_mach.h"

#include <CoreFoundation/CoreFoundation.h>
#include <IOKit/IOKitLib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* iokit/IOKit/IOReturn.h */
#define kIOReturnBadArgument ((kern_return_t)0xe00002c2)
#define kIOReturnNoDevice ((kern_return_t)0xe00002c0)
#define kIOReturnNotFound ((kern_return_t)0xe00002f0)

#define MAX_ENTRIES 65536
#define MAX_SUPERS 8
#define MAX_PARENTS 4
#define NPLANES 2
static const char *const planes[NPLANES] = { kIOServicePlane, kIODeviceTreePlane };

struct entry {
    uint64_t id;
    char name[128], location[128], class_name[128];
    char supers[MAX_SUPERS][128];
    unsigned int nsupers;
    int unmatched;                  /* not in kIOServiceMatchedState */
    CFDictionaryRef props;
    unsigned int parent[NPLANES][MAX_PARENTS];  /* in attaching order; DBL_REG_ROOT: the plane's top */
    unsigned int nparents[NPLANES];             /* 0: not in the plane */
    unsigned int children_stamp[NPLANES];       /* moves with each child attached below it */
};

struct iterator {
    unsigned int *items;
    unsigned int n, next;
    int plane;                      /* a child iterator's plane, or -1: a matching iterator */
    unsigned int parent, stamp;     /* a child iterator's parent and its children_stamp when walked */
    int invalid;                    /* its set changed under it: nothing more until a reset */
};

/* Entries to attach while a walk of their parent's children is under way:
 * each on one IOIteratorNext of such a walk, in the order queued. */
#define MAX_MID_WALK 16
static struct {
    unsigned int entry, parent;
    int plane;
} mid_walk[MAX_MID_WALK];
static unsigned int nmid_walk;

static struct entry *entries;
static unsigned int nentries;

static void
freed(enum dbl_port_kind kind, void *payload)
{
    if (kind == DBL_PORT_IO_ITERATOR) {
        free(((struct iterator *)payload)->items);
        free(payload);
    }
}

void
dbl_io_reset(void)
{
    for (unsigned int i = 0; i < nentries; i++)
        if (entries[i].props != NULL)
            CFRelease(entries[i].props);
    free(entries);
    entries = NULL;
    nentries = 0;
    nmid_walk = 0;
    dbl_port_freed = freed;
}

unsigned int
dbl_reg_entry(uint64_t id, const char *name, const char *location, const char *class_name, void *props)
{
    struct entry *e;

    if (nentries == MAX_ENTRIES)
        dbl_violation("more than %d registry entries", MAX_ENTRIES);
    if (entries == NULL && (entries = calloc(MAX_ENTRIES, sizeof(*entries))) == NULL)
        dbl_violation("out of memory");
    e = &entries[nentries];
    memset(e, 0, sizeof(*e));
    e->id = id;
    strlcpy(e->name, name, sizeof(e->name));
    strlcpy(e->location, location ? location : "", sizeof(e->location));
    strlcpy(e->class_name, class_name, sizeof(e->class_name));
    e->props = props != NULL ? props : dbl_cf_dict();
    return nentries++;
}

static int
plane_index(const char *plane)
{
    for (int p = 0; p < NPLANES; p++)
        if (strcmp(planes[p], plane) == 0)
            return p;
    return -1;
}

/* Whether e is in plane p below parent (DBL_REG_ROOT: at the top). */
static int
below(const struct entry *e, int p, unsigned int parent)
{
    for (unsigned int k = 0; k < e->nparents[p]; k++)
        if (e->parent[p][k] == parent)
            return 1;
    return 0;
}

void
dbl_reg_attach(unsigned int entry, const char *plane, unsigned int parent)
{
    int p = plane_index(plane);
    struct entry *e;

    if (p < 0 || entry >= nentries || (parent != DBL_REG_ROOT && parent >= nentries))
        dbl_violation("dbl_reg_attach(%u, %s, %u)", entry, plane, parent);
    e = &entries[entry];
    if (below(e, p, parent))
        return;
    if (e->nparents[p] == MAX_PARENTS)
        dbl_violation("more than %d parents", MAX_PARENTS);
    e->parent[p][e->nparents[p]++] = parent;
    if (parent != DBL_REG_ROOT)
        entries[parent].children_stamp[p]++;
}

void
dbl_reg_attach_mid_walk(unsigned int entry, const char *plane, unsigned int parent)
{
    int p = plane_index(plane);

    if (p < 0 || entry >= nentries || parent >= nentries || nmid_walk == MAX_MID_WALK)
        dbl_violation("dbl_reg_attach_mid_walk(%u, %s, %u)", entry, plane, parent);
    mid_walk[nmid_walk].entry = entry;
    mid_walk[nmid_walk].parent = parent;
    mid_walk[nmid_walk++].plane = p;
}

/* The first entry queued to appear during a walk of it's set: attached now. */
static void
attach_mid_walk(const struct iterator *it)
{
    for (unsigned int i = 0; i < nmid_walk; i++)
        if (mid_walk[i].parent == it->parent && mid_walk[i].plane == it->plane) {
            unsigned int entry = mid_walk[i].entry;

            memmove(&mid_walk[i], &mid_walk[i + 1], (nmid_walk - i - 1) * sizeof(mid_walk[0]));
            nmid_walk--;
            dbl_reg_attach(entry, planes[it->plane], it->parent);
            return;
        }
}

void
dbl_reg_superclass(unsigned int entry, const char *class_name)
{
    struct entry *e = &entries[entry];

    if (e->nsupers == MAX_SUPERS)
        dbl_violation("more than %d superclasses", MAX_SUPERS);
    strlcpy(e->supers[e->nsupers++], class_name, sizeof(e->supers[0]));
}

void
dbl_reg_unmatched(unsigned int entry)
{
    entries[entry].unmatched = 1;
}

long
dbl_io_held(void)
{
    long held = 0;

    for (enum dbl_port_kind k = DBL_PORT_IO_ENTRY; k <= DBL_PORT_IO_CONNECT; k++)
        held += dbl_ports_of(k);
    return held;
}

static io_object_t
give_entry(unsigned int i)
{
    return dbl_port_new(DBL_PORT_IO_ENTRY, &entries[i]);
}

static struct entry *
entry_of(io_object_t object, const char *caller)
{
    return dbl_port_get(object, DBL_PORT_IO_ENTRY, caller);
}

const void *
dbl_io_entry(unsigned int object, uint64_t *id, const char *caller)
{
    struct entry *e = entry_of(object, caller);

    if (e == NULL)
        return NULL;
    *id = e->id;
    return e->props;
}

static struct iterator *
new_iterator(void)
{
    struct iterator *it = calloc(1, sizeof(*it));

    if (it == NULL)
        dbl_violation("out of memory");
    it->plane = -1;
    return it;
}

/* A matching iterator over items (taken). */
static io_iterator_t
give_iterator(unsigned int *items, unsigned int n)
{
    struct iterator *it = new_iterator();

    it->items = items;
    it->n = n;
    return dbl_port_new(DBL_PORT_IO_ITERATOR, it);
}

/* A child iterator's items: parent's children in its plane, as they are now. */
static void
walk_children(struct iterator *it)
{
    free(it->items);
    if ((it->items = calloc(nentries ? nentries : 1, sizeof(*it->items))) == NULL)
        dbl_violation("out of memory");
    it->n = it->next = 0;
    for (unsigned int i = 0; it->plane >= 0 && i < nentries; i++)
        if (below(&entries[i], it->plane, it->parent))
            it->items[it->n++] = i;
    it->stamp = it->plane >= 0 ? entries[it->parent].children_stamp[it->plane] : 0;
    it->invalid = 0;
}

static int
changed_under(const struct iterator *it)
{
    return it->plane >= 0 && (it->invalid || entries[it->parent].children_stamp[it->plane] != it->stamp);
}

kern_return_t
IOObjectRelease(io_object_t object)
{
    return mach_port_deallocate(mach_task_self(), object);
}

kern_return_t
IOObjectGetClass(io_object_t object, io_name_t class_name)
{
    struct entry *e = entry_of(object, "IOObjectGetClass");
    int err;

    if (e == NULL)
        return kIOReturnBadArgument;
    if ((err = dbl_failing("IOObjectGetClass")) != 0)
        return err;
    strlcpy(class_name, e->class_name, sizeof(io_name_t));
    return KERN_SUCCESS;
}

io_object_t
IOIteratorNext(io_iterator_t iterator)
{
    struct iterator *it = dbl_port_get(iterator, DBL_PORT_IO_ITERATOR, "IOIteratorNext");

    if (it == NULL)
        return IO_OBJECT_NULL;
    if (it->plane >= 0)
        attach_mid_walk(it);
    if (changed_under(it)) {
        it->invalid = 1;
        return IO_OBJECT_NULL;
    }
    if (it->next >= it->n)
        return IO_OBJECT_NULL;
    return give_entry(it->items[it->next++]);
}

boolean_t
IOIteratorIsValid(io_iterator_t iterator)
{
    struct iterator *it = dbl_port_get(iterator, DBL_PORT_IO_ITERATOR, "IOIteratorIsValid");

    return it != NULL && !changed_under(it);
}

void
IOIteratorReset(io_iterator_t iterator)
{
    struct iterator *it = dbl_port_get(iterator, DBL_PORT_IO_ITERATOR, "IOIteratorReset");

    if (it == NULL)
        return;
    if (it->plane >= 0)
        walk_children(it);
    else
        it->next = 0;
}

CFMutableDictionaryRef
IOServiceMatching(const char *name)
{
    CFMutableDictionaryRef dict;

    if (dbl_failing("IOServiceMatching"))
        return NULL;
    dict = dbl_cf_dict();
    dbl_cf_put(dict, "IOProviderClass", dbl_cf_string(name));
    return dict;
}

static int
is_a(const struct entry *e, const char *class_name)
{
    if (strcmp(e->class_name, class_name) == 0)
        return 1;
    for (unsigned int s = 0; s < e->nsupers; s++)
        if (strcmp(e->supers[s], class_name) == 0)
            return 1;
    return 0;
}

/* The entries of the IOService plane the dictionary matches, in the
 * registry's order; the dictionary is released. */
static unsigned int
matches(CFDictionaryRef matching, unsigned int **items)
{
    CFStringRef key = dbl_cf_string("IOProviderClass");
    CFTypeRef value = CFDictionaryGetValue(matching, key);
    char class_name[128];
    unsigned int n = 0;

    CFRelease(key);
    if (value == NULL || !CFStringGetCString(value, class_name, sizeof(class_name), kCFStringEncodingUTF8))
        dbl_violation("a matching dictionary without IOProviderClass: not one the live code makes");
    CFRelease(matching);
    if ((*items = calloc(nentries ? nentries : 1, sizeof(**items))) == NULL)
        dbl_violation("out of memory");
    for (unsigned int i = 0; i < nentries; i++)
        if (entries[i].nparents[0] > 0 && !entries[i].unmatched && is_a(&entries[i], class_name))
            (*items)[n++] = i;
    return n;
}

kern_return_t
IOServiceGetMatchingServices(mach_port_t main_port, CFDictionaryRef matching, io_iterator_t *existing)
{
    unsigned int *items, n;
    int err;

    (void)main_port;
    if (matching == NULL)
        return kIOReturnBadArgument;
    if ((err = dbl_failing("IOServiceGetMatchingServices")) != 0) {
        CFRelease(matching);
        return err;
    }
    n = matches(matching, &items);
    *existing = give_iterator(items, n);
    return KERN_SUCCESS;
}

io_service_t
IOServiceGetMatchingService(mach_port_t main_port, CFDictionaryRef matching)
{
    unsigned int *items, n;
    io_service_t service = IO_OBJECT_NULL;

    (void)main_port;
    if (matching == NULL)
        return IO_OBJECT_NULL;
    if (dbl_failing("IOServiceGetMatchingService")) {
        CFRelease(matching);
        return IO_OBJECT_NULL;
    }
    if ((n = matches(matching, &items)) > 0)
        service = give_entry(items[0]);
    free(items);
    return service;
}

kern_return_t
IORegistryEntryGetName(io_registry_entry_t entry, io_name_t name)
{
    struct entry *e = entry_of(entry, "IORegistryEntryGetName");
    int err;

    if (e == NULL)
        return kIOReturnBadArgument;
    if ((err = dbl_failing("IORegistryEntryGetName")) != 0)
        return err;
    strlcpy(name, e->name, sizeof(io_name_t));
    return KERN_SUCCESS;
}

kern_return_t
IORegistryEntryGetRegistryEntryID(io_registry_entry_t entry, uint64_t *id)
{
    struct entry *e = entry_of(entry, "IORegistryEntryGetRegistryEntryID");

    if (e == NULL)
        return kIOReturnBadArgument;
    *id = e->id;
    return KERN_SUCCESS;
}

kern_return_t
IORegistryEntryGetChildIterator(io_registry_entry_t entry, const io_name_t plane, io_iterator_t *iterator)
{
    struct entry *e = entry_of(entry, "IORegistryEntryGetChildIterator");
    int p = plane_index(plane);
    struct iterator *it;
    int err;

    if (e == NULL)
        return kIOReturnBadArgument;
    if ((err = dbl_failing("IORegistryEntryGetChildIterator")) != 0)
        return err;
    it = new_iterator();
    it->plane = p;
    it->parent = (unsigned int)(e - entries);
    walk_children(it);
    *iterator = dbl_port_new(DBL_PORT_IO_ITERATOR, it);
    return KERN_SUCCESS;
}

kern_return_t
IORegistryEntryGetParentEntry(io_registry_entry_t entry, const io_name_t plane, io_registry_entry_t *parent)
{
    struct entry *e = entry_of(entry, "IORegistryEntryGetParentEntry");
    int p = plane_index(plane);

    if (e == NULL)
        return kIOReturnBadArgument;
    if (p < 0 || e->nparents[p] == 0 || e->parent[p][0] == DBL_REG_ROOT)
        return kIOReturnNoDevice;
    *parent = give_entry(e->parent[p][0]);
    return KERN_SUCCESS;
}

static int
named(const struct entry *e, const char *part, size_t len)
{
    char full[260];

    if (strlen(e->name) == len && strncmp(e->name, part, len) == 0)
        return 1;
    snprintf(full, sizeof(full), "%s@%s", e->name, e->location);
    return e->location[0] != '\0' && strlen(full) == len && strncmp(full, part, len) == 0;
}

io_registry_entry_t
IORegistryEntryFromPath(mach_port_t main_port, const io_string_t path)
{
    const char *colon = strchr(path, ':'), *part;
    unsigned int at = DBL_REG_ROOT;
    char plane[128];
    int p;

    (void)main_port;
    if (colon == NULL || colon[1] != '/')
        return IO_OBJECT_NULL;
    snprintf(plane, sizeof(plane), "%.*s", (int)(colon - path), path);
    if ((p = plane_index(plane)) < 0 || dbl_failing("IORegistryEntryFromPath"))
        return IO_OBJECT_NULL;
    for (part = colon + 2; *part != '\0';) {
        size_t len = strcspn(part, "/");
        unsigned int i = 0;

        while (i < nentries && !(below(&entries[i], p, at) && named(&entries[i], part, len)))
            i++;
        if (i == nentries)
            return IO_OBJECT_NULL;
        at = i;
        part += len;
        part += *part == '/';
    }
    return at == DBL_REG_ROOT ? IO_OBJECT_NULL : give_entry(at);
}

CFTypeRef
IORegistryEntryCreateCFProperty(io_registry_entry_t entry, CFStringRef key, CFAllocatorRef allocator,
                                IOOptionBits options)
{
    struct entry *e = entry_of(entry, "IORegistryEntryCreateCFProperty");
    CFTypeRef value;

    (void)allocator;
    (void)options;
    if (e == NULL || dbl_failing("IORegistryEntryCreateCFProperty"))
        return NULL;
    value = CFDictionaryGetValue(e->props, key);
    return value != NULL ? dbl_cf_copy(value) : NULL;
}

kern_return_t
IORegistryEntryCreateCFProperties(io_registry_entry_t entry, CFMutableDictionaryRef *properties,
                                  CFAllocatorRef allocator, IOOptionBits options)
{
    struct entry *e = entry_of(entry, "IORegistryEntryCreateCFProperties");
    int err;

    (void)allocator;
    (void)options;
    if (e == NULL)
        return kIOReturnBadArgument;
    if ((err = dbl_failing("IORegistryEntryCreateCFProperties")) != 0)
        return err;
    *properties = dbl_cf_copy(e->props);
    return KERN_SUCCESS;
}

/* Connections (smc.c's AppleSMC): IOServiceOpen makes one on a service
 * the open mode allows (dbl_smc.c decides), IOServiceClose ends it. */
kern_return_t
IOServiceOpen(io_service_t service, task_port_t task, uint32_t type, io_connect_t *connect)
{
    struct entry *e = entry_of(service, "IOServiceOpen");
    kern_return_t kr;

    if (task != mach_task_self())
        dbl_violation("IOServiceOpen for another task");
    if (e == NULL)
        return kIOReturnBadArgument;
    if ((kr = dbl_service_open(e->class_name, type)) != KERN_SUCCESS)
        return kr;
    *connect = dbl_port_new(DBL_PORT_IO_CONNECT, e);
    return KERN_SUCCESS;
}

kern_return_t
IOServiceClose(io_connect_t connect)
{
    if (dbl_port_get(connect, DBL_PORT_IO_CONNECT, "IOServiceClose") == NULL)
        dbl_violation("IOServiceClose(%#x): not a connection", connect);
    return IOObjectRelease(connect);
}

kern_return_t
IOConnectCallStructMethod(mach_port_t connection, uint32_t selector, const void *in, size_t in_size, void *out,
                          size_t *out_size)
{
    struct entry *e = dbl_port_get(connection, DBL_PORT_IO_CONNECT, "IOConnectCallStructMethod");

    if (e == NULL)
        return kIOReturnBadArgument;
    return dbl_service_call(e->class_name, selector, in, in_size, out, out_size);
}
