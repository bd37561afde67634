/*
 * Conversions at their edges.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "convert.h"

static void
pages_to_kbytes_at_both_page_sizes(void **state)
{
    (void)state;
    assert_int_equal(pages_to_kbytes(1, 16384), 16);
    assert_int_equal(pages_to_kbytes(1, 4096), 4);
    assert_int_equal(pages_to_kbytes(0, 16384), 0);
    /* 2^32 - 1 pages of 16 KiB: more than 32 bits of kilobytes */
    assert_int_equal(pages_to_kbytes(UINT32_MAX, 16384), (uint64_t)UINT32_MAX * 16);
    /* a page size that is not a multiple of 1 KiB still converts exactly */
    assert_int_equal(pages_to_kbytes(3, 1536), 4);
    assert_int_equal(pages_to_kbytes(UINT64_MAX / 2, 1536), (uint64_t)(((unsigned __int128)(UINT64_MAX / 2) * 1536) / 1024));
}

static void
ticks_to_msec_without_overflow(void **state)
{
    (void)state;
    assert_int_equal(ticks_to_msec(0, 100), 0);
    assert_int_equal(ticks_to_msec(1, 100), 10);
    assert_int_equal(ticks_to_msec(12345, 100), 123450);
    assert_int_equal(ticks_to_msec(7, 128), 54);        /* 54.6875 truncated */
    assert_int_equal(ticks_to_msec(UINT32_MAX, 100), (uint64_t)UINT32_MAX * 10);
    /* ticks * 1000 would overflow; the split keeps it exact */
    assert_int_equal(ticks_to_msec(UINT64_MAX / 10, 100), (UINT64_MAX / 10 / 100) * 1000 + ((UINT64_MAX / 10) % 100) * 10);
}

static void
wrap32_extends_past_the_wrap(void **state)
{
    struct wrap32 w = { 0 };

    (void)state;
    assert_int_equal(wrap32_extend(&w, UINT32_MAX - 5), UINT32_MAX - 5);
    assert_int_equal(wrap32_extend(&w, UINT32_MAX), UINT32_MAX);
    assert_int_equal(wrap32_extend(&w, 4), (uint64_t)UINT32_MAX + 5);
    assert_int_equal(wrap32_extend(&w, 4), (uint64_t)UINT32_MAX + 5);   /* no change */
    assert_int_equal(wrap32_extend(&w, UINT32_MAX), (uint64_t)UINT32_MAX * 2 + 1);
    assert_int_equal(wrap32_extend(&w, 0), (uint64_t)UINT32_MAX * 2 + 2);
}

static void
loadavg_fixed_point(void **state)
{
    (void)state;
    assert_float_equal(loadavg_value(2048, 2048), 1.0, 1e-6);
    assert_float_equal(loadavg_value(5120, 2048), 2.5, 1e-6);
    assert_float_equal(loadavg_value(0, 2048), 0.0, 1e-6);
    assert_float_equal(loadavg_value(UINT32_MAX, 2048), 2097151.999, 1.0);
}

static void
uptime_edges(void **state)
{
    struct plat_clock c = { .boot_sec = 1000, .boot_usec = 900000, .now_sec = 1010, .now_usec = 100000 };
    uint32_t up;

    (void)state;
    assert_int_equal(uptime_seconds(&c, &up), 0);
    assert_int_equal(up, 9);                /* 9.2 s */
    c.now_sec = 999;
    assert_int_equal(uptime_seconds(&c, &up), -ERANGE);
    c.now_sec = 1000 + (int64_t)UINT32_MAX + 10;
    assert_int_equal(uptime_seconds(&c, &up), -ERANGE);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pages_to_kbytes_at_both_page_sizes),
        cmocka_unit_test(ticks_to_msec_without_overflow),
        cmocka_unit_test(wrap32_extends_past_the_wrap),
        cmocka_unit_test(loadavg_fixed_point),
        cmocka_unit_test(uptime_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
