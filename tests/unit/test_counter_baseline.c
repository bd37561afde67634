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

/* Under its first source a counter is what the source reads (since boot);
 * under a new one it goes on from its last value by what the new source
 * counts from its first reading, whether that starts at 0 again, further
 * on, or lower. */
static void
a_new_source_goes_on_from_the_last_value(void **state)
{
    static const uint64_t first_of_new[] = { 0, 9000, 10 };
    (void)state;

    for (unsigned int k = 0; k < sizeof(first_of_new) / sizeof(first_of_new[0]); k++) {
        struct counter_baseline b;

        counter_baseline_init(&b);
        counter_baseline_reading(&b);
        assert_int_equal(value(&b, "CPU Energy", 4200), 4200);
        counter_baseline_reading(&b);
        assert_int_equal(value(&b, "CPU Energy", 4300), 4300);
        counter_baseline_new_source(&b);
        counter_baseline_reading(&b);
        assert_int_equal(value(&b, "CPU Energy", first_of_new[k]), 4300);
        counter_baseline_reading(&b);
        assert_int_equal(value(&b, "CPU Energy", first_of_new[k] + 25), 4325);
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
