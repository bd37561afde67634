/*
 * Every IORegistry query the agent makes, in one list, so that
 * darwin-snapshot records each of them and a replay answers them.
 *
 * A key with '.' in it names a value inside a dictionary property
 * ("Device Characteristics.Medium Type"), so that only that value is read
 * and recorded (the rest of that dictionary holds serial numbers).
 */
#include "platform.h"

#include <stddef.h>

/* Apple Silicon's device tree: one child of /cpus per CPU (Intel Macs have
 * no such node). */
static const char *const cpu_keys[] = { "logical-cpu-id", "cluster-type", NULL };

/* Whole disks: each IOBlockStorageDriver, its IOMedia child (the whole
 * disk: partitions hang below it) and two ancestors, the block storage
 * device and its provider, one of which says how the disk is attached
 * (NVMe: the device; USB and SATA: the SCSI peripheral above it). Keys as
 * IOKit/storage/IOBlockStorageDriver.h, IOMedia.h and
 * IOStorageProtocolCharacteristics.h / IOStorageDeviceCharacteristics.h
 * name them (MacOSX 12.1 SDK). */
static const char *const disk_keys[] = {
    "Statistics", "BSD Name", "Whole", "Preferred Block Size", "Removable", "Size",
    "Protocol Characteristics.Physical Interconnect", "Protocol Characteristics.Physical Interconnect Location",
    "Device Characteristics.Medium Type", NULL,
};
static const char *const statistics[] = { "Statistics.", NULL };

/* APFS: each container, its volumes, and the chain above it down to the
 * physical store: AppleAPFSMedia (the container's synthesized disk, e.g.
 * disk3), AppleAPFSContainerScheme, the partition IOMedia (disk0s2), its
 * partition scheme, and the whole disk's IOMedia (disk0). */
static const char *const apfs_keys[] = {
    "BSD Name", "Whole", "ContainerBlockSize", "Statistics", "Encrypted", "Locked", "Role", NULL,
};

const struct plat_reg_query plat_reg_queries[PLAT_REGQ_N] = {
    [PLAT_REGQ_CPUS] = { "IODeviceTree:/cpus", 0, cpu_keys, 0, NULL },
    [PLAT_REGQ_DISKS] = { "IOBlockStorageDriver", 1, disk_keys, 2, statistics },
    [PLAT_REGQ_APFS] = { "AppleAPFSContainer", 1, apfs_keys, 5, statistics },
};
