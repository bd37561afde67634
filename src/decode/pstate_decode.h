/*
 * Time in each performance state, from IOReport's state channels
 * (PLAT_QUERY_CPU_CLUSTERS, _CPU_CORES, _GPU_STATES), and the cycles it
 * implies at the DVFS tables' clocks (dvfs_decode.h). Portable and tested
 * on residencies and powermetrics readings recorded on real Macs
 * (shared/real-macs/ioreport, powermetrics).
 *
 * A CPU channel's states are DOWN (powered down), IDLE, then one per
 * clock, lowest first, named "V<i>P<j>": voltage state i of a table of
 * i + j + 1 entries (a core of an M2's E cluster lists V0P5..V4P1 against
 * a 6-entry table: its top is never reported). The GPU's are OFF, then
 * "P<j>" for the j-th clock of its table: P1..P15 on an M2 Ultra whose
 * table has 8 (macmon issue 68), the states past the table never entered.
 * A state is placed by its name wherever the name carries its index, in
 * whatever order the states come. Residencies count since boot in the
 * channel's unit ("24Mticks": 24 MHz ticks).
 */
#ifndef PMDA_DARWIN_PSTATE_DECODE_H
#define PMDA_DARWIN_PSTATE_DECODE_H

#include <stdint.h>

#include "dvfs_decode.h"
#include "platform.h"

/* Nanoseconds per unit of an IOReport time unit label ("24Mticks", "ns",
 * "us", "ms", "s"), or 0 for a label that is not one. */
double pstate_unit_ns(const char *label);

struct pstate_channel {
    char name[PLAT_ENTRY_NAME_MAX];   /* as IOReport names it: "PCPU1", "DIE_1_ECPU", "GPUPH" */
    char letter;                    /* 'E', 'P', 'M' of "ECPU", "PCPU", "MCPU"; 0 for the GPU */
    int die;                        /* n of a "DIE_n_" prefix (Ultra chips), or -1 */
    unsigned int ordinal;           /* the cluster's number after its letter: "PCPU1" 1, "PCPU" 0 */
    int ran;                        /* a "CPM" cluster channel: the states the cluster ran in */
    double ns_per_unit;             /* of its residencies; 0: a unit that is not time */
    uint64_t down, idle;            /* DOWN or OFF; IDLE */
    unsigned int need;              /* the table length its state names imply; 0 unknown */
    unsigned int nactive;           /* active[0..nactive): residency by table index */
    uint64_t active[DVFS_MAX_STATES];
};

/* What a channel is, by its name. */
enum pstate_role { PSTATE_NONE, PSTATE_CLUSTER, PSTATE_CORE, PSTATE_GPU };

/* The die of a channel named "DIE_<n>_..." (an Ultra's): n, and *rest past
 * the prefix; -1, with *rest the name, without one. */
int pstate_die(const char *name, const char **rest);

/*
 * The channel at set->entry[i] as role wants it: 0, -ENOENT when it is
 * not one of that role's ("PCPM_IDLE" and the like among the clusters) or
 * has a state that cannot be placed, -ENODATA when it has no states this
 * round (the source had none it could read whole). Cluster channels are
 * "[DIE_n_]<L>CPU[k]" and, from the M3 on, "[DIE_n_]<L>CPM[k]"; core
 * channels "[DIE_n_]<L>CPU<digits>[_CPU<k>]"; the GPU's "GPUPH". A CPU
 * channel (a cluster's or a core's) counts the clock state its cores asked
 * for, a CPM channel the state the cluster ran in: on an M3 Pro with six
 * busy threads every P core asked for 4.06 GHz while PCPM ran at the 3.58
 * GHz powermetrics agreed with (oshi/oshi pull request 3675).
 */
int pstate_channel(const struct plat_entry *e, enum pstate_role role, struct pstate_channel *out);

/* Totals in nanoseconds: active (every clock state), idle, down. -ENOTSUP
 * when the unit is not a time. */
int pstate_times(const struct pstate_channel *c, uint64_t *active_ns, uint64_t *idle_ns, uint64_t *down_ns);

/*
 * Cycles since boot: the sum over clock states of the time in it times
 * its table clock, so that the cycles over an interval divided by the
 * active time over it is the residency-weighted mean clock powermetrics
 * prints as "HW active frequency". -ENOTSUP for a unit that is not a time,
 * -ERANGE when a state that has residency has no entry in t.
 */
int pstate_cycles(const struct pstate_channel *c, const struct dvfs_table *t, double *cycles);

#endif
