/*
 * A platform source for tests: values and failures set field by field, and a
 * count of every call so that tests can prove what a request refreshed.
 */
#ifndef PMDA_DARWIN_FAKE_PLATFORM_H
#define PMDA_DARWIN_FAKE_PLATFORM_H

#include "platform.h"

#define FAKE_MAX_CPUS 1100

struct fake_calls {
    unsigned int host, memory, uname, loadavg, cpu_total, cpus, clock;
};

struct fake_platform {
    struct platform p;
    struct plat_host host;
    struct plat_memory memory;
    struct plat_uname uname;
    struct plat_loadavg load;
    struct plat_cpu_ticks total;
    struct plat_cpu cpu[FAKE_MAX_CPUS];
    unsigned int ncpu;
    struct plat_clock clock;
    /* a negative errno makes that call fail */
    int host_sts, memory_sts, uname_sts, load_sts, total_sts, cpus_sts, clock_sts;
    struct fake_calls calls;
};

/* An Apple-Silicon-like machine: 16 KiB pages, 100 Hz, 4 CPUs (2 E, 2 P). */
void fake_platform_init(struct fake_platform *f);

/* Set CPU i to name and level (level < 0: unknown). */
void fake_platform_cpu(struct fake_platform *f, unsigned int i, const char *name, int level);

#endif
