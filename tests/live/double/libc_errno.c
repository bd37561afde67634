/*
 * errno, strerror and the fortified copies, as Darwin's Libc has them.
 *  - errno is *__error(), per thread (Libc-1725, sys/errno.h and
 *    gen/errno.c): the live code's errno is this one, not glibc's.
 *  - strerror's texts are Darwin's (Libc-1725 gen/FreeBSD/errlst.c, the
 *    numbers of xnu-11417 bsd/sys/errno.h); Darwin numbers above 34 are
 *    not Linux's (EAGAIN 35, EMSGSIZE 40, ENOTSUP 45, ENODATA 96).
 *  - With _FORTIFY_SOURCE (on by default in Apple's headers) memcpy,
 *    memset and snprintf into an object of known size become the __*_chk
 *    calls, which stop the program when the copy is larger than the
 *    object (Libc-1725 secure/memcpy_chk.c, memset_chk.c, snprintf_chk.c,
 *    vsnprintf_chk.c).
 */
#include "double.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static __thread int darwin_errno;

int *
__error(void)
{
    return &darwin_errno;
}

void
dbl_set_errno(int err)
{
    darwin_errno = err;
}

static const char *const texts[] = {
    [0] = "Undefined error: 0",
    [EPERM] = "Operation not permitted",
    [ENOENT] = "No such file or directory",
    [ESRCH] = "No such process",
    [EINTR] = "Interrupted system call",
    [EIO] = "Input/output error",
    [ENXIO] = "Device not configured",
    [E2BIG] = "Argument list too long",
    [EBADF] = "Bad file descriptor",
    [ENOMEM] = "Cannot allocate memory",
    [EACCES] = "Permission denied",
    [EFAULT] = "Bad address",
    [EBUSY] = "Resource busy",
    [EEXIST] = "File exists",
    [ENODEV] = "Operation not supported by device",
    [ENOTDIR] = "Not a directory",
    [EINVAL] = "Invalid argument",
    [ENFILE] = "Too many open files in system",
    [EMFILE] = "Too many open files",
    [ENOTTY] = "Inappropriate ioctl for device",
    [ENOSPC] = "No space left on device",
    [ERANGE] = "Result too large",
    [EAGAIN] = "Resource temporarily unavailable",
    [EMSGSIZE] = "Message too long",
    [ENOTSUP] = "Operation not supported",
    [ENAMETOOLONG] = "File name too long",
    [ENOSYS] = "Function not implemented",
    [ENODATA] = "No message available on STREAM",
};

char *
strerror(int err)
{
    static __thread char unknown[32];

    if (err >= 0 && (size_t)err < sizeof(texts) / sizeof(texts[0]) && texts[err] != NULL)
        return (char *)texts[err];
    snprintf(unknown, sizeof(unknown), "Unknown error: %d", err);
    return unknown;
}

void *
__memcpy_chk(void *dst, const void *src, size_t len, size_t dstlen)
{
    if (len > dstlen)
        dbl_violation("memcpy of %zu bytes into an object of %zu", len, dstlen);
    return memcpy(dst, src, len);
}

void *
__memset_chk(void *dst, int c, size_t len, size_t dstlen)
{
    if (len > dstlen)
        dbl_violation("memset of %zu bytes on an object of %zu", len, dstlen);
    return memset(dst, c, len);
}

int
__vsnprintf_chk(char *s, size_t maxlen, int flags, size_t slen, const char *fmt, va_list ap)
{
    (void)flags;
    if (maxlen > slen)
        dbl_violation("snprintf told %zu bytes into an object of %zu", maxlen, slen);
    return vsnprintf(s, maxlen, fmt, ap);
}

int
__snprintf_chk(char *s, size_t maxlen, int flags, size_t slen, const char *fmt, ...)
{
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = __vsnprintf_chk(s, maxlen, flags, slen, fmt, ap);
    va_end(ap);
    return n;
}
