/*
 * Cluster 0: facts about the host that do not change while it runs.
 * They are read once, on the first request that needs them.
 */
#include "collector.h"
#include "metric_ids.h"
#include "hinv.h"

#include <errno.h>
#include <string.h>

/* Before the first refresh, every fact is yet to be read. */
struct hinv_state {
    struct plat_host host;
    int read;                       /* refreshed once, successfully or not */
    int complete;                   /* every fact read: the source is not asked again */
    unsigned int logged_failures;
};

#define HOST(member, status) FIELD_OF(struct hinv_state, host.member, host.status, FIELD_PLAIN)

static const struct metric_row rows[] = {
    { "hinv.pagesize", CLUSTER_HINV, 0, PM_TYPE_U64, COLLECTOR_NO_INDOM, PM_SEM_DISCRETE,
      PMDA_PMUNITS(1, 0, 0, PM_SPACE_BYTE, 0, 0), HOST(page_size, page_status) },
    { "kernel.all.hz", CLUSTER_HINV, 1, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_DISCRETE,
      PMDA_PMUNITS(0, -1, 1, 0, PM_TIME_SEC, PM_COUNT_ONE), HOST(clock_hz, clock_status) },
    { "hinv.machine", CLUSTER_HINV, 2, PM_TYPE_STRING, COLLECTOR_NO_INDOM, PM_SEM_DISCRETE,
      PMDA_PMUNITS(0, 0, 0, 0, 0, 0), FIELD_TEXT_OF(struct hinv_state, host.model, host.model_status) },
};

static int
fact(const struct hinv_state *h, int status)
{
    if (!h->read)
        return PM_ERR_AGAIN;
    return status == 0 ? 0 : collector_error(status);
}

int
hinv_page_size(const struct hinv_state *h, uint64_t *out)
{
    *out = h->host.page_size;
    return fact(h, h->host.page_status);
}

int
hinv_clock_hz(const struct hinv_state *h, uint32_t *out)
{
    *out = h->host.clock_hz;
    return fact(h, h->host.clock_status);
}

int
hinv_memsize(const struct hinv_state *h, uint64_t *out)
{
    *out = h->host.memsize;
    return fact(h, h->host.memsize_status);
}

static int
hinv_refresh(void *state, struct refresh_call *call)
{
    struct hinv_state *h = state;
    const struct platform *p = call->p;
    struct plat_host fresh;
    int sts;

    if (h->complete)
        return 0;
    h->read = 1;
    memset(&fresh, 0, sizeof(fresh));
    if ((sts = p->host(p->ctx, &fresh)) < 0) {
        h->host.page_status = h->host.clock_status = h->host.memsize_status = h->host.model_status = sts;
        return collector_error(sts);
    }
    /* CPU times are ticks / hz and memory is counted in pages: a source that
     * says 0 fails those values, not pmcd with SIGFPE. */
    if (fresh.page_status == 0 && fresh.page_size == 0)
        fresh.page_status = -ERANGE;
    if (fresh.clock_status == 0 && fresh.clock_hz == 0)
        fresh.clock_status = -ERANGE;
    h->host = fresh;
    collector_note_parts(call, NULL,
                         (fresh.page_status < 0) << 0 | (fresh.clock_status < 0) << 1 |
                             (fresh.memsize_status < 0) << 2 | (fresh.model_status < 0) << 3,
                         &h->logged_failures, p->error(p->ctx));
    h->complete = fresh.page_status == 0 && fresh.clock_status == 0 && fresh.memsize_status == 0 &&
                  fresh.model_status == 0;
    return 0;
}

const struct collector hinv_collector = {
    .name = "hinv",
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .state_size = sizeof(struct hinv_state),
    .refresh = hinv_refresh,
};
