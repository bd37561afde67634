/*
 * nvme_health.c on the double: the NVMe SMART / Health page of each
 * NVMe SMART capable block device, each read in one session of IOKit's
 * plug-in in a thread of its own (made, read, released, destroyed: no
 * plug-in is left open, which would block smartctl, netdata 23443), a
 * plug-in that cannot be made (smartmontools 128) or a read that times
 * out (netdata 23443) failing with why, a read that does not return
 * never holding a query, and the reads' rate. The device's properties are
 * the M1's (shared/real-macs whole/macbookair10-1-m1-macos11.0.1.txt:
 * NS_01, IOEmbeddedNVMeBlockDevice, "IOCFPlugInTypes" and "NVMe SMART
 * Capable" = Yes); its page is synthetic (each byte its offset's low
 * byte): a read hands it over as it is.
 */
#include "harness.h"
#include "nvme_health_decode.h"

#include <errno.h>
#include <string.h>

#define NS_01_ID 0x100000503ull             /* the M1's NS_01 */
#define USB_DISK_ID 0x100000900ull          /* synthetic: a block device that is not NVMe */
#define SMART_PLUGIN_TYPE "AA0FA6F9-C2D6-457F-B10B-59A13253292F"

static const struct plat_query *const health = &plat_queries[PLAT_QUERY_NVME_HEALTH];

static void
block_device(uint64_t id, const char *name, const char *class_name, int smart_capable)
{
    void *props = dbl_cf_dict();
    unsigned int e;

    if (smart_capable) {
        void *types = dbl_cf_dict();

        dbl_cf_put(types, SMART_PLUGIN_TYPE, dbl_cf_string("NVMeSMARTLib.plugin"));
        dbl_cf_put(props, "IOCFPlugInTypes", types);
        dbl_cf_put(props, "NVMe SMART Capable", dbl_cf_bool(1));
    }
    e = dbl_reg_entry(id, name, "1", class_name, props);
    dbl_reg_superclass(e, "IOBlockStorageDevice");
    dbl_reg_attach(e, "IOService", DBL_REG_ROOT);
}

static void
m1_page(unsigned char *page)
{
    for (unsigned int i = 0; i < NVME_HEALTH_LOG_BYTES; i++)
        page[i] = (unsigned char)i;
    block_device(NS_01_ID, "NS_01", "IOEmbeddedNVMeBlockDevice", 1);
    dbl_nvme_page(NS_01_ID, page);
}

/* The query after the round it starts has finished. */
static int
read_round(struct platform *p, struct plat_entry_set *set)
{
    int first = p->query(p->ctx, health, set);

    assert_int_equal(first, -D_EAGAIN);         /* the first read runs in its thread */
    dbl_threads_wait();
    return p->query(p->ctx, health, set);
}

static unsigned int
sessions_made(void)
{
    unsigned int made;

    assert_int_equal(dbl_nvme_sessions(&made), 0);     /* every plug-in destroyed */
    return made;
}

static void
test_page_read_in_one_session(void **state)
{
    struct platform *p = *state;
    unsigned char page[NVME_HEALTH_LOG_BYTES];
    struct plat_entry_set set;

    m1_page(page);
    block_device(USB_DISK_ID, "IOSCSIPeripheralDeviceType00", "IOSCSIPeripheralDeviceType00", 0);
    assert_int_equal(read_round(p, &set), 0);
    assert_int_equal(set.n, 1);
    assert_int_equal(set.entry[0].id, NS_01_ID);
    assert_string_equal(set.entry[0].name, "NS_01");
    assert_string_equal(set.entry[0].class_name, "IOEmbeddedNVMeBlockDevice");
    assert_int_equal(set.entry[0].nprops, 1);
    assert_string_equal(set.entry[0].prop[0].path, "smart");
    assert_int_equal(set.entry[0].prop[0].len, NVME_HEALTH_LOG_BYTES);
    assert_memory_equal(set.entry[0].prop[0].data, page, NVME_HEALTH_LOG_BYTES);
    assert_int_equal(sessions_made(), 1);       /* the capable device only */
}

/* Read again only after PLAT_NVME_INTERVAL_NS; between, the last page. */
static void
test_read_once_per_interval(void **state)
{
    struct platform *p = *state;
    unsigned char page[NVME_HEALTH_LOG_BYTES];
    struct plat_entry_set set;

    m1_page(page);
    assert_int_equal(read_round(p, &set), 0);
    dbl_clock_advance(PLAT_NVME_INTERVAL_NS - 1);
    assert_int_equal(p->query(p->ctx, health, &set), 0);
    dbl_threads_wait();
    assert_int_equal(sessions_made(), 1);
    dbl_clock_advance(1);
    assert_int_equal(p->query(p->ctx, health, &set), 0);   /* the last page, while the next is read */
    dbl_threads_wait();
    assert_int_equal(sessions_made(), 2);
}

/* The first round fails with expect, saying why; made plug-ins were made, and destroyed. */
static void
round_fails(struct platform *p, int expect, const char *why, unsigned int made)
{
    struct plat_entry_set set;

    assert_int_equal(read_round(p, &set), expect);
    assert_error_has(p, why);
    assert_int_equal(sessions_made(), made);
}

/* smartctl 7.2 on macOS 12.2: "IOCreatePlugInInterfaceForService failed". */
static void
test_plugin_refused(void **state)
{
    unsigned char page[NVME_HEALTH_LOG_BYTES];

    m1_page(page);
    dbl_nvme_create_fails(NS_01_ID, D_IO_UNSUPPORTED);
    round_fails(*state, -D_ENOTSUP, "NVMe NS_01: IOCreatePlugInInterfaceForService", 0);
}

/* The M1 Max of netdata 23443: the read times out (errno 60); the plug-in
 * is destroyed all the same. */
static void
test_read_times_out(void **state)
{
    unsigned char page[NVME_HEALTH_LOG_BYTES];

    m1_page(page);
    dbl_nvme_read_fails(NS_01_ID, D_IO_TIMEOUT);
    round_fails(*state, -D_ETIMEDOUT, "NVMe NS_01: SMARTReadData", 1);
}

/* A read that does not return holds no query, starts no second read, and
 * its device's last page goes once it is older than PLAT_NVME_STALE_NS. */
static void
test_held_read_never_holds_a_query(void **state)
{
    struct platform *p = *state;
    unsigned char page[NVME_HEALTH_LOG_BYTES];
    struct plat_entry_set set;
    unsigned int made;

    m1_page(page);
    assert_int_equal(read_round(p, &set), 0);
    dbl_nvme_hold_reads(1);
    dbl_clock_advance(PLAT_NVME_INTERVAL_NS);
    assert_int_equal(p->query(p->ctx, health, &set), 0);   /* starts the held read, answers the last page */
    dbl_nvme_wait_held();
    dbl_clock_advance(PLAT_NVME_INTERVAL_NS);
    assert_int_equal(p->query(p->ctx, health, &set), 0);   /* the page is as old as PLAT_NVME_STALE_NS */
    dbl_clock_advance(1);
    assert_int_equal(p->query(p->ctx, health, &set), -D_ETIMEDOUT);
    assert_error_has(p, "has not returned");
    assert_int_equal(dbl_nvme_sessions(&made), 1);         /* the held one; no second read began */
    assert_int_equal(made, 2);
    dbl_nvme_hold_reads(0);
    dbl_threads_wait();
    assert_int_equal(p->query(p->ctx, health, &set), 0);   /* the held read's page; the next read is due */
    assert_memory_equal(set.entry[0].prop[0].data, page, NVME_HEALTH_LOG_BYTES);
    dbl_threads_wait();
    assert_int_equal(sessions_made(), 3);
}

static void
test_no_capable_device(void **state)
{
    struct platform *p = *state;
    struct plat_entry_set set;

    block_device(USB_DISK_ID, "IOSCSIPeripheralDeviceType00", "IOSCSIPeripheralDeviceType00", 0);
    assert_int_equal(p->query(p->ctx, health, &set), -ENOENT);
    assert_error_has(p, "NVMe SMART capable");
    assert_int_equal(sessions_made(), 0);
}

static void
nvme_round(struct platform *p)
{
    struct plat_entry_set set;

    assert_int_equal(p->query(p->ctx, health, &set), 0);
    dbl_threads_wait();
    dbl_clock_advance(PLAT_NVME_INTERVAL_NS);
}

static void
test_nvme_holds_nothing(void **state)
{
    struct platform *p = *state;
    unsigned char page[NVME_HEALTH_LOG_BYTES];
    struct plat_entry_set set;

    m1_page(page);
    assert_int_equal(read_round(p, &set), 0);
    dbl_clock_advance(PLAT_NVME_INTERVAL_NS);
    assert_steady(p, nvme_round, 20);
    assert_int_equal(sessions_made(), 22);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_page_read_in_one_session, live_test_setup, live_test_teardown),
        cmocka_unit_test_setup_teardown(test_read_once_per_interval, live_test_setup, live_test_teardown),
        cmocka_unit_test_setup_teardown(test_plugin_refused, live_test_setup, live_test_teardown),
        cmocka_unit_test_setup_teardown(test_read_times_out, live_test_setup, live_test_teardown),
        cmocka_unit_test_setup_teardown(test_held_read_never_holds_a_query, live_test_setup, live_test_teardown),
        cmocka_unit_test_setup_teardown(test_no_capable_device, live_test_setup, live_test_teardown),
        cmocka_unit_test_setup_teardown(test_nvme_holds_nothing, live_test_setup, live_test_teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
