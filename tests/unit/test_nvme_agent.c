/*
 * disk.nvme.* through the agent, over a replay of the M1 MacBook Air's
 * registry (../shared/real-macs whole/macbookair10-1-m1-macos11.0.1.txt:
 * its IOEmbeddedNVMeBlockDevice NS_01, "NVMe SMART Capable" = Yes, is the
 * provider of disk0's driver) with an NVMe:health record for NS_01 whose
 * page is built from what smartctl printed on the M4 Mac mini
 * (nvme/m4-macmini-macos15.6.1-stats2759-smartctl-health.txt; no public
 * dump has both, so the two Macs are joined here). Each metric must be
 * smartctl's value, on the instance the disk indom names disk0.
 * Without the corpus the test is skipped, saying so.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent_harness.h"
#include "nvme_health_decode.h"
#include "real_macs_file.h"
#include "real_macs_import.h"
#include "replay.h"
#include "smartctl_text.h"

#define M1_WHOLE "whole/macbookair10-1-m1-macos11.0.1.txt"
#define M4_HEALTH "nvme/m4-macmini-macos15.6.1-stats2759-smartctl-health.txt"
#define M1_NS_01 "0x100000503"      /* NS_01's registry id in the M1's dump */

static struct platform replay, source;
static const char *smartctl;
static const char *device_failing;  /* what the source says of a second device it could not read, or NULL */

/* The replay, saying what device_failing says: as the live source does
 * when one device's read fails while another's passes (the call succeeds). */
static const char *
source_error(void *ctx)
{
    return device_failing != NULL ? device_failing : replay.error(ctx);
}

/* The M1's disks, and NS_01's page built from what smartctl printed. */
static void
m1_disks_and_page(FILE *out, const void *arg)
{
    unsigned char page[NVME_HEALTH_LOG_BYTES];

    (void)arg;
    smartctl_page(smartctl, page);
    real_macs_import(out, &plat_queries[PLAT_QUERY_DISKS], M1_WHOLE, NULL);
    fprintf(out, "ioreg[NVMe:health#%s].class IOEmbeddedNVMeBlockDevice\nioreg[NVMe:health#%s].name NS_01\n"
                 "ioreg[NVMe:health#%s].prop.smart data ", M1_NS_01, M1_NS_01, M1_NS_01);
    for (unsigned int i = 0; i < sizeof(page); i++)
        fprintf(out, "%02x", page[i]);
    fputc('\n', out);
}

/* The replay: the M1's disks, NS_01's page, one sample. */
static int
replay_setup(void **state)
{
    (void)state;
    real_macs_file(M1_WHOLE);                   /* skip before opening anything */
    smartctl = smartctl_read(M4_HEALTH);
    replay_open(&replay, m1_disks_and_page, NULL);
    source = replay;
    source.error = source_error;
    device_failing = NULL;
    harness_source = &source;
    return harness_start();
}

static int
replay_teardown(void **state)
{
    (void)state;
    harness_stop();                 /* closes the replay too */
    return 0;
}

static void
health_of_disk0_is_what_smartctl_printed(void **state)
{
    static const struct {
        const char *metric, *label;
        int type;
        uint64_t scale;             /* the metric's units per unit smartctl counts */
    } expect[] = {
        { "disk.nvme.critical_warning", "Critical Warning", PM_TYPE_U32, 1 },
        { "disk.nvme.temperature", "Temperature", PM_TYPE_32, 1 },
        { "disk.nvme.available_spare", "Available Spare", PM_TYPE_U32, 1 },
        { "disk.nvme.spare_threshold", "Available Spare Threshold", PM_TYPE_U32, 1 },
        { "disk.nvme.percentage_used", "Percentage Used", PM_TYPE_U32, 1 },
        { "disk.nvme.data_read", "Data Units Read", PM_TYPE_U64, NVME_DATA_UNIT_BYTES },
        { "disk.nvme.data_written", "Data Units Written", PM_TYPE_U64, NVME_DATA_UNIT_BYTES },
        { "disk.nvme.power_cycles", "Power Cycles", PM_TYPE_U64, 1 },
        { "disk.nvme.power_on_hours", "Power On Hours", PM_TYPE_U64, 1 },
        { "disk.nvme.unsafe_shutdowns", "Unsafe Shutdowns", PM_TYPE_U64, 1 },
        { "disk.nvme.media_errors", "Media and Data Integrity Errors", PM_TYPE_U64, 1 },
    };

    (void)state;
    for (unsigned int i = 0; i < sizeof(expect) / sizeof(expect[0]); i++) {
        int64_t got = harness_inst_value(expect[i].metric, expect[i].type, "disk0");

        if ((uint64_t)got != smartctl_value(smartctl, expect[i].label) * expect[i].scale)
            fail_msg("%s: %lld, smartctl printed %s:%s", expect[i].metric, (long long)got, expect[i].label,
                     smartctl_after(smartctl, expect[i].label));
    }
}

/* A second device whose page could not be read is logged once when it
 * starts and once when it ends; disk0 keeps its values meanwhile. */
static void
a_device_failing_is_logged_once_it_starts_and_once_it_ends(void **state)
{
    const char *metric = "disk.nvme.percentage_used";
    int64_t used = (int64_t)smartctl_value(smartctl, "Percentage Used");

    (void)state;
    harness_log_start();
    assert_int_equal(harness_inst_value(metric, PM_TYPE_U32, "disk0"), used);
    device_failing = "NVMe NS_02: SMARTReadData: (iokit/common) I/O Timeout";
    for (int i = 0; i < 3; i++)
        assert_int_equal(harness_inst_value(metric, PM_TYPE_U32, "disk0"), used);
    device_failing = NULL;
    for (int i = 0; i < 3; i++)
        assert_int_equal(harness_inst_value(metric, PM_TYPE_U32, "disk0"), used);
    {
        unsigned int started = harness_log_lines("nvme: some metrics unavailable: NVMe NS_02: SMARTReadData"),
                     ended = harness_log_lines("nvme: all metrics available again"), all = harness_log_lines("");

        harness_log_stop();
        assert_int_equal(started, 1);
        assert_int_equal(ended, 1);
        assert_int_equal(all, 2);
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(health_of_disk0_is_what_smartctl_printed, replay_setup, replay_teardown),
        cmocka_unit_test_setup_teardown(a_device_failing_is_logged_once_it_starts_and_once_it_ends, replay_setup,
                                        replay_teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
