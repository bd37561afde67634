/*
 * sysctl helpers that check the size the kernel returned, so that a field
 * whose width changes between releases is reported instead of half-copied.
 */
#include "live_source.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysctl.h>

int
live_sysctl_uint(struct live_source *src, const char *name, uint64_t *out)
{
    union {
        uint32_t u32;
        uint64_t u64;
    } value;
    size_t size = sizeof(value);

    if (sysctlbyname(name, &value, &size, NULL, 0) == -1)
        return live_fail(src, -errno, "sysctl %s: %s", name, strerror(errno));
    if (size == sizeof(uint32_t))
        *out = value.u32;
    else if (size == sizeof(uint64_t))
        *out = value.u64;
    else
        return live_fail(src, -EMSGSIZE, "sysctl %s: unexpected size %zu", name, size);
    return 0;
}

int
live_sysctl_struct(struct live_source *src, const char *what, int *mib, unsigned int miblen,
                   void *out, size_t size)
{
    size_t got = size;

    if (sysctl(mib, miblen, out, &got, NULL, 0) == -1)
        return live_fail(src, -errno, "sysctl %s: %s", what, strerror(errno));
    if (got != size)
        return live_fail(src, -EMSGSIZE, "sysctl %s: size %zu, expected %zu", what, got, size);
    return 0;
}

/* The kernel writes the string with its NUL, or refuses (ENOMEM) when
 * the buffer cannot hold both (bsd/kern/kern_newsysctl.c sysctl_io_string). */
int
live_sysctl_text(struct live_source *src, const char *name, char *out, size_t outlen)
{
    size_t size = outlen;

    if (sysctlbyname(name, out, &size, NULL, 0) == -1)
        return live_fail(src, -errno, "sysctl %s: %s", name, strerror(errno));
    out[size < outlen ? size : outlen - 1] = '\0';
    return 0;
}

/* The list can grow between the size probe and the read: read with slack,
 * and again, a bounded number of times, while the kernel says ENOMEM. */
#define GROWING_TRIES 4

int
live_sysctl_growing(struct live_source *src, const char *what, int *mib, unsigned int miblen,
                    struct live_buffer *buf, size_t max, size_t *len)
{
    for (int attempt = 0; attempt < GROWING_TRIES; attempt++) {
        size_t need = 0, got;

        if (sysctl(mib, miblen, NULL, &need, NULL, 0) == -1)
            return live_fail(src, -errno, "sysctl %s (size): %s", what, strerror(errno));
        need += need / 4 + 4096;
        if (need > max)
            return live_fail(src, -E2BIG, "sysctl %s: %zu bytes is more than this agent reads", what, need);
        if (need > buf->cap) {
            unsigned char *grown = realloc(buf->data, need);

            if (grown == NULL)
                return live_fail(src, -ENOMEM, "sysctl %s: out of memory for %zu bytes", what, need);
            buf->data = grown;
            buf->cap = need;
        }
        got = buf->cap;
        if (sysctl(mib, miblen, buf->data, &got, NULL, 0) == 0) {
            *len = got;
            return 0;
        }
        if (errno != ENOMEM)
            return live_fail(src, -errno, "sysctl %s: %s", what, strerror(errno));
    }
    return live_fail(src, -ENOMEM, "sysctl %s: it kept growing past %zu bytes", what, buf->cap);
}
