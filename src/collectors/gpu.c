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

/* A GPU of the last refresh, and its instance. */
struct gpu_entry {
    int inst;
    unsigned int named;                 /* 1: gpu.model is known */
    struct gpu gpu;
};

struct gpu_state {
    struct gpu_entry gpus[GPU_MAX];
    unsigned int ngpus;
};

/* A GPU's row, and after its units the GPU's value it serves. */
#define ROW(name, cluster, item, type, sem, units, ...) { name, cluster, item, type, INDOM_GPU, sem, units, __VA_ARGS__ }
#define VALUE(f) FIELD_PRESENT(struct gpu_entry, gpu.value[f], gpu.have, f, FIELD_PLAIN)

static const struct metric_row rows[] = {
    ROW("gpu.util", CLUSTER_GPU, 0, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_NONE, VALUE(GPU_UTIL)),
    ROW("gpu.memory.used", CLUSTER_GPU, 1, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_BYTE, VALUE(GPU_MEMORY_USED)),
    ROW("gpu.memory.free", CLUSTER_GPU, 2, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_BYTE, VALUE(GPU_MEMORY_FREE)),
    { "hinv.ngpu", CLUSTER_GPU, 99, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_DISCRETE, UNITS_COUNT,
      FIELD_ALWAYS(struct gpu_state, ngpus, FIELD_PLAIN) },
    ROW("gpu.model", CLUSTER_GPU_DETAIL, 0, PM_TYPE_STRING, PM_SEM_DISCRETE, UNITS_NONE,
        FIELD_PRESENT(struct gpu_entry, gpu.model, named, 0, FIELD_TEXT)),
    ROW("gpu.cores", CLUSTER_GPU_DETAIL, 1, PM_TYPE_U32, PM_SEM_DISCRETE, UNITS_COUNT, VALUE(GPU_CORES)),
    ROW("gpu.renderer.util", CLUSTER_GPU_DETAIL, 2, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_NONE, VALUE(GPU_RENDERER_UTIL)),
    ROW("gpu.tiler.util", CLUSTER_GPU_DETAIL, 3, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_NONE, VALUE(GPU_TILER_UTIL)),
    ROW("gpu.memory.total", CLUSTER_GPU_DETAIL, 4, PM_TYPE_U64, PM_SEM_DISCRETE, UNITS_BYTE, VALUE(GPU_MEMORY_TOTAL)),
    ROW("gpu.memory.allocated", CLUSTER_GPU_DETAIL, 5, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_BYTE,
        VALUE(GPU_MEMORY_ALLOCATED)),
    ROW("gpu.memory.unified", CLUSTER_GPU_DETAIL, 6, PM_TYPE_U32, PM_SEM_DISCRETE, UNITS_NONE,
        FIELD_ALWAYS(struct gpu_entry, gpu.unified, FIELD_PLAIN)),
};

static const struct indom_def indom = {
    .serial = INDOM_GPU,
    .label_name = "GPU",
    .table = INSTANCES_IN(struct gpu_state, gpus, ngpus, struct gpu_entry, inst),
};

static int
gpu_refresh(void *state, struct refresh_call *call)
{
    struct gpu_state *s = state;
    const struct platform *p = call->p;
    pmInDom id = call->indom;
    struct plat_entry_set set;
    struct gpu found[GPU_MAX];
    unsigned int n = 0;
    int sts;

    s->ngpus = 0;
    if ((sts = p->query(p->ctx, &plat_queries[PLAT_QUERY_GPUS], &set)) < 0 && sts != -ENOENT)
        return collector_error(sts);
    if (sts == 0)
        gpu_decode(&set, found, GPU_MAX, &n);     /* none: a Mac (or VM) without a GPU */
    names_begin(id);
    for (; s->ngpus < n; s->ngpus++) {
        struct gpu_entry *e = &s->gpus[s->ngpus];
        char name[16];

        snprintf(name, sizeof(name), "gpu%u", s->ngpus);
        if ((e->inst = names_add(id, name)) < 0)
            return e->inst;
        e->gpu = found[s->ngpus];
        e->named = e->gpu.model[0] != '\0';
    }
    return 0;
}

static int
gpu_labels(const void *state, pmInDom id, unsigned int inst, char *json, size_t len)
{
    const struct gpu_entry *e = collector_entry(&indom, state, inst);
    char model[PLAT_NAME_MAX];

    (void)id;
    if (e == NULL)
        return -1;
    collector_label_text(e->named ? e->gpu.model : "unknown", model, sizeof(model));
    snprintf(json, len, "{\"model\":\"%s\",\"memory\":\"%s\"}", model, e->gpu.unified ? "unified" : "dedicated");
    return 0;
}

const struct collector gpu_collector = {
    .name = "gpu",
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .indom = &indom,
    .state_size = sizeof(struct gpu_state),
    .refresh = gpu_refresh,
    .instance_labels = gpu_labels,
};
