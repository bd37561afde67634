#ifndef PMDA_DARWIN_TOPOLOGY_H
#define PMDA_DARWIN_TOPOLOGY_H

#include <pcp/pmapi.h>

/* The topology collector's state, which a collector that declares
 * topology_collector as a dependency finds in its refresh's call->depends.
 * What the functions below say of it is valid once it has been refreshed. */
struct topology_state;

/*
 * The performance level of a CPU named as in plat_cpu ("cpuN"): 0, with
 * *level its hw.perflevelN index, or -1 when it is not known.
 */
int topology_cpu_level(const struct topology_state *topo, const char *cpu, int *level);

/* A level's instance labels, as every instance of a level carries them (its
 * CPUs and itself): "perflevel", its name as a word, for filtering by name,
 * and "perflevel_index", its hw.perflevelN index. */
void topology_level_labels(const struct topology_state *topo, int level, char *json, size_t len);

/* The level of the CPUs whose cluster type is type ('E', 'P', 'M'), or -1
 * when no CPU has it or the levels are not known. */
int topology_type_level(const struct topology_state *topo, char type);

/* The CPU's brand string (machdep.cpu.brand_string, "Apple M3 Max"), or
 * NULL when it was not read. */
const char *topology_brand(const struct topology_state *topo);

/* The level whose instance in the performance-level indom is inst, or -1. */
int topology_level_index(const struct topology_state *topo, unsigned int inst);

/* Whether every CPU's level is known: with one level always; with more,
 * when the CPUs' cluster types tell them (cpu_topology.h). */
int topology_levels_known(const struct topology_state *topo);

#endif
