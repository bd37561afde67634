#include "convert.h"

#include <errno.h>

uint64_t
pages_to_kbytes(uint64_t pages, uint64_t page_size)
{
    if (page_size % 1024 == 0)
        return pages * (page_size / 1024);
    return (uint64_t)(((unsigned __int128)pages * page_size) / 1024);
}

uint64_t
ticks_to_msec(uint64_t ticks, uint32_t hz)
{
    return (ticks / hz) * 1000 + ((ticks % hz) * 1000) / hz;
}

float
loadavg_value(uint32_t fixed, uint64_t fscale)
{
    return (float)((double)fixed / (double)fscale);
}

uint64_t
wrap32_extend(struct wrap32 *w, uint32_t raw)
{
    uint32_t step = raw - w->last;      /* modular: a wrap is a small step forward */

    w->held = w->primed && step > INT32_MAX;
    if (!w->primed) {
        w->primed = 1;
        w->total = raw;
    } else if (w->held) {
        return w->total;                /* below the last: an older copy, not a wrap */
    } else {
        w->total += step;
    }
    w->last = raw;
    return w->total;
}

int
usec_between(int64_t from_sec, int32_t from_usec, int64_t to_sec, int32_t to_usec, uint64_t *out)
{
    __int128 usec = ((__int128)to_sec - from_sec) * 1000000 + ((__int128)to_usec - from_usec);

    if (usec < 0 || usec > (__int128)UINT64_MAX)
        return -ERANGE;
    *out = (uint64_t)usec;
    return 0;
}

int
uptime_seconds(const struct plat_clock *c, uint32_t *out)
{
    uint64_t usec;

    if (usec_between(c->boot_sec, c->boot_usec, c->now_sec, c->now_usec, &usec) < 0 || usec / 1000000 > UINT32_MAX)
        return -ERANGE;
    *out = (uint32_t)(usec / 1000000);
    return 0;
}

uint64_t
sum_div(uint64_t a, uint64_t b, uint64_t d)
{
    return (uint64_t)(((unsigned __int128)a + b) / d);
}

uint64_t
mach_to_ns(uint64_t mach, uint32_t numer, uint32_t denom)
{
    unsigned __int128 ns;

    if (denom == 0)
        return 0;
    ns = (unsigned __int128)mach * numer / denom;
    return ns > UINT64_MAX ? UINT64_MAX : (uint64_t)ns;
}

uint64_t
blocks_to_kbytes(uint64_t blocks, uint64_t block_size)
{
    unsigned __int128 kb = (unsigned __int128)blocks * block_size / 1024;

    return kb > UINT64_MAX ? UINT64_MAX : (uint64_t)kb;
}
