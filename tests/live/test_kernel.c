/*
 * host_info.c, kernel_info.c, cpu_load.c, vm_info.c and the task totals on
 * the double: what each call reads, where it reads it from, and what it
 * says when the kernel refuses.
 */
#include "harness.h"

#include <string.h>

static void
test_host_facts(void **state)
{
    struct platform *p = *state;
    struct plat_host h;

    dbl_mach_page_size(16384);
    dbl_sysctl_clockrate(100, 0);
    dbl_sysctl_int("hw.memsize", 17179869184ull, 8);
    dbl_sysctl_string("hw.model", "Mac14,2");
    assert_int_equal(p->host(p->ctx, &h), 0);
    assert_int_equal(h.page_status, 0);
    assert_int_equal(h.page_size, 16384);
    assert_int_equal(h.clock_status, 0);
    assert_int_equal(h.clock_hz, 100);
    assert_int_equal(h.memsize_status, 0);
    assert_int_equal(h.memsize, 17179869184ull);
    assert_int_equal(h.model_status, 0);
    assert_string_equal(h.model, "Mac14,2");
}

/* Each fact fails on its own, with what the kernel said. */
static void
test_host_facts_fail_alone(void **state)
{
    struct platform *p = *state;
    struct plat_host h;

    dbl_fail("host_page_size", 0, D_KERN_FAILURE);
    dbl_sysctl_clockrate(100, 12);      /* a struct of another size */
    dbl_sysctl_int("hw.memsize", 8589934592ull, 8);
    assert_int_equal(p->host(p->ctx, &h), 0);
    assert_int_equal(h.page_status, -5);    /* EIO */
    assert_int_equal(h.clock_status, -D_EMSGSIZE);
    assert_int_equal(h.memsize_status, 0);
    assert_int_equal(h.model_status, -2);   /* ENOENT: hw.model not set */
    assert_error_has(p, "host_page_size: (os/kern) failure");
    assert_error_has(p, "kern.clockrate: size 12");
    assert_error_has(p, "sysctl hw.model: No such file or directory");
}

static void
test_host_zero_values_refused(void **state)
{
    struct platform *p = *state;
    struct plat_host h;

    dbl_mach_page_size(0);
    dbl_sysctl_clockrate(0, 0);
    assert_int_equal(p->host(p->ctx, &h), 0);
    assert_int_equal(h.page_status, -34);   /* ERANGE */
    assert_int_equal(h.clock_status, -34);
}

/* A string that fills the buffer but its last byte is read whole. */
static void
test_model_of_the_buffers_length(void **state)
{
    struct platform *p = *state;
    struct plat_host h;
    char model[sizeof(h.model)];

    memset(model, 'M', sizeof(model) - 1);
    model[sizeof(model) - 1] = '\0';
    dbl_sysctl_string("hw.model", model);
    assert_int_equal(p->host(p->ctx, &h), 0);
    assert_int_equal(h.model_status, 0);
    assert_string_equal(h.model, model);
}

static void
test_uname(void **state)
{
    struct platform *p = *state;
    struct plat_uname u;

    dbl_uname("studio.local", "24.6.0", "Darwin Kernel Version 24.6.0", "arm64");
    dbl_sysctl_string("kern.osproductversion", "15.6");
    assert_int_equal(p->uname(p->ctx, &u), 0);
    assert_string_equal(u.sysname, "Darwin");
    assert_string_equal(u.nodename, "studio.local");
    assert_string_equal(u.release, "24.6.0");
    assert_string_equal(u.machine, "arm64");
    assert_int_equal(u.product_status, 0);
    assert_string_equal(u.product_version, "15.6");
    dbl_fail("uname", 1, 14);           /* EFAULT */
    assert_int_equal(p->uname(p->ctx, &u), -14);
    assert_error_has(p, "uname: Bad address");
}

static void
test_loadavg_and_clock(void **state)
{
    struct platform *p = *state;
    struct plat_loadavg l;
    struct plat_clock c;

    dbl_sysctl_loadavg(2048, 1024, 512, 2048);
    assert_int_equal(p->loadavg(p->ctx, &l), 0);
    assert_int_equal(l.ldavg[0], 2048);
    assert_int_equal(l.ldavg[2], 512);
    assert_int_equal(l.fscale, 2048);
    dbl_sysctl_loadavg(1, 1, 1, 0);
    assert_int_equal(p->loadavg(p->ctx, &l), -34);
    assert_error_has(p, "fscale is 0");

    dbl_sysctl_boottime(1763000000, 250000);
    dbl_now(1764000000, 500);
    assert_int_equal(p->clock(p->ctx, &c), 0);
    assert_int_equal(c.boot_sec, 1763000000);
    assert_int_equal(c.boot_usec, 250000);
    assert_int_equal(c.now_sec, 1764000000);
    assert_int_equal(c.now_usec, 500);
    dbl_fail("gettimeofday", 1, 14);
    assert_int_equal(p->clock(p->ctx, &c), -14);
    dbl_fail("sysctl", 1, 1);
    assert_int_equal(p->clock(p->ctx, &c), -1);
    assert_error_has(p, "kern.boottime: Operation not permitted");
}

static void
test_cpu_ticks(void **state)
{
    struct platform *p = *state;
    const uint32_t ticks[] = { 10, 20, 300, 1, 40, 50, 600, 2 };    /* user, system, idle, nice */
    struct plat_cpu_ticks t;
    struct plat_cpu_set set;

    dbl_mach_cpus(2, ticks);
    assert_int_equal(p->cpu_total(p->ctx, &t), 0);
    assert_int_equal(t.user, 50);
    assert_int_equal(t.sys, 70);
    assert_int_equal(t.idle, 900);
    assert_int_equal(t.nice, 3);
    assert_int_equal(p->cpus(p->ctx, &set), 0);
    assert_int_equal(set.ncpu, 2);
    assert_string_equal(set.cpu[1].name, "cpu1");
    assert_int_equal(set.cpu[1].ticks.user, 40);
    assert_int_equal(set.cpu[1].ticks.sys, 50);
    assert_int_equal(set.cpu[1].ticks.idle, 600);
    assert_int_equal(set.cpu[1].ticks.nice, 2);
    dbl_fail("host_processor_info", 1, D_KERN_FAILURE);
    assert_int_equal(p->cpu_total(p->ctx, &t), -5);
    assert_error_has(p, "host_processor_info: (os/kern) failure");
    dbl_fail("host_processor_info", 1, D_KERN_FAILURE);
    assert_int_equal(p->cpus(p->ctx, &set), -5);
    assert_error_has(p, "host_processor_info: (os/kern) failure");
    assert_int_equal(dbl_calls("host_statistics"), 0);     /* rate-limited: not asked */
}

static void
cpus_round(struct platform *p)
{
    struct plat_cpu_set set;

    assert_int_equal(p->cpus(p->ctx, &set), 0);
}

/* host_processor_info's array goes back every time. */
static void
test_cpus_hold_nothing(void **state)
{
    const uint32_t ticks[4 * 8] = { 1 };

    dbl_mach_cpus(8, ticks);
    assert_steady(*state, cpus_round, 1000);
}

/* Our rounds beside other pollers (dbl_host_poller, ten calls a second):
 * one a second of virtual time, each a little later in the second than the
 * one before (cycling), so that they land in every part of the kernel's
 * rate-limit windows and before and after the other processes' copies.
 * Their copies land POLLER_COPY_DELAY_NS after their answers: on a Mac the
 * unlocked copy lands late only when a caller is preempted between its
 * answer and its copy, rarely; this delay makes a copy older than one of
 * our readings reach us a few times in ROUNDS. */
#define POLLER_HZ 10
#define POLLER_COPY_DELAY_NS 350000000u
#define ROUNDS 600
#define JITTER_CYCLE_MS 97

static void
next_round(unsigned int round)
{
    dbl_clock_advance(1000000000u + (round % JITTER_CYCLE_MS) * 1000000u);
}

/* The host's CPU total is the per-CPU sum at every round, never a copy
 * from before (host_processor_info is never rate-limited; the host
 * total the kernel adds up from the same per-processor ticks,
 * xnu-11417.101.15 osfmk/kern/host.c:504-519, is). */
static void
test_cpu_total_beside_a_poller(void **state)
{
    struct platform *p = *state;
    enum { NCPU = 4 };
    const uint32_t ticks[NCPU * 4] = { 1000, 500, 9000, 0, 2000, 100, 8000, 0, 300, 30, 12000, 0, 40, 4, 15000, 0 };
    const uint32_t per_second[NCPU * 4] = { 37, 11, 52, 0, 61, 9, 30, 0, 5, 3, 92, 0, 1, 1, 98, 0 };
    uint32_t last_idle = 0;

    dbl_mach_cpus(NCPU, ticks);
    dbl_mach_tick_rate(per_second);
    dbl_host_poller(POLLER_HZ, POLLER_COPY_DELAY_NS);
    for (unsigned int round = 0; round < ROUNDS; round++) {
        struct plat_cpu_ticks total;
        struct plat_cpu_set set;
        struct plat_cpu_ticks sum = { 0 };

        next_round(round);
        assert_int_equal(p->cpu_total(p->ctx, &total), 0);
        assert_int_equal(p->cpus(p->ctx, &set), 0);
        for (unsigned int c = 0; c < set.ncpu; c++) {
            sum.user += set.cpu[c].ticks.user;
            sum.sys += set.cpu[c].ticks.sys;
            sum.idle += set.cpu[c].ticks.idle;
            sum.nice += set.cpu[c].ticks.nice;
        }
        assert_int_equal(total.user, sum.user);
        assert_int_equal(total.sys, sum.sys);
        assert_int_equal(total.idle, sum.idle);
        assert_int_equal(total.nice, sum.nice);
        assert_true((uint32_t)(total.idle - last_idle) <= INT32_MAX);     /* never a step back */
        last_idle = total.idle;
    }
}

/* A copy older than the reading before it is no reading: VM counters never
 * step back; the limit answered some rounds, and some with such a copy. */
static void
test_memory_beside_a_poller(void **state)
{
    struct platform *p = *state;
    uint64_t last_faults = 0;
    unsigned int refused = 0;

    dbl_mach_vm(1000, 0);
    dbl_mach_vm_rate(1000);
    dbl_host_poller(POLLER_HZ, POLLER_COPY_DELAY_NS);
    for (unsigned int round = 0; round < ROUNDS; round++) {
        struct plat_memory m;

        next_round(round);
        assert_int_equal(p->memory(p->ctx, &m), 0);
        if (m.vm_status == -D_EAGAIN) {
            assert_error_has(p, "older than");
            refused++;
            continue;
        }
        assert_int_equal(m.vm_status, 0);
        assert_true(m.vm.faults >= last_faults);
        last_faults = m.vm.faults;
    }
    assert_true(dbl_host_stats_cached() > 0);
    assert_true(refused > 0);
}

static void
test_memory(void **state)
{
    struct platform *p = *state;
    struct plat_memory m;

    dbl_mach_vm(1000, 0);
    dbl_sysctl_swapusage(2147483648ull, 1073741824ull, 1073741824ull);
    dbl_sysctl_int("vm.compressor_swapouts_under_30s", 7, 4);
    dbl_sysctl_int("vm.lz4_compressions", 123456789012ull, 8);
    assert_int_equal(p->memory(p->ctx, &m), 0);
    assert_int_equal(m.vm_status, 0);
    assert_int_equal(m.vm.free_count, dbl_vm_field("free_count"));
    assert_int_equal(m.vm.active_count, dbl_vm_field("active_count"));
    assert_int_equal(m.vm.inactive_count, dbl_vm_field("inactive_count"));
    assert_int_equal(m.vm.wire_count, dbl_vm_field("wire_count"));
    assert_int_equal(m.vm.compressor_page_count, dbl_vm_field("compressor_page_count"));
    assert_int_equal(m.vm.total_uncompressed_pages_in_compressor,
                     dbl_vm_field("total_uncompressed_pages_in_compressor"));
    assert_int_equal(m.vm.reactivations, dbl_vm_field("reactivations"));
    assert_int_equal(m.vm.faults, dbl_vm_field("faults"));
    assert_int_equal(m.vm.cow_faults, dbl_vm_field("cow_faults"));
    assert_int_equal(m.vm.zero_fill_count, dbl_vm_field("zero_fill_count"));
    assert_int_equal(m.vm.pageins, dbl_vm_field("pageins"));
    assert_int_equal(m.vm.pageouts, dbl_vm_field("pageouts"));
    assert_int_equal(m.vm.swapins, dbl_vm_field("swapins"));
    assert_int_equal(m.vm.swapouts, dbl_vm_field("swapouts"));
    assert_int_equal(m.vm.compressions, dbl_vm_field("compressions"));
    assert_int_equal(m.vm.decompressions, dbl_vm_field("decompressions"));
    assert_int_equal(m.vm.speculative_count, dbl_vm_field("speculative_count"));
    assert_int_equal(m.vm.throttled_count, dbl_vm_field("throttled_count"));
    assert_int_equal(m.vm.purgeable_count, dbl_vm_field("purgeable_count"));
    assert_int_equal(m.vm.external_page_count, dbl_vm_field("external_page_count"));
    assert_int_equal(m.vm.internal_page_count, dbl_vm_field("internal_page_count"));
    assert_int_equal(m.vm.purges, dbl_vm_field("purges"));
    assert_int_equal(m.swap_status, 0);
    assert_int_equal(m.swap.total, 2147483648ull);
    assert_int_equal(m.swap.used, 1073741824ull);
    assert_int_equal(m.compressor_status[PLAT_COMP_SWAPOUTS_UNDER_30S], 0);
    assert_int_equal(m.compressor[PLAT_COMP_SWAPOUTS_UNDER_30S], 7);
    assert_int_equal(m.compressor[PLAT_COMP_LZ4_COMPRESSIONS], 123456789012ull);
    assert_int_equal(m.compressor_status[PLAT_COMP_SWAPOUTS_UNDER_60S], -2);
    dbl_fail("host_statistics64", 1, D_KERN_FAILURE);
    assert_int_equal(p->memory(p->ctx, &m), 0);
    assert_int_equal(m.vm_status, -5);
}

/* A kernel that fills only revision 0 of vm_statistics64 leaves the
 * caller's revision-1 fields as they were: they have no value. */
static void
test_memory_of_a_revision_0_kernel(void **state)
{
    struct platform *p = *state;
    struct plat_memory m;

    dbl_mach_vm(1000, 1);
    assert_int_equal(p->memory(p->ctx, &m), 0);
    assert_int_equal(m.vm_status, -D_EMSGSIZE);
    assert_error_has(p, "host_statistics64(HOST_VM_INFO64): 24 of 38 fields");
}

static void
test_tasks(void **state)
{
    struct platform *p = *state;
    struct plat_tasks t;

    dbl_mach_load(512, 2400);
    assert_int_equal(p->tasks(p->ctx, &t), 0);
    assert_int_equal(t.tasks, 512);
    assert_int_equal(t.threads, 2400);
    dbl_mach_load(-1, 5);
    assert_int_equal(p->tasks(p->ctx, &t), -34);
    dbl_fail("processor_set_statistics", 1, D_KERN_FAILURE);
    assert_int_equal(p->tasks(p->ctx, &t), -5);
}

/* Without the default processor set (refused at open), the totals say why. */
static void
test_tasks_without_a_processor_set(void **state)
{
    struct platform p;
    struct plat_tasks t;

    (void)state;
    live_setup_failing(&p, "processor_set_default", D_KERN_INVALID_ARGUMENT);
    assert_int_equal(p.tasks(p.ctx, &t), -2);
    assert_error_has(&p, "processor_set_default: (os/kern) invalid argument");
    live_teardown(&p);
}

static void
test_timebase(void **state)
{
    struct platform *p = *state;
    struct plat_timebase tb;

    dbl_mach_timebase(125, 3);
    assert_int_equal(p->timebase(p->ctx, &tb), 0);
    assert_int_equal(tb.numer, 125);
    assert_int_equal(tb.denom, 3);
    dbl_fail("mach_timebase_info", 1, D_KERN_FAILURE);
    assert_int_equal(p->timebase(p->ctx, &tb), -5);
}

#define T(name) cmocka_unit_test_setup_teardown(name, live_test_setup, live_test_teardown)

int
main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_host_facts), T(test_host_facts_fail_alone), T(test_host_zero_values_refused),
        T(test_model_of_the_buffers_length), T(test_uname), T(test_loadavg_and_clock), T(test_cpu_ticks),
        T(test_cpus_hold_nothing), T(test_cpu_total_beside_a_poller), T(test_memory),
        T(test_memory_of_a_revision_0_kernel), T(test_memory_beside_a_poller), T(test_tasks),
        cmocka_unit_test(test_tasks_without_a_processor_set), T(test_timebase),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
