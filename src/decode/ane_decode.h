/*
 * The Apple Neural Engine's power state (PLAT_QUERY_ANE: its driver's
 * IORegistry entries) and how long its controller ran (PLAT_QUERY_ANE_STATES:
 * IOReport's "ANE" group, subgroup "IOP State"). Portable and unit-tested.
 */
#ifndef PMDA_DARWIN_ANE_DECODE_H
#define PMDA_DARWIN_ANE_DECODE_H

#include "platform.h"

/* The keys of the driver's entry (H11ANEIn): the power state IOKit
 * publishes for every power-managed service, "IOPowerManagement"
 * (xnu-11417.101.15 iokit/Kernel/IOServicePM.cpp:198), whose
 * CurrentPowerState and MaxPowerState (the number of its power states less
 * one, absent while it has none) IOServicePM::gatedSerialize writes
 * (:9406-9409). The M1's dump shows CurrentPowerState 0 of MaxPowerState 1
 * while the engine was powered down; on an M5 under macOS 27 it is the one
 * signal of the engine left to users other than root (context-labs/mactop
 * pull request 76). */
#define ANE_STATE_KEY "IOPowerManagement.CurrentPowerState"
#define ANE_STATE_MAX_KEY "IOPowerManagement.MaxPowerState"

/*
 * The power state of the Neural Engine and the highest it has: the
 * highest of every driver entry (an Ultra has one per die), so that it
 * reads powered while any of them is. 0, or -ENOENT when no entry has both
 * keys, -ERANGE when a state is beyond 32 bits or above its entry's
 * highest.
 */
int ane_power_state(const struct plat_entry_set *set, uint32_t *state, uint32_t *max);

/* The state that counts as running (wieslawsoltes/ActivityMonitor pull
 * request 39: "ANE / IOP State / status" has a "Running" state on an M3
 * Pro under macOS 26.6). */
#define ANE_RUNNING_STATE "Running"

/*
 * The residencies of every state channel of the group, summed: running,
 * in the running state; total, in all of them. The unit is IOReport's and
 * not known for this group, so only their ratio means anything. 0, or
 * -ENOENT when no channel has a running state.
 */
int ane_residency(const struct plat_entry_set *set, uint64_t *running, uint64_t *total);

#endif
