#ifndef PMDA_DARWIN_THERMAL_H
#define PMDA_DARWIN_THERMAL_H

#include "thermal_decode.h"

/* The temperature sensors cluster 25's last refresh read (HID on Apple
 * Silicon, SMC keys on Intel); *n gets how many. NULL and -errno in *sts
 * when they could not be read. */
const struct sensor *thermal_sensors(unsigned int *n, int *sts);

/* Ask cluster 25's coming refresh to read the temperatures (for a
 * dependant whose requested metrics need them). */
void thermal_want_temperatures(void);

#endif
