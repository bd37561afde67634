/*
 * What registry properties mean: portable decoders over the plain entries
 * that the registry seam returns (live or replayed). Unit-tested.
 */
#ifndef PMDA_DARWIN_REGISTRY_DECODE_H
#define PMDA_DARWIN_REGISTRY_DECODE_H

#include "platform.h"
#include "key_list.h"

/*
 * Each CPU's cluster type from the entries of PLAT_QUERY_CPUS: an entry
 * with "logical-cpu-id" (a number) and "cluster-type" (data whose printable
 * bytes up to the first NUL are the type: "E", "P") gives CPU "cpu<id>".
 * Entries lacking either, or holding another kind, are skipped. Fills out[0..*n) (at most
 * cap); returns 0, or -ENOENT when no entry gives a CPU (Intel Macs).
 */
int reg_cpu_clusters(const struct plat_entry_set *set, struct plat_cpu_cluster *out, unsigned int cap,
                     unsigned int *n);

/* ---- disks (PLAT_QUERY_DISKS) ------------------------------------------- */

/* A whole disk's or an APFS volume's BSD name ("disk0"), and whether an
 * IOMedia is a whole disk (IOMedia.h: kIOBSDNameKey, kIOMediaWholeKey). */
#define REG_BSD_NAME_KEY "BSD Name"
#define REG_WHOLE_KEY "Whole"

/* The IOBlockStorageDriver "Statistics" counters (IOBlockStorageDriver.h:
 * operations, bytes, nanoseconds, errors, retries since the driver
 * started), read from the driver's entry (key_list.h): the
 * query's keys (queries.c). */
#define DISK_STATISTICS_KEYS(FIELD) \
    FIELD(REG_DISK_READS, "Statistics.Operations (Read)") \
    FIELD(REG_DISK_WRITES, "Statistics.Operations (Write)") \
    FIELD(REG_DISK_BYTES_READ, "Statistics.Bytes (Read)") \
    FIELD(REG_DISK_BYTES_WRITTEN, "Statistics.Bytes (Write)") \
    FIELD(REG_DISK_LATENT_READ_NS, "Statistics.Latency Time (Read)") \
    FIELD(REG_DISK_LATENT_WRITE_NS, "Statistics.Latency Time (Write)") \
    FIELD(REG_DISK_TOTAL_READ_NS, "Statistics.Total Time (Read)") \
    FIELD(REG_DISK_TOTAL_WRITE_NS, "Statistics.Total Time (Write)") \
    FIELD(REG_DISK_READ_ERRORS, "Statistics.Errors (Read)") \
    FIELD(REG_DISK_WRITE_ERRORS, "Statistics.Errors (Write)") \
    FIELD(REG_DISK_READ_RETRIES, "Statistics.Retries (Read)") \
    FIELD(REG_DISK_WRITE_RETRIES, "Statistics.Retries (Write)")
enum reg_disk_stat { DISK_STATISTICS_KEYS(REG_FIELD_ENUM) REG_DISK_NSTATS };

/* What the decoder reads beside the counters: the whole disk's IOMedia
 * (IOMedia.h: kIOMediaPreferredBlockSizeKey, kIOMediaRemovableKey,
 * kIOMediaSizeKey) and the characteristics of the device or its provider
 * (IOStorageDeviceCharacteristics.h, IOStorageProtocolCharacteristics.h;
 * MacOSX 12.1 SDK). */
#define DISK_BLOCK_SIZE_KEY "Preferred Block Size"
#define DISK_REMOVABLE_KEY "Removable"
#define DISK_SIZE_KEY "Size"
#define DISK_MEDIUM_KEY "Device Characteristics.Medium Type"
#define DISK_INTERCONNECT_KEY "Protocol Characteristics.Physical Interconnect"
#define DISK_LOCATION_KEY "Protocol Characteristics.Physical Interconnect Location"
#define DISK_OTHER_KEYS \
    REG_BSD_NAME_KEY, REG_WHOLE_KEY, DISK_BLOCK_SIZE_KEY, DISK_REMOVABLE_KEY, DISK_SIZE_KEY, DISK_MEDIUM_KEY, \
    DISK_INTERCONNECT_KEY, DISK_LOCATION_KEY

struct reg_disk {
    char name[PLAT_NAME_MAX];           /* the whole disk's BSD name: "disk0" */
    uint64_t device;                    /* the driver's provider, the block storage device (its id) */
    unsigned int have;                  /* bit (1u << stat) for each statistic the driver gave */
    uint64_t stat[REG_DISK_NSTATS];
    uint64_t block_size;                /* "Preferred Block Size", bytes; 0: unknown */
    uint64_t size;                      /* "Size", bytes; 0: unknown */
    int removable;                      /* "Removable": 0 or 1, -1 unknown */
    char medium[32];                    /* "Device Characteristics"/"Medium Type": "Solid State", ""  */
    char interconnect[64];              /* "Protocol Characteristics"/"Physical Interconnect": "USB", "" */
    char location[32];                  /* ".../Physical Interconnect Location": "Internal", "External", "" */
};

/*
 * The whole disks in the entries of PLAT_QUERY_DISKS: each IOMedia with a
 * "BSD Name" (and "Whole" not false) whose parent entry is a driver with
 * "Statistics"; its characteristics from the nearest entry above that has
 * them (the device or its provider). Partitions and APFS's synthesized
 * disks have no such parent. A name seen twice keeps its first entry.
 * Fills out[0..*n) (at most cap); 0, or -ENOENT when there is none.
 */
int reg_disks(const struct plat_entry_set *set, struct reg_disk *out, unsigned int cap, unsigned int *n);

/* ---- APFS (PLAT_QUERY_APFS) --------------------------------------------- */

/* An AppleAPFSContainer's "Statistics" (the keys upstream PCP reads; APFS
 * is closed source, so they are not checked against Apple's code), read
 * as DISK_STATISTICS_KEYS are. */
#define APFS_STATISTICS_KEYS(FIELD) \
    FIELD(REG_APFS_BYTES_READ, "Statistics.Bytes read from block device") \
    FIELD(REG_APFS_BYTES_WRITTEN, "Statistics.Bytes written to block device") \
    FIELD(REG_APFS_READ_REQUESTS, "Statistics.Read requests sent to block device") \
    FIELD(REG_APFS_WRITE_REQUESTS, "Statistics.Write requests sent to block device") \
    FIELD(REG_APFS_TRANSACTIONS, "Statistics.Number of transactions flushed") \
    FIELD(REG_APFS_CACHE_HITS, "Statistics.Object cache: Number of hits") \
    FIELD(REG_APFS_CACHE_EVICTIONS, "Statistics.Object cache: Number of evictions") \
    FIELD(REG_APFS_READ_ERRORS, "Statistics.Metadata: Number of read errors") \
    FIELD(REG_APFS_WRITE_ERRORS, "Statistics.Metadata: Number of write errors")
enum reg_apfs_stat { APFS_STATISTICS_KEYS(REG_FIELD_ENUM) REG_APFS_NSTATS };

/* What the decoder reads beside the counters: the container's block size,
 * and each volume's flags and roles (the first of them is served). */
#define APFS_BLOCK_SIZE_KEY "ContainerBlockSize"
#define APFS_ENCRYPTED_KEY "Encrypted"
#define APFS_LOCKED_KEY "Locked"
#define APFS_ROLE_KEY "Role"
#define APFS_OTHER_KEYS REG_BSD_NAME_KEY, REG_WHOLE_KEY, APFS_BLOCK_SIZE_KEY, APFS_ENCRYPTED_KEY, APFS_LOCKED_KEY, APFS_ROLE_KEY

struct reg_apfs_container {
    char name[PLAT_NAME_MAX];           /* its synthesized disk's BSD name: "disk3" */
    char store[PLAT_NAME_MAX];          /* the partition it lives on: "disk0s2"; "" unknown */
    char store_disk[PLAT_NAME_MAX];     /* that partition's whole disk: "disk0"; "" unknown */
    int block_size_ok;
    uint64_t block_size;                /* "ContainerBlockSize", bytes */
    unsigned int have;                  /* bit (1u << stat) for each statistic given */
    uint64_t stat[REG_APFS_NSTATS];
};

struct reg_apfs_volume {
    char name[PLAT_NAME_MAX];           /* BSD name: "disk3s5" */
    char volume_name[PLAT_ENTRY_NAME_MAX]; /* the entry's name: "Data", "Macintosh HD" */
    char container[PLAT_NAME_MAX];      /* its container's name */
    char role[32];                      /* first of "Role": "System", "Data", ...; "" none */
    int encrypted, locked;              /* 0 or 1 (a number or a boolean), -1 unknown */
};

/*
 * Containers (entries of class AppleAPFSContainer) named by the nearest
 * entry above with a "BSD Name", their store the next such entry and the
 * first whole disk above that; volumes (entries with a "BSD Name" whose
 * parent is a container). Names seen twice keep their first entry.
 * 0, or -ENOENT when there is no container (a Mac without APFS).
 */
int reg_apfs(const struct plat_entry_set *set, struct reg_apfs_container *c, unsigned int ccap, unsigned int *nc,
             struct reg_apfs_volume *v, unsigned int vcap, unsigned int *nv);

#endif
