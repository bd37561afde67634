/*
 * counter_baseline.c: counters that continue from their last value when
 * their source starts over (a new IOReport subscription).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "counter_baseline.h"

static uint64_t
value(struct counter_baseline *b, const char *key, uint64_t raw)
{
    uint64_t v = 0;

    assert_int_equal(counter_baseline_value(b, key, raw, &v), 0);
    return v;
}

/* A new source whose counter reads lower than the old one's last reading
 * counted from 0 again (its provider registered again): it goes on from
 * the last value given, and what happened between the two readings is not
 * counted. One that reads at or above it is the same counter read anew
 * (libIOReport gave no sample for a moment, its provider never went away):
 * it is served as read, what happened between counted, never a stand-still
 * that a rate would read as 0 W. */
static void
a_new_source_goes_on_from_the_last_value(void **state)
{
    static const struct {
        uint64_t first, given;              /* the new source's first reading, and the value given */
    } cases[] = { { 0, 4300 }, { 10, 4300 }, { 4299, 4300 }, { 4300, 4300 }, { 9000, 9000 } };
    (void)state;

    for (unsigned int k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        struct counter_baseline b;

        counter_baseline_init(&b);
        counter_baseline_reading(&b);
        assert_int_equal(value(&b, "CPU Energy", 4200), 4200);
        counter_baseline_reading(&b);
        assert_int_equal(value(&b, "CPU Energy", 4300), 4300);
        counter_baseline_new_source(&b);
        counter_baseline_reading(&b);
        assert_int_equal(value(&b, "CPU Energy", cases[k].first), cases[k].given);
        counter_baseline_reading(&b);
        assert_int_equal(value(&b, "CPU Energy", cases[k].first + 25), cases[k].given + 25);
        counter_baseline_free(&b);
    }
}

/* A name twice in one reading (an Ultra's two dies) is two counters, kept
 * apart across readings and sources; a key first met under a new source is
 * as read; one missing from the new source's first reading goes on from its
 * last value when it is read again. */
static void
counters_are_found_by_key_and_occurrence(void **state)
{
    struct counter_baseline b;

    (void)state;
    counter_baseline_init(&b);
    counter_baseline_reading(&b);
    assert_int_equal(value(&b, "ECPUDTL00", 5), 5);
    assert_int_equal(value(&b, "ECPUDTL00", 7), 7);
    assert_int_equal(value(&b, "GPU Energy", 300), 300);
    counter_baseline_new_source(&b);
    counter_baseline_reading(&b);
    assert_int_equal(value(&b, "ECPUDTL00", 1), 5);
    assert_int_equal(value(&b, "ECPUDTL00", 2), 7);
    assert_int_equal(value(&b, "ANE0", 40), 40);
    counter_baseline_reading(&b);
    assert_int_equal(value(&b, "ECPUDTL00", 3), 7);
    assert_int_equal(value(&b, "ECPUDTL00", 4), 9);
    assert_int_equal(value(&b, "GPU Energy", 50), 300);
    assert_int_equal(value(&b, "ANE0", 41), 41);
    counter_baseline_reading(&b);
    assert_int_equal(value(&b, "GPU Energy", 60), 310);
    counter_baseline_free(&b);
}

static void
a_key_too_long_is_refused(void **state)
{
    char key[COUNTER_KEY_MAX + 1];
    struct counter_baseline b;
    uint64_t v = 0;

    (void)state;
    memset(key, 'x', sizeof(key) - 1);
    key[sizeof(key) - 1] = '\0';
    counter_baseline_init(&b);
    counter_baseline_reading(&b);
    assert_int_equal(counter_baseline_value(&b, key, 1, &v), -ENAMETOOLONG);
    counter_baseline_free(&b);
}

/* Many counters: the table grows and finds each again. */
static void
many_counters_are_each_found_again(void **state)
{
    struct counter_baseline b;

    (void)state;
    counter_baseline_init(&b);
    for (unsigned int round = 0; round < 2; round++) {
        counter_baseline_reading(&b);
        for (unsigned int i = 0; i < 1000; i++) {
            char key[16];

            snprintf(key, sizeof(key), "ch%u", i);
            assert_int_equal(value(&b, key, 10u * i + round), 10u * i + round);
        }
    }
    counter_baseline_free(&b);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_new_source_goes_on_from_the_last_value),
        cmocka_unit_test(counters_are_found_by_key_and_occurrence),
        cmocka_unit_test(a_key_too_long_is_refused),
        cmocka_unit_test(many_counters_are_each_found_again),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
