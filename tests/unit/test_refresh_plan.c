/*
 * Refresh planning: dependencies first, each cluster once, bad tables refused.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "refresh_plan.h"

/* Nodes are named by what their ids point at: here, cluster numbers. */
static const int c[27] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
                           25, 26 };
#define NODE(id) { &c[id], 0, { NULL }, { 0 } }
#define ON(id, d) { &c[id], 1, { &c[d] }, { 0 } }

static void
dependencies_come_first_and_once(void **state)
{
    struct plan_node nodes[] = {
        NODE(0), ON(1, 0), ON(6, 0), { &c[26], 2, { &c[0], &c[6] }, { 0 } }, NODE(9),
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
    struct plan_node nodes[] = { NODE(0), ON(1, 0) };
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
    struct plan_node cycle[] = { ON(0, 1), ON(1, 0) };
    struct plan_node unknown[] = { ON(0, 7) };
    struct plan_node too_many[] = { { &c[0], PLAN_MAX_DEPENDS + 1, { &c[0] }, { 0 } } };

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
