#include "bandwidth_decode.h"
#include "entry_props.h"
#include "entry_set.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

/* libIOReport's kIOReportInvalidValue (xnu-11417.101.15
 * iokit/IOKit/IOReportTypes.h:40-50) as the 64 bits a residency holds. */
#define INVALID_RESIDENCY ((uint64_t)INT64_MIN)
#define DIE_PREFIX "DIE"

/* The direction at the end of name, and the length of what comes before
 * it (the requestor, with the space between them); -1 without one. */
static int
direction_of(const char *name, enum bandwidth_direction *dir, size_t *before)
{
    static const struct {
        const char *word;
        enum bandwidth_direction dir;
    } words[] = { { "RD+WR", BANDWIDTH_READ_WRITE }, { "RD", BANDWIDTH_READ }, { "WR", BANDWIDTH_WRITE } };
    size_t n = strlen(name);

    for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
        size_t w = strlen(words[i].word);

        if (n < w || strcmp(name + n - w, words[i].word) != 0 || (n > w && name[n - w - 1] != ' '))
            continue;
        *dir = words[i].dir;
        *before = n > w ? n - w - 1 : 0;
        return 0;
    }
    return -1;
}

/* "DIE<n> " at the start of name: n, and *rest past it; -1 (and *rest
 * the name) without one. */
static int
die_of(const char *name, const char **rest)
{
    const char *s = name + strlen(DIE_PREFIX);
    int die = 0, digits = 0;

    *rest = name;
    if (strncmp(name, DIE_PREFIX, strlen(DIE_PREFIX)) != 0)
        return -1;
    for (; isdigit((unsigned char)*s) && digits < 4; s++, digits++)
        die = die * 10 + (*s - '0');
    if (digits == 0 || *s != ' ')
        return -1;
    *rest = s + 1;
    return die;
}

/* A bucket's value from its state's name ("  24GB/s", "32GB/s"), or 0. */
static unsigned int
gbps_of(const char *state)
{
    unsigned long v = 0;
    int digits = 0;

    while (*state == ' ')
        state++;
    for (; isdigit((unsigned char)*state) && digits < 6; state++, digits++)
        v = v * 10 + (unsigned long)(*state - '0');
    return digits > 0 && strcmp(state, "GB/s") == 0 ? (unsigned int)v : 0;
}

int
bandwidth_channel(const struct plat_entry *e, struct bandwidth_channel *out)
{
    unsigned int label[BANDWIDTH_MAX_BUCKETS];
    uint64_t value[BANDWIDTH_MAX_BUCKETS];
    unsigned int filled[BANDWIDTH_MAX_BUCKETS] = { 0 };
    unsigned int n = 0, step = 0;
    const char *rest;
    size_t len;
    int invalid = 0;

    memset(out, 0, sizeof(*out));
    out->die = die_of(e->name, &rest);
    if (direction_of(rest, &out->direction, &len) < 0)
        return -ENOENT;
    memcpy(out->requestor, rest, len);
    for (unsigned int k = 0; k < e->nprops; k++) {
        const struct plat_prop *p = &e->prop[k];
        char state[PLAT_ENTRY_NAME_MAX];
        uint64_t v;

        if (strncmp(p->path, "state.", 6) != 0 || !entry_number(p, &v))
            continue;
        if (n == BANDWIDTH_MAX_BUCKETS || entry_path_part(p->path + 6, state, sizeof(state)) < 0 ||
            (label[n] = gbps_of(state)) == 0)
            return -EDOM;
        invalid |= v == INVALID_RESIDENCY;
        value[n] = v;
        if (step == 0 || label[n] < step)
            step = label[n];
        n++;
    }
    for (unsigned int i = 0; i < n; i++) {
        unsigned int k = label[i] / step - 1;

        if (label[i] % step != 0 || k >= n || filled[k]++)
            return -EDOM;               /* not the whole series from the lowest bucket up */
        out->residency[k] = value[i];
    }
    out->n = n;
    out->step = step;
    return n == 0 || invalid ? -ENODATA : 0;
}

int
bandwidth_mean(const struct bandwidth_channel *before, const struct bandwidth_channel *after,
               struct bandwidth_mean *out)
{
    double weighted = 0, time = 0;

    if (before->n != after->n || before->step != after->step || after->n == 0)
        return -EINVAL;
    for (unsigned int k = 0; k < after->n; k++) {
        uint64_t gained = after->residency[k] - before->residency[k];

        if (after->residency[k] < before->residency[k])
            return -ERANGE;
        weighted += (double)gained * (double)((k + 1) * after->step);
        time += (double)gained;
    }
    if (time == 0)
        return -ENODATA;
    out->gbps = weighted / time;
    out->saturated = after->residency[after->n - 1] > before->residency[after->n - 1];
    return 0;
}
