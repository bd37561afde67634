#include "bandwidth_decode.h"
#include "entry_props.h"
#include "entry_set.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

/* libIOReport's kIOReportInvalidValue (xnu-11417.101.15
 * iokit/IOKit/IOReportTypes.h:40-50) as the 64 bits a residency or count
 * holds. */
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
bandwidth_name(const char *name, struct bandwidth_layout *out)
{
    const char *rest;
    size_t len;

    out->die = die_of(name, &rest);
    if (direction_of(rest, &out->direction, &len) < 0)
        return -ENOENT;
    memcpy(out->requestor, rest, len);
    out->requestor[len] = '\0';
    return 0;
}

int
bandwidth_bytes(const struct plat_entry *e, uint64_t *bytes)
{
    return entry_number(entry_prop(e, "value"), bytes) && *bytes != INVALID_RESIDENCY ? 0 : -ENODATA;
}

int
bandwidth_layout(const struct plat_entry *e, struct bandwidth_layout *out)
{
    unsigned int label[BANDWIDTH_MAX_BUCKETS], at[BANDWIDTH_MAX_BUCKETS];
    unsigned int filled[BANDWIDTH_MAX_BUCKETS] = { 0 };
    unsigned int n = 0, step = 0;
    int sts;

    if ((sts = bandwidth_name(e->name, out)) < 0)
        return sts;
    if (e->nprops > BANDWIDTH_MAX_PROPS)
        return -EDOM;
    out->nprops = e->nprops;
    memset(out->bucket, BANDWIDTH_NOT_A_BUCKET, sizeof(out->bucket));
    for (unsigned int k = 0; k < e->nprops; k++) {
        const struct plat_prop *p = &e->prop[k];
        char state[PLAT_ENTRY_NAME_MAX];
        uint64_t v;

        if (strncmp(p->path, "state.", 6) != 0 || !entry_number(p, &v))
            continue;
        if (n == BANDWIDTH_MAX_BUCKETS || entry_path_part(p->path + 6, state, sizeof(state)) < 0 ||
            (label[n] = gbps_of(state)) == 0)
            return -EDOM;
        if (step == 0 || label[n] < step)
            step = label[n];
        at[n++] = k;
    }
    for (unsigned int i = 0; i < n; i++) {
        unsigned int k = label[i] / step - 1;

        if (label[i] % step != 0 || k >= n || filled[k]++)
            return -EDOM;               /* not the whole series from the lowest bucket up */
        out->bucket[at[i]] = (unsigned char)k;
    }
    out->n = n;
    out->step = step;
    return n == 0 ? -ENODATA : 0;
}

int
bandwidth_residencies(const struct plat_entry *e, const struct bandwidth_layout *l, uint64_t *residency)
{
    int invalid = 0;

    if (e->nprops != l->nprops)
        return -ESTALE;
    for (unsigned int k = 0; k < e->nprops; k++) {
        uint64_t v;

        if (l->bucket[k] == BANDWIDTH_NOT_A_BUCKET)
            continue;
        if (!entry_number(&e->prop[k], &v))
            return -ESTALE;
        invalid |= v == INVALID_RESIDENCY;
        residency[l->bucket[k]] = v;
    }
    return invalid ? -ENODATA : 0;
}

int
bandwidth_channel(const struct plat_entry *e, struct bandwidth_channel *out)
{
    struct bandwidth_layout l;
    int sts;

    memset(out, 0, sizeof(*out));
    if ((sts = bandwidth_layout(e, &l)) < 0 && sts != -ENODATA)
        return sts;
    memcpy(out->requestor, l.requestor, sizeof(out->requestor));
    out->die = l.die;
    out->direction = l.direction;
    out->n = l.n;
    out->step = l.step;
    return sts < 0 ? sts : bandwidth_residencies(e, &l, out->residency);
}

int
bandwidth_mean_of(unsigned int n, unsigned int step, const uint64_t *before, const uint64_t *after,
                  struct bandwidth_mean *out)
{
    double weighted = 0, time = 0;

    for (unsigned int k = 0; k < n; k++) {
        uint64_t gained = after[k] - before[k];

        if (after[k] < before[k])
            return -ERANGE;
        weighted += (double)gained * (double)((k + 1) * step);
        time += (double)gained;
    }
    if (time == 0)
        return -ENODATA;
    out->gbps = weighted / time;
    out->saturated = after[n - 1] > before[n - 1];
    return 0;
}

int
bandwidth_mean(const struct bandwidth_channel *before, const struct bandwidth_channel *after,
               struct bandwidth_mean *out)
{
    if (before->n != after->n || before->step != after->step || after->n == 0)
        return -EINVAL;
    return bandwidth_mean_of(after->n, after->step, before->residency, after->residency, out);
}
