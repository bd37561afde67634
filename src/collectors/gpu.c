/*
 * Cluster 20: GPUs, upstream's names and PMIDs, from each IOAccelerator
 * (gpu_decode.c). Fixed from upstream: the count follows the machine at
 * every refresh (an eGPU can come and go) instead of freezing at the first
 * enumeration, the instance domain is kept in pmdaCache by name instead of
 * a set allocated anew (and leaked) at every refresh, and gpu.memory.free
 * has no value on unified memory instead of an unsigned underflow.
 */
#include "collector.h"
#include "metric_units.h"
#include "gpu.h"

#include <errno.h>
#include <stdio.h>

enum { ITEM_UTIL = 0, ITEM_MEMORY_USED = 1, ITEM_MEMORY_FREE = 2, ITEM_NGPU = 99 };


static const struct metric_row rows[] = {
    { "gpu.util", ITEM_UTIL, PM_TYPE_U32, GPU_INDOM, PM_SEM_INSTANT, UNITS_NONE },
    { "gpu.memory.used", ITEM_MEMORY_USED, PM_TYPE_U64, GPU_INDOM, PM_SEM_INSTANT, UNITS_BYTE },
    { "gpu.memory.free", ITEM_MEMORY_FREE, PM_TYPE_U64, GPU_INDOM, PM_SEM_INSTANT, UNITS_BYTE },
    { "hinv.ngpu", ITEM_NGPU, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_DISCRETE, UNITS_COUNT },
};

static const struct indom_def indom = { .serial = GPU_INDOM, .label_name = "GPU" };

#define GPU_MAX 16

static struct gpu gpus[GPU_MAX];
static int gpu_inst[GPU_MAX];
static unsigned int ngpus;

static int
gpu_refresh(const struct platform *p, pmInDom id)
{
    struct plat_reg_set set;
    int sts;

    ngpus = 0;
    if ((sts = p->registry(p->ctx, &plat_reg_queries[PLAT_REGQ_GPUS], &set)) < 0 && sts != -ENOENT)
        return collector_error(sts);
    if (sts == 0)
        gpu_decode(&set, gpus, GPU_MAX, &ngpus);    /* none: a Mac (or VM) without a GPU */
    pmdaCacheOp(id, PMDA_CACHE_INACTIVE);
    for (unsigned int i = 0; i < ngpus; i++) {
        char name[16];

        snprintf(name, sizeof(name), "gpu%u", i);
        if ((gpu_inst[i] = pmdaCacheStore(id, PMDA_CACHE_ADD, name, NULL)) < 0)
            return gpu_inst[i];
    }
    return 0;
}

const struct gpu *
gpu_of_inst(unsigned int inst)
{
    for (unsigned int i = 0; i < ngpus; i++)
        if ((unsigned int)gpu_inst[i] == inst)
            return &gpus[i];
    return NULL;
}

static int
gpu_fetch(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    static const enum gpu_field field[] = {
        [ITEM_UTIL] = GPU_UTIL, [ITEM_MEMORY_USED] = GPU_MEMORY_USED, [ITEM_MEMORY_FREE] = GPU_MEMORY_FREE,
    };
    const struct gpu *g;

    if (row->item == ITEM_NGPU) {
        atom->ul = ngpus;
        return PMDA_FETCH_STATIC;
    }
    if ((g = gpu_of_inst(inst)) == NULL)
        return PM_ERR_INST;
    return gpu_field_value(g, field[row->item], row->type, atom);
}

int
gpu_field_value(const struct gpu *g, enum gpu_field f, int type, pmAtomValue *atom)
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
gpu_labels(pmInDom id, unsigned int inst, pmLabelSet **lp)
{
    const struct gpu *g = gpu_of_inst(inst);
    char model[PLAT_NAME_MAX];

    (void)id;
    if (g == NULL)
        return 0;
    collector_label_text(g->model[0] ? g->model : "unknown", model, sizeof(model));
    return pmdaAddLabels(lp, "{\"model\":\"%s\",\"memory\":\"%s\"}", model, g->unified ? "unified" : "dedicated") < 0
               ? 0 : 2;
}

static void
gpu_teardown(pmInDom id)
{
    pmdaCacheOp(id, PMDA_CACHE_INACTIVE);
    pmdaCacheOp(id, PMDA_CACHE_CULL);
    ngpus = 0;
}

const struct collector gpu_collector = {
    .name = "GPU",
    .cluster = GPU_CLUSTER,
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .indom = &indom,
    .refresh = gpu_refresh,
    .fetch = gpu_fetch,
    .instance_labels = gpu_labels,
    .teardown = gpu_teardown,
};
