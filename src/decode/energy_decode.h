/*
 * Energy counters from IOReport's "Energy Model" channels
 * (PLAT_QUERY_ENERGY). Portable and unit-tested.
 */
#ifndef PMDA_DARWIN_ENERGY_DECODE_H
#define PMDA_DARWIN_ENERGY_DECODE_H

#include "platform.h"

/* Joules per unit of an IOReport energy unit label ("mJ", "uJ", "nJ",
 * ...: the energy units of XNU's iokit/IOKit/IOReportTypes.h), spaces
 * around it ignored, or 0 for a label that is not an energy unit. */
double energy_unit_joules(const char *label);

/* The units the agent sums channels into. */
enum energy_unit { ENERGY_CPU, ENERGY_GPU, ENERGY_ANE, ENERGY_DRAM, ENERGY_NUNITS };

struct energy_channel {
    char name[PLAT_ENTRY_NAME_MAX];       /* "CPU Energy", "GPU Energy", "ANE", "DRAM", "ECPU", ... */
    double joules;                      /* since boot */
    enum energy_unit unit;              /* the unit it adds to, or ENERGY_NUNITS */
};

struct energy {
    unsigned int n;                     /* channels with a value in an energy unit */
    struct energy_channel *channel;     /* the caller's array */
    unsigned int have;                  /* bit 1u << unit when some channel gave it */
    unsigned int short_of;              /* bit 1u << unit when one of its channels has no value */
    double unit[ENERGY_NUNITS];
};

/*
 * The channels with a "value" in an energy unit, and the units: CPU from
 * every channel whose name ends in "CPU Energy" ("CPU Energy"; on Ultra
 * chips "DIE_0_CPU Energy", "DIE_1_CPU Energy", one per die); GPU from
 * "GPU Energy", or "GPU" where a machine names it so (M1); ANE and DRAM
 * from every channel whose name starts so ("ANE0", "DRAM0_1", ...).
 * Channel names are not documented and vary between chips: these are the
 * ones macmon, Stats and mactop read. A name seen again (an Ultra's
 * second die repeats its DTL channels' names) is listed as "NAME #2",
 * "NAME #3". cap bounds out->channel; the units count every channel. A
 * channel in an energy unit without a value (the source had none this
 * round) is not listed, and the unit it adds to is short of it: its sum
 * is not the unit's.
 */
void energy_decode(const struct plat_entry_set *set, struct energy *out, struct energy_channel *channels,
                   unsigned int cap);

#endif
