/*
 * The tables of the sysctls behind each plat_sysctl_group (listed in
 * platform.h) and the hw.perflevelN fields: what the live source reads
 * (and a recorder records).
 */
#include "platform.h"

#include <stddef.h>
#include <string.h>

_Static_assert(PLAT_VFS_N <= PLAT_SYSCTL_SET_MAX && PLAT_LIMITS_N <= PLAT_SYSCTL_SET_MAX &&
               PLAT_IPC_N <= PLAT_SYSCTL_SET_MAX && PLAT_PRESSURE_N <= PLAT_SYSCTL_SET_MAX &&
               PLAT_CPU_COUNTS_N <= PLAT_SYSCTL_SET_MAX && PLAT_SOCKSTAT_N <= PLAT_SYSCTL_SET_MAX,
               "every sysctl group fits a plat_sysctl_set");

#define DEF(index, sysctl, growth) [index] = { sysctl, PLAT_SYSCTL_##growth },
static const struct plat_sysctl_def vfs[PLAT_VFS_N] = { PLAT_VFS_SYSCTLS(DEF) };
static const struct plat_sysctl_def limits[PLAT_LIMITS_N] = { PLAT_LIMITS_SYSCTLS(DEF) };
static const struct plat_sysctl_def ipc[PLAT_IPC_N] = { PLAT_IPC_SYSCTLS(DEF) };
static const struct plat_sysctl_def pressure[PLAT_PRESSURE_N] = { PLAT_PRESSURE_SYSCTLS(DEF) };
static const struct plat_sysctl_def cpu_counts[PLAT_CPU_COUNTS_N] = { PLAT_CPU_COUNTS_SYSCTLS(DEF) };
static const struct plat_sysctl_def sockstat[PLAT_SOCKSTAT_N] = { PLAT_SOCKSTAT_SYSCTLS(DEF) };
#undef DEF

const char *const plat_perflevel_fields[PLAT_PL_N] = {
    [PLAT_PL_PHYSICALCPU] = "physicalcpu",
    [PLAT_PL_LOGICALCPU] = "logicalcpu",
    [PLAT_PL_L1ICACHESIZE] = "l1icachesize",
    [PLAT_PL_L1DCACHESIZE] = "l1dcachesize",
    [PLAT_PL_L2CACHESIZE] = "l2cachesize",
    [PLAT_PL_CPUSPERL2] = "cpusperl2",
    [PLAT_PL_L3CACHESIZE] = "l3cachesize",
    [PLAT_PL_CPUSPERL3] = "cpusperl3",
};

const struct plat_sysctl_def *
plat_sysctl_defs(enum plat_sysctl_group group, unsigned int *n)
{
    static const struct {
        const struct plat_sysctl_def *defs;
        unsigned int n;
    } groups[PLAT_SYSCTL_NGROUPS] = {
        [PLAT_SYSCTL_VFS] = { vfs, PLAT_VFS_N },
        [PLAT_SYSCTL_LIMITS] = { limits, PLAT_LIMITS_N },
        [PLAT_SYSCTL_IPC] = { ipc, PLAT_IPC_N },
        [PLAT_SYSCTL_PRESSURE] = { pressure, PLAT_PRESSURE_N },
        [PLAT_SYSCTL_CPU_COUNTS] = { cpu_counts, PLAT_CPU_COUNTS_N },
        [PLAT_SYSCTL_SOCKSTAT] = { sockstat, PLAT_SOCKSTAT_N },
    };

    if ((unsigned int)group >= PLAT_SYSCTL_NGROUPS) {
        *n = 0;
        return NULL;
    }
    *n = groups[group].n;
    return groups[group].defs;
}
