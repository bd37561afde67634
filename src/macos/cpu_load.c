/*
 * CPU ticks per processor (host_processor_info with PROCESSOR_CPU_LOAD_INFO)
 * and the host's totals, HOST_CPU_LOAD_INFO's sums of them.
 */
#include "live_source.h"
#include "cpu_ticks_sum.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

static void
copy_ticks(const natural_t ticks[CPU_STATE_MAX], struct plat_cpu_ticks *out)
{
    out->user = ticks[CPU_STATE_USER];
    out->sys = ticks[CPU_STATE_SYSTEM];
    out->idle = ticks[CPU_STATE_IDLE];
    out->nice = ticks[CPU_STATE_NICE];
}

/* host_processor_info's answer: ncpu processors' ticks in an array the
 * kernel allocated in our address space, count integer_t's long. */
struct processor_ticks {
    natural_t ncpu;
    processor_cpu_load_info_t load;
    mach_msg_type_number_t count;
};

static int
read_processor_ticks(struct live_source *src, struct processor_ticks *out)
{
    processor_info_array_t info = NULL;
    kern_return_t kr;

    *out = (struct processor_ticks){ 0 };
    kr = host_processor_info(src->host, PROCESSOR_CPU_LOAD_INFO, &out->ncpu, &info, &out->count);
    if (kr != KERN_SUCCESS)
        return live_fail(src, -EIO, "host_processor_info: %s", mach_error_string(kr));
    out->load = (processor_cpu_load_info_t)info;
    return 0;
}

/* Release the array from this task with its size in bytes. */
static void
release_processor_ticks(const struct processor_ticks *t)
{
    vm_deallocate(mach_task_self(), (vm_address_t)t->load, (vm_size_t)t->count * sizeof(integer_t));
}

/* The host's totals are the per-processor ticks added up as the kernel adds
 * them for HOST_CPU_LOAD_INFO, not host_statistics' answer: that call is
 * rate-limited for a process that is not Apple's, and past the budget
 * answers with the copy another process stored, up to a second old and
 * possibly older than our last reading (xnu-11417.101.15
 * osfmk/kern/host.c:626-639, :733-780); host_processor_info is not limited. */
int
live_cpu_total(void *ctx, struct plat_cpu_ticks *out)
{
    struct live_source *src = live_begin(ctx);
    struct processor_ticks t;
    int sts;

    if ((sts = read_processor_ticks(src, &t)) < 0)
        return sts;
    *out = (struct plat_cpu_ticks){ 0 };
    for (natural_t i = 0; i < t.ncpu; i++) {
        struct plat_cpu_ticks cpu;

        copy_ticks(t.load[i].cpu_ticks, &cpu);
        cpu_ticks_add(out, &cpu);
    }
    release_processor_ticks(&t);
    return 0;
}

static int
grow(struct live_source *src, unsigned int ncpu)
{
    struct plat_cpu *cpus;

    if (ncpu <= src->cpus_cap)
        return 0;
    if ((cpus = realloc(src->cpus, ncpu * sizeof(*cpus))) == NULL)
        return live_fail(src, -ENOMEM, "per-CPU array: out of memory");
    src->cpus = cpus;
    src->cpus_cap = ncpu;
    return 0;
}

int
live_cpus(void *ctx, struct plat_cpu_set *out)
{
    struct live_source *src = live_begin(ctx);
    struct processor_ticks t;
    int sts;

    if ((sts = read_processor_ticks(src, &t)) < 0)
        return sts;
    if ((sts = grow(src, t.ncpu)) == 0) {
        for (natural_t i = 0; i < t.ncpu; i++) {
            struct plat_cpu *cpu = &src->cpus[i];

            /* The array is indexed by logical CPU number, the number that
             * the IORegistry's logical-cpu-id gives (registry_decode.c). */
            snprintf(cpu->name, sizeof(cpu->name), "cpu%u", (unsigned int)i);
            copy_ticks(t.load[i].cpu_ticks, &cpu->ticks);
        }
        out->ncpu = t.ncpu;
        out->cpu = src->cpus;
    }
    release_processor_ticks(&t);
    return sts;
}
