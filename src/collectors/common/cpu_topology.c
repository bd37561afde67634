#include "cpu_topology.h"

#include <ctype.h>
#include <string.h>

/* Cluster types, fastest first. XNU numbers the performance levels in this
 * order of the types a machine has (cpu_type_for_perflevel in
 * bsd/kern/kern_mib.c, xnu-11417.121.6: P, then E); the M5 Max's "M"
 * clusters are its "Performance" level, below the "Super" level of its P
 * clusters (shared/real-macs/cpus). */
static const char fastest_first[] = "PME";

static int
rank_of(const char *type)
{
    const char *at;

    if (type == NULL || type[0] == '\0' || type[1] != '\0' ||
        (at = strchr(fastest_first, toupper((unsigned char)type[0]))) == NULL)
        return -1;
    return (int)(at - fastest_first);
}

int
cpu_levels_of_clusters(const struct plat_cpu_cluster *clusters, unsigned int n, const struct plat_perflevel *levels,
                       unsigned int nlevels, int *level)
{
    int level_of_rank[sizeof(fastest_first) - 1];
    unsigned int count[sizeof(fastest_first) - 1] = { 0 }, found = 0;

    for (unsigned int c = 0; c < n; c++)
        level[c] = nlevels == 1 ? 0 : -1;
    if (nlevels <= 1)
        return nlevels == 1 ? 0 : -1;
    for (unsigned int c = 0; c < n; c++) {
        int r = rank_of(clusters[c].type);

        if (r < 0)
            return -1;                  /* a type of no known rank: no guess */
        count[r]++;
    }
    for (unsigned int r = 0; r < sizeof(count) / sizeof(count[0]); r++) {
        level_of_rank[r] = -1;
        if (count[r] == 0)
            continue;
        if (found == nlevels)
            return -1;                  /* more types than levels */
        if (levels[found].status[PLAT_PL_LOGICALCPU] == 0 && levels[found].value[PLAT_PL_LOGICALCPU] != count[r])
            return -1;                  /* a level of another size */
        level_of_rank[r] = (int)found++;
    }
    if (found != nlevels)
        return -1;
    for (unsigned int c = 0; c < n; c++)
        level[c] = level_of_rank[rank_of(clusters[c].type)];
    return 0;
}

void
cpu_level_word(const char *in, char *out, size_t outlen)
{
    size_t n = 0;

    for (; *in != '\0' && n + 1 < outlen; in++)
        if (isalnum((unsigned char)*in))
            out[n++] = (char)tolower((unsigned char)*in);
    out[n] = '\0';
}
