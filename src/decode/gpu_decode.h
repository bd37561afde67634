/*
 * GPUs from the entries of PLAT_QUERY_GPUS: each IOAccelerator and its
 * provider. Portable and unit-tested.
 */
#ifndef PMDA_DARWIN_GPU_DECODE_H
#define PMDA_DARWIN_GPU_DECODE_H

#include <stdint.h>

#include "platform.h"
#include "key_list.h"

/*
 * The numbers, each present or not (bit 1u << field in have), and where
 * each is read, in the order tried (key_list.h): FIELD names a
 * field and its first key in the accelerator's entry, ALSO another key
 * there, PROVIDER a key in its provider's entry (a discrete GPU's PCI
 * device) for what the accelerator lacks. These keys are the query's
 * (queries.c). PerformanceStatistics holds what the driver counts
 * (not documented by Apple; upstream PCP and peers read the same keys:
 * Apple Silicon's AGX drivers name them as the M1's and M1 Pro's dumps in
 * shared/real-macs/gpu show, Intel's and AMD's name utilisation
 * "GPU Activity(%)" and their memory "vramUsedBytes", "vramFreeBytes").
 */
#define GPU_KEYS(FIELD, ALSO, PROVIDER) \
    FIELD(GPU_UTIL, "PerformanceStatistics.Device Utilization %") \
    ALSO(GPU_UTIL, "PerformanceStatistics.GPU Activity(%)") \
    FIELD(GPU_RENDERER_UTIL, "PerformanceStatistics.Renderer Utilization %") \
    FIELD(GPU_TILER_UTIL, "PerformanceStatistics.Tiler Utilization %") \
    FIELD(GPU_MEMORY_ALLOCATED, "PerformanceStatistics.Alloc system memory") \
    FIELD(GPU_CORES, "gpu-core-count") \
    FIELD(GPU_VRAM_USED, "PerformanceStatistics.vramUsedBytes") \
    FIELD(GPU_VRAM_FREE, "PerformanceStatistics.vramFreeBytes") \
    FIELD(GPU_SYSTEM_MEMORY_USED, "PerformanceStatistics.In use system memory") \
    FIELD(GPU_VRAM_TOTAL_MB, "VRAM,totalMB") \
    PROVIDER(GPU_VRAM_TOTAL_MB, "VRAM,totalMB")

/* The text properties the decoder reads beside the numbers: the model,
 * and the PCI ids the accelerator's driver matches. */
#define GPU_MODEL_KEY "model"
#define GPU_PCI_PRIMARY_MATCH_KEY "IOPCIPrimaryMatch"
#define GPU_PCI_MATCH_KEY "IOPCIMatch"
#define GPU_TEXT_KEYS GPU_MODEL_KEY, GPU_PCI_PRIMARY_MATCH_KEY, GPU_PCI_MATCH_KEY

/* The listed numbers, then what the decoder makes of the memory ones. */
enum gpu_field {
    GPU_KEYS(REG_FIELD_ENUM, REG_KEY_NONE, REG_KEY_NONE) GPU_MEMORY_USED, GPU_MEMORY_TOTAL, GPU_MEMORY_FREE,
    GPU_NFIELDS
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
void gpu_decode(const struct plat_entry_set *set, struct gpu *out, unsigned int cap, unsigned int *n);

static inline int
gpu_has(const struct gpu *g, enum gpu_field f)
{
    return (g->have >> f) & 1u;
}

#endif
