/*
 * Unit conversions and counter arithmetic shared by collectors. Portable,
 * no PCP types, exercised at their edges by tests/unit/test_convert.c.
 */
#ifndef PMDA_DARWIN_CONVERT_H
#define PMDA_DARWIN_CONVERT_H

#include <stdint.h>

#include "platform.h"

/* pages * page_size / 1024, exact and without overflow for any page size. */
uint64_t pages_to_kbytes(uint64_t pages, uint64_t page_size);

/* Scheduler ticks to milliseconds at hz ticks per second (hz > 0), without
 * overflow for any 64-bit tick count. */
uint64_t ticks_to_msec(uint64_t ticks, uint32_t hz);

/* A fixed-point load average (vm.loadavg) as a float. */
float loadavg_value(uint32_t fixed, uint64_t fscale);

/*
 * Extends a 32-bit kernel counter to 64 bits so that the exported counter
 * does not wrap at 2^32 (PCP could not rate-convert a wrap of a value that
 * has been scaled). Correct as long as the counter is read at least once
 * per 2^31 increments: a reading below the last by less than that is an
 * older copy of the counter (host_statistics past its rate limit answers with
 * another process's), which leaves the total as it was and the last reading
 * the highest seen.
 */
struct wrap32 {
    uint32_t last;
    uint64_t total;
    int primed;
    int held;                   /* the last reading was such an older copy */
};
uint64_t wrap32_extend(struct wrap32 *w, uint32_t raw);

/* floor((a + b) / d), exact for any 64-bit a and b (d > 0): sums of byte
 * counters near 2^64 do not wrap. */
uint64_t sum_div(uint64_t a, uint64_t b, uint64_t d);

/* blocks * block_size in KiB, exact, saturating at UINT64_MAX: APFS
 * containers report block counts whose byte product nears 2^64. */
uint64_t blocks_to_kbytes(uint64_t blocks, uint64_t block_size);

#define NS_PER_MS 1000000u

/* Mach absolute time to ns: mach * numer / denom (125/3 on Apple Silicon,
 * 1/1 on Intel), exact in 128 bits, saturating at UINT64_MAX; 0 denom
 * (no timebase) gives 0 and is the caller's to refuse. */
uint64_t mach_to_ns(uint64_t mach, uint32_t numer, uint32_t denom);

/* Microseconds from one (seconds, microseconds) time to a later one, in
 * 128 bits so that no clock value overflows; -ERANGE when the second is
 * earlier or the span does not fit 64 bits. */
int usec_between(int64_t from_sec, int32_t from_usec, int64_t to_sec, int32_t to_usec, uint64_t *out);

/* Whole seconds from boot to now; -ERANGE when the clock says boot is in the
 * future or the result does not fit 32 bits. */
int uptime_seconds(const struct plat_clock *c, uint32_t *out);

#endif
