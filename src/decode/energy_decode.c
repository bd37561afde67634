#include "energy_decode.h"
#include "entry_props.h"
#include "entry_set.h"

#include <ctype.h>
#include <string.h>

/* IOReport's labels may come padded ("mJ  "): macmon, Stats and mactop
 * trim them before they compare, and so does this. */
double
energy_unit_joules(const char *label)
{
    static const struct {
        const char *label;
        double joules;
    } units[] = { { "J", 1.0 }, { "mJ", 1e-3 }, { "uJ", 1e-6 }, { "\xc2\xb5J", 1e-6 }, { "nJ", 1e-9 }, { "pJ", 1e-12 } };
    size_t len;

    while (isspace((unsigned char)*label))
        label++;
    for (len = strlen(label); len > 0 && isspace((unsigned char)label[len - 1]);)
        len--;
    for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
        if (strlen(units[i].label) == len && strncmp(label, units[i].label, len) == 0)
            return units[i].joules;
    return 0.0;
}

/* A channel in an energy unit, with a name: its joules (1), no value this
 * round (-1), or 0 for any other channel. */
static int
joules_of(const struct plat_entry *e, double *joules)
{
    const struct plat_prop *unit = entry_prop(e, "unit");
    double scale = unit && unit->kind == PLAT_PROP_STRING ? energy_unit_joules(unit->text) : 0.0;
    uint64_t raw;

    if (scale == 0.0 || e->name[0] == '\0')
        return 0;
    if (!entry_number(entry_prop(e, "value"), &raw))
        return -1;
    *joules = (double)raw * scale;
    return 1;
}

static int
ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);

    return n >= t && strcmp(s + n - t, tail) == 0;
}

/* The unit a channel adds to, or ENERGY_NUNITS. Every "...CPU Energy":
 * "CPU Energy", and on Ultra chips one per die ("DIE_0_CPU Energy",
 * "DIE_1_CPU Energy"), which macmon, Stats and mactop add up. */
static enum energy_unit
unit_of(const char *name, int gpu_named)
{
    if (ends_with(name, "CPU Energy"))
        return ENERGY_CPU;
    if (strcmp(name, gpu_named ? "GPU Energy" : "GPU") == 0)
        return ENERGY_GPU;
    if (strncmp(name, "ANE", 3) == 0)
        return ENERGY_ANE;
    if (strncmp(name, "DRAM", 4) == 0)
        return ENERGY_DRAM;
    return ENERGY_NUNITS;
}

static void
add_channel(struct energy *out, const char *name, double joules, enum energy_unit u)
{
    struct energy_channel *c = &out->channel[out->n];

    entry_unique_name(out->channel[0].name, sizeof(*c), out->n, name, c->name, sizeof(c->name));
    c->joules = joules;
    c->unit = u;
    out->n++;
}

void
energy_decode(const struct plat_entry_set *set, struct energy *out, struct energy_channel *channels,
              unsigned int cap)
{
    int gpu_named = 0;

    memset(out, 0, sizeof(*out));
    out->channel = channels;
    for (unsigned int i = 0; i < set->n; i++)
        gpu_named |= strcmp(set->entry[i].name, "GPU Energy") == 0;
    for (unsigned int i = 0; i < set->n; i++) {
        enum energy_unit u = unit_of(set->entry[i].name, gpu_named);
        double j;
        int has = joules_of(&set->entry[i], &j);

        if (has < 0 && u != ENERGY_NUNITS)
            out->short_of |= 1u << u;
        if (has <= 0)
            continue;
        if (u != ENERGY_NUNITS) {
            out->unit[u] += j;
            out->have |= 1u << u;
        }
        if (out->n < cap)
            add_channel(out, set->entry[i].name, j, u);
    }
}
