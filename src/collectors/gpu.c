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
#include "metric_ids.h"
#include "instance_names.h"
#include "metric_units.h"
#include "gpu_decode.h"

#include <errno.h>
#include <stdio.h>

#define GPU_MAX 16

struct gpu_state {
    struct gpu gpus[GPU_MAX];
    int gpu_inst[GPU_MAX];
    unsigned int ngpus;
};

/* A GPU's row, and after its units the GPU's value it serves (all but the model). */
#define ROW(name, cluster, item, type, sem, units, ...) { name, cluster, item, type, INDOM_GPU, sem, units, __VA_ARGS__ }
#define VALUE(f) FIELD_PRESENT(struct gpu, value[f], have, f, FIELD_PLAIN)

static const struct metric_row rows[] = {
    ROW("gpu.util", CLUSTER_GPU, 0, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_NONE, VALUE(GPU_UTIL)),
    ROW("gpu.memory.used", CLUSTER_GPU, 1, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_BYTE, VALUE(GPU_MEMORY_USED)),
    ROW("gpu.memory.free", CLUSTER_GPU, 2, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_BYTE, VALUE(GPU_MEMORY_FREE)),
    { "hinv.ngpu", CLUSTER_GPU, 99, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_DISCRETE, UNITS_COUNT,
      FIELD_ALWAYS(struct gpu_state, ngpus, FIELD_PLAIN) },
    ROW("gpu.model", CLUSTER_GPU_DETAIL, 0, PM_TYPE_STRING, PM_SEM_DISCRETE, UNITS_NONE),
    ROW("gpu.cores", CLUSTER_GPU_DETAIL, 1, PM_TYPE_U32, PM_SEM_DISCRETE, UNITS_COUNT, VALUE(GPU_CORES)),
    ROW("gpu.renderer.util", CLUSTER_GPU_DETAIL, 2, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_NONE, VALUE(GPU_RENDERER_UTIL)),
    ROW("gpu.tiler.util", CLUSTER_GPU_DETAIL, 3, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_NONE, VALUE(GPU_TILER_UTIL)),
    ROW("gpu.memory.total", CLUSTER_GPU_DETAIL, 4, PM_TYPE_U64, PM_SEM_DISCRETE, UNITS_BYTE, VALUE(GPU_MEMORY_TOTAL)),
    ROW("gpu.memory.allocated", CLUSTER_GPU_DETAIL, 5, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_BYTE,
        VALUE(GPU_MEMORY_ALLOCATED)),
    ROW("gpu.memory.unified", CLUSTER_GPU_DETAIL, 6, PM_TYPE_U32, PM_SEM_DISCRETE, UNITS_NONE,
        FIELD_ALWAYS(struct gpu, unified, FIELD_PLAIN)),
};

static const struct indom_def indom = { .serial = INDOM_GPU, .label_name = "GPU" };

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

static int
gpu_fetch(const void *state, const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    const struct gpu_state *s = state;
    const struct gpu *g;

    if (row->indom == COLLECTOR_NO_INDOM)
        return collector_field(row, s, atom);
    if ((g = gpu_of_inst(s, inst)) == NULL)
        return PM_ERR_INST;
    if (row->field.kind != FIELD_NONE)
        return collector_field(row, g, atom);
    if (g->model[0] == '\0')                 /* the model, the one row not bound */
        return PMDA_FETCH_NOVALUES;
    atom->cp = (char *)g->model;
    return PMDA_FETCH_STATIC;
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
