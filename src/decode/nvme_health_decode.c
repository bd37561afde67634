/*
 * The NVMe SMART / Health Information log page, as nvme_health_decode.h
 * says.
 */
#include "nvme_health_decode.h"

#include <errno.h>

#define KELVIN_AT_0C 273            /* the specification's own conversion (5.16.1.3, Composite Temperature) */

/* The low 64 bits of a little-endian 128-bit field; *above is set where
 * its high 64 bits are not 0. */
static uint64_t
le128_low(const unsigned char *p, int *above)
{
    uint64_t v = 0;

    *above = 0;
    for (unsigned int i = NVME_COUNTER_BYTES / 2; i < NVME_COUNTER_BYTES; i++)
        *above |= p[i] != 0;
    for (unsigned int i = NVME_COUNTER_BYTES / 2; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

int
nvme_health_decode(const unsigned char *page, size_t len, struct nvme_health *out)
{
    int32_t kelvin;

    if (page == NULL || len != NVME_HEALTH_LOG_BYTES)
        return -EINVAL;
    out->critical_warning = page[NVME_AT_CRITICAL_WARNING];
    kelvin = (int32_t)(page[NVME_AT_TEMPERATURE] | page[NVME_AT_TEMPERATURE + 1] << 8);
    out->temperature_known = kelvin != 0;
    out->temperature_c = kelvin - KELVIN_AT_0C;
    out->available_spare = page[NVME_AT_AVAILABLE_SPARE];
    out->spare_threshold = page[NVME_AT_SPARE_THRESHOLD];
    out->percentage_used = page[NVME_AT_PERCENTAGE_USED];
    out->too_large = 0;
    for (unsigned int c = 0; c < NVME_COUNTERS; c++) {
        int above;

        out->counter[c] = le128_low(page + NVME_COUNTER_AT(c), &above);
        if (above)
            out->too_large |= 1u << c;
    }
    return 0;
}

int
nvme_health_bytes(const struct nvme_health *h, enum nvme_counter units, uint64_t *bytes)
{
    if (h->too_large & 1u << units || h->counter[units] > UINT64_MAX / NVME_DATA_UNIT_BYTES)
        return -ERANGE;
    *bytes = h->counter[units] * NVME_DATA_UNIT_BYTES;
    return 0;
}
