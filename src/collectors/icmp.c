/*
 * Cluster 14: ICMP statistics (net.inet.icmp.stats), from the kernel's
 * per-type histograms. Its 32-bit counters are extended to 64 bits so that
 * the counters and sums survive the kernel's wrap.
 */
#include "collector.h"
#include "convert.h"

#include <string.h>

enum {
    ITEM_INMSGS = 147, ITEM_OUTMSGS, ITEM_INERRORS, ITEM_INDESTUNREACHS, ITEM_INECHOS, ITEM_INECHOREPS,
    ITEM_OUTECHOS, ITEM_OUTECHOREPS
};
/* ICMP types (netinet/ip_icmp.h) */
enum { ICMP_ECHOREPLY = 0, ICMP_UNREACH = 3, ICMP_ECHO = 8 };

#define ROW(name, item) { name, CLUSTER_ICMP, item, PM_TYPE_U64, COLLECTOR_NO_INDOM, PM_SEM_COUNTER, \
                          PMDA_PMUNITS(0, 0, 1, 0, 0, PM_COUNT_ONE) }

static const struct metric_row rows[] = {
    ROW("network.icmp.inmsgs", ITEM_INMSGS),
    ROW("network.icmp.outmsgs", ITEM_OUTMSGS),
    ROW("network.icmp.inerrors", ITEM_INERRORS),
    ROW("network.icmp.indestunreachs", ITEM_INDESTUNREACHS),
    ROW("network.icmp.inechos", ITEM_INECHOS),
    ROW("network.icmp.inechoreps", ITEM_INECHOREPS),
    ROW("network.icmp.outechos", ITEM_OUTECHOS),
    ROW("network.icmp.outechoreps", ITEM_OUTECHOREPS),
};

static struct {
    struct wrap32 in[PLAT_ICMP_NTYPES], out[PLAT_ICMP_NTYPES];
    struct wrap32 badcode, tooshort, checksum, badlen;
} ext;

static uint64_t
sum(const struct wrap32 *hist)
{
    uint64_t total = 0;

    for (unsigned int t = 0; t < PLAT_ICMP_NTYPES; t++)
        total += hist[t].total;
    return total;
}

static int
icmp_refresh(const struct platform *p, pmInDom indom, const char **reason)
{
    struct plat_icmp c;
    int sts;

    (void)reason;
    (void)indom;
    if ((sts = p->icmp(p->ctx, &c)) < 0)
        return collector_error(sts);
    for (unsigned int t = 0; t < PLAT_ICMP_NTYPES; t++) {
        wrap32_extend(&ext.in[t], c.inhist[t]);
        wrap32_extend(&ext.out[t], c.outhist[t]);
    }
    wrap32_extend(&ext.badcode, c.badcode);
    wrap32_extend(&ext.tooshort, c.tooshort);
    wrap32_extend(&ext.checksum, c.checksum);
    wrap32_extend(&ext.badlen, c.badlen);
    return 0;
}

static int
icmp_fetch(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    (void)inst;
    switch (row->item) {
    case ITEM_INMSGS: atom->ull = sum(ext.in); break;
    case ITEM_OUTMSGS: atom->ull = sum(ext.out); break;
    /* Input errors only: icps_error counts the ICMP errors this host
     * generated, which is output. */
    case ITEM_INERRORS:
        atom->ull = ext.badcode.total + ext.tooshort.total + ext.checksum.total + ext.badlen.total;
        break;
    case ITEM_INDESTUNREACHS: atom->ull = ext.in[ICMP_UNREACH].total; break;
    case ITEM_INECHOS: atom->ull = ext.in[ICMP_ECHO].total; break;
    case ITEM_INECHOREPS: atom->ull = ext.in[ICMP_ECHOREPLY].total; break;
    case ITEM_OUTECHOS: atom->ull = ext.out[ICMP_ECHO].total; break;
    default: atom->ull = ext.out[ICMP_ECHOREPLY].total; break;
    }
    return PMDA_FETCH_STATIC;
}

static void
icmp_teardown(pmInDom indom)
{
    (void)indom;
    memset(&ext, 0, sizeof(ext));
}

const struct collector icmp_collector = {
    .name = "icmp",
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .refresh = icmp_refresh,
    .fetch = icmp_fetch,
    .teardown = icmp_teardown,
};
