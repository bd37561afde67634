/*
 * GPU time per process from the GPU's user clients (gpu_clients_decode.h),
 * decoded from the M1's dump of all its AGXDeviceUserClient entries
 * (../shared/real-macs/gpu; its header says where it comes from) as
 * tools/ioreg-import imports it and the replay answers the query. Expected
 * values are the dump's own numbers. Without the corpus that test is
 * skipped, saying so. The cases the dump lacks (one pid with two clients,
 * a creator that is not "pid N, ...") are synthetic and say so.
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

#include "gpu_clients_decode.h"
#include "real_macs_import.h"
#include "reg_entries.h"
#include "replay.h"

#define M1_CLIENTS "gpu/m1-macbookair10-1-macos11.0.1-agx-user-clients.txt"
#define M1_ACCELERATOR "AGXAcceleratorG13G_B0"     /* the dump's AGXAccelerator */

/* The GPU client query's answer from a replay of the corpus's dump
 * relative: valid until *replay is closed. */
static struct plat_entry_set
imported(const char *relative, struct platform *replay)
{
    return real_macs_replayed(&plat_queries[PLAT_QUERY_GPU_CLIENTS], relative, M1_ACCELERATOR, replay);
}

static struct gpu_times
decoded(const struct plat_entry_set *set, struct gpu_time *room)
{
    struct gpu_times t = { .pid = room };

    gpu_clients_decode(set, &t);
    return t;
}

/* The M1's 24 clients, each its own pid ("ALL 24 of its AGXDeviceUserClient
 * children", the dump's header): the time of each API entry of a client
 * summed, an empty AppUsage and a pid without a client 0. */
static void
m1_clients_sum_per_pid(void **state)
{
    struct platform replay;
    struct plat_entry_set set = imported(M1_CLIENTS, &replay);
    struct gpu_time room[32];
    struct gpu_times t;

    (void)state;
    assert_int_equal(set.n, 1 + 24);     /* the accelerator and its clients */
    t = decoded(&set, room);
    assert_int_equal(t.n, 24);
    assert_int_equal(t.unattributed, 0);
    assert_int_equal(gpu_time_of(&t, 357), 249658696208ull + 5914750ull);     /* WindowServer, two Metal entries */
    assert_int_equal(gpu_time_of(&t, 929), 14125750ull + 172052375ull);       /* Safari */
    assert_int_equal(gpu_time_of(&t, 9083), 0ull + 224600041ull);             /* firefox: Metal, then GL/CL */
    assert_int_equal(gpu_time_of(&t, 957), 25591833ull);                      /* iconservicesagen, one of two pids */
    assert_int_equal(gpu_time_of(&t, 542), 0);                                /* iconservicesagen: 0 Metal */
    assert_int_equal(gpu_time_of(&t, 942), 0);                                /* Dock: AppUsage = () */
    assert_int_equal(gpu_time_of(&t, 1), 0);                                  /* launchd: no client */
    replay.close(replay.ctx);
}

/* Synthetic, in the dump's keys: a pid that opened two clients has their
 * sum; a client whose creator is absent or not "pid N, NAME" is counted
 * apart, its time given to nobody; the accelerator is no client. */
static void
clients_of_one_pid_add_and_unparsed_creators_stay_apart(void **state)
{
    struct plat_entry_set set;
    struct gpu_time room[8];
    struct gpu_times t;

    (void)state;
    entry_builder_reset(&b);
    entry(0x1, 0x0, "AGXAcceleratorG13G_B0", "AGXAcceleratorG13G_B0");
    entry(0x10, 0x1, "AGXDeviceUserClient", "AGXDeviceUserClient");
    number("AppUsage.0.accumulatedGPUTime", 1000);
    text("IOUserClientCreator", "pid 77, Safari");
    entry(0x11, 0x1, "AGXDeviceUserClient", "AGXDeviceUserClient");
    number("AppUsage.0.accumulatedGPUTime", 20);
    number("AppUsage.1.accumulatedGPUTime", 3);
    text("IOUserClientCreator", "pid 77, Safari");
    entry(0x12, 0x1, "AGXDeviceUserClient", "AGXDeviceUserClient");
    number("AppUsage.0.accumulatedGPUTime", 400);
    text("IOUserClientCreator", "pid x, Safari");
    entry(0x13, 0x1, "AGXDeviceUserClient", "AGXDeviceUserClient");
    number("AppUsage.0.accumulatedGPUTime", 5000);
    entry(0x14, 0x1, "AGXDeviceUserClient", "AGXDeviceUserClient");
    number("AppUsage.0.accumulatedGPUTime", 60000);
    text("IOUserClientCreator", "pid 99999999999, Safari");
    set = finish();
    t = decoded(&set, room);
    assert_int_equal(t.n, 1);
    assert_int_equal(gpu_time_of(&t, 77), 1000 + 20 + 3);
    assert_int_equal(t.unattributed, 3);
    assert_int_equal(t.unattributed_ns, 400 + 5000 + 60000);
    assert_int_equal(gpu_time_of(&t, 0), 0);
    entry_builder_free(&b);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(m1_clients_sum_per_pid),
        cmocka_unit_test(clients_of_one_pid_add_and_unparsed_creators_stay_apart),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
