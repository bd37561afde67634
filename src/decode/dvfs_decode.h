/*
 * Apple Silicon's DVFS tables: the clock of each performance state, from
 * the device tree's power manager (PLAT_QUERY_PMGR). Portable and tested on
 * tables recorded on real Macs (shared/real-macs/pmgr).
 *
 * "voltage-statesN" and "voltage-statesN-sram" are pairs of little-endian
 * u32: a frequency, then a voltage in mV. The frequency tables of the CPU
 * clusters are the "-sram" ones (the plain ones of the same number hold
 * periods or zeros); the GPU's is "voltage-states9", which starts with a 0
 * entry that is no state. Frequencies are in Hz on M1 to M3 and
 * in every GPU table, in kHz in the CPU tables of the M4 and later: no
 * clock is below 10 MHz or above 10 GHz, so a table whose largest entry is
 * at least 10^7 is in Hz, and one below is in kHz.
 */
#ifndef PMDA_DARWIN_DVFS_DECODE_H
#define PMDA_DARWIN_DVFS_DECODE_H

#include <stdint.h>

#include "platform.h"

#define DVFS_MAX_TABLES 64          /* voltage-states0..31, each plain and "-sram" */
#define DVFS_MAX_STATES 48          /* the longest table seen has 20 entries */
#define DVFS_MAX_CLUSTERS 8

struct dvfs_table {
    unsigned int number;            /* N of voltage-statesN */
    int sram;                       /* the "-sram" table */
    unsigned int n;
    uint32_t khz[DVFS_MAX_STATES];
};

/* The tables, and what "acc-clusters" says (M5 and later): records of 8
 * bytes whose first is a table's number and whose second the cluster it
 * serves (numbered as the CPUs' "cluster-id"). */
struct dvfs {
    unsigned int ntables;
    struct dvfs_table table[DVFS_MAX_TABLES];
    unsigned int nacc;
    struct {
        unsigned char table, cluster;
    } acc[DVFS_MAX_CLUSTERS];
};

/* The tables of the first entry that has any: 0, or -ENOENT (an Intel Mac,
 * or a machine without them). A table that is not whole pairs, or longer
 * than DVFS_MAX_STATES, is left out. */
int dvfs_decode(const struct plat_entry_set *set, struct dvfs *out);

/* The table voltage-states<number>, "-sram" or plain, or NULL. */
const struct dvfs_table *dvfs_table(const struct dvfs *d, unsigned int number, int sram);

/*
 * The table of a CPU cluster (or of a core: its cluster's) whose channel
 * names it with letter ('E', 'P' or 'M' of "ECPU", "PCPU", "MCPU"), the
 * ordinal-th of its letter ("PCPU1": 1), and whose states need a table of
 * need entries (0: not known). Where acc-clusters lists the tables (M5
 * and later), the ordinal-th of those that hold need states, those of
 * exactly need entries first; otherwise the table peers read for the
 * letter: E "voltage-states1-sram", P "voltage-states5-sram", if it holds
 * need states. NULL where there is none.
 */
const struct dvfs_table *dvfs_cpu_table(const struct dvfs *d, char letter, unsigned int ordinal, unsigned int need);

/* The GPU's table ("voltage-states9", or "voltage-states9-sram" where
 * only that is given) without its 0 entries, into out: 0, or -ENOENT. */
int dvfs_gpu_table(const struct dvfs *d, struct dvfs_table *out);

#endif
