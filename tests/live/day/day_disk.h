/*
 * The internal SSD of the day's machine, as the agent's disk query reads
 * it from the IORegistry: its statistics grow every second.
 */
#ifndef PMDA_DARWIN_DAY_DISK_H
#define PMDA_DARWIN_DAY_DISK_H

/* Describe it to a double just reset. */
void disk_build(void);

/* Its statistics at second `second`. */
void disk_tick(unsigned int second);

#endif
