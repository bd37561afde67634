/*
 * host_statistics and host_statistics64 as a process that is not Apple's
 * sees them (xnu-11417.101.15 osfmk/kern/host.c):
 *  - a count below the flavor's fails with KERN_FAILURE before anything is
 *    counted (:653-730); HOST_VM_INFO64 fills the revision-0 fields, and the
 *    revision-1 ones only when the count has room, and says in the count
 *    which it filled (:836-855); the reply copies only that many integers.
 *  - Rate limit (:733-780), one per flavor's cache (:597-617; HOST_CPU_LOAD_INFO
 *    is one cache for both calls, :702-707; HOST_VM_INFO64 with a count of
 *    revision 1 another, :666-669): the first call after a window ended opens
 *    a window of 1 s of mach_continuous_time (:563, :759, :775), counts as its
 *    first request (:767) and draws the window's budget, mach_absolute_time()
 *    % 9 + 2 requests (:564-565, :774). Past the budget a call gets the
 *    flavor's cached copy and its count, with success (:761-763, :960-961).
 *  - Every fresh answer to such a process is copied into the flavor's cache
 *    after the call, outside the lock (:968-971, :998, cache_host_statistics
 *    :626-639): the cache holds the copy of whichever caller wrote last, and
 *    a caller that took its answer earlier but copies it later leaves an
 *    older copy than the newest answer given.
 *  - Other processes share the budget and the cache: a poller like Stats,
 *    whose CPU reader calls host_statistics(HOST_CPU_LOAD_INFO) and whose
 *    memory reader calls host_statistics64(HOST_VM_INFO64) with revision 1's
 *    count at every update (exelban/stats 9ae1388 Modules/CPU/readers.swift
 *    LoadReader.read; 87697bf Modules/RAM/readers.swift UsageReader.read).
 *    Its calls are played as virtual time passes, before each call of ours.
 */
#include "double.h"
#include "dbl_mach.h"

#include <mach/mach.h>
#include <string.h>

#define WINDOW_NS 1000000000u           /* HOST_STATISTICS_TIME_WINDOW, host.c:563 */
#define MAX_REQUESTS 10                 /* host.c:564 */
#define MIN_REQUESTS 2                  /* host.c:565 */

#define MAX_PENDING 16                  /* other processes' copies on their way */

enum cache_index { CACHE_CPU_LOAD, CACHE_VM_INFO64_REV1, NCACHES };

struct copy {
    mach_msg_type_number_t count;       /* integer_t's */
    union {
        host_cpu_load_info_data_t cpu;
        vm_statistics64_data_t vm;
    } data;
};

static struct {
    struct cache {
        int opened;                     /* a window was ever opened */
        uint64_t last_access;           /* mach_continuous_time of the window's opening */
        uint64_t current_requests, max_requests;
        struct copy copy;
    } cache[NCACHES];
    struct {
        uint64_t period_ns;             /* 0: no other process */
        uint64_t copy_delay_ns;
        uint64_t next_ns;               /* their next call */
        struct pending {                /* fresh answers not yet copied, oldest first */
            unsigned int first, n;
            uint64_t lands_ns[MAX_PENDING];
            struct copy answer[MAX_PENDING];
        } pending[NCACHES];
    } poller;
    unsigned int cached;                /* our calls answered from a cache */
} hs;

/* Each cache's count, that of the flavor's newest revision (host.c:605-617). */
static const mach_msg_type_number_t initial_count[NCACHES] = {
    [CACHE_CPU_LOAD] = HOST_CPU_LOAD_INFO_COUNT,
    [CACHE_VM_INFO64_REV1] = HOST_VM_INFO64_REV1_COUNT,
};

void
dbl_host_stats_reset(void)
{
    memset(&hs, 0, sizeof(hs));
    for (int i = 0; i < NCACHES; i++)
        hs.cache[i].copy.count = initial_count[i];
}

/* rate_limit_host_statistics at virtual time ns: whether the call is past
 * the window's budget (host.c:759-776). */
static int
limited(enum cache_index index, uint64_t ns)
{
    struct cache *c = &hs.cache[index];
    uint64_t now = dbl_mach_abs(ns);

    /* host.c:759 compares last_access with now less the window; a Mac's
     * clock is never within a window of its start, the virtual one is. */
    if (c->opened && now - c->last_access < dbl_mach_abs(WINDOW_NS))
        return c->current_requests++ >= c->max_requests;
    c->opened = 1;
    c->current_requests = 1;
    c->max_requests = now % (MAX_REQUESTS - MIN_REQUESTS + 1) + MIN_REQUESTS;
    c->last_access = now;
    return 0;
}

/* The kernel's fresh answer at virtual time ns, for a caller's count. */
static void
answer(enum cache_index index, uint64_t ns, struct copy *out)
{
    if (index == CACHE_CPU_LOAD) {
        dbl_mach_cpu_load_at(ns, out->data.cpu.cpu_ticks);
        out->count = HOST_CPU_LOAD_INFO_COUNT;
        return;
    }
    dbl_vm_fill(&out->data.vm, ns);
    out->count = dbl_mach_vm_filled();
}

/* The other processes' answers copied into the caches by virtual time ns,
 * in the order they land. */
static void
land_copies(uint64_t ns)
{
    for (int i = 0; i < NCACHES; i++) {
        struct pending *q = &hs.poller.pending[i];

        for (; q->n > 0 && q->lands_ns[q->first] <= ns; q->first = (q->first + 1) % MAX_PENDING, q->n--)
            hs.cache[i].copy = q->answer[q->first];
    }
}

/* The other processes' calls up to virtual time ns, in order. */
static void
others_until(uint64_t ns)
{
    for (; hs.poller.period_ns != 0 && hs.poller.next_ns <= ns; hs.poller.next_ns += hs.poller.period_ns) {
        uint64_t t = hs.poller.next_ns;

        land_copies(t);
        for (int i = 0; i < NCACHES; i++)
            if (!limited((enum cache_index)i, t)) {
                struct pending *q = &hs.poller.pending[i];
                unsigned int last = (q->first + q->n++) % MAX_PENDING;

                if (q->n > MAX_PENDING)
                    dbl_violation("dbl_host_poller: more than %d copies on their way", MAX_PENDING);
                answer((enum cache_index)i, t, &q->answer[last]);
                q->lands_ns[last] = t + hs.poller.copy_delay_ns;
            }
    }
    land_copies(ns);
}

void
dbl_host_poller(unsigned int calls_per_second, uint64_t copy_delay_ns)
{
    hs.poller.period_ns = calls_per_second ? WINDOW_NS / calls_per_second : 0;
    hs.poller.copy_delay_ns = copy_delay_ns;
    hs.poller.next_ns = dbl_clock_ns();
}

unsigned int
dbl_host_stats_cached(void)
{
    return hs.cached;
}

/* Our call, now: fresh or the cache's copy, copied out as a reply holds it. */
static void
reply(enum cache_index index, void *info, mach_msg_type_number_t *count)
{
    uint64_t now = dbl_clock_ns();
    struct copy fresh;
    const struct copy *given = &fresh;

    others_until(now);
    if (limited(index, now)) {
        given = &hs.cache[index].copy;
        hs.cached++;
    } else {
        answer(index, now, &fresh);
        hs.cache[index].copy = fresh;
    }
    memcpy(info, &given->data, given->count * sizeof(integer_t));
    *count = given->count;
}

/* One call of ours: the flavor the live code asks for, KERN_FAILURE for a
 * count below the flavor's least (host.c:653-730), the answer for a count
 * of the cache's revision. */
static kern_return_t
call(const char *fn, host_t host, host_flavor_t flavor, host_flavor_t asked, enum cache_index index,
     mach_msg_type_number_t least, void *info, mach_msg_type_number_t *count)
{
    int err;

    if (dbl_port_get(host, DBL_PORT_HOST, fn) == NULL)
        return KERN_INVALID_HOST;
    if (flavor != asked)
        dbl_violation("%s flavor %d: not one the live code uses", fn, flavor);
    if (*count < least)
        return KERN_FAILURE;
    if (*count < initial_count[index])
        dbl_violation("%s flavor %d with an older revision's count: not what the live code asks", fn, flavor);
    if ((err = dbl_failing(fn)) != 0)
        return err;
    reply(index, info, count);
    return KERN_SUCCESS;
}

kern_return_t
host_statistics(host_t host, host_flavor_t flavor, host_info_t info, mach_msg_type_number_t *count)
{
    return call("host_statistics", host, flavor, HOST_CPU_LOAD_INFO, CACHE_CPU_LOAD, HOST_CPU_LOAD_INFO_COUNT, info,
                count);
}

kern_return_t
host_statistics64(host_t host, host_flavor_t flavor, host_info64_t info, mach_msg_type_number_t *count)
{
    return call("host_statistics64", host, flavor, HOST_VM_INFO64, CACHE_VM_INFO64_REV1, HOST_VM_INFO64_REV0_COUNT,
                info, count);
}
