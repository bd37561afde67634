/*
 * Every IORegistry query the agent makes, in one list, so that
 * darwin-snapshot records each of them and a replay answers them.
 */
#include "platform.h"

#include <stddef.h>

/* Apple Silicon's device tree: one child of /cpus per CPU (Intel Macs have
 * no such node). */
static const char *const cpu_keys[] = { "logical-cpu-id", "cluster-type", NULL };

const struct plat_reg_query plat_reg_queries[PLAT_REGQ_N] = {
    [PLAT_REGQ_CPUS] = { "IODeviceTree:/cpus", 0, cpu_keys },
};
