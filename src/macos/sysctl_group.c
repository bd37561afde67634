/*
 * Integer sysctl groups (plat_sysctl_defs) and the live task and thread
 * totals.
 */
#include "live_source.h"

#include <errno.h>

int
live_read_sysctls(struct live_source *src, enum plat_sysctl_group group, struct plat_sysctl_set *out)
{
    unsigned int n;
    const struct plat_sysctl_def *defs = plat_sysctl_defs(group, &n);

    if (defs == NULL)
        return live_fail(src, -EINVAL, "unknown sysctl group %d", (int)group);
    out->n = n;
    for (unsigned int i = 0; i < n; i++)
        out->status[i] = live_sysctl_uint(src, defs[i].name, &out->value[i]);
    return 0;
}

int
live_sysctls(void *ctx, enum plat_sysctl_group group, struct plat_sysctl_set *out)
{
    return live_read_sysctls(live_begin(ctx), group, out);
}

/* kern.num_tasks and kern.num_threads are the kernel's limits (task_max,
 * thread_max), not counts: the live totals come from the default processor
 * set, as top(1) reads them. */
int
live_tasks(void *ctx, struct plat_tasks *out)
{
    struct live_source *src = live_begin(ctx);
    struct processor_set_load_info load;
    mach_msg_type_number_t count = PROCESSOR_SET_LOAD_INFO_COUNT;
    kern_return_t kr;

    if (src->pset == MACH_PORT_NULL)
        return live_fail(src, -ENOENT, "processor_set_default: %s", mach_error_string(src->pset_error));
    kr = processor_set_statistics(src->pset, PROCESSOR_SET_LOAD_INFO, (processor_set_info_t)&load, &count);
    if (kr != KERN_SUCCESS)
        return live_fail(src, -EIO, "processor_set_statistics(PROCESSOR_SET_LOAD_INFO): %s", mach_error_string(kr));
    if (load.task_count < 0 || load.thread_count < 0)
        return live_fail(src, -ERANGE, "processor_set_statistics: %d tasks, %d threads", load.task_count,
                         load.thread_count);
    out->tasks = (uint32_t)load.task_count;
    out->threads = (uint32_t)load.thread_count;
    return 0;
}
