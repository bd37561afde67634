#ifndef PMDA_DARWIN_GPU_H
#define PMDA_DARWIN_GPU_H

#include <pcp/pmapi.h>

#include "gpu_decode.h"

#define GPU_CLUSTER 20
#define GPU_INDOM 6

/* The GPU whose instance is inst at the last cluster 20 refresh, or NULL. */
const struct gpu *gpu_of_inst(unsigned int inst);

/* A GPU's value of field as a fetch returns it (type PM_TYPE_U32 or U64). */
int gpu_field_value(const struct gpu *g, enum gpu_field f, int type, pmAtomValue *atom);

#endif
