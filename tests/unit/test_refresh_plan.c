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
    struct plan_node nodes[] = {
        { 0, 0, NULL, { 0 } }, { 1, 1, on0, { 0 } }, { 6, 1, on0, { 0 } }, { 26, 2, on0_and_6, { 0 } },
        { 9, 0, NULL, { 0 } },
    };
    unsigned char wanted[5] = { 0, 1, 0, 1, 0 };
    unsigned int order[5], n;

    (void)state;
    assert_int_equal(plan_check(nodes, 5), 0);
    assert_int_equal(nodes[3].dep_index[1], 2);     /* cluster 6 is node 2 */
    plan_refresh(nodes, 5, wanted, order, &n);
    assert_int_equal(n, 4);
    assert_int_equal(order[0], 0);      /* cluster 0, needed by 1, 6 and 26 */
    assert_int_equal(order[1], 1);
    assert_int_equal(order[2], 2);      /* cluster 6 before 26 */
    assert_int_equal(order[3], 3);
}

static void
nothing_wanted_nothing_planned(void **state)
{
    struct plan_node nodes[] = { { 0, 0, NULL, { 0 } }, { 1, 1, on0, { 0 } } };
    unsigned char wanted[2] = { 0, 0 };
    unsigned int order[2], n = 99;

    (void)state;
    assert_int_equal(plan_check(nodes, 2), 0);
    plan_refresh(nodes, 2, wanted, order, &n);
    assert_int_equal(n, 0);
}

static void
bad_tables_are_refused(void **state)
{
    static const unsigned int on1[] = { 1 };
    static const unsigned int on7[] = { 7 };
    struct plan_node cycle[] = { { 0, 1, on1, { 0 } }, { 1, 1, on0, { 0 } } };
    struct plan_node unknown[] = { { 0, 1, on7, { 0 } } };
    struct plan_node too_many[] = { { 0, PLAN_MAX_DEPENDS + 1, on0, { 0 } } };

    (void)state;
    assert_int_equal(plan_check(cycle, 2), -ELOOP);
    assert_int_equal(plan_check(unknown, 1), -EINVAL);
    assert_int_equal(plan_check(too_many, 1), -EINVAL);
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
