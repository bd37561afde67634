/*
 * The C library calls of Darwin's whose structs or behaviour differ from
 * glibc's, with Darwin's layouts (this file is compiled with Apple's
 * headers):
 *  - uname(3) fills struct utsname, 256 bytes a field (sys/utsname.h);
 *  - getutxent(3) walks utmpx records and returns NULL at the end and when
 *    the file cannot be read alike, which is why the live code checks
 *    access(2) first (Libc-1725 gen/FreeBSD/getutxent.c);
 *  - getfsstat(2) with no buffer answers the number of mounts; with one,
 *    fills at most bufsize / sizeof(struct statfs) and answers how many
 *    (xnu-11417.101.15 bsd/vfs/vfs_syscalls.c __getfsstat); MNT_WAIT may
 *    block on a dead server, so the double refuses any other flag than
 *    MNT_NOWAIT, as this project's rule is;
 *  - getvfsbyname(3) fails (-1, errno ENOENT) for a filesystem the kernel
 *    has not loaded; the NFS client loads on demand (Libc-1725
 *    gen/getvfsbyname.c);
 *  - nfssvc(NFSSVC_SRVSTATS): with no buffer, writes only the struct's
 *    size where the second iovec points; with a buffer shorter than the
 *    struct, the size and ENOMEM; else the struct (xnu bsd/nfs/nfs_syscalls.c
 *    nfssvc_srvstats); a kernel without the NFS server answers ENOSYS;
 *  - ioctl(SIOCGIFFUNCTIONALTYPE) on a datagram socket answers an
 *    interface's functional type, ENXIO for a name the kernel does not
 *    know (bsd/net/if.c ifioctl);
 *  - strlcpy, which glibc 2.36 does not have.
 */
#include "double.h"

#include <errno.h>
#include <stdarg.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/sockio.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <utmpx.h>

#ifndef SIOCGIFFUNCTIONALTYPE
#define SIOCGIFFUNCTIONALTYPE _IOWR('i', 173, struct ifreq)
#endif
#define NFSSVC_SRVSTATS 0x100
#define FIRST_FD 40
#define MAX_FDS 64
#define MAX_ITEMS 256

static struct {
    struct utsname uts;
    int utmpx_err;                  /* access(2) on the utmpx file */
    struct utmpx logins[MAX_ITEMS];
    unsigned int nlogins, next_login;
    int reading;                    /* between setutxent and endutxent */
    struct statfs mounts[MAX_ITEMS];
    unsigned int nmounts;
    int nfs_typenum;                /* 0: the NFS client is not loaded */
    unsigned char *srv;
    size_t srv_len;
    int srv_err;
    struct { char name[IFNAMSIZ]; uint32_t type; int err; } netifs[MAX_ITEMS];
    unsigned int nnetifs;
    int fds[MAX_FDS];
    int64_t now_sec;
    int32_t now_usec;
} libc;

void
dbl_libc_reset(void)
{
    free(libc.srv);
    memset(&libc, 0, sizeof(libc));
    libc.srv_err = ENOSYS;
    libc.now_sec = 1764000000;
    strlcpy(libc.uts.sysname, "Darwin", sizeof(libc.uts.sysname));
}

long
dbl_libc_fds(void)
{
    long n = 0;

    for (int i = 0; i < MAX_FDS; i++)
        n += libc.fds[i];
    return n;
}

static int
fail(int err)
{
    dbl_set_errno(err);
    return -1;
}

size_t
strlcpy(char *dst, const char *src, size_t size)
{
    size_t len = strlen(src);

    if (size > 0) {
        size_t n = len < size - 1 ? len : size - 1;

        memcpy(dst, src, n);
        dst[n] = '\0';
    }
    return len;
}

void
dbl_uname(const char *nodename, const char *release, const char *version, const char *machine)
{
    strlcpy(libc.uts.nodename, nodename, sizeof(libc.uts.nodename));
    strlcpy(libc.uts.release, release, sizeof(libc.uts.release));
    strlcpy(libc.uts.version, version, sizeof(libc.uts.version));
    strlcpy(libc.uts.machine, machine, sizeof(libc.uts.machine));
}

int
uname(struct utsname *name)
{
    int err;

    if ((err = dbl_failing("uname")) != 0)
        return fail(err);
    *name = libc.uts;
    return 0;
}

void
dbl_now(int64_t sec, int32_t usec)
{
    libc.now_sec = sec;
    libc.now_usec = usec;
}

int
gettimeofday(struct timeval *tv, void *tz)
{
    int err;

    (void)tz;
    if ((err = dbl_failing("gettimeofday")) != 0)
        return fail(err);
    tv->tv_sec = libc.now_sec + (int64_t)(dbl_clock_ns() / 1000000000u);
    tv->tv_usec = libc.now_usec + (int32_t)(dbl_clock_ns() / 1000u % 1000000u);
    if (tv->tv_usec >= 1000000) {
        tv->tv_sec++;
        tv->tv_usec -= 1000000;
    }
    return 0;
}

/* Every clock the live code may read is the virtual one (sleep is not
 * modelled); an id Darwin's time.h does not define is EINVAL, as
 * Libc's gen/clock_gettime.c answers it, returning 0. */
__uint64_t
clock_gettime_nsec_np(clockid_t id)
{
    switch (id) {
    case CLOCK_REALTIME:
        return (uint64_t)libc.now_sec * 1000000000u + (uint64_t)libc.now_usec * 1000u + dbl_clock_ns();
    case CLOCK_MONOTONIC: case CLOCK_MONOTONIC_RAW: case CLOCK_MONOTONIC_RAW_APPROX:
    case CLOCK_UPTIME_RAW: case CLOCK_UPTIME_RAW_APPROX:
        return dbl_clock_ns();
    default:
        dbl_set_errno(EINVAL);
        return 0;
    }
}

void
dbl_logins_readable(int err)
{
    libc.utmpx_err = err;
}

void
dbl_login(int type, const char *user)
{
    struct utmpx *u;

    if (libc.nlogins == MAX_ITEMS)
        dbl_violation("more than %d logins", MAX_ITEMS);
    u = &libc.logins[libc.nlogins++];
    memset(u, 0, sizeof(*u));
    u->ut_type = (short)type;
    /* ut_user is a fixed array, NUL-terminated only when shorter */
    strncpy(u->ut_user, user, sizeof(u->ut_user));
}

int
access(const char *path, int mode)
{
    if (strcmp(path, _PATH_UTMPX) != 0 || mode != R_OK)
        dbl_violation("access(%s, %d): not a call the live code makes", path, mode);
    return libc.utmpx_err ? fail(libc.utmpx_err) : 0;
}

void
setutxent(void)
{
    libc.reading = 1;
    libc.next_login = 0;
}

struct utmpx *
getutxent(void)
{
    if (!libc.reading)
        libc.reading = 1;           /* getutxent opens the file itself */
    if (libc.utmpx_err || libc.next_login >= libc.nlogins)
        return NULL;
    return &libc.logins[libc.next_login++];
}

void
endutxent(void)
{
    libc.reading = 0;
}

void
dbl_mount(const char *on, const char *from, const char *fstype, uint32_t flags, uint32_t bsize, uint64_t blocks,
          uint64_t bfree, uint64_t bavail, uint64_t files, uint64_t ffree)
{
    struct statfs *fs;

    if (libc.nmounts == MAX_ITEMS)
        dbl_violation("more than %d mounts", MAX_ITEMS);
    fs = &libc.mounts[libc.nmounts++];
    memset(fs, 0, sizeof(*fs));
    strlcpy(fs->f_mntonname, on, sizeof(fs->f_mntonname));
    strlcpy(fs->f_mntfromname, from, sizeof(fs->f_mntfromname));
    strlcpy(fs->f_fstypename, fstype, sizeof(fs->f_fstypename));
    fs->f_flags = flags;
    fs->f_bsize = bsize;
    fs->f_blocks = blocks;
    fs->f_bfree = bfree;
    fs->f_bavail = bavail;
    fs->f_files = files;
    fs->f_ffree = ffree;
}

int
getfsstat(struct statfs *buf, int bufsize, int flags)
{
    int err;
    unsigned int n;

    if (flags != MNT_NOWAIT)
        dbl_violation("getfsstat with flags %d: only MNT_NOWAIT never waits on a server", flags);
    if ((err = dbl_failing("getfsstat")) != 0)
        return fail(err);
    if (buf == NULL)
        return (int)libc.nmounts;
    n = (unsigned int)bufsize / sizeof(*buf);
    if (n > libc.nmounts)
        n = libc.nmounts;
    memcpy(buf, libc.mounts, n * sizeof(*buf));
    return (int)n;
}

void
dbl_nfs_client(int typenum)
{
    libc.nfs_typenum = typenum;
}

int
getvfsbyname(const char *name, struct vfsconf *vfc)
{
    if (strcmp(name, "nfs") != 0)
        dbl_violation("getvfsbyname(%s): not a call the live code makes", name);
    if (libc.nfs_typenum == 0)
        return fail(ENOENT);
    memset(vfc, 0, sizeof(*vfc));
    strlcpy(vfc->vfc_name, name, sizeof(vfc->vfc_name));
    vfc->vfc_typenum = libc.nfs_typenum;
    return 0;
}

void
dbl_nfs_server(const void *stats, size_t len, int err)
{
    free(libc.srv);
    libc.srv = NULL;
    libc.srv_len = len;
    libc.srv_err = err;
    if (stats != NULL) {
        if ((libc.srv = malloc(len)) == NULL)
            dbl_violation("out of memory");
        memcpy(libc.srv, stats, len);
    }
}

int
nfssvc(int flag, void *argp)
{
    struct iovec *iov = argp;
    int err;

    if (flag != NFSSVC_SRVSTATS)
        dbl_violation("nfssvc(%#x): not a call the live code makes", flag);
    if ((err = dbl_failing("nfssvc")) != 0 || (err = libc.srv_err) != 0)
        return fail(err);
    if (iov[1].iov_base != NULL && iov[1].iov_len >= sizeof(size_t) &&
        (iov[0].iov_base == NULL || iov[0].iov_len < libc.srv_len))
        memcpy(iov[1].iov_base, &libc.srv_len, sizeof(size_t));
    if (iov[0].iov_base == NULL)
        return 0;
    if (iov[0].iov_len < libc.srv_len)
        return fail(ENOMEM);
    memcpy(iov[0].iov_base, libc.srv, libc.srv_len);
    return 0;
}

int
socket(int domain, int type, int protocol)
{
    int err;

    if (domain != AF_INET || type != SOCK_DGRAM || protocol != 0)
        dbl_violation("socket(%d, %d, %d): not a call the live code makes", domain, type, protocol);
    if ((err = dbl_failing("socket")) != 0)
        return fail(err);
    for (int i = 0; i < MAX_FDS; i++)
        if (!libc.fds[i]) {
            libc.fds[i] = 1;
            return FIRST_FD + i;
        }
    return fail(EMFILE);
}

int
close(int fd)
{
    if (fd < FIRST_FD || fd >= FIRST_FD + MAX_FDS || !libc.fds[fd - FIRST_FD])
        dbl_violation("close(%d): not a descriptor the double gave out (closed twice?)", fd);
    libc.fds[fd - FIRST_FD] = 0;
    return 0;
}

void
dbl_netif_type(const char *name, uint32_t type, int err)
{
    if (libc.nnetifs == MAX_ITEMS)
        dbl_violation("more than %d interfaces", MAX_ITEMS);
    strlcpy(libc.netifs[libc.nnetifs].name, name, IFNAMSIZ);
    libc.netifs[libc.nnetifs].type = type;
    libc.netifs[libc.nnetifs++].err = err;
}

int
ioctl(int fd, unsigned long request, ...)
{
    struct ifreq *ifr;
    va_list ap;

    if (fd < FIRST_FD || fd >= FIRST_FD + MAX_FDS || !libc.fds[fd - FIRST_FD])
        return fail(EBADF);
    if (request != SIOCGIFFUNCTIONALTYPE)
        dbl_violation("ioctl(%#lx): not a call the live code makes", request);
    va_start(ap, request);
    ifr = va_arg(ap, struct ifreq *);
    va_end(ap);
    for (unsigned int i = 0; i < libc.nnetifs; i++)
        if (strncmp(libc.netifs[i].name, ifr->ifr_name, IFNAMSIZ) == 0) {
            if (libc.netifs[i].err)
                return fail(libc.netifs[i].err);
            ifr->ifr_ifru.ifru_functional_type = libc.netifs[i].type;
            return 0;
        }
    return fail(ENXIO);
}
