#include "real_macs.h"
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Each line of a corpus file without its line end, to line(). */
static unsigned int
each_line(const char *path, int (*line)(char *text))
{
    FILE *f = fopen(path, "r");
    char text[512];
    unsigned int n = 0;

    if (f == NULL)
        fail_msg("%s: cannot be read", path);
    while (fgets(text, sizeof(text), f) != NULL) {
        text[strcspn(text, "\r\n")] = '\0';
        if (text[0] != '#')
            n += (unsigned int)line(text);
    }
    fclose(f);
    return n;
}

/* ---- IOReport channel lists ---- */

static int64_t (*channel_value)(unsigned int i);
static unsigned int nchannels;

static int
channel_line(char *text)
{
    char *tab = strchr(text, '\t');

    if (tab == NULL)
        return 0;
    *tab = '\0';
    dbl_ioreport_simple("Energy Model", text, NULL, tab + 1, channel_value(nchannels++));
    return 1;
}

unsigned int
real_ioreport_channels(const char *path, int64_t (*value)(unsigned int i))
{
    channel_value = value;
    nchannels = 0;
    return each_line(path, channel_line);
}

/* ---- SMC key dumps ---- */

static struct smc_record {
    char key[5], type[5];
    unsigned char bytes[32];
    unsigned int len;               /* 0: not readable */
} keys[4096];
static unsigned int nkeys;

static int
hex_bytes(const char *hex, unsigned char *out, unsigned int len)
{
    if (strlen(hex) != 2 * (size_t)len)
        return 0;
    for (unsigned int i = 0; i < len; i++) {
        char pair[3] = { hex[2 * i], hex[2 * i + 1], '\0' };
        char *end;

        out[i] = (unsigned char)strtoul(pair, &end, 16);
        if (*end != '\0')
            return 0;
    }
    return 1;
}

/* "[KEY] type [TYPE] 73703738 len [ 2] attr [80] -> 2A40" (key and type
 * four characters each, spaces included), or "-> NOT READABLE, code 85". */
static int
smc_line(char *text)
{
    struct smc_record *k = &keys[nkeys];
    char value[128];
    unsigned int len, result;

    if (nkeys == sizeof(keys) / sizeof(keys[0]) || strlen(text) < 18 || text[0] != '[' || text[5] != ']' ||
        strncmp(text + 6, " type [", 7) != 0 || text[17] != ']')
        return 0;
    if (sscanf(text + 18, " %*8[0-9A-Fa-f] len [%u] attr [%*[0-9A-Fa-f]] -> %127[^\n]", &len, value) != 2 ||
        len == 0 || len > sizeof(k->bytes))
        return 0;
    memset(k, 0, sizeof(*k));
    snprintf(k->key, sizeof(k->key), "%.4s", text + 1);
    snprintf(k->type, sizeof(k->type), "%.4s", text + 13);
    if (sscanf(value, "NOT READABLE, code %x", &result) == 1) {
        dbl_smc_key(k->key, k->type, k->bytes, len);
        dbl_smc_unreadable(k->key, (uint8_t)result);
    } else if (hex_bytes(value, k->bytes, len)) {
        k->len = len;
        dbl_smc_key(k->key, k->type, k->bytes, len);
    } else {
        return 0;
    }
    nkeys++;
    return 1;
}

unsigned int
real_smc_keys(const char *path)
{
    nkeys = 0;
    return each_line(path, smc_line);
}

int
real_smc_key(const char *key, char type[5], unsigned char bytes[32], unsigned int *len)
{
    for (unsigned int i = 0; i < nkeys; i++)
        if (strcmp(keys[i].key, key) == 0) {
            memcpy(type, keys[i].type, 5);
            memcpy(bytes, keys[i].bytes, keys[i].len);
            *len = keys[i].len;
            return 1;
        }
    return 0;
}

/* ---- iSMC's listings of Apple Silicon's SMC ---- */

static struct {
    char key[5], description[64];
    double celsius;
} flt_keys[256];
static unsigned int nflt;
static size_t flt_key_column;

/* "CPU Performance Core 5        Tp0X     30.796875 °C  flt": a key of
 * type flt, whose bytes are the float little-endian (smc_decode). */
static int
flt_line(char *text)
{
    const char *key = strstr(text, " KEY ");
    size_t len = strlen(text), lead = strspn(text, " ");
    unsigned char bytes[4];
    uint32_t bits;
    float value;
    char *end;

    if (strstr(text, "DESCRIPTION") != NULL && key != NULL) {
        flt_key_column = (size_t)(key + 1 - text);
        return 0;
    }
    while (len > 0 && text[len - 1] == ' ')
        len--;
    if (flt_key_column == 0 || len < flt_key_column + 4 || strncmp(text + len - 4, " flt", 4) != 0 ||
        text[flt_key_column] == ' ' || nflt == sizeof(flt_keys) / sizeof(flt_keys[0]))
        return 0;
    value = strtof(text + flt_key_column + 4, &end);
    if (end == text + flt_key_column + 4)
        return 0;
    snprintf(flt_keys[nflt].key, sizeof(flt_keys[0].key), "%.4s", text + flt_key_column);
    for (len = flt_key_column; len > lead && text[len - 1] == ' ';)
        len--;
    snprintf(flt_keys[nflt].description, sizeof(flt_keys[0].description), "%.*s", (int)(len - lead), text + lead);
    flt_keys[nflt].celsius = value;
    memcpy(&bits, &value, sizeof(bits));
    for (int i = 0; i < 4; i++)
        bytes[i] = (unsigned char)(bits >> (8 * i));
    dbl_smc_key(flt_keys[nflt].key, "flt ", bytes, sizeof(bytes));
    nflt++;
    return 1;
}

unsigned int
real_ismc_flt_keys(const char *path)
{
    nflt = 0;
    flt_key_column = 0;
    return each_line(path, flt_line);
}

const char *
real_ismc_flt_key(unsigned int i, const char **description, double *celsius)
{
    assert_true(i < nflt);
    *description = flt_keys[i].description;
    *celsius = flt_keys[i].celsius;
    return flt_keys[i].key;
}

/* ---- HID sensor listings ---- */

static struct {
    char product[128];
    double celsius;
} sensors[256];
static unsigned int nsensors;
static size_t key_column;           /* iSMC's table: where its KEY column starts; 0: not a table */

static int
add_sensor(const char *text, size_t len, double celsius)
{
    size_t lead = strspn(text, " ");

    while (len > lead && text[len - 1] == ' ')
        len--;
    if (nsensors == sizeof(sensors) / sizeof(sensors[0]))
        fail_msg("more HID sensors than the loader keeps");
    snprintf(sensors[nsensors].product, sizeof(sensors[0].product), "%.*s", (int)(len - lead), text + lead);
    sensors[nsensors].celsius = celsius;
    dbl_hid_sensor(sensors[nsensors++].product, celsius);
    return 1;
}

static int
blank(const char *s)
{
    return s[strspn(s, " \t")] == '\0';
}

/* apple_sensors' "Product | 30.0". */
static int
bar_line(const char *text)
{
    const char *bar = strrchr(text, '|');
    char *end;
    double celsius;

    if (bar == NULL)
        return 0;
    celsius = strtod(bar + 1, &end);
    if (end == bar + 1 || !blank(end))
        return 0;
    return add_sensor(text, (size_t)(bar - text), celsius);
}

/* iSMC's row "NAME  [KEY]  30.00 °C  hid": the name ends where the
 * header's KEY column starts. */
static int
table_line(const char *text)
{
    static const char degrees[] = " \xc2\xb0" "C";
    const char *unit, *number;
    size_t len = strlen(text);

    while (len > 0 && text[len - 1] == ' ')
        len--;
    if (len <= key_column + 4 || strncmp(text + len - 4, " hid", 4) != 0 ||
        (unit = strstr(text + key_column, degrees)) == NULL)
        return 0;
    for (number = unit; number > text + key_column && number[-1] != ' ';)
        number--;
    return add_sensor(text, key_column, strtod(number, NULL));
}

static int
sensor_line(char *text)
{
    const char *key = strstr(text, " KEY ");

    if (strstr(text, "DESCRIPTION") != NULL && key != NULL) {
        key_column = (size_t)(key + 1 - text);
        return 0;
    }
    return key_column ? table_line(text) : bar_line(text);
}

unsigned int
real_hid_sensors(const char *path)
{
    nsensors = 0;
    key_column = 0;
    return each_line(path, sensor_line);
}

const char *
real_hid_sensor(unsigned int i, double *celsius)
{
    assert_true(i < nsensors);
    *celsius = sensors[i].celsius;
    return sensors[i].product;
}
