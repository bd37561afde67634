/*
 * Collector values through the agent: conversions with real page sizes and
 * clock rates, 64-bit counters, the 32-bit tick wrap, per-part failures,
 * and CPU instance churn.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "agent_harness.h"

static void
memory_in_kilobytes_at_16k_pages(void **state)
{
    (void)state;
    assert_int_equal(harness_u64("mem.freemem"), 1000 * 16);
    assert_int_equal(harness_u64("mem.active"), 2000 * 16);
    assert_int_equal(harness_u64("mem.util.used"), (400 + 2000 + 3000 + 50) * 16);
    assert_int_equal(harness_u64("mem.util.compressed"), 50 * 16);
    assert_int_equal(harness_u64("mem.physmem"), 16ULL << 20);  /* KB */
    assert_int_equal(harness_u32("hinv.physmem"), 16384);       /* MB */
    assert_int_equal(harness_u64("swap.length"), 2ULL << 20);   /* KB */
    assert_int_equal(harness_u64("swap.free"), 3ULL << 19);
    assert_int_equal(harness_u32("mem.pages.freemem"), 1000);
}

static void
major_compactions_has_no_macos_source(void **state)
{
    pmAtomValue v[1];

    (void)state;
    fake.memory.compressor[PLAT_COMP_LZ4_COMPRESSIONS] = 77;
    assert_int_equal(harness_u64("mem.compressor.lz4_compressions"), 77);   /* every compressor sysctl answers */
    assert_int_equal(harness_fetch("mem.compressor.major_compactions", PM_TYPE_U64, v, 1, NULL), PM_ERR_APPVERSION);
}

static void
memory_at_4k_pages(void **state)
{
    (void)state;
    harness_stop();
    fake_platform_init(&fake);
    fake.host.page_size = 4096;
    assert_int_equal(harness_start(), 0);
    assert_int_equal(harness_u64("mem.freemem"), 1000 * 4);
    assert_int_equal(harness_u64("hinv.pagesize"), 4096);
}

static void
vm_counters_are_full_64_bit(void **state)
{
    (void)state;
    fake.memory.vm.faults = (1ULL << 40) + 3;
    fake.memory.vm.reactivations = UINT64_MAX - 1;
    fake.memory.vm.swapins = 77;
    fake.memory.vm.pageins = 99;
    assert_int_equal(harness_u64("mem.pages.faults"), (1ULL << 40) + 3);
    assert_int_equal(harness_u64("mem.pages.reactivated"), UINT64_MAX - 1);
    assert_int_equal(harness_u64("swap.pagesin"), 77);  /* true swap-ins */
    assert_int_equal(harness_u64("mem.pageins"), 99);   /* pager */
}

static void
one_failing_part_fails_only_its_metrics(void **state)
{
    pmAtomValue v[1];

    (void)state;
    fake.memory.swap_status = -ENOENT;
    fake.memory.compressor_status[PLAT_COMP_THRASHING_DETECTED] = -ENOENT;
    fake.memory.compressor[PLAT_COMP_LZ4_COMPRESSIONS] = 321;
    fake.memory.compressor[PLAT_COMP_SWAPOUTS_UNDER_300S] = 654;
    assert_int_equal(harness_fetch("swap.used", PM_TYPE_U64, v, 1, NULL), PM_ERR_APPVERSION);
    assert_int_equal(harness_fetch("mem.compressor.thrashing_detected", PM_TYPE_U64, v, 1, NULL), PM_ERR_APPVERSION);
    assert_int_equal(harness_u64("mem.compressor.lz4_compressions"), 321);
    assert_int_equal(harness_u64("mem.compressor.swapouts_under_300s"), 654);
    assert_int_equal(harness_u64("mem.freemem"), 16000);
    fake.memory.vm_status = -EIO;
    assert_int_equal(harness_fetch("mem.freemem", PM_TYPE_U64, v, 1, NULL), PM_ERR_AGAIN);
    assert_int_equal(harness_u64("mem.physmem"), 16ULL << 20);  /* from the host facts */
}

static void
cpu_ticks_to_msec_and_across_the_wrap(void **state)
{
    (void)state;
    assert_int_equal(harness_u64("kernel.all.cpu.user"), 123450);   /* 12345 ticks at 100 Hz */
    assert_int_equal(harness_u64("kernel.all.cpu.nice"), 70);
    fake.total.user = 1u << 31;                     /* read at least once per 2^31 ticks */
    assert_int_equal(harness_u64("kernel.all.cpu.user"), (1ULL << 31) * 10);
    fake.total.user = UINT32_MAX - 9;
    assert_int_equal(harness_u64("kernel.all.cpu.user"), ((uint64_t)UINT32_MAX - 9) * 10);
    fake.total.user = 20;                           /* the kernel's counter wrapped */
    assert_int_equal(harness_u64("kernel.all.cpu.user"), ((uint64_t)UINT32_MAX + 21) * 10);
}

static void
cpu_msec_at_another_clock_rate(void **state)
{
    (void)state;
    harness_stop();
    fake_platform_init(&fake);
    fake.host.clock_hz = 1000;
    assert_int_equal(harness_start(), 0);
    assert_int_equal(harness_u64("kernel.all.cpu.user"), 12345);
    assert_int_equal(harness_u32("kernel.all.hz"), 1000);
}

static int
percpu_user(pmAtomValue *v, int *insts, int max)
{
    return harness_fetch("kernel.percpu.cpu.user", PM_TYPE_U64, v, max, insts);
}

static void
cpu_instances_survive_churn(void **state)
{
    pmAtomValue v[8];
    int inst[8], before[4], cpu2_values = 0;

    (void)state;
    fake.cpu[2].ticks.user = 5;
    assert_int_equal(percpu_user(v, inst, 8), 4);
    for (int i = 0; i < 4; i++) {
        char name[8];

        snprintf(name, sizeof(name), "cpu%d", i);
        assert_true((before[i] = harness_inst(3, name)) >= 0);
    }
    for (int i = 0; i < 4; i++)
        if (inst[i] == before[2]) {
            assert_int_equal(v[i].ull, 50);
            cpu2_values++;
        }
    assert_int_equal(cpu2_values, 1);
    assert_int_equal(harness_u32("hinv.ncpu"), 4);

    fake.cpu[2] = fake.cpu[3];                      /* cpu2 goes away */
    fake.ncpu = 3;
    assert_int_equal(percpu_user(v, inst, 8), 3);
    assert_int_equal(harness_inst(3, "cpu0"), before[0]);
    assert_int_equal(harness_inst(3, "cpu1"), before[1]);
    assert_int_equal(harness_inst(3, "cpu2"), -1);
    assert_int_equal(harness_inst(3, "cpu3"), before[3]);
    for (int i = 0; i < 3; i++)
        assert_int_not_equal(inst[i], before[2]);  /* no value for the absent CPU */
    assert_int_equal(harness_u32("hinv.ncpu"), 3);

    fake_platform_cpu(&fake, 3, "cpu2", "P");       /* cpu2 returns, listed last */
    fake_platform_cpu(&fake, 4, "cpu9", "P");       /* and a new one appears */
    fake.ncpu = 5;
    assert_int_equal(percpu_user(v, inst, 8), 5);
    assert_int_equal(harness_inst(3, "cpu2"), before[2]);   /* its old id back */
    assert_true(harness_inst(3, "cpu9") >= 0);
    for (int i = 0; i < 4; i++)
        assert_int_not_equal(harness_inst(3, "cpu9"), before[i]);
}

static void
no_cpus_and_very_many_cpus(void **state)
{
    static pmAtomValue v[FAKE_MAX_CPUS];
    static int inst[FAKE_MAX_CPUS];

    (void)state;
    fake.ncpu = 0;
    assert_int_equal(percpu_user(v, inst, FAKE_MAX_CPUS), 0);
    assert_int_equal(harness_u32("hinv.ncpu"), 0);
    fake.ncpu = 1024;
    for (unsigned int i = 0; i < fake.ncpu; i++) {
        char name[16];

        snprintf(name, sizeof(name), "cpu%u", i);
        fake_platform_cpu(&fake, i, name, NULL);
        fake.cpu[i].ticks.user = i;
    }
    assert_int_equal(percpu_user(v, inst, FAKE_MAX_CPUS), 1024);
    assert_int_equal(v[1023].ull, 10230);
    assert_int_equal(harness_u32("hinv.ncpu"), 1024);
}

static void
perflevel_labels_on_cpu_instances(void **state)
{
    pmLabelSet *sets = NULL;
    pmAtomValue v[4];
    int inst[4], n;
    char buf[256];

    (void)state;
    assert_int_equal(percpu_user(v, inst, 4), 4);
    n = harness_dp.version.seven.label((int)pmInDom_build(78, 3), PM_LABEL_INSTANCES, &sets, harness_ext());
    assert_int_equal(n, 4);
    for (int i = 0; i < n; i++) {
        pmLabelSet *one = &sets[i];

        buf[0] = '\0';
        if (one->nlabels > 0)
            pmMergeLabelSets(&one, 1, buf, sizeof(buf), NULL, NULL);
        if ((int)one->inst == inst[0] || (int)one->inst == inst[1])
            assert_string_equal(buf, "{\"perflevel\":\"efficiency\",\"perflevel_index\":1}");
        else
            assert_string_equal(buf, "{\"perflevel\":\"performance\",\"perflevel_index\":0}");
    }
    pmFreeLabelSets(sets, n);
}

static void
load_uname_and_uptime(void **state)
{
    pmAtomValue v[3];
    int inst[3];

    (void)state;
    assert_int_equal(harness_fetch("kernel.all.load", PM_TYPE_FLOAT, v, 3, inst), 3);
    for (int i = 0; i < 3; i++) {
        if (inst[i] == 1)
            assert_float_equal(v[i].f, 2.5, 1e-6);
        else if (inst[i] == 5)
            assert_float_equal(v[i].f, 2.0, 1e-6);
        else
            assert_float_equal(v[i].f, 1.0, 1e-6);
    }
    assert_int_equal(harness_fetch("kernel.uname.distro", PM_TYPE_STRING, v, 1, NULL), 1);
    assert_string_equal(v[0].cp, "macOS 14.5");
    assert_int_equal(harness_fetch("pmda.uname", PM_TYPE_STRING, v, 1, NULL), 1);
    assert_string_equal(v[0].cp, "Darwin test.local 23.5.0 Darwin Kernel Version 23.5.0 arm64");
    fake.uname.product_status = -ENOENT;
    assert_int_equal(harness_fetch("kernel.uname.distro", PM_TYPE_STRING, v, 1, NULL), PM_ERR_APPVERSION);
    assert_int_equal(harness_fetch("kernel.uname.sysname", PM_TYPE_STRING, v, 1, NULL), 1);
    assert_string_equal(v[0].cp, "Darwin");
    assert_int_equal(harness_u32("kernel.all.uptime"), 3600);
    fake.clock.now_sec = 10;                        /* clock set before boot */
    assert_int_equal(harness_fetch("kernel.all.uptime", PM_TYPE_U32, v, 1, NULL), PM_ERR_AGAIN);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        HARNESS_TEST(memory_in_kilobytes_at_16k_pages),
        HARNESS_TEST(memory_at_4k_pages),
        HARNESS_TEST(major_compactions_has_no_macos_source),
        HARNESS_TEST(vm_counters_are_full_64_bit),
        HARNESS_TEST(one_failing_part_fails_only_its_metrics),
        HARNESS_TEST(cpu_ticks_to_msec_and_across_the_wrap),
        HARNESS_TEST(cpu_msec_at_another_clock_rate),
        HARNESS_TEST(cpu_instances_survive_churn),
        HARNESS_TEST(no_cpus_and_very_many_cpus),
        HARNESS_TEST(perflevel_labels_on_cpu_instances),
        HARNESS_TEST(load_uname_and_uptime),
    };
    pmSetProgname("test_collectors");
    return cmocka_run_group_tests(tests, NULL, NULL);
}
