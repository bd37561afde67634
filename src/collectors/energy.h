#ifndef PMDA_DARWIN_ENERGY_H
#define PMDA_DARWIN_ENERGY_H

/* The energy collector's state, which a collector that declares
 * energy_collector as a dependency finds in its refresh's call->depends. */
struct energy_state;

/*
 * Whether IOReport's CPU energy counter measures the CPU, as this request
 * refreshed it: 1 when it has a value; 0 when the Mac has no such counter
 * (no IOReport, no "CPU Energy" channel) or it stands still while the CPU
 * clusters work (energy.c's frozen rule, macOS 27); -1 when it is not
 * known (IOReport failed this round, or a channel of it had no value).
 */
int energy_cpu_counted(const struct energy_state *s);

#endif
