#ifndef PMDA_DARWIN_POWER_H
#define PMDA_DARWIN_POWER_H

#include "battery_decode.h"

#define POWER_CLUSTER 22

/* The battery as cluster 22's last refresh read it, or NULL on a Mac
 * without one. */
const struct battery *power_battery(void);

#endif
