/*
 * The units the agents' metric tables use, named once for every collector.
 */
#ifndef METRIC_UNITS_H
#define METRIC_UNITS_H

#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#define UNITS_NONE PMDA_PMUNITS(0, 0, 0, 0, 0, 0)
#define UNITS_COUNT PMDA_PMUNITS(0, 0, 1, 0, 0, PM_COUNT_ONE)
#define UNITS_BYTE PMDA_PMUNITS(1, 0, 0, PM_SPACE_BYTE, 0, 0)
#define UNITS_KBYTE PMDA_PMUNITS(1, 0, 0, PM_SPACE_KBYTE, 0, 0)
#define UNITS_NSEC PMDA_PMUNITS(0, 1, 0, 0, PM_TIME_NSEC, 0)
#define UNITS_MSEC PMDA_PMUNITS(0, 1, 0, 0, PM_TIME_MSEC, 0)
#define UNITS_MHZ PMDA_PMUNITS(0, -1, 0, 0, PM_TIME_USEC, 0)     /* a clock: per microsecond */
#define UNITS_MINUTES PMDA_PMUNITS(0, 1, 0, 0, PM_TIME_MIN, 0)
#define UNITS_HOURS PMDA_PMUNITS(0, 1, 0, 0, PM_TIME_HOUR, 0)
#ifdef PM_UNIT_TEMPERATURE
#define UNITS_CELSIUS PMDA_EXTRAUNITS(0, 0, 0, 0, 0, 0, PM_UNIT_TEMPERATURE, PM_TEMPERATURE_C)
#else
#define UNITS_CELSIUS UNITS_NONE    /* PCP 6 has no unit for temperature */
#endif

#endif
