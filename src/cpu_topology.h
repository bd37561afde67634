/*
 * Which performance level a CPU belongs to, and label-friendly level names.
 * Portable, no PCP types; tests/unit/test_convert.c checks the rules.
 */
#ifndef PMDA_DARWIN_CPU_TOPOLOGY_H
#define PMDA_DARWIN_CPU_TOPOLOGY_H

#include <stddef.h>

/*
 * The level (index into names[0..nlevels)) of a CPU whose IORegistry
 * cluster type is type ("E", "P", ...), or -1 when it cannot be told.
 * With one level every CPU is in it (Intel: no cluster types at all).
 * Otherwise the type's first letter must match the first letter of exactly
 * one level name (hw.perflevelN.name: "Performance", "Efficiency"), case
 * aside; an unknown or ambiguous type is -1, never a guess.
 */
int cpu_level_of_cluster_type(const char *type, const char *const *names, unsigned int nlevels);

/* "Performance" -> "performance": letters and digits, lower case, so that
 * a label value or instance name is easy to match. */
void cpu_level_word(const char *in, char *out, size_t outlen);

#endif
