/*
 * Cluster 120: what upstream's GPU metrics leave out, from cluster 20's
 * read: the model and core count, Apple Silicon's renderer and tiler
 * utilisation, the GPU's own memory (none on unified memory) and what its
 * driver has allocated.
 */
#include "collector.h"
#include "metric_units.h"
#include "gpu.h"

enum { ITEM_MODEL = 0, ITEM_CORES, ITEM_RENDERER_UTIL, ITEM_TILER_UTIL, ITEM_MEMORY_TOTAL, ITEM_MEMORY_ALLOCATED,
       ITEM_UNIFIED };


static const struct metric_row rows[] = {
    { "gpu.model", ITEM_MODEL, PM_TYPE_STRING, GPU_INDOM, PM_SEM_DISCRETE, UNITS_NONE },
    { "gpu.cores", ITEM_CORES, PM_TYPE_U32, GPU_INDOM, PM_SEM_DISCRETE, UNITS_COUNT },
    { "gpu.renderer.util", ITEM_RENDERER_UTIL, PM_TYPE_U32, GPU_INDOM, PM_SEM_INSTANT, UNITS_NONE },
    { "gpu.tiler.util", ITEM_TILER_UTIL, PM_TYPE_U32, GPU_INDOM, PM_SEM_INSTANT, UNITS_NONE },
    { "gpu.memory.total", ITEM_MEMORY_TOTAL, PM_TYPE_U64, GPU_INDOM, PM_SEM_DISCRETE, UNITS_BYTE },
    { "gpu.memory.allocated", ITEM_MEMORY_ALLOCATED, PM_TYPE_U64, GPU_INDOM, PM_SEM_INSTANT, UNITS_BYTE },
    { "gpu.memory.unified", ITEM_UNIFIED, PM_TYPE_U32, GPU_INDOM, PM_SEM_DISCRETE, UNITS_NONE },
};

static int
gpu_detail_refresh(const struct platform *p, pmInDom indom)
{
    (void)p;
    (void)indom;
    return 0;       /* cluster 20, a dependency, has read the GPUs */
}

static int
gpu_detail_fetch(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    static const enum gpu_field field[] = {
        [ITEM_CORES] = GPU_CORES, [ITEM_RENDERER_UTIL] = GPU_RENDERER_UTIL, [ITEM_TILER_UTIL] = GPU_TILER_UTIL,
        [ITEM_MEMORY_TOTAL] = GPU_MEMORY_TOTAL, [ITEM_MEMORY_ALLOCATED] = GPU_MEMORY_ALLOCATED,
    };
    const struct gpu *g = gpu_of_inst(inst);

    if (g == NULL)
        return PM_ERR_INST;
    switch (row->item) {
    case ITEM_MODEL:
        if (g->model[0] == '\0')
            return PMDA_FETCH_NOVALUES;
        atom->cp = (char *)g->model;
        return PMDA_FETCH_STATIC;
    case ITEM_UNIFIED:
        atom->ul = (uint32_t)g->unified;
        return PMDA_FETCH_STATIC;
    }
    return gpu_field_value(g, field[row->item], row->type, atom);
}

const struct collector gpu_detail_collector = {
    .name = "GPU detail",
    .cluster = 120,
    .ndepends = 1,
    .depends = { GPU_CLUSTER },
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .refresh = gpu_detail_refresh,
    .fetch = gpu_detail_fetch,
};
