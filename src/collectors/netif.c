/*
 * The interface family: network interfaces (NET_RT_IFLIST2, cluster 10),
 * with byte counters from each interface's IFMIB_IFDATA record, and
 * (cluster 110) the type of each, whether it is up and running, its
 * send-queue drops, and whether the kernel truncated its byte counters.
 *
 * macOS truncates NET_RT_IFLIST2's 64-bit byte counters to 32 bits for
 * programs other than its own on several releases, which would show as a
 * wrap every 4 GiB. Bytes therefore come from IFMIB_IFDATA. Truncation is
 * detected (the list's value fits 32 bits while the IFMIB value does not, or
 * the list's value went back from below 2^32) and reported; where IFMIB_IFDATA cannot
 * be read and the list's counters are truncated, the interface's byte
 * metrics have no value rather than a wrapped one. The list's counters are
 * also rounded down to 1 KiB: where it stands in for IFMIB_IFDATA now and
 * then, a rounded reading keeps the exact count before it rather than
 * stepping back.
 *
 * An interface may have input counters that do not count: on Skywalk
 * interfaces ifi_ibytes stays 0 while traffic flows (aristocratos/btop
 * issue 1850, macOS 27); an M1's Wi-Fi en0 on 11.0.1 has IOKit's
 * inputPackets 0 against outputPackets 5480472 (shared/real-macs/net).
 * Such a counter and the total it is part of have no value (judge_input).
 *
 * Instances are kept by name (instance_names.h), so ids survive interfaces coming
 * and going; each carries an "interface_type" label (netif_type).
 */
#include "array_grow.h"
#include "collector.h"
#include "metric_ids.h"
#include "instance_names.h"
#include "metric_units.h"
#include "convert.h"
#include "netif.h"
#include "netif_type.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    ITEM_IN_BYTES = 77, ITEM_IN_PACKETS, ITEM_IN_ERRORS, ITEM_IN_DROPS, ITEM_IN_MCASTS,
    ITEM_OUT_BYTES, ITEM_OUT_PACKETS, ITEM_OUT_ERRORS, ITEM_OUT_MCASTS, ITEM_COLLISIONS,
    ITEM_MTU, ITEM_BAUDRATE, ITEM_TOTAL_BYTES, ITEM_TOTAL_PACKETS, ITEM_TOTAL_ERRORS, ITEM_TOTAL_DROPS,
    ITEM_TOTAL_MCASTS
};
enum { ITEM_UP = 0, ITEM_RUNNING, ITEM_TYPE, ITEM_OUT_DROPS, ITEM_TRUNCATED };     /* cluster 110 */

/* An interface seen at the last refresh, as this family judged it. */
struct netif_entry {
    int inst;
    int present;
    int seen;                       /* refreshed at least once before this refresh */
    struct plat_netif now;
    const char *type;               /* netif_type(), judged at refresh */
    unsigned int bytes_ok;          /* 1: ibytes, obytes and total.bytes can be trusted */
    int in_packets_frozen, in_bytes_frozen;     /* those input counters do not count (judge_input) */
    unsigned int served;            /* the counters with a value: bit 1u << enum served */
    uint64_t ibytes, obytes;
    struct wrap32 snd_drops;
    int truncated;
    struct {
        uint64_t bytes, packets, errors, drops, mcasts;
    } total;                        /* in and out */
};

struct netif_state {
    struct netif_entry *ifs;
    unsigned int nifs, ifs_cap;
    unsigned int logged_mib, logged_frozen;
    int logged_truncation;
};

/* Which counters have a value: out bytes while bytes can be trusted,
 * input and total packets while input packets count, input and total
 * bytes while bytes can be trusted and input bytes count. */
enum served { SERVED_OUT_BYTES, SERVED_IN_PACKETS, SERVED_IN_BYTES };

/* A row, and after its units the interface's field it serves. */
#define ROW(name, item, sem, ...) { name, CLUSTER_NETIF, item, PM_TYPE_U64, INDOM_NETIF, sem, __VA_ARGS__ }
#define STATE(name, item, type, sem, ...) { name, CLUSTER_NETIF_STATE, item, type, INDOM_NETIF, sem, __VA_ARGS__ }
#define IF(member) FIELD_ALWAYS(struct netif_entry, now.member, FIELD_PLAIN)
#define KEPT(member) FIELD_ALWAYS(struct netif_entry, member, FIELD_PLAIN)
/* no value, rather than a wrapped one or a 0 that does not count, while not served */
#define SERVED(member, which) FIELD_PRESENT(struct netif_entry, member, served, which, FIELD_PLAIN)

static const struct metric_row rows[] = {
    ROW("network.interface.in.bytes", ITEM_IN_BYTES, PM_SEM_COUNTER, UNITS_BYTE, SERVED(ibytes, SERVED_IN_BYTES)),
    ROW("network.interface.in.packets", ITEM_IN_PACKETS, PM_SEM_COUNTER, UNITS_COUNT,
        SERVED(now.ipackets, SERVED_IN_PACKETS)),
    ROW("network.interface.in.errors", ITEM_IN_ERRORS, PM_SEM_COUNTER, UNITS_COUNT, IF(ierrors)),
    ROW("network.interface.in.drops", ITEM_IN_DROPS, PM_SEM_COUNTER, UNITS_COUNT, IF(iqdrops)),
    ROW("network.interface.in.mcasts", ITEM_IN_MCASTS, PM_SEM_COUNTER, UNITS_COUNT, IF(imcasts)),
    ROW("network.interface.out.bytes", ITEM_OUT_BYTES, PM_SEM_COUNTER, UNITS_BYTE, SERVED(obytes, SERVED_OUT_BYTES)),
    ROW("network.interface.out.packets", ITEM_OUT_PACKETS, PM_SEM_COUNTER, UNITS_COUNT, IF(opackets)),
    ROW("network.interface.out.errors", ITEM_OUT_ERRORS, PM_SEM_COUNTER, UNITS_COUNT, IF(oerrors)),
    ROW("network.interface.out.mcasts", ITEM_OUT_MCASTS, PM_SEM_COUNTER, UNITS_COUNT, IF(omcasts)),
    ROW("network.interface.collisions", ITEM_COLLISIONS, PM_SEM_COUNTER, UNITS_COUNT, IF(collisions)),
    ROW("network.interface.mtu", ITEM_MTU, PM_SEM_INSTANT, UNITS_BYTE, IF(mtu)),
    /* bits per second: a count per second (PCP has no bit unit) */
    ROW("network.interface.baudrate", ITEM_BAUDRATE, PM_SEM_INSTANT,
        PMDA_PMUNITS(0, -1, 1, 0, PM_TIME_SEC, PM_COUNT_ONE), IF(baudrate)),
    ROW("network.interface.total.bytes", ITEM_TOTAL_BYTES, PM_SEM_COUNTER, UNITS_BYTE,
        SERVED(total.bytes, SERVED_IN_BYTES)),
    ROW("network.interface.total.packets", ITEM_TOTAL_PACKETS, PM_SEM_COUNTER, UNITS_COUNT,
        SERVED(total.packets, SERVED_IN_PACKETS)),
    ROW("network.interface.total.errors", ITEM_TOTAL_ERRORS, PM_SEM_COUNTER, UNITS_COUNT, KEPT(total.errors)),
    ROW("network.interface.total.drops", ITEM_TOTAL_DROPS, PM_SEM_COUNTER, UNITS_COUNT, KEPT(total.drops)),
    ROW("network.interface.total.mcasts", ITEM_TOTAL_MCASTS, PM_SEM_COUNTER, UNITS_COUNT, KEPT(total.mcasts)),
    STATE("network.interface.up", ITEM_UP, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_NONE,
          FIELD_FLAG_OF(struct netif_entry, now.flags, PLAT_IFF_UP)),
    STATE("network.interface.running", ITEM_RUNNING, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_NONE,
          FIELD_FLAG_OF(struct netif_entry, now.flags, PLAT_IFF_RUNNING)),
    STATE("network.interface.type", ITEM_TYPE, PM_TYPE_STRING, PM_SEM_DISCRETE, UNITS_NONE,
          FIELD_ALWAYS(struct netif_entry, type, FIELD_STRING)),
    STATE("network.interface.out.drops", ITEM_OUT_DROPS, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT,
          KEPT(snd_drops.total)),
    STATE("network.interface.bytes_truncated", ITEM_TRUNCATED, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_NONE,
          KEPT(truncated)),
};

static const struct indom_def indom = {
    .serial = INDOM_NETIF,
    .label_name = "network interface",
    .table = INSTANCES_AT(struct netif_state, ifs, nifs, struct netif_entry, inst),
};

static struct netif_entry *
entry_for(struct netif_state *s, const char *name)
{
    struct netif_entry *e;

    for (unsigned int i = 0; i < s->nifs; i++)
        if (strcmp(s->ifs[i].now.name, name) == 0)
            return &s->ifs[i];
    if (array_grow((void **)&s->ifs, &s->ifs_cap, s->nifs, sizeof(*s->ifs)) < 0)
        return NULL;
    e = &s->ifs[s->nifs++];
    memset(e, 0, sizeof(*e));
    return e;
}

/* Whether NET_RT_IFLIST2 gave this interface's byte counters truncated: a
 * list value that fits 32 bits while IFMIB_IFDATA's does not. (The two are
 * read moments apart, so their low 32 bits need not be equal.) */
static int
list_truncated(const struct netif_entry *e, const struct plat_netif *f)
{
    if (f->mib_status == 0)
        return (f->mib_ibytes > UINT32_MAX && f->ibytes <= UINT32_MAX) ||
               (f->mib_obytes > UINT32_MAX && f->obytes <= UINT32_MAX);
    /* without IFMIB: a counter below 2^32 that went back wrapped at 32 bits */
    return e->seen && ((f->ibytes < e->now.ibytes && e->now.ibytes <= UINT32_MAX) ||
                       (f->obytes < e->now.obytes && e->now.obytes <= UINT32_MAX));
}

/* NET_RT_IFLIST2 hands programs not Apple's their byte counters rounded
 * down to 1 KiB (xnu-11417.101.15 bsd/net/rtsock.c:158-160 ALIGN_BYTES,
 * :2197-2200): a list reading less than that below the IFMIB reading
 * before it is the same count, and the counter keeps its value. */
#define LIST_BYTES_ROUNDING 1024

static uint64_t
not_back(uint64_t before, int had, uint64_t now)
{
    return had && now < before && before - now < LIST_BYTES_ROUNDING ? before : now;
}

/* The counters count from the interface's attach, so an input counter
 * still at 0 has never moved. Beside this many packets sent that is no
 * quiet link: a TCP receiver acknowledges at least every second
 * full-sized segment (RFC 1122 4.2.3.2), while an interface without a
 * peer sends only a handful on its own (RFC 4861's router solicitations,
 * RFC 4862's duplicate address detection). Input bytes still at 0 after
 * this many packets either way do not count: received packets have bytes. */
#define FROZEN_INPUT_PACKETS 10000

static void
judge_input(struct netif_entry *e, const struct plat_netif *f)
{
    e->in_packets_frozen = f->ipackets == 0 && f->opackets > FROZEN_INPUT_PACKETS;
    e->in_bytes_frozen = e->ibytes == 0 && f->ipackets + f->opackets > FROZEN_INPUT_PACKETS;
}

/* What the log says of an interface whose input counters do not count
 * (nothing for one whose do). */
static void
say_frozen(const struct netif_entry *e, char *out, size_t len)
{
    const char *which = e->in_packets_frozen && e->in_bytes_frozen ? "packets and bytes"
                        : e->in_packets_frozen                     ? "packets"
                        : e->in_bytes_frozen                       ? "bytes"
                                                                   : NULL;

    if (which != NULL)
        snprintf(out, len, "%s: input %s read 0 after %llu packets sent and %llu received: they and their totals "
                 "have no value", e->now.name, which, (unsigned long long)e->now.opackets,
                 (unsigned long long)e->now.ipackets);
}

static void
update(struct netif_state *s, struct netif_entry *e, const struct plat_netif *f)
{
    if (!e->truncated && list_truncated(e, f)) {
        e->truncated = 1;
        /* Once for the agent: the kernel truncates every interface's, and
         * interfaces come and go; network.interface.bytes_truncated says which. */
        if (!s->logged_truncation)
            pmNotifyErr(LOG_WARNING, "darwin: NET_RT_IFLIST2 byte counters are truncated to 32 bits (first seen on "
                        "%s): bytes come from IFMIB_IFDATA, or have no value where that fails", f->name);
        s->logged_truncation = 1;
    }
    if (f->mib_status == 0) {
        e->ibytes = f->mib_ibytes;
        e->obytes = f->mib_obytes;
        e->bytes_ok = 1;
    } else {
        e->ibytes = not_back(e->ibytes, e->bytes_ok, f->ibytes);
        e->obytes = not_back(e->obytes, e->bytes_ok, f->obytes);
        e->bytes_ok = !e->truncated;
    }
    judge_input(e, f);
    e->served = (e->bytes_ok ? 1u << SERVED_OUT_BYTES : 0) | (e->in_packets_frozen ? 0 : 1u << SERVED_IN_PACKETS) |
                (e->bytes_ok && !e->in_bytes_frozen ? 1u << SERVED_IN_BYTES : 0);
    wrap32_extend(&e->snd_drops, f->snd_drops);
    e->now = *f;
    e->type = netif_type(&e->now);
    e->total.bytes = e->ibytes + e->obytes;
    e->total.packets = f->ipackets + f->opackets;
    e->total.errors = f->ierrors + f->oerrors;
    e->total.drops = f->iqdrops + e->snd_drops.total;
    e->total.mcasts = f->imcasts + f->omcasts;
}

/* Keep only the interfaces seen in this refresh; their order is kept. */
static void
drop_absent(struct netif_state *s)
{
    unsigned int kept = 0;

    for (unsigned int i = 0; i < s->nifs; i++)
        if (s->ifs[i].present) {
            s->ifs[i].seen = 1;
            s->ifs[kept++] = s->ifs[i];
        }
    s->nifs = kept;
}

static int
netif_refresh(void *state, struct refresh_call *call)
{
    struct netif_state *s = state;
    const struct platform *p = call->p;
    pmInDom id = call->indom;
    struct plat_netif_set set;
    unsigned int mib_failed = 0;
    char frozen[PLAT_NAME_MAX + 128] = "";
    int sts;

    if ((sts = p->interfaces(p->ctx, &set)) < 0)
        return collector_error(sts);
    names_begin(id);
    for (unsigned int i = 0; i < s->nifs; i++)
        s->ifs[i].present = 0;
    for (unsigned int i = 0; i < set.n; i++) {
        const struct plat_netif *f = &set.netif[i];
        struct netif_entry *e;

        if ((e = entry_for(s, f->name)) == NULL)
            return -ENOMEM;
        if (e->present)
            continue;               /* a name twice in one list: the first one stands */
        if ((sts = names_add(id, f->name)) < 0)
            return sts;
        e->inst = sts;
        update(s, e, f);
        e->present = 1;
        mib_failed |= f->mib_status < 0;
        if (frozen[0] == '\0')
            say_frozen(e, frozen, sizeof(frozen));
    }
    drop_absent(s);
    collector_note_parts(call, "IFMIB_IFDATA", mib_failed, &s->logged_mib, p->error(p->ctx));
    collector_note_parts(call, "input counters", frozen[0] != '\0', &s->logged_frozen, frozen);
    return 0;
}

int
netif_at(const struct netif_state *s, unsigned int i, struct netif_view *out)
{
    const struct netif_entry *e;

    if (i >= s->nifs)
        return -1;
    e = &s->ifs[i];
    *out = (struct netif_view){
        .name = e->now.name, .type = e->type, .inst = e->inst, .raw = &e->now,
        .bytes_ok = e->bytes_ok, .ibytes = e->ibytes, .obytes = e->obytes, .out_drops = e->snd_drops.total,
        .truncated = e->truncated, .in_packets_frozen = e->in_packets_frozen, .in_bytes_frozen = e->in_bytes_frozen,
    };
    return 0;
}

static int
netif_labels(const void *state, pmInDom id, unsigned int inst, char *json, size_t len)
{
    const struct netif_entry *e = collector_entry(&indom, state, inst);

    (void)id;
    if (e == NULL)
        return -1;
    snprintf(json, len, "{\"interface_type\":\"%s\"}", e->type);
    return 0;
}

static void
netif_teardown(void *state)
{
    free(((struct netif_state *)state)->ifs);
}

const struct collector netif_collector = {
    .name = "netif",
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .indom = &indom,
    .state_size = sizeof(struct netif_state),
    .refresh = netif_refresh,
    .instance_labels = netif_labels,
    .teardown = netif_teardown,
};
