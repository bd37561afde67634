#include "nfs_parse.h"

#include <errno.h>
#include <string.h>

/* Where a client layout puts the fields that move between releases. */
struct client_layout {
    size_t size;
    unsigned int access;            /* index of accesscache_hits, or 0: none */
    unsigned int bio;               /* index of biocache_reads */
    unsigned int retries;           /* index of rpcretries */
};

static const struct client_layout client_layouts[] = {
    { NFSCLNTSTATS_SIZE_12, 0, 6, 16 + 23 + 40 },
    { NFSCLNTSTATS_SIZE_14, 6, 8, 18 + 23 + 40 },
    { NFSCLNTSTATS_SIZE_15_0, 6, 8, 18 + 23 + 3 + 40 },
    { NFSCLNTSTATS_SIZE_15_4, 6, 8, 18 + 23 + 3 + 40 + 5 },
};

static uint64_t
field(const void *buf, unsigned int index)
{
    uint64_t v;

    memcpy(&v, (const unsigned char *)buf + 8u * index, sizeof(v));
    return v;
}

int
nfs_parse_client(const void *buf, size_t len, struct plat_nfs_client *out)
{
    const struct client_layout *l = NULL;
    unsigned int b, rpccnt;

    for (size_t i = 0; i < sizeof(client_layouts) / sizeof(client_layouts[0]); i++)
        if (client_layouts[i].size == len)
            l = &client_layouts[i];
    if (l == NULL)
        return -ENOTSUP;
    memset(out, 0, sizeof(*out));
    out->attrcache_hits = field(buf, 0);
    out->attrcache_misses = field(buf, 1);
    out->lookupcache_hits = field(buf, 2);
    out->lookupcache_misses = field(buf, 3);
    out->direofcache_hits = field(buf, 4);
    out->direofcache_misses = field(buf, 5);
    if (l->access) {
        out->accesscache_hits = field(buf, l->access);
        out->accesscache_misses = field(buf, l->access + 1);
    }
    b = l->bio;
    out->biocache_reads = field(buf, b);
    out->read_bios = field(buf, b + 1);
    out->read_physios = field(buf, b + 2);
    out->biocache_writes = field(buf, b + 3);
    out->write_bios = field(buf, b + 4);
    out->write_physios = field(buf, b + 5);
    out->biocache_readlinks = field(buf, b + 6);
    out->readlink_bios = field(buf, b + 7);
    out->biocache_readdirs = field(buf, b + 8);
    out->readdir_bios = field(buf, b + 9);
    rpccnt = b + 10;
    for (unsigned int i = 0; i < PLAT_NFS_NPROCS; i++)
        out->rpccnt[i] = field(buf, rpccnt + i);
    out->rpcretries = field(buf, l->retries);
    out->rpcrequests = field(buf, l->retries + 1);
    out->rpctimeouts = field(buf, l->retries + 2);
    out->rpcunexpected = field(buf, l->retries + 3);
    out->rpcinvalid = field(buf, l->retries + 4);
    out->pageins = field(buf, l->retries + 5);
    out->pageouts = field(buf, l->retries + 6);
    return 0;
}

int
nfs_parse_server(const void *buf, size_t len, struct plat_nfs_server *out)
{
    if (len != NFSRVSTATS_SIZE_12 && len != NFSRVSTATS_SIZE_15)
        return -ENOTSUP;
    for (unsigned int i = 0; i < PLAT_NFS_NPROCS; i++)
        out->rpccnt[i] = field(buf, i);
    out->rpc_errs = field(buf, PLAT_NFS_NPROCS);
    out->errs = field(buf, PLAT_NFS_NPROCS + 1);
    out->cache_inproghits = field(buf, PLAT_NFS_NPROCS + 2);
    out->cache_idemdonehits = field(buf, PLAT_NFS_NPROCS + 3);
    out->cache_nonidemdonehits = field(buf, PLAT_NFS_NPROCS + 4);
    out->cache_misses = field(buf, PLAT_NFS_NPROCS + 5);
    out->vop_writes = field(buf, PLAT_NFS_NPROCS + 6);
    return 0;
}
