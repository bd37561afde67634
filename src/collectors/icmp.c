/*
 * Cluster 14: ICMP statistics (net.inet.icmp.stats), from the kernel's
 * per-type histograms. Its 32-bit counters are extended to 64 bits so that
 * the counters and sums survive the kernel's wrap.
 */
#include "collector.h"
#include "metric_ids.h"
#include "convert.h"

/* ICMP types (netinet/ip_icmp.h) */
enum { ICMP_ECHOREPLY = 0, ICMP_UNREACH = 3, ICMP_ECHO = 8 };

/* Every counter the collector reads, extended past the kernel's wrap. */
struct icmp_state {
    struct wrap32 in[PLAT_ICMP_NTYPES], out[PLAT_ICMP_NTYPES];
    struct wrap32 badcode, tooshort, checksum, badlen;
};

static row_derive messages;
static row_derive inerrors;

#define ROW(name, item, ...) { name, CLUSTER_ICMP, item, PM_TYPE_U64, COLLECTOR_NO_INDOM, PM_SEM_COUNTER, \
                               PMDA_PMUNITS(0, 0, 1, 0, 0, PM_COUNT_ONE), __VA_ARGS__ }
#define COUNT(member) FIELD_ALWAYS(struct icmp_state, member.total, FIELD_PLAIN)

enum { ROW_INMSGS };     /* the row messages() sums the input histogram for */

static const struct metric_row rows[] = {
    [ROW_INMSGS] = ROW("network.icmp.inmsgs", 147, .derive = messages),
    ROW("network.icmp.outmsgs", 148, .derive = messages),
    ROW("network.icmp.inerrors", 149, .derive = inerrors),
    ROW("network.icmp.indestunreachs", 150, COUNT(in[ICMP_UNREACH])),
    ROW("network.icmp.inechos", 151, COUNT(in[ICMP_ECHO])),
    ROW("network.icmp.inechoreps", 152, COUNT(in[ICMP_ECHOREPLY])),
    ROW("network.icmp.outechos", 153, COUNT(out[ICMP_ECHO])),
    ROW("network.icmp.outechoreps", 154, COUNT(out[ICMP_ECHOREPLY])),
};

static uint64_t
sum(const struct wrap32 *hist)
{
    uint64_t total = 0;

    for (unsigned int t = 0; t < PLAT_ICMP_NTYPES; t++)
        total += hist[t].total;
    return total;
}

static int
icmp_refresh(void *state, struct refresh_call *call)
{
    struct icmp_state *s = state;
    struct plat_icmp c;
    int sts;

    if ((sts = call->p->icmp(call->p->ctx, &c)) < 0)
        return collector_error(sts);
    for (unsigned int t = 0; t < PLAT_ICMP_NTYPES; t++) {
        wrap32_extend(&s->in[t], c.inhist[t]);
        wrap32_extend(&s->out[t], c.outhist[t]);
    }
    wrap32_extend(&s->badcode, c.badcode);
    wrap32_extend(&s->tooshort, c.tooshort);
    wrap32_extend(&s->checksum, c.checksum);
    wrap32_extend(&s->badlen, c.badlen);
    return 0;
}

/* All messages received or sent: the sum of a histogram. */
static int
messages(const void *state, const void *entry, const struct metric_row *row, unsigned int inst,
         pmAtomValue *atom)
{
    const struct icmp_state *s = state;

    (void)entry;
    (void)inst;
    atom->ull = sum(row == &rows[ROW_INMSGS] ? s->in : s->out);
    return PMDA_FETCH_STATIC;
}

/* Input errors only: icps_error counts the ICMP errors this host
 * generated, which is output. */
static int
inerrors(const void *state, const void *entry, const struct metric_row *row, unsigned int inst,
         pmAtomValue *atom)
{
    const struct icmp_state *s = state;

    (void)entry;
    (void)row;
    (void)inst;
    atom->ull = s->badcode.total + s->tooshort.total + s->checksum.total + s->badlen.total;
    return PMDA_FETCH_STATIC;
}

const struct collector icmp_collector = {
    .name = "icmp",
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .state_size = sizeof(struct icmp_state),
    .refresh = icmp_refresh,
};
