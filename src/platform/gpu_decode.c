#include "gpu_decode.h"
#include "registry_props.h"
#include "registry_set.h"

#include <stdlib.h>
#include <string.h>

#define MIB (1024ull * 1024ull)

static int
is_parent(const struct plat_reg_set *set, uint64_t id)
{
    for (unsigned int i = 0; i < set->n; i++)
        if (set->entry[i].parent == id)
            return 1;
    return 0;
}

static int
stat_of(const struct plat_reg_entry *e, const char *key, uint64_t *out)
{
    return reg_number(reg_prop_in(e, "PerformanceStatistics", key), out);
}

static void
put(struct gpu *g, enum gpu_field f, uint64_t v)
{
    g->value[f] = v;
    g->have |= 1u << f;
}

/* "model": a string on Apple Silicon's accelerator, NUL-terminated data on
 * a PCI GPU's device node. */
static void
model_of(const struct plat_reg_entry *e, char *out, size_t len)
{
    const struct plat_reg_prop *p = e ? reg_prop(e, "model") : NULL;
    size_t n = 0;

    if (p != NULL && p->kind == PLAT_REG_DATA) {
        for (uint32_t i = 0; i < p->len && p->data[i] != '\0' && n + 1 < len; i++)
            out[n++] = p->data[i] >= ' ' && p->data[i] < 0x7f ? (char)p->data[i] : '?';
        out[n] = '\0';
    } else {
        reg_text(p, out, len);
    }
}

static void
decode_one(const struct plat_reg_set *set, const struct plat_reg_entry *e, struct gpu *g)
{
    const struct plat_reg_entry *provider = reg_entry_by_id(set, e->parent);
    uint64_t v, mb;

    memset(g, 0, sizeof(*g));
    g->id = e->id;
    if (stat_of(e, "Device Utilization %", &v) || stat_of(e, "GPU Activity(%)", &v))
        put(g, GPU_UTIL, v);
    if (stat_of(e, "Renderer Utilization %", &v))
        put(g, GPU_RENDERER_UTIL, v);
    if (stat_of(e, "Tiler Utilization %", &v))
        put(g, GPU_TILER_UTIL, v);
    if (stat_of(e, "Alloc system memory", &v))
        put(g, GPU_MEMORY_ALLOCATED, v);
    if (reg_number(reg_prop(e, "gpu-core-count"), &v))
        put(g, GPU_CORES, v);
    g->unified = !(reg_number(reg_prop(e, "VRAM,totalMB"), &mb) ||
                   (provider && reg_number(reg_prop(provider, "VRAM,totalMB"), &mb)));
    if (stat_of(e, "vramUsedBytes", &v) || (g->unified && stat_of(e, "In use system memory", &v)))
        put(g, GPU_MEMORY_USED, v);
    if (!g->unified) {
        put(g, GPU_MEMORY_TOTAL, mb * MIB);
        if (stat_of(e, "vramFreeBytes", &v))
            put(g, GPU_MEMORY_FREE, v);
        else if (gpu_has(g, GPU_MEMORY_USED))
            put(g, GPU_MEMORY_FREE, g->value[GPU_MEMORY_USED] < mb * MIB ? mb * MIB - g->value[GPU_MEMORY_USED] : 0);
    }
    model_of(e, g->model, sizeof(g->model));
    if (g->model[0] == '\0')
        model_of(provider, g->model, sizeof(g->model));
}

static int
by_id(const void *a, const void *b)
{
    uint64_t x = ((const struct gpu *)a)->id, y = ((const struct gpu *)b)->id;

    return x < y ? -1 : x > y;
}

void
gpu_decode(const struct plat_reg_set *set, struct gpu *out, unsigned int cap, unsigned int *n)
{
    *n = 0;
    for (unsigned int i = 0; i < set->n && *n < cap; i++)
        if (!is_parent(set, set->entry[i].id))
            decode_one(set, &set->entry[i], &out[(*n)++]);
    qsort(out, *n, sizeof(*out), by_id);
}
