/*
 * NFS statistics, decoded by the portable nfs_parse.c (bsd/nfs/nfs.h is in
 * no SDK). The client's: sysctl {CTL_VFS, nfs's type number, NFS_NFSSTATS},
 * answered by the NFS client, which loads on demand: getvfsbyname("nfs")
 * fails until it has (ENOENT: not supported). The client kext copies the
 * struct out itself and sets a length sysctl(3) does not return: the
 * caller always gets 0 (NFS-339 kext/nfs_vfsops.c nfs_vfs_sysctl,
 * xnu-11417 bsd/vfs/vfs_subr.c vfs_sysctl_node), so the struct's size is
 * found from the kext's one check, ENOMEM for a buffer shorter than the
 * struct. The server's:
 * nfssvc(NFSSVC_SRVSTATS), open to every user (only NFSSVC_NFSD and
 * NFSSVC_ADDSOCK need root: nfssvc in bsd/nfs/nfs_syscalls.c,
 * xnu-11417.121.6), which takes two iovecs: the buffer, and where to
 * write the struct's size.
 */
#include "live_source.h"
#include "nfs_parse.h"

#include <errno.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/sysctl.h>
#include <sys/uio.h>
#include <unistd.h>

#define NFS_NFSSTATS 1              /* bsd/nfs/nfs.h: "struct: struct nfsclntstats" */
#define NFSSVC_SRVSTATS 0x100       /* bsd/nfs/nfs.h */
#define NFS_STATS_MAX 4096          /* above every layout nfs_parse.h knows */

/* The client struct's size: the smallest known layout the kext takes
 * whole, when one byte less is refused. Found once (the struct is fixed
 * while the kext is loaded). */
static int
client_size(struct live_source *src, int *mib, unsigned char *buf, size_t *size)
{
    static const size_t known[] = { NFSCLNTSTATS_SIZE_12, NFSCLNTSTATS_SIZE_14, NFSCLNTSTATS_SIZE_15_0,
                                    NFSCLNTSTATS_SIZE_15_4 };

    for (size_t i = 0; src->nfscl_size == 0 && i < sizeof(known) / sizeof(known[0]); i++) {
        size_t len = known[i], shorter = known[i] - 1;

        if (sysctl(mib, 3, buf, &len, NULL, 0) == -1) {
            if (errno == ENOMEM)
                continue;               /* larger than this layout */
            return live_fail(src, -errno, "NFS client statistics: %s", strerror(errno));
        }
        if (sysctl(mib, 3, buf, &shorter, NULL, 0) == 0 || errno != ENOMEM)
            break;                      /* smaller: between two layouts */
        src->nfscl_size = known[i];
    }
    if (src->nfscl_size == 0)
        return live_fail(src, -ENOTSUP, "NFS client statistics: the kernel's struct nfsclntstats is none of the "
                         "layouts this agent decodes (nfs_parse.h)");
    *size = src->nfscl_size;
    return 0;
}

static int
read_client(struct live_source *src, struct plat_nfs_client *out)
{
    unsigned char buf[NFS_STATS_MAX];
    struct vfsconf vfc;
    size_t size, len;
    int mib[3], sts;

    if (getvfsbyname("nfs", &vfc) != 0)
        return live_fail(src, -ENOENT, "NFS client: not loaded (getvfsbyname nfs: %s)", strerror(errno));
    mib[0] = CTL_VFS;
    mib[1] = vfc.vfc_typenum;
    mib[2] = NFS_NFSSTATS;
    if ((sts = client_size(src, mib, buf, &size)) < 0)
        return sts;
    len = size;
    if (sysctl(mib, 3, buf, &len, NULL, 0) == -1)
        return live_fail(src, -errno, "NFS client statistics: %s", strerror(errno));
    return nfs_parse_client(buf, size, out);
}

/* The struct's size, asked once (it is fixed while the kernel runs): with
 * no buffer, nfssvc_srvstats writes only the size; with one, only the struct. */
static int
server_size(struct live_source *src, size_t *size)
{
    struct iovec iov[2] = { { NULL, 0 }, { size, sizeof(*size) } };

    if (src->nfsrv_size != 0) {
        *size = src->nfsrv_size;
        return 0;
    }
    *size = 0;
    if (nfssvc(NFSSVC_SRVSTATS, iov) != 0)
        return live_fail(src, errno == ENOSYS || errno == EINVAL ? -ENOENT : -errno,
                         "NFS server statistics: %s", strerror(errno));
    src->nfsrv_size = *size;
    return 0;
}

static int
read_server(struct live_source *src, struct plat_nfs_server *out)
{
    unsigned char buf[NFS_STATS_MAX];
    size_t len, unused;
    struct iovec iov[2] = { { buf, sizeof(buf) }, { &unused, sizeof(unused) } };
    int sts;

    if ((sts = server_size(src, &len)) < 0)
        return sts;
    if (len > sizeof(buf))
        return live_fail(src, -ENOTSUP, "NFS server statistics: %zu bytes, larger than any layout this agent "
                         "decodes (nfs_parse.h)", len);
    if (nfssvc(NFSSVC_SRVSTATS, iov) != 0)
        return live_fail(src, -errno, "NFS server statistics: %s", strerror(errno));
    if ((sts = nfs_parse_server(buf, len, out)) < 0)
        return live_fail(src, sts, "NFS server statistics: %zu bytes, not a layout of XNU's struct nfsrvstats "
                         "that this agent decodes (nfs_parse.h)", len);
    return 0;
}

int
live_nfs(void *ctx, struct plat_nfs *out)
{
    struct live_source *src = live_begin(ctx);
    uint64_t threads;

    memset(out, 0, sizeof(*out));
    out->client_status = read_client(src, &out->client);
    out->server_status = read_server(src, &out->server);
    if ((out->nfsd_status = live_sysctl_uint(src, "vfs.generic.nfs.server.nfsd_thread_count", &threads)) == 0)
        out->nfsd_threads = (uint32_t)threads;
    return 0;
}
