/*
 * The monotonic clock in nanoseconds, for what the tests and benchmarks time.
 */
#ifndef PMDA_DARWIN_CLOCK_NS_H
#define PMDA_DARWIN_CLOCK_NS_H

#include <stdint.h>
#include <time.h>

static inline uint64_t
now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif
