/*
 * The NVMe SMART / Health Information log page (nvme_health_decode.h)
 * against what smartctl printed from real Macs' SSDs (../shared/real-macs/
 * nvme; each file's header says where it comes from). smartctl prints the
 * page's fields, not its bytes: each test builds the 512 bytes from the
 * printed values (smartctl_text.h) and expects the decoder to give back what smartctl
 * printed, data units also in the bytes smartctl printed beside them.
 * Without the corpus those tests are skipped, saying so.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>

#include "nvme_health_decode.h"
#include "smartctl_text.h"

#define M4_HEALTH "nvme/m4-macmini-macos15.6.1-stats2759-smartctl-health.txt"
#define LOCALE_UNITS "nvme/applesilicon-macos-notstated-stats2431-smartctl-data-units.txt"

/* The terabytes smartctl printed in brackets after a data-unit count
 * ("[33.7 TB]", "[1,55 TB]"), and the place of its last digit. */
static double
printed_terabytes(const char *p, double *step)
{
    const char *open = strchr(p, '[');
    char number[32];
    size_t n = 0;
    bool fraction = false;

    assert_non_null(open);
    *step = 1;
    for (p = open + 1; (isdigit((unsigned char)*p) || *p == '.' || *p == ',') && n + 1 < sizeof(number); p++) {
        if (*p == '.' || *p == ',')
            fraction = true;
        else if (fraction)
            *step /= 10;
        number[n++] = *p == ',' ? '.' : *p;
    }
    number[n] = '\0';
    assert_string_equal(p, strstr(p, " TB]"));
    return strtod(number, NULL);
}

static struct nvme_health
decoded(const unsigned char *page)
{
    struct nvme_health h;

    assert_int_equal(nvme_health_decode(page, NVME_HEALTH_LOG_BYTES, &h), 0);
    return h;
}

/* The bytes of a data-unit counter agree with the terabytes smartctl
 * printed beside it, to the digits it printed: smartctl cuts to three
 * digits, it does not round (smartmontools f1d0da9ce8 lib/utility.cpp:841-880,
 * format_capacity: 2,127,678 units are 1.0894 TB, printed "1,08 TB"). */
static void
agrees_with_printed_terabytes(const struct nvme_health *h, enum nvme_counter units, const char *printed)
{
    double step, tb = printed_terabytes(printed, &step);
    uint64_t bytes;

    assert_int_equal(nvme_health_bytes(h, units, &bytes), 0);
    assert_true((double)bytes / 1e12 >= tb - step / 1000);
    assert_true((double)bytes / 1e12 < tb + step);
}

/* The M4 Mac mini's whole page: every field smartctl printed comes back. */
static void
m4_page_gives_what_smartctl_printed(void **state)
{
    const char *text = smartctl_read(M4_HEALTH);
    unsigned char page[NVME_HEALTH_LOG_BYTES];
    struct nvme_health h;

    (void)state;
    assert_int_equal(smartctl_page(text, page), (1u << SMARTCTL_FIELDS) - 1);
    h = decoded(page);
    assert_int_equal(h.critical_warning, smartctl_value(text, "Critical Warning"));
    assert_true(h.temperature_known);
    assert_int_equal(h.temperature_c, smartctl_value(text, "Temperature"));
    assert_int_equal(h.available_spare, smartctl_value(text, "Available Spare"));
    assert_int_equal(h.spare_threshold, smartctl_value(text, "Available Spare Threshold"));
    assert_int_equal(h.percentage_used, smartctl_value(text, "Percentage Used"));
    for (unsigned int c = 0; c < NVME_COUNTERS; c++)
        assert_int_equal(h.counter[c], smartctl_value(text, smartctl_fields[SMARTCTL_FIRST_COUNTER + c].label));
    assert_int_equal(h.too_large, 0);
    agrees_with_printed_terabytes(&h, NVME_DATA_UNITS_READ, smartctl_after(text, "Data Units Read"));
    agrees_with_printed_terabytes(&h, NVME_DATA_UNITS_WRITTEN, smartctl_after(text, "Data Units Written"));
}

/* The data units smartctl printed in a locale with ' ' thousands and ','
 * decimals ("3 029 569 [1,55 TB]"): units of 1000 x 512 bytes. */
static void
locale_printed_units_are_512000_bytes(void **state)
{
    const char *text = smartctl_read(LOCALE_UNITS);
    unsigned char page[NVME_HEALTH_LOG_BYTES];
    struct nvme_health h;

    (void)state;
    smartctl_page(text, page);
    h = decoded(page);
    assert_int_equal(h.counter[NVME_DATA_UNITS_READ], smartctl_value(text, "Data Units Read"));
    agrees_with_printed_terabytes(&h, NVME_DATA_UNITS_READ, smartctl_after(text, "Data Units Read"));
    agrees_with_printed_terabytes(&h, NVME_DATA_UNITS_WRITTEN, smartctl_after(text, "Data Units Written"));
}

/* Synthetic: a counter above 2^64 (a high byte set) has no value, and
 * neither do data units whose bytes pass 64 bits; the others keep theirs.
 * A temperature of 0 kelvin is one the controller does not report. */
static void
counters_beyond_64_bits_have_no_value(void **state)
{
    unsigned char page[NVME_HEALTH_LOG_BYTES] = { 0 };
    struct nvme_health h;
    uint64_t bytes;

    (void)state;
    page[112] = 7;                              /* Power Cycles: 7 */
    page[128 + 8] = 1;                          /* Power On Hours: 2^64 */
    memset(page + 48, 0xff, 8);                 /* Data Units Written: 2^64 - 1, fits; its bytes do not */
    h = decoded(page);
    assert_false(h.temperature_known);         /* 0 kelvin: not reported */
    assert_int_equal(h.counter[NVME_POWER_CYCLES], 7);
    assert_int_equal(h.too_large, 1u << NVME_POWER_ON_HOURS);
    assert_int_equal(nvme_health_bytes(&h, NVME_DATA_UNITS_WRITTEN, &bytes), -ERANGE);
    assert_int_equal(nvme_health_bytes(&h, NVME_DATA_UNITS_READ, &bytes), 0);
    assert_int_equal(bytes, 0);
}

/* A page of any other size is refused. */
static void
short_page_is_refused(void **state)
{
    unsigned char page[NVME_HEALTH_LOG_BYTES] = { 0 };
    struct nvme_health h;

    (void)state;
    assert_int_equal(nvme_health_decode(page, NVME_HEALTH_LOG_BYTES - 1, &h), -EINVAL);
    assert_int_equal(nvme_health_decode(NULL, NVME_HEALTH_LOG_BYTES, &h), -EINVAL);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(m4_page_gives_what_smartctl_printed),
        cmocka_unit_test(locale_printed_units_are_512000_bytes),
        cmocka_unit_test(counters_beyond_64_bits_have_no_value),
        cmocka_unit_test(short_page_is_refused),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
