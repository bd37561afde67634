/*
 * registry.c on small IORegistry trees built here: which entries a query
 * finds (class and subclass services, plane path children, descendants to
 * a depth, shared ancestors once), which properties it copies and how
 * (keys into dictionaries, every property, arrays, data, booleans; floats
 * and strings too long left out), what it says when IOKit refuses, the
 * bounds of an answer, the dispatch to the other sources, and that it
 * holds nothing after many rounds. Synthetic trees: each value expected is
 * the one the test put in.
 */
#include "harness.h"
#include "dvfs_decode.h"
#include "real_macs.h"
#include "entry_set.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROOT_ID 0x100000100ull

/* A dictionary of key, value pairs (values consumed), NULL after the last. */
static void *
dict_of(const char *key, ...)
{
    void *d = dbl_cf_dict();
    va_list ap;

    va_start(ap, key);
    for (; key != NULL; key = va_arg(ap, const char *))
        dbl_cf_put(d, key, va_arg(ap, void *));
    va_end(ap);
    return d;
}

static void *
array_of(void *first, ...)
{
    void *a = dbl_cf_array();
    va_list ap;

    va_start(ap, first);
    for (void *v = first; v != NULL; v = va_arg(ap, void *))
        dbl_cf_append(a, v);
    va_end(ap);
    return a;
}

/* An entry in the IOService plane below parent (DBL_REG_ROOT: the top). */
static unsigned int
service(uint64_t id, const char *name, const char *class_name, unsigned int parent, void *props)
{
    unsigned int e = dbl_reg_entry(id, name, NULL, class_name, props);

    dbl_reg_attach(e, "IOService", parent);
    return e;
}

static unsigned int
root(void)
{
    return service(ROOT_ID, "Root", "IORegistryEntry", DBL_REG_ROOT, NULL);
}

static const struct plat_entry *
entry_of(const struct plat_entry_set *set, uint64_t id)
{
    for (unsigned int i = 0; i < set->n; i++)
        if (set->entry[i].id == id)
            return &set->entry[i];
    fail_msg("no entry 0x%llx in the answer", (unsigned long long)id);
    return NULL;
}

static const struct plat_prop *
prop_of(const struct plat_entry *e, const char *path)
{
    const struct plat_prop *p = entry_prop(e, path);

    if (p == NULL)
        fail_msg("entry 0x%llx has no property %s", (unsigned long long)e->id, path);
    return p;
}

static void
assert_number(const struct plat_entry *e, const char *path, uint64_t value)
{
    const struct plat_prop *p = prop_of(e, path);

    assert_int_equal(p->kind, PLAT_PROP_NUMBER);
    assert_int_equal(p->number, value);
}

static void
assert_text(const struct plat_entry *e, const char *path, const char *text)
{
    const struct plat_prop *p = prop_of(e, path);

    assert_int_equal(p->kind, PLAT_PROP_STRING);
    assert_string_equal(p->text, text);
}

static void
assert_bytes(const struct plat_entry *e, const char *path, const void *bytes, size_t len)
{
    const struct plat_prop *p = prop_of(e, path);

    assert_int_equal(p->kind, PLAT_PROP_DATA);
    assert_int_equal(p->len, len);
    assert_memory_equal(p->data, bytes, len);
}

static void
assert_entry(const struct plat_entry *e, const char *name, const char *class_name, uint64_t parent)
{
    assert_string_equal(e->name, name);
    assert_string_equal(e->class_name, class_name);
    assert_int_equal(e->parent, parent);
}

static const char *const gpu_keys[] = { "model", "gpu-core-count", NULL };

static void
gpus(void)
{
    unsigned int r = root();

    service(0x10, "AMDRadeonX6000_AMDNavi14GraphicsAccelerator", "IOAccelerator", r,
            dict_of("model", dbl_cf_string("AMD Radeon Pro 5300M"), "IOClass", dbl_cf_string("x"), NULL));
    dbl_reg_superclass(service(0x11, "AGXAcceleratorG13G", "AGXAcceleratorG13G_B0", r,
                               dict_of("gpu-core-count", dbl_cf_number(8), NULL)),
                       "IOAccelerator");
    service(0x12, "IOPCIDevice", "IOPCIDevice", r, dict_of("model", dbl_cf_string("not a GPU"), NULL));
}

/* The services of a class and of its subclasses, with the class IOKit
 * names (the subclass), each with the wanted keys only. */
static void
test_class_and_subclass_services(void **state)
{
    struct platform *p = *state;
    const struct plat_query q = { "IOAccelerator", 0, gpu_keys, 0 };
    struct plat_entry_set set;
    const struct plat_entry *e;

    gpus();
    assert_int_equal(p->query(p->ctx, &q, &set), 0);
    assert_int_equal(set.n, 2);
    e = entry_of(&set, 0x10);
    assert_entry(e, "AMDRadeonX6000_AMDNavi14GraphicsAccelerator", "IOAccelerator", ROOT_ID);
    assert_int_equal(e->nprops, 1);
    assert_text(e, "model", "AMD Radeon Pro 5300M");
    e = entry_of(&set, 0x11);
    assert_entry(e, "AGXAcceleratorG13G", "AGXAcceleratorG13G_B0", ROOT_ID);
    assert_int_equal(e->nprops, 1);
    assert_number(e, "gpu-core-count", 8);
}

static const char *const gpu_client_keys[] = { "IOUserClientCreator", NULL };

/* A GPU and a user client of it, which is never registered (the M1's dump
 * prints each "!registered, !matched"): matching does not find the client
 * by its class, its accelerator's children include it. */
static void
test_an_unmatched_client_is_found_only_as_a_child(void **state)
{
    struct platform *p = *state;
    const struct plat_query by_class = { "AGXDeviceUserClient", 0, gpu_client_keys, 0 };
    const struct plat_query below = { "AGXAccelerator", 1, gpu_client_keys, 0 };
    struct plat_entry_set set;
    unsigned int gpu = service(0x11, "AGXAcceleratorG13G", "AGXAcceleratorG13G_B0", root(), NULL);

    dbl_reg_superclass(gpu, "AGXAccelerator");
    dbl_reg_unmatched(service(0x13, "AGXDeviceUserClient", "AGXDeviceUserClient", gpu,
                              dict_of("IOUserClientCreator", dbl_cf_string("pid 357, WindowServer"), NULL)));
    assert_int_equal(p->query(p->ctx, &by_class, &set), 0);
    assert_int_equal(set.n, 0);
    assert_int_equal(p->query(p->ctx, &below, &set), 0);
    assert_int_equal(set.n, 2);
    assert_entry(entry_of(&set, 0x13), "AGXDeviceUserClient", "AGXDeviceUserClient", 0x11);
    assert_text(entry_of(&set, 0x13), "IOUserClientCreator", "pid 357, WindowServer");
}

/* A GPU with two user clients, and a third that connects while a walk of
 * the GPU's children is under way (a process opening the GPU). */
static unsigned int
gpu_with_a_client_connecting(void)
{
    unsigned int gpu = service(0x11, "AGXAcceleratorG13G", "AGXAcceleratorG13G_B0", root(), NULL);

    unsigned int connecting;

    dbl_reg_superclass(gpu, "AGXAccelerator");
    for (unsigned int i = 0; i < 2; i++)
        dbl_reg_unmatched(service(0x13 + i, "AGXDeviceUserClient", "AGXDeviceUserClient", gpu, NULL));
    connecting = dbl_reg_entry(0x15, "AGXDeviceUserClient", NULL, "AGXDeviceUserClient", NULL);
    dbl_reg_unmatched(connecting);
    dbl_reg_attach_mid_walk(connecting, "IOService", gpu);
    return gpu;
}

/* The registry changed under the child iterator: IOIteratorNext answers 0
 * as at the end, IOIteratorIsValid says the walk is not over, and the
 * walk starts again: every child is found, the new one too, each once. */
static void
test_a_walk_the_registry_invalidates_starts_again(void **state)
{
    struct platform *p = *state;
    const struct plat_query below = { "AGXAccelerator", 1, gpu_client_keys, 0 };
    struct plat_entry_set set;

    gpu_with_a_client_connecting();
    assert_int_equal(p->query(p->ctx, &below, &set), 0);
    assert_int_equal(set.n, 1 + 3);
    for (uint64_t id = 0x13; id <= 0x15; id++)
        assert_entry(entry_of(&set, id), "AGXDeviceUserClient", "AGXDeviceUserClient", 0x11);
}

/* A registry that changes under every restart: after the bounded number
 * the query fails, saying why, rather than answering with part of the
 * children; the next query, on a registry at rest, answers whole. */
static void
test_a_walk_invalidated_past_the_bound_fails(void **state)
{
    struct platform *p = *state;
    const struct plat_query below = { "AGXAccelerator", 1, gpu_client_keys, 0 };
    struct plat_entry_set set;
    unsigned int gpu = gpu_with_a_client_connecting();

    for (unsigned int i = 0; i < PLAT_REGISTRY_WALK_RESTARTS; i++) {
        unsigned int e = dbl_reg_entry(0x20 + i, "AGXDeviceUserClient", NULL, "AGXDeviceUserClient", NULL);

        dbl_reg_unmatched(e);
        dbl_reg_attach_mid_walk(e, "IOService", gpu);
    }
    assert_int_equal(p->query(p->ctx, &below, &set), -D_EAGAIN);
    assert_non_null(strstr(p->error(p->ctx), "the IORegistry changed during the walk"));
    assert_int_equal(p->query(p->ctx, &below, &set), 0);
    assert_int_equal(set.n, 1 + 3 + PLAT_REGISTRY_WALK_RESTARTS);
}

static const char *const disk_keys[] = { "Size", "BSD Name", NULL };

/* Root > controller > device > driver > media > client > partition scheme,
 * a second device and driver beside the first. */
static void
disks(void)
{
    unsigned int r = root(), k, v, d, m, c;

    k = service(0x20, "AppleAHCI", "AppleAHCI", r, NULL);
    v = service(0x21, "IOAHCIBlockStorageDevice", "IOAHCIBlockStorageDevice", k, NULL);
    d = service(0x22, "IOBlockStorageDriver", "IOBlockStorageDriver", v, dict_of("Size", dbl_cf_number(1), NULL));
    m = service(0x23, "APPLE SSD Media", "IOMedia", d,
                dict_of("Size", dbl_cf_number(500107862016), "BSD Name", dbl_cf_string("disk0"), NULL));
    c = service(0x24, "IOMediaBSDClient", "IOMediaBSDClient", m, NULL);
    service(0x25, "IOGUIDPartitionScheme", "IOGUIDPartitionScheme", c, NULL);
    v = service(0x26, "IOAHCIBlockStorageDevice", "IOAHCIBlockStorageDevice", k, NULL);
    service(0x27, "IOBlockStorageDriver", "IOBlockStorageDriver", v, NULL);
}

static void
test_descendants_to_the_depth(void **state)
{
    struct platform *p = *state;
    struct plat_query q = { "IOBlockStorageDriver", 1, disk_keys, 0 };
    struct plat_entry_set set;
    const struct plat_entry *e;

    disks();
    assert_int_equal(p->query(p->ctx, &q, &set), 0);
    assert_int_equal(set.n, 3);                     /* both drivers and the media below the first */
    e = entry_of(&set, 0x23);
    assert_entry(e, "APPLE SSD Media", "IOMedia", 0x22);
    assert_number(e, "Size", 500107862016);
    assert_text(e, "BSD%20Name", "disk0");
    assert_number(entry_of(&set, 0x22), "Size", 1);
    q.depth = 3;
    assert_int_equal(p->query(p->ctx, &q, &set), 0);
    assert_int_equal(set.n, 5);
    assert_entry(entry_of(&set, 0x25), "IOGUIDPartitionScheme", "IOGUIDPartitionScheme", 0x24);
}

/* Two drivers below one controller: the controller once; the walk up
 * ends at the plane's top, where an entry has no parent. */
static void
test_shared_ancestors_once(void **state)
{
    struct platform *p = *state;
    struct plat_query q = { "IOBlockStorageDriver", 0, disk_keys, 2 };
    struct plat_entry_set set;

    disks();
    assert_int_equal(p->query(p->ctx, &q, &set), 0);
    assert_int_equal(set.n, 5);                     /* 2 drivers, 2 devices, 1 controller */
    assert_entry(entry_of(&set, 0x21), "IOAHCIBlockStorageDevice", "IOAHCIBlockStorageDevice", 0x20);
    assert_entry(entry_of(&set, 0x26), "IOAHCIBlockStorageDevice", "IOAHCIBlockStorageDevice", 0x20);
    assert_entry(entry_of(&set, 0x20), "AppleAHCI", "AppleAHCI", ROOT_ID);
    q.ancestors = 10;
    assert_int_equal(p->query(p->ctx, &q, &set), 0);
    assert_int_equal(set.n, 6);
    assert_entry(entry_of(&set, ROOT_ID), "Root", "IORegistryEntry", 0);
}

/* A service that a query reaches below another one it matched is one
 * entry, and its own descendants are taken to the depth below it. */
static void
test_matched_below_a_match_once(void **state)
{
    struct platform *p = *state;
    const struct plat_query q = { "IOMedia", 1, NULL, 0 };
    struct plat_entry_set set;
    unsigned int whole, part;

    whole = service(0x30, "disk0", "IOMedia", root(), NULL);
    part = service(0x31, "disk0s1", "IOMedia", whole, NULL);
    service(0x32, "IOMediaBSDClient", "IOMediaBSDClient", part, NULL);
    assert_int_equal(p->query(p->ctx, &q, &set), 0);
    assert_int_equal(set.n, 3);
    assert_entry(entry_of(&set, 0x32), "IOMediaBSDClient", "IOMediaBSDClient", 0x31);
}

static const char *const cpu_keys[] = { "logical-cpu-id", "cluster-type", NULL };

/* Apple Silicon's CPUs: below AppleARMPE in IOService, below /cpus in
 * IODeviceTree; a plane path takes the children there, parented there. */
static void
test_plane_path_children(void **state)
{
    struct platform *p = *state;
    const struct plat_query q = { "IODeviceTree:/cpus", 0, cpu_keys, 0 };
    struct plat_entry_set set;
    unsigned int pe = service(0x40, "AppleARMPE", "AppleARMPE", root(), NULL);
    unsigned int cpus = dbl_reg_entry(0x41, "cpus", NULL, "IOPlatformDevice", NULL);
    const struct plat_entry *e;

    dbl_reg_attach(cpus, "IODeviceTree", DBL_REG_ROOT);
    for (unsigned int i = 0; i < 2; i++) {
        char name[8];
        unsigned int cpu;

        snprintf(name, sizeof(name), "cpu%u", i);
        cpu = service(0x42 + i, name, "IOPlatformDevice", pe,
                      dict_of("logical-cpu-id", dbl_cf_number(i), "cluster-type", dbl_cf_data(i ? "P" : "E", 2),
                              "reg", dbl_cf_data("\0\0\0\0", 4), NULL));
        dbl_reg_attach(cpu, "IODeviceTree", cpus);
    }
    assert_int_equal(p->query(p->ctx, &q, &set), 0);
    assert_int_equal(set.n, 2);
    e = entry_of(&set, 0x43);
    assert_entry(e, "cpu1", "IOPlatformDevice", 0x41);
    assert_int_equal(e->nprops, 2);
    assert_number(e, "logical-cpu-id", 1);
    assert_bytes(e, "cluster-type", "P", 2);
}

/* The same for a plane path's children: a CPU listed while /cpus is walked. */
static void
test_a_plane_path_walk_the_registry_invalidates_starts_again(void **state)
{
    struct platform *p = *state;
    const struct plat_query q = { "IODeviceTree:/cpus", 0, cpu_keys, 0 };
    struct plat_entry_set set;
    unsigned int cpus = dbl_reg_entry(0x41, "cpus", NULL, "IOPlatformDevice", NULL);

    dbl_reg_attach(cpus, "IODeviceTree", DBL_REG_ROOT);
    dbl_reg_attach(dbl_reg_entry(0x42, "cpu0", NULL, "IOPlatformDevice", NULL), "IODeviceTree", cpus);
    dbl_reg_attach_mid_walk(dbl_reg_entry(0x43, "cpu1", NULL, "IOPlatformDevice", NULL), "IODeviceTree", cpus);
    assert_int_equal(p->query(p->ctx, &q, &set), 0);
    assert_int_equal(set.n, 2);
    assert_entry(entry_of(&set, 0x43), "cpu1", "IOPlatformDevice", 0x41);
}

/* The pmgr: a plane path with itself set takes that entry, not its
 * children, with its wanted keys only. Its P table is an M1's, as psutil
 * pull request 2222 quotes its bytes (shared/real-macs/pmgr), decoded
 * there to 600 ... 3204 MHz. */
static void
test_plane_path_itself(void **state)
{
    struct platform *p = *state;
    FILE *f = fopen(real_macs_file("pmgr/m1-voltage-states5-sram-hex-psutil-pr2222.txt"), "r");
    unsigned char table[512];
    size_t n = 0;
    char line[256];
    unsigned int arm_io = dbl_reg_entry(0x60, "arm-io", NULL, "AppleARMIODevice", NULL), pmgr;
    struct plat_entry_set set;
    struct dvfs d;

    assert_non_null(f);
    while (fgets(line, sizeof(line), f) != NULL)
        for (const char *s = line; line[0] != '#' && *s != '\0' && n < sizeof(table); s++)
            if (entry_hex_digit(s[0]) >= 0 && entry_hex_digit(s[1]) >= 0) {
                table[n++] = (unsigned char)(entry_hex_digit(s[0]) << 4 | entry_hex_digit(s[1]));
                s++;
            }
    fclose(f);
    dbl_reg_attach(arm_io, "IODeviceTree", DBL_REG_ROOT);
    pmgr = dbl_reg_entry(0x61, "pmgr", "20e000000", "AppleARMIODevice",
                         dict_of("voltage-states5-sram", dbl_cf_data(table, n), "compatible", dbl_cf_data("pmgr1", 6),
                                 NULL));
    dbl_reg_attach(pmgr, "IODeviceTree", arm_io);
    dbl_reg_attach(dbl_reg_entry(0x62, "aic", NULL, "AppleARMIODevice", dict_of("voltage-states1-sram",
                                 dbl_cf_data(table, 8), NULL)), "IODeviceTree", arm_io);
    assert_int_equal(p->query(p->ctx, &plat_queries[PLAT_QUERY_PMGR], &set), 0);
    assert_int_equal(set.n, 1);
    assert_entry(&set.entry[0], "pmgr", "AppleARMIODevice", 0x60);
    assert_int_equal(set.entry[0].nprops, 1);
    assert_bytes(&set.entry[0], "voltage-states5-sram", table, n);
    assert_int_equal(dvfs_decode(&set, &d), 0);
    assert_int_equal(d.ntables, 1);
    assert_int_equal(d.table[0].n, 15);
    assert_int_equal(d.table[0].khz[0], 600000);
    assert_int_equal(d.table[0].khz[14], 3204000);
}

/* An Intel Mac has no /arm-io/pmgr: absent, said so. */
static void
test_plane_path_itself_absent(void **state)
{
    struct platform *p = *state;
    struct plat_entry_set set;

    assert_int_equal(p->query(p->ctx, &plat_queries[PLAT_QUERY_PMGR], &set), -ENOENT);
    assert_error_has(p, "IODeviceTree:/arm-io/pmgr: not in the IORegistry");
}

/* "A.B" is key B of dictionary A: only that value, at the path of both;
 * a key naming a dictionary takes all of it; a part that is missing, or
 * not a dictionary, takes nothing. */
static void
test_dotted_keys_reach_into_dictionaries(void **state)
{
    struct platform *p = *state;
    static const char *const keys[] = {
        "Statistics", "Device Characteristics.Medium Type", "Removable.Inner", "Missing", "Missing.Inner",
        "Device Characteristics.Absent", "Device Characteristics.Medium Type.Deeper", NULL,
    };
    const struct plat_query q = { "IOBlockStorageDevice", 0, keys, 0 };
    struct plat_entry_set set;
    const struct plat_entry *e;

    service(0x50, "APPLE SSD", "IOBlockStorageDevice", root(),
            dict_of("Device Characteristics",
                    dict_of("Medium Type", dbl_cf_string("Solid State"), "Serial Number", dbl_cf_string("X1"), NULL),
                    "Statistics", dict_of("Bytes (Read)", dbl_cf_number(4096), "Operations (Read)", dbl_cf_number(3),
                                          NULL),
                    "Removable", dbl_cf_bool(0), NULL));
    assert_int_equal(p->query(p->ctx, &q, &set), 0);
    e = entry_of(&set, 0x50);
    assert_int_equal(e->nprops, 3);
    assert_number(e, "Statistics.Bytes%20(Read)", 4096);
    assert_number(e, "Statistics.Operations%20(Read)", 3);
    assert_text(e, "Device%20Characteristics.Medium%20Type", "Solid State");
}

/* Without keys, every property: arrays by index, dictionaries by key,
 * numbers as their 64 bits, booleans, data, strings; floats left out. */
static void
test_every_property_without_keys(void **state)
{
    struct platform *p = *state;
    const struct plat_query q = { "AppleSmartBattery", 0, NULL, 0 };
    struct plat_entry_set set;
    const struct plat_entry *e;
    const struct plat_prop *b;

    service(0x60, "AppleSmartBattery", "AppleSmartBattery", root(),
            dict_of("Amperage", dbl_cf_number(-1000), "ExternalConnected", dbl_cf_bool(1),
                    "CellVoltage", array_of(dbl_cf_number(4015), dbl_cf_number(4016), NULL),
                    "BatteryData", dict_of("Lifetime", dict_of("MaxTemp", dbl_cf_number(4510), NULL),
                                           "Ra", array_of(dbl_cf_data("\x01\x02", 2), NULL), NULL),
                    "Manufacturer Data", dbl_cf_data("", 0), "Name", dbl_cf_string(""),
                    "Fraction", dbl_cf_float(0.5), "Nested Fraction", array_of(dbl_cf_float(1.5), NULL), NULL));
    assert_int_equal(p->query(p->ctx, &q, &set), 0);
    e = entry_of(&set, 0x60);
    assert_int_equal(e->nprops, 8);
    assert_number(e, "Amperage", (uint64_t)-1000);
    b = prop_of(e, "ExternalConnected");
    assert_int_equal(b->kind, PLAT_PROP_BOOL);
    assert_int_equal(b->number, 1);
    assert_number(e, "CellVoltage.0", 4015);
    assert_number(e, "CellVoltage.1", 4016);
    assert_number(e, "BatteryData.Lifetime.MaxTemp", 4510);
    assert_bytes(e, "BatteryData.Ra.0", "\x01\x02", 2);
    assert_bytes(e, "Manufacturer%20Data", "", 0);
    assert_text(e, "Name", "");
}

/* A string's value is read into 1024 bytes with its NUL, a key into 256:
 * a longer one is left out; so is a path past REG_PATH_MAX. */
static void
test_values_too_long_left_out(void **state)
{
    struct platform *p = *state;
    const struct plat_query q = { "IOService", 0, NULL, 0 };
    struct plat_entry_set set;
    const struct plat_entry *e;
    char text[1025], key[257], deep_key[200];
    void *props = dbl_cf_dict(), *deep;

    memset(text, 't', sizeof(text) - 1);
    text[1024] = '\0';
    dbl_cf_put(props, "TooLong", dbl_cf_string(text));
    text[1023] = '\0';
    dbl_cf_put(props, "Longest", dbl_cf_string(text));
    memset(key, 'k', sizeof(key) - 1);
    key[256] = '\0';
    dbl_cf_put(props, key, dbl_cf_number(1));
    key[255] = '\0';
    dbl_cf_put(props, key, dbl_cf_number(2));
    memset(deep_key, 'd', sizeof(deep_key) - 1);
    deep_key[sizeof(deep_key) - 1] = '\0';
    deep = dict_of(deep_key, dict_of(deep_key, dict_of(deep_key, dbl_cf_number(3), NULL), NULL), NULL);
    dbl_cf_put(props, "Deep", deep);
    service(0x70, "IOService", "IOService", root(), props);
    assert_int_equal(p->query(p->ctx, &q, &set), 0);
    e = entry_of(&set, 0x70);
    assert_int_equal(e->nprops, 2);
    assert_text(e, "Longest", text);
    assert_number(e, key, 2);
}

static void
test_matching_dictionary_refused(void **state)
{
    struct platform *p = *state;
    struct plat_entry_set set;

    gpus();
    dbl_fail("IOServiceMatching", 1, 1);
    assert_int_equal(p->query(p->ctx, &(struct plat_query){ "IOAccelerator", 0, gpu_keys, 0 }, &set),
                     -ENOMEM);
    assert_int_equal(set.n, 0);
    assert_error_has(p, "IOServiceMatching(IOAccelerator) failed");
}

static void
test_matching_services_refused(void **state)
{
    struct platform *p = *state;
    struct plat_entry_set set;

    gpus();
    dbl_fail("IOServiceGetMatchingServices", 1, D_KERN_FAILURE);
    assert_int_equal(p->query(p->ctx, &(struct plat_query){ "IOAccelerator", 0, gpu_keys, 0 }, &set), -EIO);
    assert_int_equal(set.n, 0);
    assert_error_has(p, "IOAccelerator: IOServiceGetMatchingServices: ");
}

static void
test_path_not_in_the_registry(void **state)
{
    struct platform *p = *state;
    struct plat_entry_set set;

    gpus();                                         /* an Intel Mac: no /cpus in its device tree */
    assert_int_equal(p->query(p->ctx, &(struct plat_query){ "IODeviceTree:/cpus", 0, cpu_keys, 0 }, &set),
                     -ENOENT);
    assert_error_has(p, "IODeviceTree:/cpus: not in the IORegistry");
}

static void
test_path_without_a_child_iterator(void **state)
{
    struct platform *p = *state;
    struct plat_entry_set set;

    dbl_reg_attach(dbl_reg_entry(0x41, "cpus", NULL, "IOPlatformDevice", NULL), "IODeviceTree", DBL_REG_ROOT);
    dbl_fail("IORegistryEntryGetChildIterator", 1, D_KERN_FAILURE);
    assert_int_equal(p->query(p->ctx, &(struct plat_query){ "IODeviceTree:/cpus", 0, cpu_keys, 0 }, &set),
                     -EIO);
    assert_error_has(p, "IODeviceTree:/cpus: no child iterator: ");
}

/* Below a matched service, a refused child iterator, property or key
 * costs that part alone. */
static void
test_refusals_below_a_service_cost_their_part(void **state)
{
    struct platform *p = *state;
    struct plat_query q = { "IOBlockStorageDriver", 1, disk_keys, 0 };
    struct plat_entry_set set;

    disks();
    dbl_fail("IORegistryEntryGetChildIterator", 1, D_KERN_FAILURE);
    assert_int_equal(p->query(p->ctx, &q, &set), 0);
    assert_int_equal(set.n, 2);                     /* the first driver without its media */
    dbl_fail("IORegistryEntryCreateCFProperty", 1, 1);
    assert_int_equal(p->query(p->ctx, &q, &set), 0);
    assert_int_equal(entry_of(&set, 0x22)->nprops, 0);
    dbl_fail("CFStringCreateWithCString", 3, 1);    /* the media's first key: Size */
    assert_int_equal(p->query(p->ctx, &q, &set), 0);
    assert_int_equal(entry_of(&set, 0x23)->nprops, 1);
    assert_text(entry_of(&set, 0x23), "BSD%20Name", "disk0");
    q.keys = NULL;
    dbl_fail("IORegistryEntryCreateCFProperties", 1, D_KERN_FAILURE);
    assert_int_equal(p->query(p->ctx, &q, &set), 0);
    assert_int_equal(entry_of(&set, 0x22)->nprops, 0);
    assert_int_equal(entry_of(&set, 0x23)->nprops, 2);
}

/* An entry whose name or class IOKit does not give is recorded without it. */
static void
test_name_and_class_refused(void **state)
{
    struct platform *p = *state;
    struct plat_entry_set set;

    gpus();
    dbl_fail("IORegistryEntryGetName", 1, D_KERN_FAILURE);
    dbl_fail("IOObjectGetClass", 2, D_KERN_FAILURE);
    assert_int_equal(p->query(p->ctx, &(struct plat_query){ "IOAccelerator", 0, gpu_keys, 0 }, &set), 0);
    assert_entry(entry_of(&set, 0x10), "", "IOAccelerator", ROOT_ID);
    assert_entry(entry_of(&set, 0x11), "AGXAcceleratorG13G", "", ROOT_ID);
}

/* More entries than an answer holds (REG_MAX_ENTRIES) fail the query,
 * whether the one past the bound is a match, a descendant or an ancestor. */
static void
test_too_many_entries(void **state)
{
    struct platform *p = *state;
    struct plat_entry_set set;
    unsigned int many = service(0x100, "Many", "Many", DBL_REG_ROOT, NULL);

    for (unsigned int i = 0; i < REG_MAX_ENTRIES; i++) {
        service(0x1000 + i, "Child", "Child", many, NULL);
        service(0x2000 + i, "Lone", "Lone", DBL_REG_ROOT, NULL);
    }
    service(0x3000, "Lone", "Lone", service(0x3001, "Parent", "Parent", DBL_REG_ROOT, NULL), NULL);
    assert_int_equal(p->query(p->ctx, &(struct plat_query){ "Child", 0, NULL, 0 }, &set), 0);
    assert_int_equal(set.n, REG_MAX_ENTRIES);
    assert_int_equal(p->query(p->ctx, &(struct plat_query){ "Many", 1, NULL, 0 }, &set), -E2BIG);
    assert_int_equal(set.n, 0);
    assert_error_has(p, "Many: ");
    assert_int_equal(p->query(p->ctx, &(struct plat_query){ "Lone", 0, NULL, 1 }, &set), -E2BIG);
    assert_int_equal(p->query(p->ctx, &(struct plat_query){ "Lone", 0, NULL, 0 }, &set), -E2BIG);
}

/* So do more properties than an answer holds (REG_MAX_PROPS). */
static void
test_too_many_properties(void **state)
{
    struct platform *p = *state;
    struct plat_entry_set set;
    void *many = dbl_cf_array();

    for (unsigned int i = 0; i <= REG_MAX_PROPS; i++)
        dbl_cf_append(many, dbl_cf_number(i));
    service(0x90, "IOService", "IOService", root(), dict_of("Many", many, NULL));
    assert_int_equal(p->query(p->ctx, &(struct plat_query){ "IOService", 0, NULL, 0 }, &set), -E2BIG);
    assert_int_equal(set.n, 0);
}

/* And more bytes than an answer holds (REG_MAX_BYTES), here reached at an
 * ancestor. */
static void
test_too_many_bytes(void **state)
{
    struct platform *p = *state;
    struct plat_entry_set set;
    size_t len = REG_MAX_BYTES / 2;
    unsigned char *big = calloc(1, len);
    unsigned int parent;

    assert_non_null(big);
    parent = service(0x80, "IOBlockStorageDevice", "IOBlockStorageDevice", root(),
                     dict_of("Size", dbl_cf_data(big, len), NULL));
    service(0x81, "IOBlockStorageDriver", "IOBlockStorageDriver", parent, dict_of("Size", dbl_cf_data(big, len), NULL));
    free(big);
    assert_int_equal(p->query(p->ctx, &(struct plat_query){ "IOBlockStorageDriver", 0, disk_keys, 1 }, &set),
                     -E2BIG);
    assert_int_equal(p->query(p->ctx, &(struct plat_query){ "IOBlockStorageDevice", 0, disk_keys, 0 }, &set),
                     0);
    assert_int_equal(set.n, 1);
}

/* live_query sends a query of another source to its reader, and its
 * answer holds nothing of the registry's last one. */
static void
test_other_sources_dispatched(void **state)
{
    struct platform *p = *state;
    static const char *const smc_keys[] = { "FNum", NULL };
    struct plat_entry_set set;

    gpus();
    assert_int_equal(p->query(p->ctx, &(struct plat_query){ "IOAccelerator", 0, gpu_keys, 0 }, &set), 0);
    assert_int_equal(set.n, 2);
    assert_int_equal(p->query(p->ctx, &(struct plat_query){ "SMC:fans", 0, smc_keys, 0 }, &set), -ENOENT);
    assert_int_equal(set.n, 0);
    assert_error_has(p, "SMC: no AppleSMC service");
}

static void
disks_round(struct platform *p)
{
    static const char *const keys[] = { "Size", "Statistics.Bytes (Read)", "Missing", NULL };
    struct plat_entry_set set;

    assert_int_equal(p->query(p->ctx, &(struct plat_query){ "IOBlockStorageDriver", 2, keys, 3 }, &set), 0);
    assert_int_equal(p->query(p->ctx, &(struct plat_query){ "IOMedia", 1, NULL, 1 }, &set), 0);
    assert_int_equal(p->query(p->ctx, &(struct plat_query){ "IODeviceTree:/none", 0, NULL, 0 }, &set),
                     -ENOENT);
}

/* Every entry, iterator, property and key released, round after round. */
static void
test_registry_holds_nothing(void **state)
{
    disks();
    assert_steady(*state, disks_round, 300);
}

static void
refused_round(struct platform *p)
{
    struct plat_entry_set set;

    dbl_fail("IOServiceGetMatchingServices", 1, D_KERN_FAILURE);
    assert_int_equal(p->query(p->ctx, &(struct plat_query){ "IOBlockStorageDriver", 1, NULL, 0 }, &set),
                     -EIO);
    dbl_fail("IORegistryEntryGetChildIterator", 1, D_KERN_FAILURE);
    assert_int_equal(p->query(p->ctx, &(struct plat_query){ "IOBlockStorageDriver", 1, NULL, 2 }, &set), 0);
}

/* The matching dictionary is consumed even when IOKit refuses. */
static void
test_refusals_hold_nothing(void **state)
{
    disks();
    assert_steady(*state, refused_round, 300);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_class_and_subclass_services, live_test_setup, live_test_teardown),
        cmocka_unit_test_setup_teardown(test_an_unmatched_client_is_found_only_as_a_child, live_test_setup,
                                        live_test_teardown),
        cmocka_unit_test_setup_teardown(test_a_walk_the_registry_invalidates_starts_again, live_test_setup,
                                        live_test_teardown),
        cmocka_unit_test_setup_teardown(test_a_walk_invalidated_past_the_bound_fails, live_test_setup,
                                        live_test_teardown),
        cmocka_unit_test_setup_teardown(test_a_plane_path_walk_the_registry_invalidates_starts_again,
                                        live_test_setup, live_test_teardown),
        cmocka_unit_test_setup_teardown(test_descendants_to_the_depth, live_test_setup, live_test_teardown),
        cmocka_unit_test_setup_teardown(test_shared_ancestors_once, live_test_setup, live_test_teardown),
        cmocka_unit_test_setup_teardown(test_matched_below_a_match_once, live_test_setup, live_test_teardown),
        cmocka_unit_test_setup_teardown(test_plane_path_children, live_test_setup, live_test_teardown),
        cmocka_unit_test_setup_teardown(test_plane_path_itself, live_test_setup, live_test_teardown),
        cmocka_unit_test_setup_teardown(test_plane_path_itself_absent, live_test_setup, live_test_teardown),
        cmocka_unit_test_setup_teardown(test_dotted_keys_reach_into_dictionaries, live_test_setup, live_test_teardown),
        cmocka_unit_test_setup_teardown(test_every_property_without_keys, live_test_setup, live_test_teardown),
        cmocka_unit_test_setup_teardown(test_values_too_long_left_out, live_test_setup, live_test_teardown),
        cmocka_unit_test_setup_teardown(test_matching_dictionary_refused, live_test_setup, live_test_teardown),
        cmocka_unit_test_setup_teardown(test_matching_services_refused, live_test_setup, live_test_teardown),
        cmocka_unit_test_setup_teardown(test_path_not_in_the_registry, live_test_setup, live_test_teardown),
        cmocka_unit_test_setup_teardown(test_path_without_a_child_iterator, live_test_setup, live_test_teardown),
        cmocka_unit_test_setup_teardown(test_refusals_below_a_service_cost_their_part, live_test_setup,
                                        live_test_teardown),
        cmocka_unit_test_setup_teardown(test_name_and_class_refused, live_test_setup, live_test_teardown),
        cmocka_unit_test_setup_teardown(test_too_many_entries, live_test_setup, live_test_teardown),
        cmocka_unit_test_setup_teardown(test_too_many_properties, live_test_setup, live_test_teardown),
        cmocka_unit_test_setup_teardown(test_too_many_bytes, live_test_setup, live_test_teardown),
        cmocka_unit_test_setup_teardown(test_other_sources_dispatched, live_test_setup, live_test_teardown),
        cmocka_unit_test_setup_teardown(test_registry_holds_nothing, live_test_setup, live_test_teardown),
        cmocka_unit_test_setup_teardown(test_refusals_hold_nothing, live_test_setup, live_test_teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
