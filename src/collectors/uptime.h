#ifndef PMDA_DARWIN_UPTIME_H
#define PMDA_DARWIN_UPTIME_H

#include "platform.h"

#define UPTIME_CLUSTER 9

/* The clock and boot time of the last successful cluster 9 refresh, or NULL. */
const struct plat_clock *uptime_clock(void);

#endif
