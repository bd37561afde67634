/*
 * sysctl, sysctlbyname and sysctlnametomib with XNU's semantics
 * (xnu-11417.101.15 bsd/kern/kern_newsysctl.c):
 *  - no buffer: the size the value needs, in *oldlenp (a list's handler
 *    adds room for entries that may come: the probe is an estimate);
 *  - a buffer shorter than the value: ENOMEM, nothing copied and a length
 *    of 0 (sysctl_old_user refuses before copying; userland_sysctl
 *    answers the bytes written); but the TCP, UDP and IPv6 statistics'
 *    handlers ask sysctl_old_user for no more than the buffer holds, so a
 *    short buffer gets the struct's first bytes, its length, and success
 *    (bsd/netinet/tcp_input.c:7570-7596 tcp_getstat, udp_usrreq.c:
 *    2804-2812 udp_getstat, netinet6/in6_proto.c:599-607 ip6_getstat:
 *    SYSCTL_OUT(req, stat, MIN(size, req->oldlen)));
 *  - an integer: 4 bytes for an int, 8 for a quad; a 4-byte buffer for a
 *    quad gets the value as an int, ERANGE when it does not fit
 *    (sysctl_io_number);
 *  - a string: its bytes and the NUL, ENOMEM when they do not fit
 *    (sysctl_io_string);
 *  - a name that does not exist: ENOENT; a handler's own error as it is
 *    (hw.perflevelN.l3cachesize is EINVAL where the level has no L3, as on
 *    Apple Silicon: sysctl_hw_generic, bsd/kern/kern_mib.c);
 *  - KERN_PROCARGS2 with a buffer shorter than the arguments: argc in the
 *    first word, then the LAST bytes of the strings that fit, the buffer's
 *    length and success; EINVAL for a buffer with no room after argc
 *    (kern_sysctl.c:1359-1367, :1553-1611 sysctl_procargsx);
 *  - the NFS client's statistics (vfs.nfs's NFS_NFSSTATS) are copied out
 *    by the kext itself, which sets the length in the request that
 *    userland_sysctl does not return: the caller always gets a length of
 *    0, with the data in place when the buffer held the whole struct and
 *    ENOMEM when not (NFS-339 kext/nfs_vfsops.c nfs_vfs_sysctl;
 *    xnu bsd/vfs/vfs_subr.c vfs_sysctl_node).
 */
#include "double.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysctl.h>

#define MAX_SYSCTLS 1024
#define AUTO_MIB 0x7000             /* the first number given to a name set without a MIB */

enum kind { K_INT = 1, K_STRING, K_BYTES, K_LIST, K_ERROR, K_NFS, K_PROCARGS };

static struct sysctl {
    char name[128];
    int mib[CTL_MAXNAME];
    unsigned int miblen;
    enum kind kind;
    unsigned char *bytes;
    size_t len;
    unsigned int width;             /* K_INT: 4 or 8 */
    int err;                        /* K_ERROR */
    unsigned char *next;            /* K_LIST: what the list is after the next size probe */
    size_t next_len;
} sysctls[MAX_SYSCTLS];
static unsigned int nsysctls;

void
dbl_sysctl_reset(void)
{
    for (unsigned int i = 0; i < nsysctls; i++) {
        free(sysctls[i].bytes);
        free(sysctls[i].next);
    }
    memset(sysctls, 0, sizeof(sysctls));
    nsysctls = 0;
}

static struct sysctl *
by_name(const char *name)
{
    for (unsigned int i = 0; i < nsysctls; i++)
        if (strcmp(sysctls[i].name, name) == 0)
            return &sysctls[i];
    return NULL;
}

static struct sysctl *
by_mib(const int *mib, unsigned int miblen)
{
    for (unsigned int i = 0; i < nsysctls; i++)
        if (sysctls[i].miblen == miblen && memcmp(sysctls[i].mib, mib, miblen * sizeof(int)) == 0)
            return &sysctls[i];
    return NULL;
}

/* Set (or replace) a sysctl; mib NULL: one of its own. */
static struct sysctl *
set(const char *name, const int *mib, unsigned int miblen, enum kind kind, const void *bytes, size_t len)
{
    struct sysctl *s = name[0] ? by_name(name) : by_mib(mib, miblen);

    if (s == NULL) {
        if (nsysctls == MAX_SYSCTLS)
            dbl_violation("more than %d sysctls", MAX_SYSCTLS);
        s = &sysctls[nsysctls];
        strlcpy(s->name, name, sizeof(s->name));
        if (mib != NULL) {
            memcpy(s->mib, mib, miblen * sizeof(int));
            s->miblen = miblen;
        } else {
            s->mib[0] = AUTO_MIB + (int)nsysctls;
            s->miblen = 1;
        }
        nsysctls++;
    }
    free(s->bytes);
    free(s->next);
    s->next = NULL;
    s->kind = kind;
    s->len = len;
    if ((s->bytes = malloc(len ? len : 1)) == NULL)
        dbl_violation("out of memory");
    if (len)
        memcpy(s->bytes, bytes, len);
    return s;
}

void
dbl_sysctl_int(const char *name, uint64_t value, unsigned int width)
{
    if (width != 4 && width != 8)
        dbl_violation("sysctl %s of width %u", name, width);
    set(name, NULL, 0, K_INT, &value, 8)->width = width;
}

void
dbl_sysctl_string(const char *name, const char *text)
{
    set(name, NULL, 0, K_STRING, text, strlen(text) + 1);
}

void
dbl_sysctl_bytes(const char *name, const int *mib, unsigned int miblen, const void *bytes, size_t len)
{
    set(name, mib, miblen, K_BYTES, bytes, len);
}

void
dbl_sysctl_list(const char *name, const int *mib, unsigned int miblen, const void *bytes, size_t len)
{
    set(name, mib, miblen, K_LIST, bytes, len);
}

/* The list as it will be once the next size probe has answered: what
 * changed between a caller's probe and its read. */
void
dbl_sysctl_list_next(const char *name, const int *mib, unsigned int miblen, const void *bytes, size_t len)
{
    struct sysctl *s = name[0] ? by_name(name) : by_mib(mib, miblen);

    if (s == NULL || s->kind != K_LIST)
        dbl_violation("dbl_sysctl_list_next of a sysctl that is no list");
    free(s->next);
    if ((s->next = malloc(len ? len : 1)) == NULL)
        dbl_violation("out of memory");
    memcpy(s->next, bytes, len);
    s->next_len = len;
}

void
dbl_sysctl_error(const char *name, int err)
{
    set(name, NULL, 0, K_ERROR, NULL, 0)->err = err;
}

void
dbl_sysctl_procargs(const char *name, const int *mib, unsigned int miblen, const void *bytes, size_t len)
{
    set(name, mib, miblen, K_PROCARGS, bytes, len);
}

void
dbl_sysctl_nfs(int typenum, const void *stats, size_t len)
{
    int mib[3] = { CTL_VFS, typenum, 1 /* NFS_NFSSTATS */ };

    set("", mib, 3, K_NFS, stats, len);
}

static int
fail(int err)
{
    dbl_set_errno(err);
    return -1;
}

static int
copies_what_fits(const struct sysctl *s)
{
    static const char *const names[] = { "net.inet.tcp.stats", "net.inet.udp.stats", "net.inet6.ip6.stats" };

    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (s->kind == K_BYTES && strcmp(s->name, names[i]) == 0)
            return 1;
    return 0;
}

/* What a buffer of buflen bytes (after argc) too short for the len
 * bytes of strings gets (xnu-11417.101.15 bsd/kern/kern_sysctl.c:1553-1604,
 * sysctl_procargsx): the buflen bytes that end where the strings end, with
 * success, of which all past round_page(buflen) from that end, less
 * buflen, are zeros (kept from before rdar://25397314): with less than
 * half a page, nothing but zeros. Pages are an arm64 process's. */
#define PROCARGS_PAGE 16384u
static void
procargs_cut(unsigned char *out, size_t buflen, const unsigned char *strings, size_t len)
{
    size_t rounded = (buflen + PROCARGS_PAGE - 1) / PROCARGS_PAGE * PROCARGS_PAGE;
    size_t kept = 2 * buflen > rounded ? 2 * buflen - rounded : 0;    /* from data to smallbuffer_start + buflen */

    memset(out, 0, buflen);
    memcpy(out, strings + len - buflen, kept);      /* buflen < len: the call is short */
}

static int
answer(struct sysctl *s, void *oldp, size_t *oldlenp, const void *newp)
{
    const void *value = s->bytes;
    size_t need = s->len;
    uint32_t small;

    if (newp != NULL)
        dbl_violation("sysctl %s: the live code never sets a sysctl", s->name);
    switch (s->kind) {
    case K_ERROR:
        return fail(s->err);
    case K_NFS:
        if (oldp != NULL && *oldlenp >= s->len)
            memcpy(oldp, s->bytes, s->len);
        else if (oldp != NULL) {
            *oldlenp = 0;
            return fail(ENOMEM);
        }
        *oldlenp = 0;
        return 0;
    case K_INT:
        need = s->width;
        if (s->width == 8 && oldp != NULL && *oldlenp == 4) {
            uint64_t v;

            memcpy(&v, s->bytes, 8);
            if (v > INT32_MAX)
                return fail(ERANGE);
            small = (uint32_t)v;
            value = &small;
            need = 4;
        } else if (s->width == 4) {
            uint64_t v;

            memcpy(&v, s->bytes, 8);
            small = (uint32_t)v;
            value = &small;
        }
        break;
    case K_PROCARGS:
        if (oldp != NULL && *oldlenp < need) {
            if (*oldlenp <= sizeof(int32_t))
                return fail(EINVAL);
            memcpy(oldp, value, sizeof(int32_t));
            procargs_cut((unsigned char *)oldp + sizeof(int32_t), *oldlenp - sizeof(int32_t), s->bytes + sizeof(int32_t),
                         need - sizeof(int32_t));
            return 0;
        }
        break;
    case K_LIST:
        if (oldp == NULL) {
            *oldlenp = need + need / 8;     /* the handlers' slack, as tcp_pcblist_n's */
            if (s->next != NULL) {          /* it changes before the read */
                free(s->bytes);
                s->bytes = s->next;
                s->len = s->next_len;
                s->next = NULL;
            }
            return 0;
        }
        break;
    default:
        break;
    }
    if (oldp == NULL) {
        *oldlenp = need;
        return 0;
    }
    if (*oldlenp < need && copies_what_fits(s))
        need = *oldlenp;
    if (*oldlenp < need) {
        *oldlenp = 0;
        return fail(ENOMEM);
    }
    memcpy(oldp, value, need);
    *oldlenp = need;
    return 0;
}

int
sysctl(int *mib, u_int miblen, void *oldp, size_t *oldlenp, void *newp, size_t newlen)
{
    struct sysctl *s;
    int err;

    (void)newlen;
    if (oldlenp == NULL)
        dbl_violation("sysctl without a length");
    if ((err = dbl_failing("sysctl")) != 0)
        return fail(err);
    if ((s = by_mib(mib, miblen)) == NULL)
        return fail(ENOENT);
    return answer(s, oldp, oldlenp, newp);
}

int
sysctlbyname(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen)
{
    struct sysctl *s;
    int err;

    (void)newlen;
    if (oldlenp == NULL)
        dbl_violation("sysctlbyname(%s) without a length", name);
    if ((err = dbl_failing("sysctlbyname")) != 0)
        return fail(err);
    if ((s = by_name(name)) == NULL)
        return fail(ENOENT);
    return answer(s, oldp, oldlenp, newp);
}

/* Libc gen/sysctlnametomib.c: *sizep in, the MIB's length out. */
int
sysctlnametomib(const char *name, int *mib, size_t *sizep)
{
    struct sysctl *s;
    int err;

    if ((err = dbl_failing("sysctlnametomib")) != 0)
        return fail(err);
    if ((s = by_name(name)) == NULL)
        return fail(ENOENT);
    if (*sizep < s->miblen)
        return fail(ENOMEM);
    memcpy(mib, s->mib, s->miblen * sizeof(int));
    *sizep = s->miblen;
    return 0;
}
