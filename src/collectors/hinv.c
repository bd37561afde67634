/*
 * Cluster 0: facts about the host that do not change while it runs.
 * They are read once, on the first request that needs them.
 */
#include "collector.h"
#include "hinv.h"

#include <errno.h>
#include <string.h>

enum { ITEM_PAGESIZE = 0, ITEM_HZ = 1, ITEM_MACHINE = 2 };

static const struct metric_row rows[] = {
    { "hinv.pagesize", CLUSTER_HINV, ITEM_PAGESIZE, PM_TYPE_U64, COLLECTOR_NO_INDOM, PM_SEM_DISCRETE,
      PMDA_PMUNITS(1, 0, 0, PM_SPACE_BYTE, 0, 0) },
    { "kernel.all.hz", CLUSTER_HINV, ITEM_HZ, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_DISCRETE,
      PMDA_PMUNITS(0, -1, 1, 0, PM_TIME_SEC, PM_COUNT_ONE) },
    { "hinv.machine", CLUSTER_HINV, ITEM_MACHINE, PM_TYPE_STRING, COLLECTOR_NO_INDOM, PM_SEM_DISCRETE,
      PMDA_PMUNITS(0, 0, 0, 0, 0, 0) },
};

/* Before the first refresh, every fact is yet to be read. */
#define UNREAD { .page_status = -EAGAIN, .clock_status = -EAGAIN, .memsize_status = -EAGAIN, .model_status = -EAGAIN }
static const struct plat_host unread = UNREAD;
static struct plat_host host = UNREAD;
static int have_host;               /* every fact read: the source is not asked again */
static unsigned int logged_failures;

/* A fact's value, or why it is missing. */
static int
fact(int status)
{
    return status == 0 ? 0 : collector_error(status);
}

int
hinv_page_size(uint64_t *out)
{
    *out = host.page_size;
    return fact(host.page_status);
}

int
hinv_clock_hz(uint32_t *out)
{
    *out = host.clock_hz;
    return fact(host.clock_status);
}

int
hinv_memsize(uint64_t *out)
{
    *out = host.memsize;
    return fact(host.memsize_status);
}

static int
hinv_refresh(const struct platform *p, pmInDom indom, const char **reason)
{
    struct plat_host fresh;
    int sts;

    (void)reason;
    (void)indom;
    if (have_host)
        return 0;
    memset(&fresh, 0, sizeof(fresh));
    if ((sts = p->host(p->ctx, &fresh)) < 0) {
        host.page_status = host.clock_status = host.memsize_status = host.model_status = sts;
        return collector_error(sts);
    }
    /* CPU times are ticks / hz and memory is counted in pages: a source that
     * says 0 fails those values, not pmcd with SIGFPE. */
    if (fresh.page_status == 0 && fresh.page_size == 0)
        fresh.page_status = -ERANGE;
    if (fresh.clock_status == 0 && fresh.clock_hz == 0)
        fresh.clock_status = -ERANGE;
    host = fresh;
    collector_note_parts("hinv",
                         (host.page_status < 0) << 0 | (host.clock_status < 0) << 1 |
                             (host.memsize_status < 0) << 2 | (host.model_status < 0) << 3,
                         &logged_failures, p->error(p->ctx));
    have_host = host.page_status == 0 && host.clock_status == 0 && host.memsize_status == 0 &&
                host.model_status == 0;
    return 0;
}

static int
hinv_fetch(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    int sts;

    (void)inst;
    switch (row->item) {
    case ITEM_PAGESIZE:
        sts = hinv_page_size(&atom->ull);
        break;
    case ITEM_HZ:
        sts = hinv_clock_hz(&atom->ul);
        break;
    case ITEM_MACHINE:
        sts = fact(host.model_status);
        atom->cp = host.model;
        break;
    default:
        return PM_ERR_PMID;
    }
    return sts < 0 ? sts : PMDA_FETCH_STATIC;
}

static void
hinv_teardown(pmInDom indom)
{
    (void)indom;
    host = unread;
    have_host = 0;
    logged_failures = 0;
}

const struct collector hinv_collector = {
    .name = "hinv",
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .refresh = hinv_refresh,
    .fetch = hinv_fetch,
    .teardown = hinv_teardown,
};
