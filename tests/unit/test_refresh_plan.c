/*
 * Refresh planning: dependencies first, each cluster once, bad tables refused.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "refresh_plan.h"

static const unsigned int on0[] = { 0 };
static const unsigned int on0_and_6[] = { 0, 6 };

static void
dependencies_come_first_and_once(void **state)
{
    const struct plan_node nodes[] = {
        { 0, 0, NULL }, { 1, 1, on0 }, { 6, 1, on0 }, { 26, 2, on0_and_6 }, { 9, 0, NULL },
    };
    unsigned char wanted[5] = { 0, 1, 0, 1, 0 };
    unsigned int order[5], n;

    (void)state;
    assert_int_equal(plan_refresh(nodes, 5, wanted, order, &n), 0);
    assert_int_equal(n, 4);
    assert_int_equal(order[0], 0);      /* cluster 0, needed by 1, 6 and 26 */
    assert_int_equal(order[1], 1);
    assert_int_equal(order[2], 2);      /* cluster 6 before 26 */
    assert_int_equal(order[3], 3);
}

static void
nothing_wanted_nothing_planned(void **state)
{
    const struct plan_node nodes[] = { { 0, 0, NULL }, { 1, 1, on0 } };
    unsigned char wanted[2] = { 0, 0 };
    unsigned int order[2], n = 99;

    (void)state;
    assert_int_equal(plan_refresh(nodes, 2, wanted, order, &n), 0);
    assert_int_equal(n, 0);
}

static void
bad_tables_are_refused(void **state)
{
    static const unsigned int on1[] = { 1 };
    static const unsigned int on7[] = { 7 };
    const struct plan_node cycle[] = { { 0, 1, on1 }, { 1, 1, on0 } };
    const struct plan_node unknown[] = { { 0, 1, on7 } };
    unsigned char wanted[2] = { 1, 1 };
    unsigned int order[2], n;

    (void)state;
    assert_int_equal(plan_refresh(cycle, 2, wanted, order, &n), -ELOOP);
    assert_int_equal(plan_refresh(unknown, 1, wanted, order, &n), -EINVAL);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(dependencies_come_first_and_once),
        cmocka_unit_test(nothing_wanted_nothing_planned),
        cmocka_unit_test(bad_tables_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
