/*
 * The storage collectors at their edges: disks decoded from registry entries
 * as the seam returns them (escaped key paths), 2^64 byte counters, a zero
 * block size, a disk ejected mid-interval and returning, an unknown
 * protocol; filesystems that are empty, pseudo or huge; NFS structs of
 * every known layout and of none, and an absent NFS.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "agent_harness.h"
#include "metric_ids.h"
#include "nfs_parse.h"
#include "registry_decode.h"
#include "entry_set.h"
#include "xnu_layouts.h"


static struct entry_builder builder;

/* A property at the path of raw parts, escaped as the seam escapes them. */
static void
number_at(const char *a, const char *b, uint64_t v)
{
    char path[REG_PATH_MAX];
    int n = entry_path_append(path, sizeof(path), 0, a, strlen(a));

    if (b != NULL)
        n = entry_path_append(path, sizeof(path), (size_t)n, b, strlen(b));
    assert_true(n > 0);
    assert_int_equal(entry_builder_number(&builder, path, v), 0);
}

static void
string_at(const char *a, const char *b, const char *text)
{
    char path[REG_PATH_MAX];
    int n = entry_path_append(path, sizeof(path), 0, a, strlen(a));

    if (b != NULL)
        n = entry_path_append(path, sizeof(path), (size_t)n, b, strlen(b));
    assert_int_equal(entry_builder_string(&builder, path, text), 0);
}

/* One whole disk: device (id base) > driver (base+1) > media (base+2);
 * times (ns read, ns written) are the driver's "Total Time" when given. */
static void
add_disk_timed(uint64_t base, const char *bsd, const char *interconnect, const char *location, uint64_t reads,
               uint64_t bytes_read, uint64_t bytes_written, uint64_t block_size, const uint64_t *times)
{
    assert_int_equal(entry_builder_entry(&builder, base, 0, "device", "IOBlockStorageServices"), 0);
    if (interconnect != NULL) {
        string_at("Protocol Characteristics", "Physical Interconnect", interconnect);
        string_at("Protocol Characteristics", "Physical Interconnect Location", location);
    }
    assert_int_equal(entry_builder_entry(&builder, base + 1, base, "IOBlockStorageDriver", "IOBlockStorageDriver"), 0);
    number_at("Statistics", "Operations (Read)", reads);
    number_at("Statistics", "Operations (Write)", reads / 2);
    number_at("Statistics", "Bytes (Read)", bytes_read);
    number_at("Statistics", "Bytes (Write)", bytes_written);
    if (times != NULL) {
        number_at("Statistics", "Total Time (Read)", times[0]);
        number_at("Statistics", "Total Time (Write)", times[1]);
    }
    assert_int_equal(entry_builder_entry(&builder, base + 2, base + 1, "Media", "IOMedia"), 0);
    string_at("BSD Name", NULL, bsd);
    assert_int_equal(entry_builder_bool(&builder, "Whole", 1), 0);
    number_at("Preferred Block Size", NULL, block_size);
}

static void
add_disk(uint64_t base, const char *bsd, const char *interconnect, const char *location, uint64_t reads,
         uint64_t bytes_read, uint64_t bytes_written, uint64_t block_size)
{
    add_disk_timed(base, bsd, interconnect, location, reads, bytes_read, bytes_written, block_size, NULL);
}

static void
publish_disks(void)
{
    entry_builder_finish(&builder, &fake.reg[PLAT_QUERY_DISKS]);
}

static void
disks_are_decoded_from_escaped_registry_paths(void **state)
{
    struct reg_disk d[4];
    unsigned int n;

    (void)state;
    entry_builder_reset(&builder);
    add_disk(0x100, "disk4", "USB", "External", 10, 4096, 0, 512);
    assert_int_equal(entry_builder_entry(&builder, 0x200, 0x102, "disk4s1", "IOMedia"), 0);  /* a partition */
    string_at("BSD Name", NULL, "disk4s1");
    entry_builder_finish(&builder, &fake.reg[PLAT_QUERY_DISKS]);
    assert_int_equal(reg_disks(&fake.reg[PLAT_QUERY_DISKS], d, 4, &n), 0);
    assert_int_equal(n, 1);                     /* the partition has no driver above it */
    assert_string_equal(d[0].name, "disk4");
    assert_int_equal(d[0].stat[REG_DISK_READS], 10);
    assert_int_equal(d[0].block_size, 512);
    assert_string_equal(d[0].interconnect, "USB");
    assert_string_equal(d[0].location, "External");
    assert_string_equal(d[0].medium, "");      /* not given: unknown, not invented */
}

static void
byte_counters_near_2_64_sum_without_wrapping(void **state)
{
    (void)state;
    entry_builder_reset(&builder);
    add_disk(0x100, "disk0", "Apple Fabric", "Internal", 100, UINT64_MAX, UINT64_MAX, 4096);
    publish_disks();
    /* disk.dev.total_bytes: floor((2 * (2^64 - 1)) / 1024) = 2^55 - 1 */
    assert_int_equal(harness_inst_value("disk.dev.total_bytes", PM_TYPE_U64, "disk0"), (1LL << 55) - 1);
    assert_int_equal(harness_inst_value("disk.dev.read_bytes", PM_TYPE_U64, "disk0"), (1LL << 54) - 1);
}

static void
a_zero_block_size_gives_no_block_counts(void **state)
{
    (void)state;
    entry_builder_reset(&builder);
    add_disk(0x100, "disk0", "SATA", "Internal", 100, 8192, 4096, 0);
    publish_disks();
    assert_int_equal(harness_inst_value("disk.dev.blkread", PM_TYPE_U64, "disk0"), -1);
    assert_int_equal(harness_inst_value("disk.dev.read_bytes", PM_TYPE_U64, "disk0"), 8);   /* KiB read */
}

/* What pcp iostat reads under Linux's names: the time requests took in
 * milliseconds (the driver's "Total Time", ns), busy time as their sum,
 * and no merged requests. A disk whose driver gives no times has none. */
static void
iostat_names_are_the_drivers_times_in_ms(void **state)
{
    (void)state;
    entry_builder_reset(&builder);
    add_disk_timed(0x100, "disk0", "Apple Fabric", "Internal", 100, 4096, 4096, 4096,
                   (const uint64_t[]){ 7000000000ull + 999999, 2500000000ull });      /* 7000.999999 ms */
    add_disk(0x200, "disk4", "USB", "External", 10, 512, 0, 512);           /* no times */
    publish_disks();
    assert_int_equal(harness_inst_value("disk.dev.read_rawactive", PM_TYPE_U64, "disk0"), 7000);
    assert_int_equal(harness_inst_value("disk.dev.write_rawactive", PM_TYPE_U64, "disk0"), 2500);
    assert_int_equal(harness_inst_value("disk.dev.avactive", PM_TYPE_U64, "disk0"), 9500);
    assert_int_equal(harness_inst_value("disk.dev.read_merge", PM_TYPE_U64, "disk0"), 0);
    assert_int_equal(harness_inst_value("disk.dev.write_merge", PM_TYPE_U64, "disk4"), 0);
    assert_int_equal(harness_inst_value("disk.dev.avactive", PM_TYPE_U64, "disk4"), -1);
}

static void
ejection_mid_interval_never_takes_disk_all_back(void **state)
{
    int id4;

    (void)state;
    entry_builder_reset(&builder);
    add_disk(0x100, "disk0", "Apple Fabric", "Internal", 1000, 0, 0, 4096);
    add_disk(0x200, "disk4", "USB", "External", 500, 0, 0, 512);
    publish_disks();
    assert_int_equal(harness_u64("disk.all.read"), 1500);
    id4 = harness_inst(INDOM_DISK, "disk4");
    assert_true(id4 >= 0);
    entry_builder_reset(&builder);                                 /* disk4 ejected; disk0 did 10 more */
    add_disk(0x100, "disk0", "Apple Fabric", "Internal", 1010, 0, 0, 4096);
    publish_disks();
    assert_int_equal(harness_u64("disk.all.read"), 1510);
    assert_int_equal(harness_u32("hinv.ndisk"), 1);
    entry_builder_reset(&builder);                                 /* it returns, its counters restarted */
    add_disk(0x100, "disk0", "Apple Fabric", "Internal", 1020, 0, 0, 4096);
    add_disk(0x300, "disk4", "USB", "External", 3, 0, 0, 512);
    publish_disks();
    assert_int_equal(harness_u64("disk.all.read"), 1520);   /* adds only what disk4 does from now */
    assert_int_equal(harness_inst(INDOM_DISK, "disk4"), id4);
}

static void
an_unknown_protocol_is_labelled_as_macos_names_it(void **state)
{
    pmLabelSet *sets = NULL, *one;
    char buf[PM_MAXLABELJSONLEN];
    int n;

    (void)state;
    entry_builder_reset(&builder);
    add_disk(0x100, "disk2", "Secure \"Digital\"", "Internal", 1, 0, 0, 512);
    publish_disks();
    assert_int_equal(harness_u32("hinv.ndisk"), 1);
    n = harness_dp.version.seven.label((int)pmInDom_build(78, INDOM_DISK), PM_LABEL_INSTANCES, &sets,
                                       harness_ext());
    assert_int_equal(n, 1);
    one = &sets[0];
    pmMergeLabelSets(&one, 1, buf, sizeof(buf), NULL, NULL);
    /* passed through as macOS names it, minus what JSON would need escaped */
    assert_string_equal(buf, "{\"location\":\"internal\",\"medium\":\"unknown\",\"protocol\":\"Secure Digital\","
                             "\"removable\":null}");
    pmFreeLabelSets(sets, n);
}

static struct plat_mount *
add_mount(const char *on, const char *from, const char *fstype, uint32_t bsize, uint64_t blocks, uint64_t bfree,
          uint64_t bavail)
{
    struct plat_mount *m = &fake.mount[fake.nmount++];

    memset(m, 0, sizeof(*m));
    snprintf(m->on, sizeof(m->on), "%s", on);
    snprintf(m->from, sizeof(m->from), "%s", from);
    snprintf(m->fstype, sizeof(m->fstype), "%s", fstype);
    m->bsize = bsize;
    m->blocks = blocks;
    m->bfree = bfree;
    m->bavail = bavail;
    return m;
}

static void
filesystems_at_their_edges(void **state)
{
    pmAtomValue v[8];
    int inst[8], n;
    struct plat_mount *big;

    (void)state;
    add_mount("/dev", "devfs", "devfs", 512, 470, 0, 0);
    add_mount("/System/Volumes/Data/home", "map auto_home", "autofs", 4096, 0, 0, 0);
    add_mount("/Volumes/Empty", "/dev/disk9s1", "msdos", 0, 0, 0, 0);
    big = add_mount("/Volumes/Huge", "/dev/disk8s1", "apfs", 4096, 1ULL << 62, 1ULL << 61, 1ULL << 61);
    big->files = 1ULL << 40;
    big->ffree = (1ULL << 40) - 5000000000ULL;
    add_mount("/Volumes/Huge", "/dev/disk7s1", "apfs", 4096, 10, 5, 5);     /* mounted over: the first stands */
    assert_int_equal(harness_u32("hinv.nfilesys"), 2);                      /* not devfs, not autofs */
    n = harness_fetch("filesys.full", PM_TYPE_DOUBLE, v, 8, inst);
    assert_int_equal(n, 1);                                                  /* none for the empty one */
    assert_int_equal(inst[0], harness_inst(INDOM_FILESYS, "/Volumes/Huge"));
    assert_true(v[0].d > 49.99 && v[0].d < 50.01);
    assert_int_equal(harness_inst_value("filesys.capacity", PM_TYPE_U64, "/Volumes/Huge"),
                     -1);   /* capacity 2^64 KiB saturates at UINT64_MAX, read back as -1 */
    assert_int_equal(harness_inst_value("filesys.usedfiles", PM_TYPE_U64, "/Volumes/Huge"),
                     5000000000LL);  /* usedfiles past 2^32 */
}

/* A second volume called Untitled mounts at "/Volumes/Untitled 1", which
 * PCP cannot tell from "/Volumes/Untitled" (instance names differ past
 * their first space): it has no instance, every other mount keeps its
 * values, and the log says so once. */
static void
a_mount_point_equal_to_another_up_to_a_space_is_left_out(void **state)
{
    (void)state;
    add_mount("/Volumes/Untitled", "/dev/disk4s1", "apfs", 4096, 1000, 500, 500);
    add_mount("/Volumes/Untitled 1", "/dev/disk5s1", "apfs", 4096, 1000, 100, 100);
    add_mount("/Volumes/Macintosh HD", "/dev/disk6s1", "apfs", 4096, 1000, 900, 900);
    harness_log_start();
    for (int round = 0; round < 3; round++)
        assert_int_equal(harness_u32("hinv.nfilesys"), 2);
    assert_true(harness_inst(INDOM_FILESYS, "/Volumes/Untitled") >= 0);
    assert_int_equal(harness_inst(INDOM_FILESYS, "/Volumes/Untitled 1"), -1);
    assert_true(harness_inst(INDOM_FILESYS, "/Volumes/Macintosh HD") >= 0);
    assert_int_equal(harness_log_lines("up to a space"), 1);
    harness_log_stop();
}

/* Fill an XNU-declared struct nfsclntstats by field name, decode it by its
 * size, and check that each field lands where it belongs. */
#define CHECK_CLIENT_LAYOUT(type, size)                                         \
    do {                                                                        \
        struct type x;                                                          \
        memset(&x, 0, sizeof(x));                                               \
        x.attrcache_hits = 1;                                                   \
        x.readdir_bios = 2;                                                     \
        x.rpccntv3[0] = 3;                                                      \
        x.rpccntv3[XNU_NFS_NPROCS - 1] = 4;                                     \
        x.rpcretries = 5;                                                       \
        x.rpcrequests = 6;                                                      \
        x.pageouts = 7;                                                         \
        assert_int_equal(sizeof(x), size);                                      \
        assert_int_equal(nfs_parse_client(&x, sizeof(x), &c), 0);               \
        assert_int_equal(c.attrcache_hits, 1);                                  \
        assert_int_equal(c.readdir_bios, 2);                                    \
        assert_int_equal(c.rpccnt[0], 3);                                       \
        assert_int_equal(c.rpccnt[PLAT_NFS_NPROCS - 1], 4);                     \
        assert_int_equal(c.rpcretries, 5);                                      \
        assert_int_equal(c.rpcrequests, 6);                                     \
        assert_int_equal(c.pageouts, 7);                                        \
    } while (0)

#define CHECK_SERVER_LAYOUT(type, size)                                         \
    do {                                                                        \
        struct type x;                                                          \
        memset(&x, 0, sizeof(x));                                               \
        x.srvrpccntv3[3] = 1;                                                   \
        x.srvrpc_errs = 23;                                                     \
        x.srvvop_writes = 29;                                                   \
        assert_int_equal(sizeof(x), size);                                      \
        assert_int_equal(nfs_parse_server(&x, sizeof(x), &s), 0);               \
        assert_int_equal(s.rpccnt[3], 1);                                       \
        assert_int_equal(s.rpc_errs, 23);                                       \
        assert_int_equal(s.vop_writes, 29);                                     \
    } while (0)

static void
nfs_layouts_are_known_by_size(void **state)
{
    unsigned char other[1000] = { 0 };
    struct plat_nfs_client c;
    struct plat_nfs_server s;

    (void)state;
    CHECK_CLIENT_LAYOUT(xnu_nfsclntstats_8019, NFSCLNTSTATS_SIZE_12);
    CHECK_CLIENT_LAYOUT(xnu_nfsclntstats_10002, NFSCLNTSTATS_SIZE_14);
    CHECK_CLIENT_LAYOUT(xnu_nfsclntstats_11215, NFSCLNTSTATS_SIZE_15_0);
    CHECK_CLIENT_LAYOUT(xnu_nfsclntstats_11417, NFSCLNTSTATS_SIZE_15_4);
    assert_int_equal(nfs_parse_client(other, sizeof(other), &c), -ENOTSUP);
    CHECK_SERVER_LAYOUT(xnu_nfsrvstats_8019, NFSRVSTATS_SIZE_12);
    CHECK_SERVER_LAYOUT(xnu_nfsrvstats_11215, NFSRVSTATS_SIZE_15);
    assert_int_equal(nfs_parse_server(other, 100, &s), -ENOTSUP);
}

static void
an_absent_nfs_is_not_supported_and_cache_hits_are_nfsstats(void **state)
{
    pmAtomValue v[1];

    (void)state;
    fake.nfs.client.biocache_reads = 1000;
    fake.nfs.client.read_bios = 150;
    fake.nfs.server_status = 0;                 /* readable, but no nfsd and nothing served */
    assert_int_equal(harness_u64("rpc.client.biocache.read.hits"), 850);
    assert_int_equal(harness_u64("rpc.client.biocache.read.misses"), 150);
    assert_int_equal(harness_fetch("rpc.server.retfailed", PM_TYPE_U64, v, 1, NULL), PM_ERR_APPVERSION);
    fake.nfs.server.rpccnt[3] = 1;             /* it has served: now its counters are real */
    assert_int_equal(harness_u64("nfs3.server.calls"), 1);
    fake.nfs.client_status = -ENOENT;          /* the client never loaded: not supported, not 0 */
    assert_int_equal(harness_fetch("rpc.client.rpccnt", PM_TYPE_U64, v, 1, NULL), PM_ERR_APPVERSION);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        HARNESS_TEST(disks_are_decoded_from_escaped_registry_paths),
        HARNESS_TEST(byte_counters_near_2_64_sum_without_wrapping),
        HARNESS_TEST(a_zero_block_size_gives_no_block_counts),
        HARNESS_TEST(iostat_names_are_the_drivers_times_in_ms),
        HARNESS_TEST(ejection_mid_interval_never_takes_disk_all_back),
        HARNESS_TEST(an_unknown_protocol_is_labelled_as_macos_names_it),
        HARNESS_TEST(filesystems_at_their_edges),
        HARNESS_TEST(a_mount_point_equal_to_another_up_to_a_space_is_left_out),
        HARNESS_TEST(nfs_layouts_are_known_by_size),
        HARNESS_TEST(an_absent_nfs_is_not_supported_and_cache_hits_are_nfsstats),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);

    entry_builder_free(&builder);
    return failed;
}
