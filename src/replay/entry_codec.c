/*
 * Registry property values as a snapshot holds them: "number 42",
 * "float 41.5", "bool 1", "string Apple SSD", "data 45000000" (hex). The
 * replay's reader; the writer is tools/writer/record_write.c.
 */
#include "entry_codec.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int
parse_number(const char *text, uint64_t *out)
{
    uint64_t v = 0;

    if (*text == '\0')
        return -EINVAL;
    for (; *text != '\0'; text++) {
        if (*text < '0' || *text > '9' || v > (UINT64_MAX - (uint64_t)(*text - '0')) / 10)
            return -EINVAL;
        v = v * 10 + (uint64_t)(*text - '0');
    }
    *out = v;
    return 0;
}

/* A value as a snapshot holds it; data is at most what one line can hold. */
struct reg_value {
    enum plat_prop_kind kind;
    uint64_t number;
    double real;
    const char *text;
    unsigned char bytes[2048];
    size_t len;
};

static int
value_parse(const char *text, struct reg_value *v)
{
    if (strncmp(text, "number ", 7) == 0) {
        v->kind = PLAT_PROP_NUMBER;
        return parse_number(text + 7, &v->number);
    }
    if (strncmp(text, "float ", 6) == 0) {
        char *end;

        v->kind = PLAT_PROP_FLOAT;
        errno = 0;
        v->real = strtod(text + 6, &end);
        /* finite numbers only: a recording never holds NaN or infinity */
        return text[6] == '\0' || *end != '\0' || errno != 0 || !isfinite(v->real) ? -EINVAL : 0;
    }
    if (strcmp(text, "bool 0") == 0 || strcmp(text, "bool 1") == 0) {
        v->kind = PLAT_PROP_BOOL;
        v->number = text[5] == '1';
        return 0;
    }
    if (strncmp(text, "string ", 7) == 0 || strcmp(text, "string") == 0) {
        v->kind = PLAT_PROP_STRING;
        v->text = text[6] ? text + 7 : "";
        return 0;
    }
    if (strncmp(text, "data", 4) == 0 && (text[4] == ' ' || text[4] == '\0')) {
        const char *hex = text[4] ? text + 5 : "";
        size_t digits = strlen(hex);

        v->kind = PLAT_PROP_DATA;
        v->len = digits / 2;
        if (digits % 2 != 0 || v->len > sizeof(v->bytes))
            return -EINVAL;
        for (size_t i = 0; i < v->len; i++) {
            int hi = entry_hex_digit(hex[2 * i]), lo = entry_hex_digit(hex[2 * i + 1]);

            if (hi < 0 || lo < 0)
                return -EINVAL;
            v->bytes[i] = (unsigned char)(hi << 4 | lo);
        }
        return 0;
    }
    return -EINVAL;
}

int
entry_value_check(const char *text)
{
    struct reg_value v;

    return value_parse(text, &v);
}

int
entry_value_decode(const char *text, struct plat_prop *out)
{
    struct reg_value v = { .len = 0 };
    unsigned char *bytes = NULL;
    int sts;

    if ((sts = value_parse(text, &v)) < 0)
        return sts;
    if (v.kind == PLAT_PROP_DATA && (bytes = malloc(v.len ? v.len : 1)) == NULL)
        return -ENOMEM;
    if (bytes != NULL)
        memcpy(bytes, v.bytes, v.len);
    *out = (struct plat_prop){ .kind = v.kind, .number = v.number, .real = v.real,
                                   .text = v.kind == PLAT_PROP_STRING ? v.text : NULL,
                                   .data = bytes, .len = (uint32_t)v.len };
    return 0;
}

int
entry_builder_parse(struct entry_builder *b, const char *path, const char *text)
{
    struct reg_value v = { .len = 0 };
    int sts;

    if ((sts = value_parse(text, &v)) < 0)
        return sts;
    return entry_builder_prop(b, path, &(struct plat_prop){ .kind = v.kind, .number = v.number, .real = v.real,
                                                               .text = v.text, .data = v.bytes,
                                                               .len = (uint32_t)v.len });
}
