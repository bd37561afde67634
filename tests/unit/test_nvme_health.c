/*
 * The NVMe SMART / Health Information log page (nvme_health_decode.h)
 * against what smartctl printed from real Macs' SSDs (../shared/real-macs/
 * nvme; each file's header says where it comes from). smartctl prints the
 * page's fields, not its bytes: each test builds the 512 bytes from the
 * printed values, at the places NVM Express Base Specification 2.0c
 * section 5.16.1.3 gives them, and expects the decoder to give back what smartctl
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
#include <string.h>

#include "nvme_health_decode.h"
#include "real_macs_file.h"

#define M4_HEALTH "nvme/m4-macmini-macos15.6.1-stats2759-smartctl-health.txt"
#define LOCALE_UNITS "nvme/applesilicon-macos-notstated-stats2431-smartctl-data-units.txt"

/* smartctl's labels (smartmontools nvmeprint.cpp) and where section 5.16.1.3 puts each field. */
static const struct {
    const char *label;
    unsigned int at, width;
} printed_fields[] = {
    { "Critical Warning", 0, 1 },
    { "Temperature", 1, 2 },
    { "Available Spare", 3, 1 },
    { "Available Spare Threshold", 4, 1 },
    { "Percentage Used", 5, 1 },
    { "Data Units Read", 32, 16 },
    { "Data Units Written", 48, 16 },
    { "Host Read Commands", 64, 16 },
    { "Host Write Commands", 80, 16 },
    { "Controller Busy Time", 96, 16 },
    { "Power Cycles", 112, 16 },
    { "Power On Hours", 128, 16 },
    { "Unsafe Shutdowns", 144, 16 },
    { "Media and Data Integrity Errors", 160, 16 },
    { "Error Information Log Entries", 176, 16 },
};
#define FIRST_COUNTER 5             /* printed_fields' first 128-bit counter, Data Units Read */
#define CELSIUS_TO_KELVIN 273       /* smartctl's own conversion (nvmeprint.cpp, kelvin_to_celsius) */

/* The text after "label:" in the file's lines, or NULL. */
static const char *
after_label(const char *text, const char *label)
{
    size_t len = strlen(label);

    for (const char *line = text; line != NULL && *line != '\0'; line = strchr(line, '\n'), line = line ? line + 1 : NULL)
        if (strncmp(line, label, len) == 0 && line[len] == ':')
            return line + len + 1;
    return NULL;
}

/* smartctl's number: hexadecimal after "0x", else decimal digits with the
 * locale's thousands separators (',' or ' ') between them. */
static uint64_t
printed_number(const char *p)
{
    uint64_t v = 0;

    while (*p == ' ')
        p++;
    if (strncmp(p, "0x", 2) == 0)
        return strtoull(p, NULL, 16);
    for (; isdigit((unsigned char)*p) || ((*p == ',' || *p == ' ') && isdigit((unsigned char)p[1])); p++)
        if (isdigit((unsigned char)*p))
            v = v * 10 + (uint64_t)(*p - '0');
    return v;
}

/* The terabytes smartctl printed in brackets after a data-unit count
 * ("[33.7 TB]", "[1,55 TB]"), and the place of its last digit. */
static double
printed_terabytes(const char *p, double *step)
{
    const char *open = strchr(p, '[');
    char number[32];
    size_t n = 0;

    assert_non_null(open);
    *step = 1;
    for (p = open + 1; (isdigit((unsigned char)*p) || *p == '.' || *p == ',') && n + 1 < sizeof(number); p++) {
        number[n++] = *p == ',' ? '.' : *p;
        if (strchr(number, '.') != NULL && *p != '.' && *p != ',')
            *step /= 10;
    }
    number[n] = '\0';
    assert_string_equal(p, strstr(p, " TB]"));
    return strtod(number, NULL);
}

static char *
read_corpus(const char *relative)
{
    const char *path = real_macs_file(relative);
    static char text[8192];
    FILE *f = fopen(path, "r");
    size_t n;

    assert_non_null(f);
    n = fread(text, 1, sizeof(text) - 1, f);
    fclose(f);
    text[n] = '\0';
    return text;
}

/* The page built from the fields the file printed; *seen gets which ones (bit per field). */
static void
build_page(const char *text, unsigned char *page, unsigned int *seen)
{
    memset(page, 0, NVME_HEALTH_LOG_BYTES);
    *seen = 0;
    for (unsigned int f = 0; f < sizeof(printed_fields) / sizeof(printed_fields[0]); f++) {
        const char *p = after_label(text, printed_fields[f].label);
        uint64_t v;

        if (p == NULL)
            continue;
        v = printed_number(p) + (printed_fields[f].width == 2 ? CELSIUS_TO_KELVIN : 0);
        for (unsigned int b = 0; b < printed_fields[f].width && b < sizeof(v); b++)
            page[printed_fields[f].at + b] = (unsigned char)(v >> 8 * b);
        *seen |= 1u << f;
    }
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
    const char *text = read_corpus(M4_HEALTH);
    unsigned char page[NVME_HEALTH_LOG_BYTES];
    unsigned int seen;
    struct nvme_health h;

    (void)state;
    build_page(text, page, &seen);
    assert_int_equal(seen, (1u << sizeof(printed_fields) / sizeof(printed_fields[0])) - 1);
    h = decoded(page);
    assert_int_equal(h.critical_warning, printed_number(after_label(text, "Critical Warning")));
    assert_true(h.temperature_known);
    assert_int_equal(h.temperature_c, printed_number(after_label(text, "Temperature")));
    assert_int_equal(h.available_spare, printed_number(after_label(text, "Available Spare")));
    assert_int_equal(h.spare_threshold, printed_number(after_label(text, "Available Spare Threshold")));
    assert_int_equal(h.percentage_used, printed_number(after_label(text, "Percentage Used")));
    for (unsigned int c = 0; c < NVME_COUNTERS; c++)
        assert_int_equal(h.counter[c], printed_number(after_label(text, printed_fields[FIRST_COUNTER + c].label)));
    assert_int_equal(h.too_large, 0);
    agrees_with_printed_terabytes(&h, NVME_DATA_UNITS_READ, after_label(text, "Data Units Read"));
    agrees_with_printed_terabytes(&h, NVME_DATA_UNITS_WRITTEN, after_label(text, "Data Units Written"));
}

/* The data units smartctl printed in a locale with ' ' thousands and ','
 * decimals ("3 029 569 [1,55 TB]"): units of 1000 x 512 bytes. */
static void
locale_printed_units_are_512000_bytes(void **state)
{
    const char *text = read_corpus(LOCALE_UNITS);
    unsigned char page[NVME_HEALTH_LOG_BYTES];
    unsigned int seen;
    struct nvme_health h;

    (void)state;
    build_page(text, page, &seen);
    h = decoded(page);
    assert_int_equal(h.counter[NVME_DATA_UNITS_READ], printed_number(after_label(text, "Data Units Read")));
    agrees_with_printed_terabytes(&h, NVME_DATA_UNITS_READ, after_label(text, "Data Units Read"));
    agrees_with_printed_terabytes(&h, NVME_DATA_UNITS_WRITTEN, after_label(text, "Data Units Written"));
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
