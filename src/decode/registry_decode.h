/*
 * What registry properties mean: portable decoders over the plain entries
 * that the registry seam returns (live or replayed). Unit-tested.
 */
#ifndef PMDA_DARWIN_REGISTRY_DECODE_H
#define PMDA_DARWIN_REGISTRY_DECODE_H

#include "platform.h"

/*
 * Each CPU's cluster type from the entries of PLAT_REGQ_CPUS: an entry
 * with "logical-cpu-id" (a number) and "cluster-type" (data whose printable
 * bytes up to the first NUL are the type: "E", "P") gives CPU "cpu<id>".
 * Entries lacking either, or holding another kind, are skipped. Fills out[0..*n) (at most
 * cap); returns 0, or -ENOENT when no entry gives a CPU (Intel Macs).
 */
int reg_cpu_clusters(const struct plat_reg_set *set, struct plat_cpu_cluster *out, unsigned int cap,
                     unsigned int *n);

/* ---- disks (PLAT_REGQ_DISKS) ------------------------------------------- */

/* The IOBlockStorageDriver "Statistics" counters (IOBlockStorageDriver.h:
 * operations, bytes, nanoseconds, errors, retries since the driver started). */
enum reg_disk_stat {
    REG_DISK_READS, REG_DISK_WRITES, REG_DISK_BYTES_READ, REG_DISK_BYTES_WRITTEN,
    REG_DISK_LATENT_READ_NS, REG_DISK_LATENT_WRITE_NS, REG_DISK_TOTAL_READ_NS, REG_DISK_TOTAL_WRITE_NS,
    REG_DISK_READ_ERRORS, REG_DISK_WRITE_ERRORS, REG_DISK_READ_RETRIES, REG_DISK_WRITE_RETRIES,
    REG_DISK_NSTATS
};

struct reg_disk {
    char name[PLAT_NAME_MAX];           /* the whole disk's BSD name: "disk0" */
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
 * The whole disks in the entries of PLAT_REGQ_DISKS: each IOMedia with a
 * "BSD Name" (and "Whole" not false) whose parent entry is a driver with
 * "Statistics"; its characteristics from the nearest entry above that has
 * them (the device or its provider). Partitions and APFS's synthesized
 * disks have no such parent. A name seen twice keeps its first entry.
 * Fills out[0..*n) (at most cap); 0, or -ENOENT when there is none.
 */
int reg_disks(const struct plat_reg_set *set, struct reg_disk *out, unsigned int cap, unsigned int *n);

/* ---- APFS (PLAT_REGQ_APFS) --------------------------------------------- */

/* An AppleAPFSContainer's "Statistics" (the keys upstream PCP reads; APFS
 * is closed source, so they are not checked against Apple's code). */
enum reg_apfs_stat {
    REG_APFS_BYTES_READ, REG_APFS_BYTES_WRITTEN, REG_APFS_READ_REQUESTS, REG_APFS_WRITE_REQUESTS,
    REG_APFS_TRANSACTIONS, REG_APFS_CACHE_HITS, REG_APFS_CACHE_EVICTIONS, REG_APFS_READ_ERRORS,
    REG_APFS_WRITE_ERRORS, REG_APFS_NSTATS
};

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
    char volume_name[PLAT_REG_NAME_MAX]; /* the entry's name: "Data", "Macintosh HD" */
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
int reg_apfs(const struct plat_reg_set *set, struct reg_apfs_container *c, unsigned int ccap, unsigned int *nc,
             struct reg_apfs_volume *v, unsigned int vcap, unsigned int *nv);

#endif
