#ifndef PMDA_DARWIN_DISK_H
#define PMDA_DARWIN_DISK_H

#include <stdint.h>

/* The disk collector's state, which a collector that declares
 * disk_collector as a dependency finds in its refresh's call->depends. */
struct disk_state;

/* The BSD name ("disk0") of the whole disk whose driver's provider is the
 * registry entry device (a block storage device), as the last refresh
 * found it, or NULL. */
const char *disk_name_of_device(const struct disk_state *s, uint64_t device);

#endif
