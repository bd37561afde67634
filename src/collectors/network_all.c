/*
 * Cluster 26: traffic summed over the network interfaces present now,
 * loopback excluded, from the interface family's read. The sums grow by
 * what the interfaces accrued since the previous refresh (delta_sum.h), so
 * an interface going away does not make them go backwards. Interfaces whose
 * byte counters cannot be trusted are left out of the byte sums while they
 * cannot. While an interface's input counters do not count (netif's
 * judge_input: 0 while output counts, as on Skywalk Wi-Fi), the input and
 * total sums they are part of have no value: adding its 0 would read as
 * that interface receiving nothing.
 */
#include "collector.h"
#include "metric_ids.h"
#include "collectors.h"
#include "metric_units.h"
#include "delta_sum.h"
#include "netif.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

enum {
    ITEM_IN_BYTES = 0, ITEM_IN_PACKETS, ITEM_IN_ERRORS, ITEM_IN_DROPS,
    ITEM_OUT_BYTES, ITEM_OUT_PACKETS, ITEM_OUT_ERRORS, ITEM_OUT_DROPS,
    ITEM_TOTAL_BYTES, ITEM_TOTAL_PACKETS, ITEM_TOTAL_ERRORS, ITEM_TOTAL_DROPS
};

/* What is summed, in this order. */
enum { SUM_IBYTES, SUM_OBYTES, SUM_IPACKETS, SUM_IERRORS, SUM_IDROPS, SUM_OPACKETS, SUM_OERRORS, SUM_ODROPS, NSUMS };

/* Which input sums have a value: bit 1u << enum served. */
enum served { SERVED_IN_PACKETS, SERVED_IN_BYTES };

struct network_all_state {
    uint64_t sums[NSUMS];
    unsigned int served;
    unsigned int logged_frozen;
    struct {
        uint64_t bytes, packets, errors, drops;
    } total;                            /* in and out */
    struct delta_sum packets, bytes;    /* bytes apart: an interface may lack them alone */
};

/* A row, and after its units the sum it serves. */
#define ROW(name, item, units, ...) { name, CLUSTER_NETWORK_ALL, item, PM_TYPE_U64, COLLECTOR_NO_INDOM, \
                                      PM_SEM_COUNTER, units, __VA_ARGS__ }
#define SUM(which) FIELD_ALWAYS(struct network_all_state, sums[which], FIELD_PLAIN)
#define TOTAL(member) FIELD_ALWAYS(struct network_all_state, total.member, FIELD_PLAIN)
#define SERVED_SUM(which, bit) FIELD_PRESENT(struct network_all_state, sums[which], served, bit, FIELD_PLAIN)
#define SERVED_TOTAL(member, bit) FIELD_PRESENT(struct network_all_state, total.member, served, bit, FIELD_PLAIN)

static const struct metric_row rows[] = {
    ROW("network.all.in.bytes", ITEM_IN_BYTES, UNITS_BYTE, SERVED_SUM(SUM_IBYTES, SERVED_IN_BYTES)),
    ROW("network.all.in.packets", ITEM_IN_PACKETS, UNITS_COUNT, SERVED_SUM(SUM_IPACKETS, SERVED_IN_PACKETS)),
    ROW("network.all.in.errors", ITEM_IN_ERRORS, UNITS_COUNT, SUM(SUM_IERRORS)),
    ROW("network.all.in.drops", ITEM_IN_DROPS, UNITS_COUNT, SUM(SUM_IDROPS)),
    ROW("network.all.out.bytes", ITEM_OUT_BYTES, UNITS_BYTE, SUM(SUM_OBYTES)),
    ROW("network.all.out.packets", ITEM_OUT_PACKETS, UNITS_COUNT, SUM(SUM_OPACKETS)),
    ROW("network.all.out.errors", ITEM_OUT_ERRORS, UNITS_COUNT, SUM(SUM_OERRORS)),
    ROW("network.all.out.drops", ITEM_OUT_DROPS, UNITS_COUNT, SUM(SUM_ODROPS)),
    ROW("network.all.total.bytes", ITEM_TOTAL_BYTES, UNITS_BYTE, SERVED_TOTAL(bytes, SERVED_IN_BYTES)),
    ROW("network.all.total.packets", ITEM_TOTAL_PACKETS, UNITS_COUNT,
        SERVED_TOTAL(packets, SERVED_IN_PACKETS)),
    ROW("network.all.total.errors", ITEM_TOTAL_ERRORS, UNITS_COUNT, TOTAL(errors)),
    ROW("network.all.total.drops", ITEM_TOTAL_DROPS, UNITS_COUNT, TOTAL(drops)),
};

static int
network_all_refresh(void *state, struct refresh_call *call)
{
    struct network_all_state *s = state;
    uint64_t *sums = s->sums;
    struct netif_view v;
    unsigned int frozen = 0;
    char detail[PLAT_NAME_MAX + 128] = "";

    delta_sum_begin(&s->packets);
    delta_sum_begin(&s->bytes);
    for (unsigned int i = 0; netif_at(call->depends[0], i, &v) == 0; i++) {
        uint64_t now[NSUMS], add[NSUMS];
        unsigned int mine;

        if (strcmp(v.type, "loopback") == 0)
            continue;
        /* bytes are summed only while they can be trusted (below) */
        mine = (v.in_packets_frozen ? 1u << SERVED_IN_PACKETS : 0) |
               (v.bytes_ok && v.in_bytes_frozen ? 1u << SERVED_IN_BYTES : 0);
        if (mine != 0 && frozen == 0)
            snprintf(detail, sizeof(detail), "%s: its input counters do not count (see netif): the input and "
                     "total sums they are part of have no value", v.name);
        frozen |= mine;
        now[SUM_IPACKETS] = v.raw->ipackets;
        now[SUM_IERRORS] = v.raw->ierrors;
        now[SUM_IDROPS] = v.raw->iqdrops;
        now[SUM_OPACKETS] = v.raw->opackets;
        now[SUM_OERRORS] = v.raw->oerrors;
        now[SUM_ODROPS] = v.out_drops;
        if (delta_sum_step(&s->packets, v.name, now + SUM_IPACKETS, NSUMS - SUM_IPACKETS, add + SUM_IPACKETS) < 0)
            return -ENOMEM;
        for (int k = SUM_IPACKETS; k < NSUMS; k++)
            sums[k] += add[k];
        if (!v.bytes_ok)
            continue;
        now[SUM_IBYTES] = v.ibytes;
        now[SUM_OBYTES] = v.obytes;
        if (delta_sum_step(&s->bytes, v.name, now, 2, add) < 0)
            return -ENOMEM;
        sums[SUM_IBYTES] += add[SUM_IBYTES];
        sums[SUM_OBYTES] += add[SUM_OBYTES];
    }
    delta_sum_end(&s->packets);
    delta_sum_end(&s->bytes);
    s->total.bytes = sums[SUM_IBYTES] + sums[SUM_OBYTES];
    s->total.packets = sums[SUM_IPACKETS] + sums[SUM_OPACKETS];
    s->total.errors = sums[SUM_IERRORS] + sums[SUM_OERRORS];
    s->total.drops = sums[SUM_IDROPS] + sums[SUM_ODROPS];
    s->served = ~frozen;
    collector_note_parts(call, "input totals", frozen != 0, &s->logged_frozen, detail);
    return 0;
}

static void
network_all_teardown(void *state)
{
    struct network_all_state *s = state;

    delta_sum_free(&s->packets);
    delta_sum_free(&s->bytes);
}

const struct collector network_all_collector = {
    .name = "network_all",
    .ndepends = 1,
    .depends = { &netif_collector },
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .state_size = sizeof(struct network_all_state),
    .refresh = network_all_refresh,
    .teardown = network_all_teardown,
};
