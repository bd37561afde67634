#include "energy_decode.h"
#include "registry_props.h"
#include "registry_set.h"

#include <stdio.h>
#include <string.h>

double
energy_unit_joules(const char *label)
{
    static const struct {
        const char *label;
        double joules;
    } units[] = { { "J", 1.0 }, { "mJ", 1e-3 }, { "uJ", 1e-6 }, { "\xc2\xb5J", 1e-6 }, { "nJ", 1e-9 }, { "pJ", 1e-12 } };

    for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
        if (strcmp(label, units[i].label) == 0)
            return units[i].joules;
    return 0.0;
}

static int
seen(const struct energy *e, const char *name)
{
    for (unsigned int i = 0; i < e->n; i++)
        if (strcmp(e->channel[i].name, name) == 0)
            return 1;
    return 0;
}

static void
add_unit(struct energy *e, enum energy_unit u, double joules)
{
    e->unit[u] += joules;
    e->have |= 1u << u;
}

void
energy_decode(const struct plat_reg_set *set, struct energy *out, struct energy_channel *channels,
              unsigned int cap)
{
    int gpu_named = 0;

    memset(out, 0, sizeof(*out));
    out->channel = channels;
    for (unsigned int i = 0; i < set->n; i++)
        gpu_named |= strcmp(set->entry[i].name, "GPU Energy") == 0;
    for (unsigned int i = 0; i < set->n && out->n < cap; i++) {
        const struct plat_reg_entry *e = &set->entry[i];
        const struct plat_reg_prop *unit = reg_prop(e, "unit");
        double scale = unit && unit->kind == PLAT_REG_STRING ? energy_unit_joules(unit->text) : 0.0;
        uint64_t raw;
        double j;

        if (scale == 0.0 || e->name[0] == '\0' || !reg_number(reg_prop(e, "value"), &raw) || seen(out, e->name))
            continue;
        j = (double)raw * scale;
        snprintf(channels[out->n].name, sizeof(channels[out->n].name), "%s", e->name);
        channels[out->n++].joules = j;
        if (strcmp(e->name, "CPU Energy") == 0)
            add_unit(out, ENERGY_CPU, j);
        else if (strcmp(e->name, gpu_named ? "GPU Energy" : "GPU") == 0)
            add_unit(out, ENERGY_GPU, j);
        else if (strncmp(e->name, "ANE", 3) == 0)
            add_unit(out, ENERGY_ANE, j);
        else if (strncmp(e->name, "DRAM", 4) == 0)
            add_unit(out, ENERGY_DRAM, j);
    }
}
