/*
 * Decoding XNU's NFS statistics structs from their bytes. bsd/nfs/nfs.h is
 * in no SDK, and the structs have grown: each layout below is written out
 * from XNU's own header of the release named beside it, and a struct is
 * recognised by its size (each release's is distinct); any other size is
 * refused (-ENOTSUP), never read at guessed offsets. All fields uint64_t.
 * Portable, unit-tested with buffers tests/unit/xnu_layouts.h lays out.
 */
#ifndef PMDA_DARWIN_NFS_PARSE_H
#define PMDA_DARWIN_NFS_PARSE_H

#include <stddef.h>

#include "platform.h"

/*
 * struct nfsclntstats (sysctl {CTL_VFS, nfs, NFS_NFSSTATS}):
 *  12: xnu-8019.41.5 .. xnu-8796 (macOS 12.2 to 13): 6 cache counters (no
 *      access cache), 10 buffer-cache counters, rpccntv3[23], opcntv4[40],
 *      then rpcretries .. pageouts (7): 86 fields, 688 bytes;
 *  14: xnu-10002, xnu-10063 (macOS 14): accesscache_hits/misses after the
 *      direofcache pair: 88 fields, 704 bytes;
 *  15.0: xnu-11215 (macOS 15.0 to 15.3): nlmcnt (3) after rpccntv3, and
 *      nfs_errs (30 + 40 + 1) at the end: 162 fields, 1296 bytes;
 *  15.4: xnu-11417 (macOS 15.4 on): cbopcntv4[5] after opcntv4: 167
 *      fields, 1336 bytes.
 */
#define NFSCLNTSTATS_SIZE_12 688
#define NFSCLNTSTATS_SIZE_14 704
#define NFSCLNTSTATS_SIZE_15_0 1296
#define NFSCLNTSTATS_SIZE_15_4 1336

/*
 * struct nfsrvstats (nfssvc(NFSSVC_SRVSTATS)): srvrpccntv3[23], srvrpc_errs,
 * srv_errs, srvcache_inproghits, srvcache_idemdonehits,
 * srvcache_nonidemdonehits, srvcache_misses, srvvop_writes: 30 fields, 240
 * bytes to xnu-10063; xnu-11215 on add nfs_errs (30 + 1): 488 bytes.
 */
#define NFSRVSTATS_SIZE_12 240
#define NFSRVSTATS_SIZE_15 488

/* 0, or -ENOTSUP for a size that is none of the layouts above. */
int nfs_parse_client(const void *buf, size_t len, struct plat_nfs_client *out);
int nfs_parse_server(const void *buf, size_t len, struct plat_nfs_server *out);

#endif
