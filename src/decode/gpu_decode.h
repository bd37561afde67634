/*
 * GPUs from the entries of PLAT_REGQ_GPUS: each IOAccelerator and its
 * provider. Portable and unit-tested.
 */
#ifndef PMDA_DARWIN_GPU_DECODE_H
#define PMDA_DARWIN_GPU_DECODE_H

#include <stdint.h>

#include "platform.h"

enum gpu_field {
    GPU_UTIL, GPU_RENDERER_UTIL, GPU_TILER_UTIL, GPU_MEMORY_USED, GPU_MEMORY_TOTAL, GPU_MEMORY_FREE,
    GPU_MEMORY_ALLOCATED, GPU_CORES, GPU_NFIELDS
};

struct gpu {
    uint64_t id;                        /* the accelerator's registry entry id */
    unsigned int have;                  /* bit 1u << field for each value the driver gives */
    uint64_t value[GPU_NFIELDS];        /* percents, bytes, a count */
    int unified;                        /* 1: no memory of its own (Apple Silicon, Intel graphics) */
    char model[PLAT_NAME_MAX];          /* "Apple M2", "AMD Radeon Pro 5500M"; "" unknown */
};

/*
 * The accelerators (entries that are no other entry's parent), in registry
 * id order, so that the n-th is "gpu<n>" from one refresh to the next:
 * utilisation from "Device Utilization %" (else "GPU Activity(%)"); memory
 * in use from "vramUsedBytes" (dedicated VRAM) or "In use system memory"
 * (unified memory); the total from "VRAM,totalMB" on it or its provider,
 * and free from "vramFreeBytes" or total - used (never below 0); no total
 * and no free on unified memory. Fills out[0..*n) (at most cap).
 */
void gpu_decode(const struct plat_reg_set *set, struct gpu *out, unsigned int cap, unsigned int *n);

static inline int
gpu_has(const struct gpu *g, enum gpu_field f)
{
    return (g->have >> f) & 1u;
}

#endif
