#include "gpu_decode.h"
#include "entry_props.h"
#include "entry_set.h"

#include <stdlib.h>
#include <string.h>

#define MIB (1024ull * 1024ull)

/* Intel's PCI vendor id. Every Intel GPU in a Mac is integrated: its
 * "VRAM,totalMB" is the most of the Mac's memory the driver may take
 * (System Information's "VRAM (Dynamic, Max)", 1536 on an Ice Lake Mac),
 * not memory of its own. Every other PCI GPU a Mac has had (AMD's, NVIDIA's)
 * is discrete, with VRAM of its own. */
#define PCI_VENDOR_INTEL 0x8086

_Static_assert(GPU_NFIELDS <= 32, "every GPU field has a bit of have");

static const struct key_place accelerator_places[] = { GPU_KEYS(REG_PLACE, REG_PLACE, REG_KEY_NONE) };
static const struct key_place provider_places[] = { GPU_KEYS(REG_KEY_NONE, REG_KEY_NONE, REG_PLACE) };

static int
is_parent(const struct plat_entry_set *set, uint64_t id)
{
    for (unsigned int i = 0; i < set->n; i++)
        if (set->entry[i].parent == id)
            return 1;
    return 0;
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
model_of(const struct plat_entry *e, char *out, size_t len)
{
    const struct plat_prop *p = e ? entry_prop_key(e, GPU_MODEL_KEY) : NULL;
    size_t n = 0;

    if (p != NULL && p->kind == PLAT_PROP_DATA) {
        for (uint32_t i = 0; i < p->len && p->data[i] != '\0' && n + 1 < len; i++)
            out[n++] = p->data[i] >= ' ' && p->data[i] < 0x7f ? (char)p->data[i] : '?';
        out[n] = '\0';
    } else {
        entry_text(p, out, len);
    }
}

/* The PCI vendor that the accelerator's driver matches, when every id of
 * its "IOPCIPrimaryMatch" (else "IOPCIMatch") names the same one, else 0.
 * IOPCIFamily's ids are 0xDDDDVVVV, the vendor in the low 16 bits, each
 * maybe masked ("&0xMMMMMMMM"): "0x8A528086 0x8A538086" on Intel's Ice
 * Lake driver, "0x73401002 ..." on AMD's Navi 14. */
static unsigned int
matched_vendor(const struct plat_entry *e)
{
    const struct plat_prop *p = entry_prop_key(e, GPU_PCI_PRIMARY_MATCH_KEY);
    unsigned int vendor = 0;
    const char *at;
    char *end;

    if (p == NULL || p->kind != PLAT_PROP_STRING)
        p = entry_prop_key(e, GPU_PCI_MATCH_KEY);
    if (p == NULL || p->kind != PLAT_PROP_STRING)
        return 0;
    for (at = p->text; *at != '\0'; at = end) {
        unsigned long id;

        while (*at == ' ')
            at++;
        if (*at == '\0')
            break;
        id = strtoul(at, &end, 16);
        if (end == at || (vendor != 0 && (id & 0xffff) != vendor))
            return 0;
        vendor = id & 0xffff;
        if (*end == '&')                /* the mask: 0x and hex digits */
            (void)strtoul(end + 1, &end, 16);
        if (*end != ' ' && *end != '\0')
            return 0;
    }
    return vendor;
}

/* The memory in use, on VRAM or (unified memory) the system's, the VRAM's
 * size and what of it is free, never below 0. */
static void
decode_memory(struct gpu *g)
{
    uint64_t total = g->value[GPU_VRAM_TOTAL_MB] * MIB;

    if (gpu_has(g, GPU_VRAM_USED))
        put(g, GPU_MEMORY_USED, g->value[GPU_VRAM_USED]);
    else if (g->unified && gpu_has(g, GPU_SYSTEM_MEMORY_USED))
        put(g, GPU_MEMORY_USED, g->value[GPU_SYSTEM_MEMORY_USED]);
    if (g->unified || !gpu_has(g, GPU_VRAM_TOTAL_MB))
        return;
    put(g, GPU_MEMORY_TOTAL, total);
    if (gpu_has(g, GPU_VRAM_FREE))
        put(g, GPU_MEMORY_FREE, g->value[GPU_VRAM_FREE]);
    else if (gpu_has(g, GPU_MEMORY_USED))
        put(g, GPU_MEMORY_FREE, g->value[GPU_MEMORY_USED] < total ? total - g->value[GPU_MEMORY_USED] : 0);
}

static void
decode_one(const struct plat_entry_set *set, const struct plat_entry *e, struct gpu *g)
{
    const struct plat_entry *provider = entry_by_id(set, e->parent);
    unsigned int vendor;

    memset(g, 0, sizeof(*g));
    g->id = e->id;
    read_key_places(e, accelerator_places, REG_NPLACES(accelerator_places), &g->have, g->value);
    read_key_places(provider, provider_places, REG_NPLACES(provider_places), &g->have, g->value);
    vendor = matched_vendor(e);
    /* By the vendor where the driver names it, else by whether there is VRAM. */
    g->unified = vendor == PCI_VENDOR_INTEL || (vendor == 0 && !gpu_has(g, GPU_VRAM_TOTAL_MB));
    decode_memory(g);
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
gpu_decode(const struct plat_entry_set *set, struct gpu *out, unsigned int cap, unsigned int *n)
{
    *n = 0;
    for (unsigned int i = 0; i < set->n && *n < cap; i++)
        if (!is_parent(set, set->entry[i].id))
            decode_one(set, &set->entry[i], &out[(*n)++]);
    qsort(out, *n, sizeof(*out), by_id);
}
