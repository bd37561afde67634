/*
 * Cluster 11: NFS client and server statistics (nfs_parse.h). The client's
 * exist once the NFS client has loaded; until then, and when the server
 * has never run since boot (no nfsd thread and every counter zero), their
 * metrics report PM_ERR_APPVERSION ("not supported"), never zeros.
 *
 * Buffer cache hits are the cache reads that needed no I/O (biocache_reads
 * - read_bios, as nfsstat counts them) and misses the reads that did;
 * retfailed is srvrpc_errs and faults srv_errs. The NFSv3 indom has
 * macOS's 23 procedure counters (NFS_NPROCS; 22 is NOOP). There is no
 * rpc.server.nqnfs.*: XNU dropped NQNFS leases and nfsrvstats has no such
 * counters.
 */
#include "collector.h"
#include "metric_ids.h"
#include "metric_units.h"

#include <errno.h>
#include <string.h>

#define CLUSTER_NFS 11

enum {
    ITEM_CLIENT_CALLS = 94, ITEM_CLIENT_REQS, ITEM_SERVER_CALLS, ITEM_SERVER_REQS,
    ITEM_RPCCNT, ITEM_RPCRETRANS, ITEM_RPCTIMEOUTS, ITEM_RPCINVALID, ITEM_RPCUNEXPECTED,
    ITEM_ATTRCACHE_HITS, ITEM_ATTRCACHE_MISSES, ITEM_LOOKUPCACHE_HITS, ITEM_LOOKUPCACHE_MISSES,
    ITEM_BIO_READ_HITS, ITEM_BIO_READ_MISSES, ITEM_BIO_WRITE_HITS, ITEM_BIO_WRITE_MISSES,
    ITEM_BIO_READLINK_HITS, ITEM_BIO_READLINK_MISSES, ITEM_BIO_READDIR_HITS, ITEM_BIO_READDIR_MISSES,
    ITEM_DIREOFCACHE_HITS, ITEM_DIREOFCACHE_MISSES,
    ITEM_SRV_RETFAILED, ITEM_SRV_FAULTS, ITEM_SRV_CACHE_INPROG, ITEM_SRV_CACHE_NONIDEM, ITEM_SRV_CACHE_IDEM,
    ITEM_SRV_CACHE_MISSES,
    ITEM_SRV_VOPWRITES = 126, ITEM_PAGEINS, ITEM_PAGEOUTS,
};

struct nfs_state {
    /* As the source gave it, but with server_status -ENOENT while the
     * server has not run since boot. */
    struct plat_nfs nfs;
    uint64_t client_calls, server_calls;        /* the sums of each side's procedures' */
    struct {
        uint64_t read, write, readlink, readdir;
    } hits;                                     /* the client's buffer cache's */
    unsigned int logged;
};

/* The side a procedure's row counts, by row->index. */
enum { SIDE_CLIENT, SIDE_SERVER };
static row_derive reqs;

#define COUNTER(name, item, ...) { name, CLUSTER_NFS, item, PM_TYPE_U64, COLLECTOR_NO_INDOM, PM_SEM_COUNTER, \
                                   UNITS_COUNT, __VA_ARGS__ }
#define CLIENT(member) FIELD_OF(struct nfs_state, nfs.client.member, nfs.client_status, FIELD_PLAIN)
#define SERVER(member) FIELD_OF(struct nfs_state, nfs.server.member, nfs.server_status, FIELD_PLAIN)
#define HITS(member) FIELD_OF(struct nfs_state, hits.member, nfs.client_status, FIELD_PLAIN)
#define PROC(name, item, side) { name, CLUSTER_NFS, item, PM_TYPE_U64, INDOM_NFS3, PM_SEM_COUNTER, UNITS_COUNT, \
                                 .derive = reqs, .index = side }

static const struct metric_row rows[] = {
    COUNTER("nfs3.client.calls", ITEM_CLIENT_CALLS, FIELD_OF(struct nfs_state, client_calls, nfs.client_status, FIELD_PLAIN)),
    PROC("nfs3.client.reqs", ITEM_CLIENT_REQS, SIDE_CLIENT),
    COUNTER("nfs3.server.calls", ITEM_SERVER_CALLS, FIELD_OF(struct nfs_state, server_calls, nfs.server_status, FIELD_PLAIN)),
    PROC("nfs3.server.reqs", ITEM_SERVER_REQS, SIDE_SERVER),
    COUNTER("rpc.client.rpccnt", ITEM_RPCCNT, CLIENT(rpcrequests)),
    COUNTER("rpc.client.rpcretrans", ITEM_RPCRETRANS, CLIENT(rpcretries)),
    COUNTER("rpc.client.rpctimeouts", ITEM_RPCTIMEOUTS, CLIENT(rpctimeouts)),
    COUNTER("rpc.client.rpcinvalid", ITEM_RPCINVALID, CLIENT(rpcinvalid)),
    COUNTER("rpc.client.rpcunexpected", ITEM_RPCUNEXPECTED, CLIENT(rpcunexpected)),
    COUNTER("rpc.client.attrcache.hits", ITEM_ATTRCACHE_HITS, CLIENT(attrcache_hits)),
    COUNTER("rpc.client.attrcache.misses", ITEM_ATTRCACHE_MISSES, CLIENT(attrcache_misses)),
    COUNTER("rpc.client.lookupcache.hits", ITEM_LOOKUPCACHE_HITS, CLIENT(lookupcache_hits)),
    COUNTER("rpc.client.lookupcache.misses", ITEM_LOOKUPCACHE_MISSES, CLIENT(lookupcache_misses)),
    COUNTER("rpc.client.biocache.read.hits", ITEM_BIO_READ_HITS, HITS(read)),
    COUNTER("rpc.client.biocache.read.misses", ITEM_BIO_READ_MISSES, CLIENT(read_bios)),
    COUNTER("rpc.client.biocache.write.hits", ITEM_BIO_WRITE_HITS, HITS(write)),
    COUNTER("rpc.client.biocache.write.misses", ITEM_BIO_WRITE_MISSES, CLIENT(write_bios)),
    COUNTER("rpc.client.biocache.readlink.hits", ITEM_BIO_READLINK_HITS, HITS(readlink)),
    COUNTER("rpc.client.biocache.readlink.misses", ITEM_BIO_READLINK_MISSES, CLIENT(readlink_bios)),
    COUNTER("rpc.client.biocache.readdir.hits", ITEM_BIO_READDIR_HITS, HITS(readdir)),
    COUNTER("rpc.client.biocache.readdir.misses", ITEM_BIO_READDIR_MISSES, CLIENT(readdir_bios)),
    COUNTER("rpc.client.direofcache.hits", ITEM_DIREOFCACHE_HITS, CLIENT(direofcache_hits)),
    COUNTER("rpc.client.direofcache.misses", ITEM_DIREOFCACHE_MISSES, CLIENT(direofcache_misses)),
    COUNTER("rpc.client.pageins", ITEM_PAGEINS, CLIENT(pageins)),
    COUNTER("rpc.client.pageouts", ITEM_PAGEOUTS, CLIENT(pageouts)),
    COUNTER("rpc.server.retfailed", ITEM_SRV_RETFAILED, SERVER(rpc_errs)),
    COUNTER("rpc.server.faults", ITEM_SRV_FAULTS, SERVER(errs)),
    COUNTER("rpc.server.cache.inprog", ITEM_SRV_CACHE_INPROG, SERVER(cache_inproghits)),
    COUNTER("rpc.server.cache.nonidem", ITEM_SRV_CACHE_NONIDEM, SERVER(cache_nonidemdonehits)),
    COUNTER("rpc.server.cache.idem", ITEM_SRV_CACHE_IDEM, SERVER(cache_idemdonehits)),
    COUNTER("rpc.server.cache.misses", ITEM_SRV_CACHE_MISSES, SERVER(cache_misses)),
    COUNTER("rpc.server.vopwrites", ITEM_SRV_VOPWRITES, SERVER(vop_writes)),
};

/* NFSv3 procedures by number (bsd/nfs/nfsproto.h NFSPROC_*), named as
 * upstream named instances 0-21 (18, FSSTAT, keeps upstream's "statfs");
 * 22 is macOS's NOOP, where upstream had "getlease". */
static pmdaInstid procs[PLAT_NFS_NPROCS] = {
    { 0, "null" }, { 1, "getattr" }, { 2, "setattr" }, { 3, "lookup" }, { 4, "access" }, { 5, "readlink" },
    { 6, "read" }, { 7, "write" }, { 8, "create" }, { 9, "mkdir" }, { 10, "symlink" }, { 11, "mknod" },
    { 12, "remove" }, { 13, "rmdir" }, { 14, "rename" }, { 15, "link" }, { 16, "readdir" },
    { 17, "readdir+" }, { 18, "statfs" }, { 19, "fsinfo" }, { 20, "pathconf" }, { 21, "commit" },
    { 22, "noop" },
};

static const struct indom_def indom = {
    .serial = INDOM_NFS3, .label_name = "NFSv3 procedure", .set = procs, .nset = PLAT_NFS_NPROCS,
};


/* The server has run since boot: a thread now, or any count. */
static int
server_ran(const struct plat_nfs *n)
{
    const struct plat_nfs_server *s = &n->server;
    uint64_t any = s->rpc_errs | s->errs | s->cache_inproghits | s->cache_idemdonehits |
                   s->cache_nonidemdonehits | s->cache_misses | s->vop_writes;

    for (unsigned int i = 0; i < PLAT_NFS_NPROCS; i++)
        any |= s->rpccnt[i];
    return (n->nfsd_status == 0 && n->nfsd_threads > 0) || any != 0;
}

static uint64_t
sum(const uint64_t *v)
{
    uint64_t total = 0;

    for (unsigned int i = 0; i < PLAT_NFS_NPROCS; i++)
        total += v[i];
    return total;
}

/* Reads the cache served: all of them less those that went to the server. */
static uint64_t
hits(uint64_t cache_reads, uint64_t bios)
{
    return cache_reads > bios ? cache_reads - bios : 0;
}

static int
nfs_refresh(void *state, struct refresh_call *call)
{
    struct nfs_state *s = state;
    struct plat_nfs *nfs = &s->nfs;
    const struct platform *p = call->p;
    int sts;

    if ((sts = p->nfs(p->ctx, nfs)) < 0)
        return collector_error(sts);
    if (nfs->server_status == 0 && !server_ran(nfs))
        nfs->server_status = -ENOENT;
    s->client_calls = sum(nfs->client.rpccnt);
    s->server_calls = sum(nfs->server.rpccnt);
    s->hits.read = hits(nfs->client.biocache_reads, nfs->client.read_bios);
    s->hits.write = hits(nfs->client.biocache_writes, nfs->client.write_bios);
    s->hits.readlink = hits(nfs->client.biocache_readlinks, nfs->client.readlink_bios);
    s->hits.readdir = hits(nfs->client.biocache_readdirs, nfs->client.readdir_bios);
    /* an absent NFS is normal: only failures that are not absence are logged */
    collector_note_parts(call, NULL, (nfs->client_status < 0 && nfs->client_status != -ENOENT) |
                         (nfs->server_status < 0 && nfs->server_status != -ENOENT) << 1, &s->logged,
                         p->error(p->ctx));
    return 0;
}

/* A side's count of one procedure. */
static int
reqs(const void *state, const void *entry, const struct metric_row *row, unsigned int inst,
     pmAtomValue *atom)
{
    const struct plat_nfs *nfs = &((const struct nfs_state *)state)->nfs;
    int server = row->index == SIDE_SERVER;
    int sts = server ? nfs->server_status : nfs->client_status;

    (void)entry;
    if (sts < 0)
        return collector_error(sts);
    if (inst >= PLAT_NFS_NPROCS)
        return PM_ERR_INST;
    atom->ull = (server ? nfs->server.rpccnt : nfs->client.rpccnt)[inst];
    return PMDA_FETCH_STATIC;
}

const struct collector nfs_collector = {
    .name = "nfs",
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .indom = &indom,
    .state_size = sizeof(struct nfs_state),
    .refresh = nfs_refresh,
};
