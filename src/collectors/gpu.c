/*
 * The GPU family, from each IOAccelerator (gpu_decode.c): upstream's names
 * and PMIDs (cluster 20), and what those leave out (cluster 120): the
 * model and core count, Apple Silicon's renderer and tiler utilisation,
 * the GPU's own memory (none on unified memory) and what its driver has
 * allocated. The count follows the machine at every refresh (an eGPU can
 * come and go); instances are kept by name; gpu.memory.free
 * has no value on unified memory.
 */
#include "collector.h"
#include "instance_names.h"
#include "metric_units.h"
#include "gpu_decode.h"

#include <errno.h>
#include <stdio.h>

enum { ITEM_UTIL = 0, ITEM_MEMORY_USED = 1, ITEM_MEMORY_FREE = 2, ITEM_NGPU = 99 };
enum { ITEM_MODEL = 0, ITEM_CORES, ITEM_RENDERER_UTIL, ITEM_TILER_UTIL, ITEM_MEMORY_TOTAL, ITEM_MEMORY_ALLOCATED,
       ITEM_UNIFIED };     /* cluster 120 */

static const struct metric_row rows[] = {
    { "gpu.util", CLUSTER_GPU, ITEM_UTIL, PM_TYPE_U32, INDOM_GPU, PM_SEM_INSTANT, UNITS_NONE },
    { "gpu.memory.used", CLUSTER_GPU, ITEM_MEMORY_USED, PM_TYPE_U64, INDOM_GPU, PM_SEM_INSTANT, UNITS_BYTE },
    { "gpu.memory.free", CLUSTER_GPU, ITEM_MEMORY_FREE, PM_TYPE_U64, INDOM_GPU, PM_SEM_INSTANT, UNITS_BYTE },
    { "hinv.ngpu", CLUSTER_GPU, ITEM_NGPU, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_DISCRETE, UNITS_COUNT },
    { "gpu.model", CLUSTER_GPU_DETAIL, ITEM_MODEL, PM_TYPE_STRING, INDOM_GPU, PM_SEM_DISCRETE, UNITS_NONE },
    { "gpu.cores", CLUSTER_GPU_DETAIL, ITEM_CORES, PM_TYPE_U32, INDOM_GPU, PM_SEM_DISCRETE, UNITS_COUNT },
    { "gpu.renderer.util", CLUSTER_GPU_DETAIL, ITEM_RENDERER_UTIL, PM_TYPE_U32, INDOM_GPU, PM_SEM_INSTANT, UNITS_NONE },
    { "gpu.tiler.util", CLUSTER_GPU_DETAIL, ITEM_TILER_UTIL, PM_TYPE_U32, INDOM_GPU, PM_SEM_INSTANT, UNITS_NONE },
    { "gpu.memory.total", CLUSTER_GPU_DETAIL, ITEM_MEMORY_TOTAL, PM_TYPE_U64, INDOM_GPU, PM_SEM_DISCRETE, UNITS_BYTE },
    { "gpu.memory.allocated", CLUSTER_GPU_DETAIL, ITEM_MEMORY_ALLOCATED, PM_TYPE_U64, INDOM_GPU, PM_SEM_INSTANT,
      UNITS_BYTE },
    { "gpu.memory.unified", CLUSTER_GPU_DETAIL, ITEM_UNIFIED, PM_TYPE_U32, INDOM_GPU, PM_SEM_DISCRETE, UNITS_NONE },
};

static const struct indom_def indom = { .serial = INDOM_GPU, .label_name = "GPU" };

#define GPU_MAX 16

struct gpu_state {
    struct gpu gpus[GPU_MAX];
    int gpu_inst[GPU_MAX];
    unsigned int ngpus;
};

static int
gpu_refresh(void *state, struct refresh_call *call)
{
    struct gpu_state *s = state;
    const struct platform *p = call->p;
    pmInDom id = call->indom;
    struct plat_reg_set set;
    int sts;

    s->ngpus = 0;
    if ((sts = p->registry(p->ctx, &plat_reg_queries[PLAT_REGQ_GPUS], &set)) < 0 && sts != -ENOENT)
        return collector_error(sts);
    if (sts == 0)
        gpu_decode(&set, s->gpus, GPU_MAX, &s->ngpus);    /* none: a Mac (or VM) without a GPU */
    names_begin(id);
    for (unsigned int i = 0; i < s->ngpus; i++) {
        char name[16];

        snprintf(name, sizeof(name), "gpu%u", i);
        if ((s->gpu_inst[i] = names_add(id, name)) < 0)
            return s->gpu_inst[i];
    }
    return 0;
}

/* The GPU whose instance is inst at the last refresh, or NULL. */
static const struct gpu *
gpu_of_inst(const struct gpu_state *s, unsigned int inst)
{
    for (unsigned int i = 0; i < s->ngpus; i++)
        if ((unsigned int)s->gpu_inst[i] == inst)
            return &s->gpus[i];
    return NULL;
}

/* A GPU's value of field as a fetch returns it (type PM_TYPE_U32 or U64). */
static int
field_value(const struct gpu *g, enum gpu_field f, int type, pmAtomValue *atom)
{
    if (!gpu_has(g, f))
        return PMDA_FETCH_NOVALUES;
    if (type == PM_TYPE_U32)
        atom->ul = (uint32_t)g->value[f];
    else
        atom->ull = g->value[f];
    return PMDA_FETCH_STATIC;
}

static int
gpu_fetch(const void *state, const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    static const enum gpu_field upstream_field[] = {
        [ITEM_UTIL] = GPU_UTIL, [ITEM_MEMORY_USED] = GPU_MEMORY_USED, [ITEM_MEMORY_FREE] = GPU_MEMORY_FREE,
    };
    static const enum gpu_field detail_field[] = {
        [ITEM_CORES] = GPU_CORES, [ITEM_RENDERER_UTIL] = GPU_RENDERER_UTIL, [ITEM_TILER_UTIL] = GPU_TILER_UTIL,
        [ITEM_MEMORY_TOTAL] = GPU_MEMORY_TOTAL, [ITEM_MEMORY_ALLOCATED] = GPU_MEMORY_ALLOCATED,
    };
    const struct gpu_state *s = state;
    const struct gpu *g;

    if (row->cluster == CLUSTER_GPU && row->item == ITEM_NGPU) {
        atom->ul = s->ngpus;
        return PMDA_FETCH_STATIC;
    }
    if ((g = gpu_of_inst(s, inst)) == NULL)
        return PM_ERR_INST;
    if (row->cluster == CLUSTER_GPU)
        return field_value(g, upstream_field[row->item], row->type, atom);
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
    return field_value(g, detail_field[row->item], row->type, atom);
}

static int
gpu_labels(const void *state, pmInDom id, unsigned int inst, char *json, size_t len)
{
    const struct gpu *g = gpu_of_inst(state, inst);
    char model[PLAT_NAME_MAX];

    (void)id;
    if (g == NULL)
        return -1;
    collector_label_text(g->model[0] ? g->model : "unknown", model, sizeof(model));
    snprintf(json, len, "{\"model\":\"%s\",\"memory\":\"%s\"}", model, g->unified ? "unified" : "dedicated");
    return 0;
}

const struct collector gpu_collector = {
    .name = "GPU",
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .indom = &indom,
    .state_size = sizeof(struct gpu_state),
    .refresh = gpu_refresh,
    .fetch = gpu_fetch,
    .instance_labels = gpu_labels,
};
