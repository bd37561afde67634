/*
 * CPU ticks: host totals (HOST_CPU_LOAD_INFO) and per processor
 * (host_processor_info with PROCESSOR_CPU_LOAD_INFO).
 */
#include "live_source.h"

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

int
live_cpu_total(void *ctx, struct plat_cpu_ticks *out)
{
    struct live_source *src = live_begin(ctx);
    host_cpu_load_info_data_t info;
    /* The count is in/out; an uninitialised one fails on newer releases. */
    mach_msg_type_number_t count = HOST_CPU_LOAD_INFO_COUNT;
    kern_return_t kr;

    kr = host_statistics(src->host, HOST_CPU_LOAD_INFO, (host_info_t)&info, &count);
    if (kr != KERN_SUCCESS)
        return live_fail(src, -EIO, "host_statistics(HOST_CPU_LOAD_INFO): %s", mach_error_string(kr));
    copy_ticks(info.cpu_ticks, out);
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
    natural_t ncpu = 0;
    processor_info_array_t info = NULL;
    mach_msg_type_number_t count = 0;
    processor_cpu_load_info_t load;
    kern_return_t kr;
    int sts;

    kr = host_processor_info(src->host, PROCESSOR_CPU_LOAD_INFO, &ncpu, &info, &count);
    if (kr != KERN_SUCCESS)
        return live_fail(src, -EIO, "host_processor_info: %s", mach_error_string(kr));
    load = (processor_cpu_load_info_t)info;
    if ((sts = grow(src, ncpu)) == 0) {
        for (natural_t i = 0; i < ncpu; i++) {
            struct plat_cpu *cpu = &src->cpus[i];

            /* The array is indexed by logical CPU number, the number that
             * the IORegistry's logical-cpu-id gives (registry_decode.c). */
            snprintf(cpu->name, sizeof(cpu->name), "cpu%u", (unsigned int)i);
            copy_ticks(load[i].cpu_ticks, &cpu->ticks);
        }
        out->ncpu = ncpu;
        out->cpu = src->cpus;
    }
    /* The kernel allocated the array in our address space: release it from
     * this task with its size in bytes (count is in integer_t units). */
    vm_deallocate(mach_task_self(), (vm_address_t)info, (vm_size_t)count * sizeof(integer_t));
    return sts;
}
