/*
 * Cluster 136: the Wi-Fi link each network interface is associated on
 * (channel, its frequency and width, band, country code), from the
 * IORegistry without root (wifi_decode.h), per interface of the interface
 * family's instance domain. An interface that is not associated, or not
 * Wi-Fi, has no value. The signal strength, noise and transmit rate are not
 * served: no source a DSO can read without Objective-C (CoreWLAN) and
 * Location permission, or root (wdutil), gives them (README.md).
 */
#include "collector.h"
#include "collectors.h"
#include "metric_ids.h"
#include "metric_units.h"
#include "netif.h"
#include "wifi_decode.h"

#include <errno.h>
#include <string.h>

#define WIFI_MAX 16

/* A link of the last refresh, at its interface's instance. */
struct wifi_entry {
    int inst;
    struct wifi_link link;
};

struct wifi_state {
    struct wifi_entry links[WIFI_MAX];
    unsigned int nlinks;
};

static row_derive fact;

/* A row, and the fact it serves. */
#define ROW(name, item, type, sem, units, which) \
    { name, CLUSTER_WIFI, item, type, INDOM_NETIF, sem, units, .derive = fact, .index = which }

static const struct metric_row rows[] = {
    ROW("network.wifi.channel", 0, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_NONE, WIFI_CHANNEL),
    ROW("network.wifi.frequency", 1, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_MHZ, WIFI_FREQUENCY_MHZ),
    ROW("network.wifi.width", 2, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_MHZ, WIFI_WIDTH_MHZ),
    ROW("network.wifi.band", 3, PM_TYPE_STRING, PM_SEM_DISCRETE, UNITS_NONE, WIFI_BAND),
    ROW("network.wifi.country", 4, PM_TYPE_STRING, PM_SEM_DISCRETE, UNITS_NONE, WIFI_COUNTRY),
};

static int
fact(const void *state, const void *entry, const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    const struct wifi_state *s = state;

    (void)entry;
    for (unsigned int i = 0; i < s->nlinks; i++) {
        const struct wifi_link *l = &s->links[i].link;

        if (s->links[i].inst != (int)inst)
            continue;
        if (!(l->have & 1u << row->index))
            return PMDA_FETCH_NOVALUES;
        if (row->index == WIFI_BAND || row->index == WIFI_COUNTRY)
            atom->cp = (char *)(row->index == WIFI_BAND ? l->band : l->country);
        else
            atom->ul = l->number[row->index];
        return PMDA_FETCH_STATIC;
    }
    return PMDA_FETCH_NOVALUES;
}

/* The interface family's instance of the interface called name, or -1. */
static int
netif_inst(const struct netif_state *netif, const char *name)
{
    struct netif_view v;

    for (unsigned int i = 0; netif_at(netif, i, &v) == 0; i++)
        if (strcmp(v.name, name) == 0)
            return v.inst;
    return -1;
}

static int
wifi_refresh(void *state, struct refresh_call *call)
{
    struct wifi_state *s = state;
    const struct platform *p = call->p;
    struct plat_entry_set set;
    struct wifi_link found[WIFI_MAX];
    unsigned int n = 0;
    int sts;

    s->nlinks = 0;
    if ((sts = p->query(p->ctx, &plat_queries[PLAT_QUERY_WIFI], &set)) < 0 && sts != -ENOENT)
        return collector_error(sts);
    if (sts == 0)
        n = wifi_links(&set, found, WIFI_MAX);    /* none: a Mac without Wi-Fi, or not associated */
    for (unsigned int i = 0; i < n; i++) {
        int inst = netif_inst(call->depends[0], found[i].name);

        if (inst >= 0)
            s->links[s->nlinks++] = (struct wifi_entry){ inst, found[i] };
    }
    return 0;
}

const struct collector wifi_collector = {
    .name = "wifi",
    .ndepends = 1,
    .depends = { &netif_collector },
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .state_size = sizeof(struct wifi_state),
    .refresh = wifi_refresh,
};
