/*
 * hid_sensors.c on the double: the HID temperature services of real Apple
 * Silicon Macs read back by name and value; sensors that appear only after
 * boot, a restarted hidd, services without a reading, functions missing;
 * and nothing held beyond the client and its services.
 */
#include "harness.h"
#include "real_macs.h"
#include "registry_set.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>

#define SENSORS (&plat_reg_queries[PLAT_REGQ_HID_TEMPERATURES])

static struct plat_reg_set
read_sensors(struct platform *p, int expect)
{
    struct plat_reg_set set = { 0 };

    assert_int_equal(p->registry(p->ctx, SENSORS, &set), expect);
    return set;
}

static void
assert_celsius(const struct plat_reg_entry *e, double want)
{
    const struct plat_reg_prop *c = reg_prop(e, "celsius");

    if (c == NULL)
        fail_msg("%s has no reading", e->name);
    assert_int_equal(c->kind, PLAT_REG_FLOAT);
    if (c->real != want)
        fail_msg("%s: %g, not %g", e->name, c->real, want);
}

static unsigned int
copies(void)
{
    return dbl_calls("IOHIDEventSystemClientCopyServices");
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
        struct plat_reg_set set;
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
    struct plat_reg_set set;
    unsigned int quiet;

    dbl_hid_sensor("PMU tdie1", 37.25);
    quiet = dbl_hid_sensor("PMU tdie2", 34.5);
    dbl_hid_sensor(NULL, 20.0);         /* no Product: an entry without a name */
    dbl_hid_no_reading(quiet);
    for (int round = 0; round < 2; round++) {
        set = read_sensors(p, 0);
        assert_int_equal(set.n, 3);
        assert_celsius(&set.entry[0], 37.25);
        assert_null(reg_prop(&set.entry[1], "celsius"));
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
    struct plat_reg_set set;

    for (unsigned int round = 1; round <= 3; round++) {
        read_sensors(p, -2);            /* ENOENT */
        assert_error_has(p, "HID: no temperature sensors");
        assert_int_equal(copies(), round);
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
    struct plat_reg_set set;

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

/* No service gives an event, hidd or not: the list is copied again, at
 * most once a read, and the sensors stay listed without values. */
static void
test_services_silent_together_are_copied_again_once_a_read(void **state)
{
    struct platform *p = *state;
    struct plat_reg_set set;

    dbl_hid_no_reading(dbl_hid_sensor("PMU tdie1", 37.25));
    dbl_hid_no_reading(dbl_hid_sensor("PMU tdie2", 34.5));
    for (unsigned int round = 1; round <= 3; round++) {
        set = read_sensors(p, 0);
        assert_int_equal(set.n, 2);
        assert_null(reg_prop(&set.entry[0], "celsius"));
        assert_int_equal(copies(), round);
    }
    dbl_fail("IOHIDEventSystemClientCreate", 1, 1);
    read_sensors(p, -2);
    assert_error_has(p, "HID: no event system client");
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
        struct plat_reg_set set;

        live_setup(&p);
        dbl_hid_sensor("PMU tdie1", 37.25);
        dbl_fail(fns[f], 1, 1);
        read_sensors(&p, f == 2 ? -12 : -2);
        assert_error_has(&p, says[f]);
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
        T(test_services_silent_together_are_copied_again_once_a_read),
        cmocka_unit_test(test_a_client_or_list_refused_is_asked_again),
        cmocka_unit_test(test_missing_functions_leave_the_sensors_unsupported),
        T(test_reads_hold_nothing_more_than_the_services),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
