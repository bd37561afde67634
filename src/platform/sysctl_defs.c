/*
 * The sysctls behind each plat_sysctl_family and the hw.perflevelN fields:
 * one list that the live source reads (and a recorder records).
 */
#include "platform.h"

#include <stddef.h>
#include <string.h>

_Static_assert(PLAT_VFS_N <= PLAT_SYSCTL_SET_MAX && PLAT_LIMITS_N <= PLAT_SYSCTL_SET_MAX &&
               PLAT_IPC_N <= PLAT_SYSCTL_SET_MAX && PLAT_PRESSURE_N <= PLAT_SYSCTL_SET_MAX &&
               PLAT_CPU_COUNTS_N <= PLAT_SYSCTL_SET_MAX && PLAT_SOCKSTAT_N <= PLAT_SYSCTL_SET_MAX,
               "every sysctl family fits a plat_sysctl_set");

static const struct plat_sysctl_def vfs[PLAT_VFS_N] = {
    [PLAT_VFS_NUM_FILES] = { "kern.num_files" },
    [PLAT_VFS_MAXFILES] = { "kern.maxfiles" },
    [PLAT_VFS_NUM_VNODES] = { "kern.num_vnodes" },
    [PLAT_VFS_MAXVNODES] = { "kern.maxvnodes" },
};

static const struct plat_sysctl_def limits[PLAT_LIMITS_N] = {
    [PLAT_LIMITS_MAXPROC] = { "kern.maxproc" },
    [PLAT_LIMITS_MAXPROCPERUID] = { "kern.maxprocperuid" },
    [PLAT_LIMITS_MAXFILES] = { "kern.maxfiles" },
    [PLAT_LIMITS_MAXFILESPERPROC] = { "kern.maxfilesperproc" },
    /* A long in XNU (SYSCTL_LONG): 8 bytes on 64-bit kernels. */
    [PLAT_LIMITS_RECYCLED_VNODES] = { "kern.num_recycledvnodes" },
};

static const struct plat_sysctl_def ipc[PLAT_IPC_N] = {
    [PLAT_IPC_NMBCLUSTERS] = { "kern.ipc.nmbclusters" },
    [PLAT_IPC_MAXSOCKBUF] = { "kern.ipc.maxsockbuf" },
    [PLAT_IPC_SOMAXCONN] = { "kern.ipc.somaxconn" },
    [PLAT_IPC_SODEFUNCT_CALLS] = { "kern.ipc.sodefunct_calls" },
};

static const struct plat_sysctl_def pressure[PLAT_PRESSURE_N] = {
    /* Masked from `sysctl -a` but readable by name without privilege on
     * macOS; XNU converts its internal level to the dispatch flags
     * (1 normal, 2 warning, 4 critical) in sysctl_memorystatus_vm_pressure_level. */
    [PLAT_PRESSURE_LEVEL] = { "kern.memorystatus_vm_pressure_level" },
    [PLAT_PRESSURE_FREE_PERCENT] = { "kern.memorystatus_level" },
};

static const struct plat_sysctl_def cpu_counts[PLAT_CPU_COUNTS_N] = {
    [PLAT_CPU_PHYSICAL] = { "hw.physicalcpu" },
    [PLAT_CPU_LOGICAL] = { "hw.logicalcpu" },
    /* Since macOS 12; absent before, which leaves the levels unknown. */
    [PLAT_CPU_NPERFLEVELS] = { "hw.nperflevels" },
};

static const struct plat_sysctl_def sockstat[PLAT_SOCKSTAT_N] = {
    [PLAT_SOCKSTAT_TCP] = { "net.inet.tcp.pcbcount" },
    [PLAT_SOCKSTAT_UDP] = { "net.inet.udp.pcbcount" },
};

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
plat_sysctl_defs(enum plat_sysctl_family family, unsigned int *n)
{
    static const struct {
        const struct plat_sysctl_def *defs;
        unsigned int n;
    } families[PLAT_SYSCTL_NFAMILIES] = {
        [PLAT_SYSCTL_VFS] = { vfs, PLAT_VFS_N },
        [PLAT_SYSCTL_LIMITS] = { limits, PLAT_LIMITS_N },
        [PLAT_SYSCTL_IPC] = { ipc, PLAT_IPC_N },
        [PLAT_SYSCTL_PRESSURE] = { pressure, PLAT_PRESSURE_N },
        [PLAT_SYSCTL_CPU_COUNTS] = { cpu_counts, PLAT_CPU_COUNTS_N },
        [PLAT_SYSCTL_SOCKSTAT] = { sockstat, PLAT_SOCKSTAT_N },
    };

    if ((unsigned int)family >= PLAT_SYSCTL_NFAMILIES) {
        *n = 0;
        return NULL;
    }
    *n = families[family].n;
    return families[family].defs;
}
