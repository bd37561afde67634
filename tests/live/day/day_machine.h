/*
 * The Mac of the simulated day, in the double: a synthetic Apple Silicon
 * machine (not recorded on a real Mac) whose counters move every second
 * by the same amounts, so that a step far from the usual one is the
 * agent's, not the machine's.
 */
#ifndef PMDA_DARWIN_DAY_MACHINE_H
#define PMDA_DARWIN_DAY_MACHINE_H

/* Describe the machine to a double just reset. */
void machine_build(void);

/* Move the machine to second `second` of the day (its counters). */
void machine_tick(unsigned int second);

/* The sysctls that do not move, set again (after a fault took one away). */
void machine_sysctls(void);

/* The HID temperature sensor the faults take readings from, and its
 * reading given back. */
unsigned int machine_hid_sensor(void);
void machine_hid_reading(void);

/* IOReport's group of the energy counters. */
#define MACHINE_ENERGY_GROUP "Energy Model"

/* An Energy Model channel (its provider the faults take away). */
unsigned int machine_energy_channel(void);

/* One more volume, mounted now (each call a new one, up to a few dozen). */
void machine_mount_volume(void);

#endif
