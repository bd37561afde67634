/*
 * Processor topology: brand string, CPU counts, hw.perflevelN.* and the
 * per-CPU cluster types (from the registry seam, decoded by portable code).
 */
#include "live_source.h"
#include "registry_decode.h"

#include <errno.h>
#include <stdio.h>

static void
read_level(struct live_source *src, unsigned int index, struct plat_perflevel *out)
{
    char name[64];

    snprintf(name, sizeof(name), "hw.perflevel%u.name", index);
    out->name_status = live_sysctl_text(src, name, out->name, sizeof(out->name));
    for (int f = 0; f < PLAT_PL_N; f++) {
        snprintf(name, sizeof(name), "hw.perflevel%u.%s", index, plat_perflevel_fields[f]);
        out->status[f] = live_sysctl_uint(src, name, &out->value[f]);
    }
}

int
live_topology(void *ctx, struct plat_topology *out)
{
    struct live_source *src = live_begin(ctx);
    struct plat_entry_set cpus;
    int sts;

    out->brand_status = live_sysctl_text(src, "machdep.cpu.brand_string", out->brand, sizeof(out->brand));
    if ((sts = live_read_sysctls(src, PLAT_SYSCTL_CPU_COUNTS, &out->counts)) < 0)
        return sts;
    out->nlevels = 0;
    if (out->counts.status[PLAT_CPU_NPERFLEVELS] == 0) {
        uint64_t n = out->counts.value[PLAT_CPU_NPERFLEVELS];

        out->nlevels = n < PLAT_MAX_PERFLEVELS ? (unsigned int)n : PLAT_MAX_PERFLEVELS;
    }
    for (unsigned int i = 0; i < out->nlevels; i++)
        read_level(src, i, &out->level[i]);
    out->cluster = src->clusters;
    out->nclusters = 0;
    if ((out->clusters_status = live_read_registry(src, &plat_queries[PLAT_QUERY_CPUS], &cpus)) == 0)
        out->clusters_status = reg_cpu_clusters(&cpus, src->clusters, PLAT_MAX_CPUS, &out->nclusters);
    return 0;
}
