/*
 * Mounted filesystems: getfsstat(MNT_NOWAIT) only. With MNT_NOWAIT the
 * kernel hands back each mount's cached statfs (vfs_getattr is skipped), so
 * an unreachable NFS or SMB server cannot stall pmcd; its figures are then
 * those of its last refresh (getfsstat(2); XNU bsd/vfs/vfs_syscalls.c,
 * getfsstat_callback, xnu-11417.121.6). Nothing here asks a filesystem
 * for fresh figures: those calls wait on the server.
 */
#include "live_source.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/param.h>

_Static_assert(MNT_RDONLY == PLAT_MNT_RDONLY && MNT_LOCAL == PLAT_MNT_LOCAL, "MNT_* flags");
_Static_assert(MFSTYPENAMELEN == PLAT_FSTYPE_MAX && MAXPATHLEN == PLAT_PATH_MAX, "statfs name sizes");

int
live_mounts(void *ctx, struct plat_mount_set *out)
{
    struct live_source *src = live_begin(ctx);
    struct statfs *fs;
    int n, got;

    out->n = 0;
    out->mount = src->mounts;
    /* The count, then the list; a mount that arrives in between is left
     * for the next refresh (the list holds at most the room given). */
    if ((n = getfsstat(NULL, 0, MNT_NOWAIT)) < 0)
        return live_fail(src, -errno, "getfsstat: %s", strerror(errno));
    if (n > PLAT_MAX_MOUNTS)
        n = PLAT_MAX_MOUNTS;
    if ((size_t)n * sizeof(*fs) > src->fsstat.cap) {
        void *grown = realloc(src->fsstat.data, (size_t)n * sizeof(*fs));

        if (grown == NULL)
            return live_fail(src, -ENOMEM, "getfsstat: out of memory");
        src->fsstat.data = grown;
        src->fsstat.cap = (size_t)n * sizeof(*fs);
    }
    if (src->mounts == NULL && (src->mounts = calloc(PLAT_MAX_MOUNTS, sizeof(*src->mounts))) == NULL)
        return live_fail(src, -ENOMEM, "getfsstat: out of memory");
    fs = (struct statfs *)(void *)src->fsstat.data;
    if ((got = getfsstat(fs, (int)((size_t)n * sizeof(*fs)), MNT_NOWAIT)) < 0)
        return live_fail(src, -errno, "getfsstat: %s", strerror(errno));
    for (int i = 0; i < got && i < n; i++) {
        struct plat_mount *m = &src->mounts[i];

        snprintf(m->on, sizeof(m->on), "%s", fs[i].f_mntonname);
        snprintf(m->from, sizeof(m->from), "%s", fs[i].f_mntfromname);
        snprintf(m->fstype, sizeof(m->fstype), "%s", fs[i].f_fstypename);
        m->flags = fs[i].f_flags;
        m->bsize = fs[i].f_bsize;
        m->blocks = fs[i].f_blocks;
        m->bfree = fs[i].f_bfree;
        m->bavail = fs[i].f_bavail;
        m->files = fs[i].f_files;
        m->ffree = fs[i].f_ffree;
        out->n++;
    }
    out->mount = src->mounts;
    return 0;
}
