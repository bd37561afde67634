#include "pstate_decode.h"
#include "entry_props.h"
#include "entry_set.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* IOReport prints its time units so (libIOReport's labels for XNU's
 * kIOReportUnit_s/ms/us/ns and kIOReportUnit24MHzTicks,
 * iokit/IOKit/IOReportTypes.h, xnu-11417.101.15; "24Mticks" is what macmon
 * prints for CPU Stats channels on real Macs). */
double
pstate_unit_ns(const char *label)
{
    static const struct {
        const char *label;
        double ns;
    } units[] = { { "s", 1e9 }, { "ms", 1e6 }, { "us", 1e3 }, { "ns", 1.0 } };
    char *end;
    size_t len;
    unsigned long mhz;

    while (isspace((unsigned char)*label))
        label++;
    for (len = strlen(label); len > 0 && isspace((unsigned char)label[len - 1]);)
        len--;                          /* labels may come padded, as energy units do */
    for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
        if (strlen(units[i].label) == len && strncmp(label, units[i].label, len) == 0)
            return units[i].ns;
    mhz = strtoul(label, &end, 10);
    return end != label && mhz > 0 && (size_t)(end - label) + 6 == len && strncmp(end, "Mticks", 6) == 0
               ? 1e3 / (double)mhz
               : 0.0;
}

/* Digits at *s (at most 6: no index is longer): their value, *s past
 * them; -1 when there are none or more. */
static long
digits(const char **s)
{
    long n = 0;
    int k = 0;

    for (; isdigit((unsigned char)**s); (*s)++)
        if (++k > 6)
            return -1;
        else
            n = n * 10 + (**s - '0');
    return k > 0 ? n : -1;
}

int
pstate_die(const char *name, const char **rest)
{
    const char *s = name + 4;
    long die;

    *rest = name;
    if (strncmp(name, "DIE_", 4) != 0 || (die = digits(&s)) < 0 || *s != '_')
        return -1;
    *rest = s + 1;
    return (int)die;
}

/* "[DIE_n_]<L>CPU..." (or, with cpm, "<L>CPM..."): the letter, die and
 * what follows; 0 or -1. A malformed die prefix is no letter. */
static int
cpu_prefix(const char *name, int cpm, struct pstate_channel *out, const char **rest)
{
    const char *s;

    out->die = pstate_die(name, &s);
    if ((s[0] != 'E' && s[0] != 'P' && s[0] != 'M') ||
        (strncmp(s + 1, "CPU", 3) != 0 && (!cpm || strncmp(s + 1, "CPM", 3) != 0)))
        return -1;
    out->letter = s[0];
    out->ran = s[3] == 'M';
    *rest = s + 4;
    return 0;
}

/* Whether name is one of role's, with its letter, die and ordinal. */
static int
named(const char *name, enum pstate_role role, struct pstate_channel *out)
{
    const char *rest;
    long n;

    out->letter = 0;
    out->die = -1;
    out->ordinal = 0;
    out->ran = 0;
    if (role == PSTATE_GPU)
        return strcmp(name, "GPUPH") == 0;
    if (cpu_prefix(name, role == PSTATE_CLUSTER, out, &rest) < 0)
        return 0;
    if (role == PSTATE_CLUSTER) {
        n = digits(&rest);
        out->ordinal = n > 0 ? (unsigned int)n : 0;
        return *rest == '\0';
    }
    n = digits(&rest);                  /* a core: "ECPU0", "PCPU13", "PCPU1_CPU0", "ECPU_CPU0" */
    if (strncmp(rest, "_CPU", 4) == 0) {
        out->ordinal = n > 0 ? (unsigned int)n : 0;
        rest += 4;
        n = digits(&rest);
    }
    return n >= 0 && *rest == '\0';
}

/* A clock state's table index, from its name where it carries one: i of
 * "V<i>P<j>" (and *need i + j + 1), j - 1 of the GPU's "P<j>" (P1 is the
 * lowest clock); otherwise its place among the clock states. -1: "P0",
 * which no table has. */
static long
state_index(const char *state, unsigned int place, unsigned int *need)
{
    const char *s = state + 1;
    long i, j;

    if (state[0] == 'V' && (i = digits(&s)) >= 0 && *s++ == 'P' && (j = digits(&s)) >= 0 && *s == '\0') {
        *need = (unsigned int)(i + j + 1);
        return i;
    }
    s = state + 1;
    if (state[0] == 'P' && (j = digits(&s)) >= 0 && *s == '\0')
        return j - 1;
    return place;
}

static int
add_state(struct pstate_channel *c, const char *state, uint64_t ticks, unsigned int *place)
{
    unsigned int need = 0;
    long i;

    if (strcmp(state, "IDLE") == 0) {
        c->idle += ticks;
        return 0;
    }
    if (strcmp(state, "DOWN") == 0 || strcmp(state, "OFF") == 0) {
        c->down += ticks;
        return 0;
    }
    i = state_index(state, (*place)++, &need);
    if (i < 0 || i >= DVFS_MAX_STATES || (need != 0 && c->need != 0 && need != c->need))
        return -ENOENT;             /* no such index; no table this long; names of two tables */
    if (need != 0)
        c->need = need;
    c->active[i] += ticks;
    if ((unsigned int)i + 1 > c->nactive)
        c->nactive = (unsigned int)i + 1;
    return 0;
}

int
pstate_channel(const struct plat_entry *e, enum pstate_role role, struct pstate_channel *out)
{
    const struct plat_prop *unit;
    unsigned int place = 0, states = 0;

    memset(out, 0, sizeof(*out));
    if (!named(e->name, role, out))
        return -ENOENT;
    _Static_assert(sizeof(out->name) == sizeof(e->name), "a channel's name fits whole");
    memcpy(out->name, e->name, sizeof(out->name));
    unit = entry_prop(e, "unit");
    out->ns_per_unit = unit != NULL && unit->kind == PLAT_PROP_STRING ? pstate_unit_ns(unit->text) : 0.0;
    for (unsigned int k = 0; k < e->nprops; k++) {
        const struct plat_prop *p = &e->prop[k];
        char state[PLAT_ENTRY_NAME_MAX];
        uint64_t ticks;

        if (strncmp(p->path, "state.", 6) != 0 || !entry_number(p, &ticks))
            continue;
        if (entry_path_part(p->path + 6, state, sizeof(state)) < 0 || add_state(out, state, ticks, &place) < 0)
            return -ENOENT;
        states++;
    }
    return states > 0 ? 0 : -ENODATA;
}

int
pstate_times(const struct pstate_channel *c, uint64_t *active_ns, uint64_t *idle_ns, uint64_t *down_ns)
{
    double active = 0;

    if (c->ns_per_unit <= 0)
        return -ENOTSUP;
    for (unsigned int i = 0; i < c->nactive; i++)
        active += (double)c->active[i];
    *active_ns = (uint64_t)(active * c->ns_per_unit);
    *idle_ns = (uint64_t)((double)c->idle * c->ns_per_unit);
    *down_ns = (uint64_t)((double)c->down * c->ns_per_unit);
    return 0;
}

int
pstate_cycles(const struct pstate_channel *c, const struct dvfs_table *t, double *cycles)
{
    double sum = 0;

    if (c->ns_per_unit <= 0)
        return -ENOTSUP;
    for (unsigned int i = 0; i < c->nactive; i++) {
        if (c->active[i] == 0)
            continue;
        if (i >= t->n || t->khz[i] == 0)
            return -ERANGE;
        sum += (double)c->active[i] * c->ns_per_unit * 1e-9 * (double)t->khz[i] * 1e3;
    }
    *cycles = sum;
    return 0;
}
