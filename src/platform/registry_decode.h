/*
 * What registry properties mean: portable decoders over the plain entries
 * that the registry seam returns (live or replayed). Unit-tested.
 */
#ifndef PMDA_DARWIN_REGISTRY_DECODE_H
#define PMDA_DARWIN_REGISTRY_DECODE_H

#include "platform.h"

/*
 * Each CPU's cluster type from the entries of PLAT_REGQ_CPUS: an entry
 * with "logical-cpu-id" (a number) and "cluster-type" (data whose printable
 * bytes up to the first NUL are the type: "E", "P") gives CPU "cpu<id>".
 * Entries lacking either, or holding another kind, are skipped. Fills out[0..*n) (at most
 * cap); returns 0, or -ENOENT when no entry gives a CPU (Intel Macs).
 */
int reg_cpu_clusters(const struct plat_reg_set *set, struct plat_cpu_cluster *out, unsigned int cap,
                     unsigned int *n);

#endif
