/*
 * Which performance level a CPU belongs to, and label-friendly level names.
 * Portable, no PCP types; tests/unit/test_convert.c checks the rules.
 */
#ifndef PMDA_DARWIN_CPU_TOPOLOGY_H
#define PMDA_DARWIN_CPU_TOPOLOGY_H

#include <stddef.h>

#include "platform.h"

/*
 * The performance level (an index into levels[0..nlevels)) of each of the n
 * CPUs whose IORegistry cluster types ("P", "M", "E") are clusters[], into
 * level[]: the types a machine has, fastest first, are its levels in
 * XNU's order, and each level must hold as many CPUs as it says
 * (hw.perflevelN.logicalcpu). With one level every CPU is in it (Intel has
 * no cluster types). 0, or -1 with every level[] -1 when the types do not
 * tell: an unknown type, more or fewer types than levels, or a level of
 * another size. Never a guess.
 */
int cpu_levels_of_clusters(const struct plat_cpu_cluster *clusters, unsigned int n, const struct plat_perflevel *levels,
                           unsigned int nlevels, int *level);

/* "Performance" -> "performance": letters and digits, lower case, so that
 * a label value or instance name is easy to match. */
void cpu_level_word(const char *in, char *out, size_t outlen);

#endif
