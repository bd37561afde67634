/*
 * Asking a failing private source again at a bounded rate, on the clock
 * that counts sleep (live_clock_ns): the wait doubles from
 * PLAT_RETRY_FIRST_NS to PLAT_RETRY_CAP_NS, and a success starts over.
 */
#include "live_source.h"

#include <stdio.h>

int
live_retry_due(const struct live_retry *r)
{
    return live_clock_ns() >= r->due_ns;
}

int
live_retry_repeat(struct live_source *src, const struct live_retry *r)
{
    return live_fail(src, r->status, "%s", r->why);
}

void
live_retry_later(struct live_retry *r)
{
    r->wait_ns = r->wait_ns == 0 ? PLAT_RETRY_FIRST_NS
               : r->wait_ns >= PLAT_RETRY_CAP_NS / 2 ? PLAT_RETRY_CAP_NS : 2 * r->wait_ns;
    r->due_ns = live_clock_ns() + r->wait_ns;
}

void
live_retry_spaced(struct live_retry *r, int status, const char *why)
{
    r->status = status;
    snprintf(r->why, sizeof(r->why), "%s", why);
    live_retry_later(r);
}

int
live_retry_after(struct live_source *src, struct live_retry *r, int sts)
{
    r->status = sts;
    if (sts >= 0) {
        r->due_ns = r->wait_ns = 0;
        return sts;
    }
    snprintf(r->why, sizeof(r->why), "%s", src->error);
    live_retry_later(r);
    return sts;
}
