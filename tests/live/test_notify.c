/*
 * notify_state.c on the double: the state of each notify(3) name the
 * queries name read through its own registration, one per name for the
 * source's life, cancelled at close; what a refused registration or read
 * makes of a read.
 */
#include "harness.h"
#include "entry_props.h"
#include "entry_set.h"

#include <string.h>

#define PRESSURE (&plat_queries[PLAT_QUERY_THERMAL_PRESSURE])
#define PRESSURE_NAME "com.apple.system.thermalpressurelevel"

/* Libnotify-327.0.5 notify.h */
#define NOTIFY_STATUS_INVALID_TOKEN 2
#define NOTIFY_STATUS_FAILED 1000000

#define D_ENAMETOOLONG 63               /* xnu bsd/sys/errno.h */

/* Another name a query may name (a notify(3) name macOS posts with a
 * state: the low-power mode of <Foundation/NSProcessInfo.h>). */
static const struct plat_query other = { "notify:com.apple.system.lowpowermode", 0, NULL, 0 };

static uint64_t
state_of(struct platform *p, const struct plat_query *q)
{
    struct plat_entry_set set = { 0 };
    uint64_t state = 0;

    assert_int_equal(p->query(p->ctx, q, &set), 0);
    assert_int_equal(set.n, 1);
    assert_string_equal(set.entry[0].name, strchr(q->match, ':') + 1);
    assert_string_equal(set.entry[0].class_name, "notify");
    assert_true(entry_number(entry_prop(&set.entry[0], "state"), &state));
    return state;
}

static void
test_the_thermal_pressure_level(void **state)
{
    struct platform *p = *state;

    assert_int_equal(state_of(p, PRESSURE), 0);   /* no one set it: 0, Nominal */
    dbl_notify_state(PRESSURE_NAME, 2);
    assert_int_equal(state_of(p, PRESSURE), 2);
}

/* Each name is read through a registration of its own. */
static void
test_each_name_has_its_own_state(void **state)
{
    struct platform *p = *state;

    dbl_notify_state(PRESSURE_NAME, 2);
    dbl_notify_state("com.apple.system.lowpowermode", 1);
    for (int round = 0; round < 3; round++) {
        assert_int_equal(state_of(p, PRESSURE), 2);
        assert_int_equal(state_of(p, &other), 1);
    }
    assert_int_equal(dbl_calls("notify_register_check"), 2);
    assert_int_equal(dbl_held().tokens, 2);
}

/* A registration notifyd refused is asked again at the next read. */
static void
test_a_refused_registration_is_asked_again(void **state)
{
    struct platform *p = *state;
    struct plat_entry_set set;

    dbl_notify_state(PRESSURE_NAME, 1);
    dbl_fail("notify_register_check", 1, NOTIFY_STATUS_FAILED);
    assert_int_equal(p->query(p->ctx, PRESSURE, &set), -2);        /* ENOENT */
    assert_error_has(p, "notify_register_check(" PRESSURE_NAME ") failed: status 1000000");
    assert_int_equal(dbl_held().tokens, 0);
    assert_int_equal(state_of(p, PRESSURE), 1);
}

static void
test_a_refused_state_fails_that_read(void **state)
{
    struct platform *p = *state;
    struct plat_entry_set set;

    dbl_notify_state(PRESSURE_NAME, 3);
    dbl_fail("notify_get_state", 1, NOTIFY_STATUS_INVALID_TOKEN);
    assert_int_equal(p->query(p->ctx, PRESSURE, &set), -5);        /* EIO */
    assert_error_has(p, "notify_get_state(" PRESSURE_NAME ") failed: status 2");
    assert_int_equal(state_of(p, PRESSURE), 3);
}

/* Names are kept, each with its token: a bounded number of them, each of
 * a bounded length; the names already registered go on being read. */
static void
test_names_beyond_the_bounds_are_refused(void **state)
{
    struct platform *p = *state;
    char names[9][64], longest[300];
    struct plat_query q = { NULL, 0, NULL, 0 };
    struct plat_entry_set set;

    for (int i = 0; i < 9; i++) {
        snprintf(names[i], sizeof(names[i]), "notify:org.pcp.test%d", i);
        q.match = names[i];
        dbl_notify_state(names[i] + strlen("notify:"), (uint64_t)i);
        if (i < 8)
            assert_int_equal(state_of(p, &q), i);
    }
    assert_int_equal(p->query(p->ctx, &q, &set), -28);     /* ENOSPC */
    assert_error_has(p, "notify(org.pcp.test8): more than 8 names");
    q.match = names[3];
    assert_int_equal(state_of(p, &q), 3);

    memset(longest, 'x', sizeof(longest) - 1);
    longest[sizeof(longest) - 1] = '\0';
    memcpy(longest, "notify:", 7);
    q.match = longest;
    assert_int_equal(p->query(p->ctx, &q, &set), -D_ENAMETOOLONG);
    assert_error_has(p, "name too long");
}

static void
pressure_round(struct platform *p)
{
    state_of(p, PRESSURE);
    state_of(p, &other);
}

/* A token per name for the source's life, none more over many reads; the
 * teardown checks that close cancels them. */
static void
test_reads_hold_one_token_a_name(void **state)
{
    assert_steady(*state, pressure_round, 1000);
    assert_int_equal(dbl_held().tokens, 2);
}

#define T(name) cmocka_unit_test_setup_teardown(name, live_test_setup, live_test_teardown)

int
main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_the_thermal_pressure_level), T(test_each_name_has_its_own_state),
        T(test_a_refused_registration_is_asked_again), T(test_a_refused_state_fails_that_read),
        T(test_names_beyond_the_bounds_are_refused),
        T(test_reads_hold_one_token_a_name),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
