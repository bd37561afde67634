#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nvme_health_decode.h"
#include "real_macs_file.h"
#include "smartctl_text.h"

const struct smartctl_field smartctl_fields[SMARTCTL_FIELDS] = {
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
#define CELSIUS_TO_KELVIN 273

const char *
smartctl_read(const char *relative)
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

const char *
smartctl_after(const char *text, const char *label)
{
    size_t len = strlen(label);

    for (const char *line = text; line != NULL && *line != '\0'; line = strchr(line, '\n'), line = line ? line + 1 : NULL)
        if (strncmp(line, label, len) == 0 && line[len] == ':')
            return line + len + 1;
    return NULL;
}

uint64_t
smartctl_number(const char *p)
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

uint64_t
smartctl_value(const char *text, const char *label)
{
    const char *p = smartctl_after(text, label);

    if (p == NULL)
        fail_msg("smartctl printed no \"%s\"", label);
    return smartctl_number(p);
}

unsigned int
smartctl_page(const char *text, unsigned char *page)
{
    unsigned int seen = 0;

    memset(page, 0, NVME_HEALTH_LOG_BYTES);
    for (unsigned int f = 0; f < SMARTCTL_FIELDS; f++) {
        const char *p = smartctl_after(text, smartctl_fields[f].label);
        uint64_t v;

        if (p == NULL)
            continue;
        v = smartctl_number(p) + (smartctl_fields[f].width == 2 ? CELSIUS_TO_KELVIN : 0);
        for (unsigned int b = 0; b < smartctl_fields[f].width && b < sizeof(v); b++)
            page[smartctl_fields[f].at + b] = (unsigned char)(v >> 8 * b);
        seen |= 1u << f;
    }
    return seen;
}
