/*
 * hid_sensors.c on the double: the HID temperature services of real Apple
 * Silicon Macs read back by name and value; sensors that appear only after
 * boot, a restarted hidd, services without a reading, services that come
 * and go, a Mac with none (Intel), functions missing; hidd asked at a
 * bounded rate; and nothing held beyond the client and its services.
 */
#include "harness.h"
#include "real_macs.h"
#include "entry_set.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>

#define SENSORS (&plat_queries[PLAT_QUERY_HID_TEMPERATURES])

static struct plat_entry_set
read_sensors(struct platform *p, int expect)
{
    struct plat_entry_set set = { 0 };

    assert_int_equal(p->query(p->ctx, SENSORS, &set), expect);
    return set;
}

static void
assert_celsius(const struct plat_entry *e, double want)
{
    const struct plat_prop *c = entry_prop(e, "celsius");

    if (c == NULL)
        fail_msg("%s has no reading", e->name);
    assert_int_equal(c->kind, PLAT_PROP_FLOAT);
    if (c->real != want)
        fail_msg("%s: %g, not %g", e->name, c->real, want);
}

static unsigned int
copies(void)
{
    return dbl_calls("IOHIDEventSystemClientCopyServices");
}

static int
read_status(struct platform *p)
{
    struct plat_entry_set set;

    return p->query(p->ctx, SENSORS, &set);
}

/* hidd asked at a bounded rate over the time given, each read answering
 * expect: each try one new client and one copy of its list. */
static void
assert_hidd_backs_off(struct platform *p, int expect, uint64_t duration)
{
    unsigned int before = copies(), tries;

    tries = assert_backs_off(p, read_status, expect, "IOHIDEventSystemClientCopyServices", duration);
    assert_int_equal(copies() - before, tries);
    assert_int_equal(dbl_calls("IOHIDEventSystemClientCreate"), copies());
}

/* Reads once a second until one lists n sensors; fails past the cap. */
static struct plat_entry_set
read_until_listed(struct platform *p, unsigned int n)
{
    struct plat_entry_set set = { 0 };

    for (uint64_t waited = 0; p->query(p->ctx, SENSORS, &set) < 0 || set.n != n; waited += SECOND_NS) {
        if (waited > PLAT_RETRY_CAP_NS)
            fail_msg("%u sensors not listed within %llu s", n, (unsigned long long)(PLAT_RETRY_CAP_NS / SECOND_NS));
        dbl_clock_advance(SECOND_NS);
    }
    return set;
}

static void
test_every_listed_mac_reads_back_as_listed(void **state)
{
    const char *folder = real_macs_file("hid");
    DIR *dir = opendir(folder);
    unsigned int listings = 0;
    struct dirent *d;

    (void)state;
    assert_non_null(dir);
    while ((d = readdir(dir)) != NULL) {
        struct platform p;
        struct plat_entry_set set;
        char path[4096];
        unsigned int n;

        if (strstr(d->d_name, ".txt") == NULL)
            continue;
        snprintf(path, sizeof(path), "%s/%s", folder, d->d_name);
        live_setup(&p);
        n = real_hid_sensors(path);
        set = read_sensors(&p, 0);
        assert_int_equal(set.n, n);
        for (unsigned int i = 0; i < n; i++) {
            double celsius;

            assert_string_equal(set.entry[i].name, real_hid_sensor(i, &celsius));
            assert_string_equal(set.entry[i].class_name, "IOHIDServiceClient");
            assert_celsius(&set.entry[i], celsius);
        }
        live_teardown(&p);
        listings++;
    }
    closedir(dir);
    assert_true(listings > 0);
}

/* A sensor without a reading (its block asleep) is listed without a value;
 * the others are read, and the services are not copied again. */
static void
test_a_sensor_without_a_reading_has_no_value(void **state)
{
    struct platform *p = *state;
    struct plat_entry_set set;
    unsigned int quiet;

    dbl_hid_sensor("PMU tdie1", 37.25);
    quiet = dbl_hid_sensor("PMU tdie2", 34.5);
    dbl_hid_sensor(NULL, 20.0);         /* no Product: an entry without a name */
    dbl_hid_no_reading(quiet);
    for (int round = 0; round < 2; round++) {
        set = read_sensors(p, 0);
        assert_int_equal(set.n, 3);
        assert_celsius(&set.entry[0], 37.25);
        assert_null(entry_prop(&set.entry[1], "celsius"));
        assert_string_equal(set.entry[2].name, "");
        assert_celsius(&set.entry[2], 20.0);
    }
    assert_int_equal(copies(), 1);
}

/* At early boot hidd lists no sensor yet: a later read finds the ones
 * that came, copying the list again once a read while it is empty. */
static void
test_sensors_that_come_after_boot_are_found(void **state)
{
    struct platform *p = *state;
    struct plat_entry_set set;

    for (unsigned int round = 1; round <= 3; round++) {
        read_sensors(p, -2);            /* ENOENT */
        assert_error_has(p, "HID: no temperature sensors");
        assert_int_equal(copies(), round);
        dbl_clock_advance(PLAT_RETRY_CAP_NS);
    }
    dbl_hid_sensor("PMU tdie1", 37.25);
    set = read_sensors(p, 0);
    assert_int_equal(set.n, 1);
    assert_celsius(&set.entry[0], 37.25);
    read_sensors(p, 0);
    assert_int_equal(copies(), 4);
}

/* hidd restarted: the client and services from before give nothing; a
 * read makes a new client and reads the sensors through it. */
static void
test_a_restarted_hidd_is_followed(void **state)
{
    struct platform *p = *state;
    unsigned int s = dbl_hid_sensor("PMU tdie1", 37.25);
    struct plat_entry_set set;

    read_sensors(p, 0);
    dbl_hid_restart();
    dbl_hid_set(s, 41.5);
    set = read_sensors(p, 0);
    assert_int_equal(set.n, 1);
    assert_celsius(&set.entry[0], 41.5);
    assert_int_equal(dbl_calls("IOHIDEventSystemClientCreate"), 2);
    read_sensors(p, 0);
    assert_int_equal(copies(), 2);
}

/* No service gives an event, hidd or not: the list is copied again with
 * a new client, backing off, and the sensors stay listed without values. */
static void
test_services_silent_together_are_copied_again_backing_off(void **state)
{
    struct platform *p = *state;
    struct plat_entry_set set;

    dbl_hid_no_reading(dbl_hid_sensor("PMU tdie1", 37.25));
    dbl_hid_no_reading(dbl_hid_sensor("PMU tdie2", 34.5));
    set = read_sensors(p, 0);
    assert_int_equal(set.n, 2);
    assert_null(entry_prop(&set.entry[0], "celsius"));
    assert_hidd_backs_off(p, 0, WATCHED);
    dbl_clock_advance(PLAT_RETRY_CAP_NS);
    dbl_fail("IOHIDEventSystemClientCreate", 1, 1);
    read_sensors(p, -2);
    assert_error_has(p, "HID: no event system client");
}

/* A Mac with no HID temperature service (every Intel Mac): hidd is asked
 * at a bounded rate, not at every read, and each read says why. */
static void
test_a_mac_without_sensors_asks_hidd_at_a_bounded_rate(void **state)
{
    struct platform *p = *state;

    assert_hidd_backs_off(p, -2, WATCHED);
    assert_error_has(p, "HID: no temperature sensors");
}

/* However long hidd listed none, a sensor listed is read within the cap. */
static void
test_a_sensor_listed_late_is_read_within_the_cap(void **state)
{
    struct platform *p = *state;
    struct plat_entry_set set;

    assert_hidd_backs_off(p, -2, WATCHED);
    dbl_hid_sensor("PMU tdie1", 37.25);
    set = read_until_listed(p, 1);
    assert_celsius(&set.entry[0], 37.25);
}

/* Services come and go while others read: within the cap the list has
 * the new one and not the gone one, at one copy a cap. */
static void
test_services_that_come_and_go_are_followed_within_the_cap(void **state)
{
    struct platform *p = *state;
    struct plat_entry_set set;
    unsigned int before;

    dbl_hid_sensor("PMU tdie1", 37.25);
    dbl_hid_remove(dbl_hid_sensor("PMU tdie2", 34.5));
    assert_int_equal(read_sensors(p, 0).n, 1);
    dbl_hid_sensor("PMU tdie3", 40.5);
    set = read_until_listed(p, 2);
    assert_string_equal(set.entry[1].name, "PMU tdie3");
    assert_celsius(&set.entry[1], 40.5);
    dbl_hid_remove(0);
    set = read_until_listed(p, 1);
    assert_string_equal(set.entry[0].name, "PMU tdie3");
    before = copies();
    for (uint64_t t = 0; t < WATCHED; t += SECOND_NS) {
        read_sensors(p, 0);
        dbl_clock_advance(SECOND_NS);
    }
    assert_in_range(copies() - before, WATCHED / PLAT_RETRY_CAP_NS - 1, WATCHED / PLAT_RETRY_CAP_NS);
}

static void
test_a_client_or_list_refused_is_asked_again(void **state)
{
    static const char *const fns[] = { "IOHIDEventSystemClientCreate", "IOHIDEventSystemClientCopyServices",
                                       "CFDictionaryCreate" };
    static const char *const says[] = { "HID: no event system client", "HID: no temperature services",
                                        "HID: out of memory" };

    (void)state;
    for (int f = 0; f < 3; f++) {
        struct platform p;
        struct plat_entry_set set;

        live_setup(&p);
        dbl_hid_sensor("PMU tdie1", 37.25);
        dbl_fail(fns[f], 1, 1);
        read_sensors(&p, f == 2 ? -12 : -2);
        assert_error_has(&p, says[f]);
        read_sensors(&p, f == 2 ? -12 : -2);        /* asked again only after a wait */
        assert_error_has(&p, says[f]);
        dbl_clock_advance(PLAT_RETRY_FIRST_NS);
        set = read_sensors(&p, 0);
        assert_celsius(&set.entry[0], 37.25);
        live_teardown(&p);
    }
}

static void
test_missing_functions_leave_the_sensors_unsupported(void **state)
{
    static const char *const functions[] = {
        "IOHIDEventSystemClientCreate", "IOHIDEventSystemClientSetMatching", "IOHIDEventSystemClientCopyServices",
        "IOHIDServiceClientCopyProperty", "IOHIDServiceClientCopyEvent", "IOHIDEventGetFloatValue",
    };

    (void)state;
    for (size_t f = 0; f < sizeof(functions) / sizeof(functions[0]); f++) {
        struct platform p;

        live_setup(&p);
        dbl_hid_sensor("PMU tdie1", 37.25);
        dbl_dl_missing(functions[f]);
        for (int round = 0; round < 2; round++) {
            read_sensors(&p, -2);
            assert_error_has(&p, "HID: the event system client functions are missing");
        }
        assert_int_equal(dbl_calls("IOHIDEventSystemClientCreate"), 0);
        live_teardown(&p);
    }
}

static void
hid_round(struct platform *p)
{
    read_sensors(p, 0);
}

static void
restarted_round(struct platform *p)
{
    dbl_hid_restart();
    read_sensors(p, 0);
}

/* Events go back each read, old clients and services at each new copy:
 * over many reads, nothing more is held than after the first. */
static void
test_reads_hold_nothing_more_than_the_services(void **state)
{
    real_hid_sensors(real_macs_file("hid/macmini-m1-stats210.txt"));
    assert_steady(*state, hid_round, 300);
    assert_steady(*state, restarted_round, 100);
}

#define T(name) cmocka_unit_test_setup_teardown(name, live_test_setup, live_test_teardown)

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_listed_mac_reads_back_as_listed), T(test_a_sensor_without_a_reading_has_no_value),
        T(test_sensors_that_come_after_boot_are_found), T(test_a_restarted_hidd_is_followed),
        T(test_services_silent_together_are_copied_again_backing_off),
        T(test_a_mac_without_sensors_asks_hidd_at_a_bounded_rate), T(test_a_sensor_listed_late_is_read_within_the_cap),
        T(test_services_that_come_and_go_are_followed_within_the_cap),
        cmocka_unit_test(test_a_client_or_list_refused_is_asked_again),
        cmocka_unit_test(test_missing_functions_leave_the_sensors_unsupported),
        T(test_reads_hold_nothing_more_than_the_services),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
