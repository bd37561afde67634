/*
 * The NVMe SMART / Health Information log page (Log Page Identifier 02h):
 * NVM Express Base Specification 2.0c, section 5.16.1.3. The
 * page is 512 bytes, every multi-byte field little-endian; the counters
 * are 128 bits wide. Portable and unit-tested.
 */
#ifndef PMDA_DARWIN_NVME_HEALTH_DECODE_H
#define PMDA_DARWIN_NVME_HEALTH_DECODE_H

#include <stddef.h>
#include <stdint.h>

#define NVME_HEALTH_LOG_BYTES 512

/* A data unit is 1000 units of 512 bytes (5.16.1.3, Data Units Read). */
#define NVME_DATA_UNIT_BYTES 512000ull

/* Where the fields are: bytes 0 to 5, then from byte 32 the 128-bit
 * counters, 16 bytes each, in enum nvme_counter's order. */
enum {
    NVME_AT_CRITICAL_WARNING = 0, NVME_AT_TEMPERATURE = 1, NVME_AT_AVAILABLE_SPARE = 3, NVME_AT_SPARE_THRESHOLD = 4,
    NVME_AT_PERCENTAGE_USED = 5, NVME_AT_COUNTERS = 32, NVME_COUNTER_BYTES = 16
};
#define NVME_COUNTER_AT(c) (NVME_AT_COUNTERS + (c) * NVME_COUNTER_BYTES)

/* The 128-bit counters, in the page's order. */
enum nvme_counter {
    NVME_DATA_UNITS_READ, NVME_DATA_UNITS_WRITTEN, NVME_HOST_READ_COMMANDS, NVME_HOST_WRITE_COMMANDS,
    NVME_CONTROLLER_BUSY_MINUTES, NVME_POWER_CYCLES, NVME_POWER_ON_HOURS, NVME_UNSAFE_SHUTDOWNS,
    NVME_MEDIA_ERRORS, NVME_ERROR_LOG_ENTRIES,
    NVME_COUNTERS
};

struct nvme_health {
    uint8_t critical_warning;       /* byte 0: bit flags, 0 when all is well */
    int32_t temperature_c;          /* bytes 1-2, the composite temperature in kelvin, less 273 */
    int temperature_known;          /* 0 kelvin is a controller that does not report it (smartctl prints
                                     * "-": smartmontools f1d0da9ce8 src/nvmeprint.cpp:81-87) */
    uint8_t available_spare;        /* byte 3: percent */
    uint8_t spare_threshold;        /* byte 4: percent */
    uint8_t percentage_used;        /* byte 5: percent of the rated life, may pass 100 (255 at most) */
    uint64_t counter[NVME_COUNTERS];
    /* Counters whose 128-bit value is above what 64 bits hold (bit 1u <<
     * counter): no value is given for them, rather than a wrapped one. */
    unsigned int too_large;
};

/* Decode the page (len bytes); -EINVAL unless len is the page's size. */
int nvme_health_decode(const unsigned char *page, size_t len, struct nvme_health *out);

/* A data-unit counter in bytes; -ERANGE where the bytes pass 64 bits. */
int nvme_health_bytes(const struct nvme_health *h, enum nvme_counter units, uint64_t *bytes);

#endif
