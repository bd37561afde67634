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

#define ROW(name, item) { name, CLUSTER_NFS, item, PM_TYPE_U64, COLLECTOR_NO_INDOM, PM_SEM_COUNTER, UNITS_COUNT }
#define PROC(name, item) { name, CLUSTER_NFS, item, PM_TYPE_U64, INDOM_NFS3, PM_SEM_COUNTER, UNITS_COUNT }

static const struct metric_row rows[] = {
    ROW("nfs3.client.calls", ITEM_CLIENT_CALLS),
    PROC("nfs3.client.reqs", ITEM_CLIENT_REQS),
    ROW("nfs3.server.calls", ITEM_SERVER_CALLS),
    PROC("nfs3.server.reqs", ITEM_SERVER_REQS),
    ROW("rpc.client.rpccnt", ITEM_RPCCNT),
    ROW("rpc.client.rpcretrans", ITEM_RPCRETRANS),
    ROW("rpc.client.rpctimeouts", ITEM_RPCTIMEOUTS),
    ROW("rpc.client.rpcinvalid", ITEM_RPCINVALID),
    ROW("rpc.client.rpcunexpected", ITEM_RPCUNEXPECTED),
    ROW("rpc.client.attrcache.hits", ITEM_ATTRCACHE_HITS),
    ROW("rpc.client.attrcache.misses", ITEM_ATTRCACHE_MISSES),
    ROW("rpc.client.lookupcache.hits", ITEM_LOOKUPCACHE_HITS),
    ROW("rpc.client.lookupcache.misses", ITEM_LOOKUPCACHE_MISSES),
    ROW("rpc.client.biocache.read.hits", ITEM_BIO_READ_HITS),
    ROW("rpc.client.biocache.read.misses", ITEM_BIO_READ_MISSES),
    ROW("rpc.client.biocache.write.hits", ITEM_BIO_WRITE_HITS),
    ROW("rpc.client.biocache.write.misses", ITEM_BIO_WRITE_MISSES),
    ROW("rpc.client.biocache.readlink.hits", ITEM_BIO_READLINK_HITS),
    ROW("rpc.client.biocache.readlink.misses", ITEM_BIO_READLINK_MISSES),
    ROW("rpc.client.biocache.readdir.hits", ITEM_BIO_READDIR_HITS),
    ROW("rpc.client.biocache.readdir.misses", ITEM_BIO_READDIR_MISSES),
    ROW("rpc.client.direofcache.hits", ITEM_DIREOFCACHE_HITS),
    ROW("rpc.client.direofcache.misses", ITEM_DIREOFCACHE_MISSES),
    ROW("rpc.client.pageins", ITEM_PAGEINS),
    ROW("rpc.client.pageouts", ITEM_PAGEOUTS),
    ROW("rpc.server.retfailed", ITEM_SRV_RETFAILED),
    ROW("rpc.server.faults", ITEM_SRV_FAULTS),
    ROW("rpc.server.cache.inprog", ITEM_SRV_CACHE_INPROG),
    ROW("rpc.server.cache.nonidem", ITEM_SRV_CACHE_NONIDEM),
    ROW("rpc.server.cache.idem", ITEM_SRV_CACHE_IDEM),
    ROW("rpc.server.cache.misses", ITEM_SRV_CACHE_MISSES),
    ROW("rpc.server.vopwrites", ITEM_SRV_VOPWRITES),
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

static struct plat_nfs nfs;
static int client_sts, server_sts;
static unsigned int logged;

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

static int
nfs_refresh(const struct platform *p, pmInDom id, const char **reason)
{
    int sts;

    (void)reason;
    (void)id;
    if ((sts = p->nfs(p->ctx, &nfs)) < 0)
        return collector_error(sts);
    client_sts = nfs.client_status;
    server_sts = nfs.server_status < 0 ? nfs.server_status : server_ran(&nfs) ? 0 : -ENOENT;
    /* an absent NFS is normal: only failures that are not absence are logged */
    collector_note_parts("NFS", (client_sts < 0 && client_sts != -ENOENT) |
                         (server_sts < 0 && server_sts != -ENOENT) << 1, &logged, p->error(p->ctx));
    return 0;
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
client_value(unsigned int item, unsigned int inst, uint64_t *out)
{
    const struct plat_nfs_client *c = &nfs.client;

    switch (item) {
    case ITEM_CLIENT_CALLS: *out = sum(c->rpccnt); break;
    case ITEM_CLIENT_REQS:
        if (inst >= PLAT_NFS_NPROCS)
            return PM_ERR_INST;
        *out = c->rpccnt[inst];
        break;
    case ITEM_RPCCNT: *out = c->rpcrequests; break;
    case ITEM_RPCRETRANS: *out = c->rpcretries; break;
    case ITEM_RPCTIMEOUTS: *out = c->rpctimeouts; break;
    case ITEM_RPCINVALID: *out = c->rpcinvalid; break;
    case ITEM_RPCUNEXPECTED: *out = c->rpcunexpected; break;
    case ITEM_ATTRCACHE_HITS: *out = c->attrcache_hits; break;
    case ITEM_ATTRCACHE_MISSES: *out = c->attrcache_misses; break;
    case ITEM_LOOKUPCACHE_HITS: *out = c->lookupcache_hits; break;
    case ITEM_LOOKUPCACHE_MISSES: *out = c->lookupcache_misses; break;
    case ITEM_BIO_READ_HITS: *out = hits(c->biocache_reads, c->read_bios); break;
    case ITEM_BIO_READ_MISSES: *out = c->read_bios; break;
    case ITEM_BIO_WRITE_HITS: *out = hits(c->biocache_writes, c->write_bios); break;
    case ITEM_BIO_WRITE_MISSES: *out = c->write_bios; break;
    case ITEM_BIO_READLINK_HITS: *out = hits(c->biocache_readlinks, c->readlink_bios); break;
    case ITEM_BIO_READLINK_MISSES: *out = c->readlink_bios; break;
    case ITEM_BIO_READDIR_HITS: *out = hits(c->biocache_readdirs, c->readdir_bios); break;
    case ITEM_BIO_READDIR_MISSES: *out = c->readdir_bios; break;
    case ITEM_DIREOFCACHE_HITS: *out = c->direofcache_hits; break;
    case ITEM_DIREOFCACHE_MISSES: *out = c->direofcache_misses; break;
    case ITEM_PAGEINS: *out = c->pageins; break;
    case ITEM_PAGEOUTS: *out = c->pageouts; break;
    default: return PM_ERR_PMID;
    }
    return PMDA_FETCH_STATIC;
}

static int
server_value(unsigned int item, unsigned int inst, uint64_t *out)
{
    const struct plat_nfs_server *s = &nfs.server;

    switch (item) {
    case ITEM_SERVER_CALLS: *out = sum(s->rpccnt); break;
    case ITEM_SERVER_REQS:
        if (inst >= PLAT_NFS_NPROCS)
            return PM_ERR_INST;
        *out = s->rpccnt[inst];
        break;
    case ITEM_SRV_RETFAILED: *out = s->rpc_errs; break;
    case ITEM_SRV_FAULTS: *out = s->errs; break;
    case ITEM_SRV_CACHE_INPROG: *out = s->cache_inproghits; break;
    case ITEM_SRV_CACHE_NONIDEM: *out = s->cache_nonidemdonehits; break;
    case ITEM_SRV_CACHE_IDEM: *out = s->cache_idemdonehits; break;
    case ITEM_SRV_CACHE_MISSES: *out = s->cache_misses; break;
    case ITEM_SRV_VOPWRITES: *out = s->vop_writes; break;
    default: return PM_ERR_PMID;
    }
    return PMDA_FETCH_STATIC;
}

static int
is_server(unsigned int item)
{
    return item == ITEM_SERVER_CALLS || item == ITEM_SERVER_REQS ||
           (item >= ITEM_SRV_RETFAILED && item <= ITEM_SRV_CACHE_MISSES) || item == ITEM_SRV_VOPWRITES;
}

static int
nfs_fetch(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    if (is_server(row->item))
        return server_sts < 0 ? collector_error(server_sts) : server_value(row->item, inst, &atom->ull);
    return client_sts < 0 ? collector_error(client_sts) : client_value(row->item, inst, &atom->ull);
}

static void
nfs_teardown(pmInDom id)
{
    (void)id;
    logged = 0;
}

const struct collector nfs_collector = {
    .name = "NFS",
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .indom = &indom,
    .refresh = nfs_refresh,
    .fetch = nfs_fetch,
    .teardown = nfs_teardown,
};
