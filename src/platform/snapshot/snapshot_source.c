/*
 * The snapshot platform source: answers every platform call from a snapshot
 * file at the replay position that the elapsed time selects.
 */
#include "array_grow.h"
#include "platform.h"
#include "snapshot_store.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Every key the format knows besides the sysctl families, which
 * build_schema() adds as "sysctl.<name>" (docs/snapshot-format.md lists them
 * all with their meaning). */
static const struct snap_field base_schema[] = {
    { "host", "page_size", 0, SNAP_GAUGE64 },
    { "host", "clock_hz", 0, SNAP_GAUGE32 },
    { "host", "memsize", 0, SNAP_GAUGE64 },
    { "host", "model", 0, SNAP_TEXT },
    { "vm", "free_count", 0, SNAP_GAUGE32 },
    { "vm", "active_count", 0, SNAP_GAUGE32 },
    { "vm", "inactive_count", 0, SNAP_GAUGE32 },
    { "vm", "wire_count", 0, SNAP_GAUGE32 },
    { "vm", "compressor_page_count", 0, SNAP_GAUGE32 },
    { "vm", "total_uncompressed_pages_in_compressor", 0, SNAP_GAUGE64 },
    { "vm", "reactivations", 0, SNAP_COUNTER64 },
    { "vm", "faults", 0, SNAP_COUNTER64 },
    { "vm", "cow_faults", 0, SNAP_COUNTER64 },
    { "vm", "zero_fill_count", 0, SNAP_COUNTER64 },
    { "vm", "pageins", 0, SNAP_COUNTER64 },
    { "vm", "pageouts", 0, SNAP_COUNTER64 },
    { "vm", "swapins", 0, SNAP_COUNTER64 },
    { "vm", "swapouts", 0, SNAP_COUNTER64 },
    { "vm", "compressions", 0, SNAP_COUNTER64 },
    { "vm", "decompressions", 0, SNAP_COUNTER64 },
    { "vm", "speculative_count", 0, SNAP_GAUGE32 },
    { "vm", "throttled_count", 0, SNAP_GAUGE32 },
    { "vm", "purgeable_count", 0, SNAP_GAUGE32 },
    { "vm", "external_page_count", 0, SNAP_GAUGE32 },
    { "vm", "internal_page_count", 0, SNAP_GAUGE32 },
    { "vm", "purges", 0, SNAP_COUNTER64 },
    { "swap", "total", 0, SNAP_GAUGE64 },
    { "swap", "avail", 0, SNAP_GAUGE64 },
    { "swap", "used", 0, SNAP_GAUGE64 },
    { "compressor", "swapouts_under_30s", 0, SNAP_COUNTER64 },
    { "compressor", "swapouts_under_60s", 0, SNAP_COUNTER64 },
    { "compressor", "swapouts_under_300s", 0, SNAP_COUNTER64 },
    { "compressor", "thrashing_detected", 0, SNAP_COUNTER64 },
    { "compressor", "lz4_compressions", 0, SNAP_COUNTER64 },
    { "uname", "sysname", 0, SNAP_TEXT },
    { "uname", "nodename", 0, SNAP_TEXT },
    { "uname", "release", 0, SNAP_TEXT },
    { "uname", "version", 0, SNAP_TEXT },
    { "uname", "machine", 0, SNAP_TEXT },
    { "uname", "product_version", 0, SNAP_TEXT },
    { "load", "avg1", 0, SNAP_GAUGE32 },
    { "load", "avg5", 0, SNAP_GAUGE32 },
    { "load", "avg15", 0, SNAP_GAUGE32 },
    { "load", "fscale", 0, SNAP_GAUGE64 },
    { "cpu", "user", 0, SNAP_COUNTER32 },
    { "cpu", "sys", 0, SNAP_COUNTER32 },
    { "cpu", "idle", 0, SNAP_COUNTER32 },
    { "cpu", "nice", 0, SNAP_COUNTER32 },
    { "cpu", "user", 1, SNAP_COUNTER32 },
    { "cpu", "sys", 1, SNAP_COUNTER32 },
    { "cpu", "idle", 1, SNAP_COUNTER32 },
    { "cpu", "nice", 1, SNAP_COUNTER32 },
    { "cpu", "cluster_type", 1, SNAP_TEXT },
    { "clock", "boot", 0, SNAP_TIME },
    { "tasks", "count", 0, SNAP_GAUGE32 },
    { "tasks", "threads", 0, SNAP_GAUGE32 },
    { "utmpx", "type", 1, SNAP_INT },
    { "utmpx", "user", 1, SNAP_TEXT },
    { "topology", "brand", 0, SNAP_TEXT },
    { "perflevel", "name", 1, SNAP_TEXT },
    { "perflevel", "physicalcpu", 1, SNAP_GAUGE32 },
    { "perflevel", "logicalcpu", 1, SNAP_GAUGE32 },
    { "perflevel", "l1icachesize", 1, SNAP_GAUGE64 },
    { "perflevel", "l1dcachesize", 1, SNAP_GAUGE64 },
    { "perflevel", "l2cachesize", 1, SNAP_GAUGE64 },
    { "perflevel", "cpusperl2", 1, SNAP_GAUGE32 },
    { "perflevel", "l3cachesize", 1, SNAP_GAUGE64 },
    { "perflevel", "cpusperl3", 1, SNAP_GAUGE32 },
    { "netif", "index", 1, SNAP_GAUGE32 },
    { "netif", "flags", 1, SNAP_GAUGE32 },
    { "netif", "type", 1, SNAP_GAUGE32 },
    { "netif", "functional_type", 1, SNAP_GAUGE32 },
    { "netif", "mtu", 1, SNAP_GAUGE32 },
    { "netif", "baudrate", 1, SNAP_GAUGE64 },
    { "netif", "ipackets", 1, SNAP_COUNTER64 },
    { "netif", "ierrors", 1, SNAP_COUNTER64 },
    { "netif", "opackets", 1, SNAP_COUNTER64 },
    { "netif", "oerrors", 1, SNAP_COUNTER64 },
    { "netif", "collisions", 1, SNAP_COUNTER64 },
    /* as NET_RT_IFLIST2 gave them, possibly truncated to 32 bits: replayed
     * as recorded, not interpolated */
    { "netif", "ibytes", 1, SNAP_GAUGE64 },
    { "netif", "obytes", 1, SNAP_GAUGE64 },
    { "netif", "imcasts", 1, SNAP_COUNTER64 },
    { "netif", "omcasts", 1, SNAP_COUNTER64 },
    { "netif", "iqdrops", 1, SNAP_COUNTER64 },
    { "netif", "snd_drops", 1, SNAP_COUNTER32 },
    { "netif", "mib_ibytes", 1, SNAP_COUNTER64 },
    { "netif", "mib_obytes", 1, SNAP_COUNTER64 },
    { "udp", "ipackets", 0, SNAP_COUNTER32 },
    { "udp", "hdrops", 0, SNAP_COUNTER32 },
    { "udp", "badsum", 0, SNAP_COUNTER32 },
    { "udp", "badlen", 0, SNAP_COUNTER32 },
    { "udp", "noport", 0, SNAP_COUNTER32 },
    { "udp", "fullsock", 0, SNAP_COUNTER32 },
    { "udp", "opackets", 0, SNAP_COUNTER32 },
    { "icmp", "error", 0, SNAP_COUNTER32 },
    { "icmp", "badcode", 0, SNAP_COUNTER32 },
    { "icmp", "tooshort", 0, SNAP_COUNTER32 },
    { "icmp", "checksum", 0, SNAP_COUNTER32 },
    { "icmp", "badlen", 0, SNAP_COUNTER32 },
    /* icmp.inhist_N and icmp.outhist_N: build_schema() adds them */
    { "ip6", "total", 0, SNAP_COUNTER64 },
    { "ip6", "tooshort", 0, SNAP_COUNTER64 },
    { "ip6", "toosmall", 0, SNAP_COUNTER64 },
    { "ip6", "forward", 0, SNAP_COUNTER64 },
    { "ip6", "odropped", 0, SNAP_COUNTER64 },
    { "ip6", "reassembled", 0, SNAP_COUNTER64 },
    { "ip6", "ofragments", 0, SNAP_COUNTER64 },
    { "tcp", "connattempt", 0, SNAP_COUNTER32 },
    { "tcp", "accepts", 0, SNAP_COUNTER32 },
    { "tcp", "drops", 0, SNAP_COUNTER32 },
    { "tcp", "conndrops", 0, SNAP_COUNTER32 },
    { "tcp", "sndtotal", 0, SNAP_COUNTER32 },
    { "tcp", "sndrexmitpack", 0, SNAP_COUNTER32 },
    { "tcp", "sndctrl", 0, SNAP_COUNTER32 },
    { "tcp", "rcvtotal", 0, SNAP_COUNTER32 },
    { "tcp", "rcvbadsum", 0, SNAP_COUNTER32 },
    { "tcp", "rcvbadoff", 0, SNAP_COUNTER32 },
    { "tcp", "rcvmemdrop", 0, SNAP_COUNTER32 },
    { "tcp", "rcvshort", 0, SNAP_COUNTER32 },
    { "tcp", "access_disabled", 0, SNAP_GAUGE32 },
    { "tcpconn", "closed", 0, SNAP_GAUGE32 },
    { "tcpconn", "listen", 0, SNAP_GAUGE32 },
    { "tcpconn", "syn_sent", 0, SNAP_GAUGE32 },
    { "tcpconn", "syn_received", 0, SNAP_GAUGE32 },
    { "tcpconn", "established", 0, SNAP_GAUGE32 },
    { "tcpconn", "close_wait", 0, SNAP_GAUGE32 },
    { "tcpconn", "fin_wait_1", 0, SNAP_GAUGE32 },
    { "tcpconn", "closing", 0, SNAP_GAUGE32 },
    { "tcpconn", "last_ack", 0, SNAP_GAUGE32 },
    { "tcpconn", "fin_wait_2", 0, SNAP_GAUGE32 },
    { "tcpconn", "time_wait", 0, SNAP_GAUGE32 },
    { "tcpconn", "unknown_state", 0, SNAP_GAUGE32 },
};

#define BASE_SCHEMA_N (sizeof(base_schema) / sizeof(base_schema[0]))

static const char *const compressor_keys[PLAT_COMP_NSTATS] = {
    [PLAT_COMP_SWAPOUTS_UNDER_30S] = "compressor.swapouts_under_30s",
    [PLAT_COMP_SWAPOUTS_UNDER_60S] = "compressor.swapouts_under_60s",
    [PLAT_COMP_SWAPOUTS_UNDER_300S] = "compressor.swapouts_under_300s",
    [PLAT_COMP_THRASHING_DETECTED] = "compressor.thrashing_detected",
    [PLAT_COMP_LZ4_COMPRESSIONS] = "compressor.lz4_compressions",
};

struct snapshot_source {
    struct snap *snap;
    uint64_t (*now_usec)(void);
    int started;
    uint64_t start_usec;
    struct snap_field *schema;          /* base_schema, the sysctl keys, and a terminator */
    struct plat_cpu *cpus;
    unsigned int cpus_cap;
    struct plat_login *logins;
    unsigned int logins_cap;
    struct plat_cpu_cluster *clusters;
    unsigned int clusters_cap;
    struct plat_netif *netifs;
    unsigned int netifs_cap;
};

static uint64_t
monotonic_usec(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

/* Move the replay position to the current time; replay starts at the first call. */
static struct snap *
at_now(void *ctx)
{
    struct snapshot_source *src = ctx;
    uint64_t now = src->now_usec();

    if (!src->started) {
        src->started = 1;
        src->start_usec = now;
    }
    snap_set_position(src->snap, now - src->start_usec);
    snap_clear_error(src->snap);        /* each platform call reports its own failures */
    return src->snap;
}

static int
read_u32(struct snap *s, const char *key, uint32_t *out)
{
    uint64_t v;
    int sts = snap_u64(s, key, &v);

    if (sts == 0)
        *out = (uint32_t)v;     /* the schema bounds 32-bit kinds at parse time */
    return sts;
}

static int
copy_text(struct snap *s, const char *key, char *out, size_t outlen)
{
    const char *text;
    int sts = snap_text(s, key, &text);

    if (sts == 0)
        snprintf(out, outlen, "%s", text);
    return sts;
}

/* First failure wins, so the error text stays the one that explains the status. */
#define KEEP_FIRST(sts, call) do { if ((sts) == 0) (sts) = (call); } while (0)

static int
snapshot_host(void *ctx, struct plat_host *out)
{
    struct snap *s = at_now(ctx);
    int sts = 0;

    KEEP_FIRST(sts, snap_u64(s, "host.page_size", &out->page_size));
    KEEP_FIRST(sts, read_u32(s, "host.clock_hz", &out->clock_hz));
    KEEP_FIRST(sts, snap_u64(s, "host.memsize", &out->memsize));
    KEEP_FIRST(sts, copy_text(s, "host.model", out->model, sizeof(out->model)));
    return sts;
}

static int
read_vm(struct snap *s, struct plat_vm *vm)
{
    int sts = 0;

    KEEP_FIRST(sts, read_u32(s, "vm.free_count", &vm->free_count));
    KEEP_FIRST(sts, read_u32(s, "vm.active_count", &vm->active_count));
    KEEP_FIRST(sts, read_u32(s, "vm.inactive_count", &vm->inactive_count));
    KEEP_FIRST(sts, read_u32(s, "vm.wire_count", &vm->wire_count));
    KEEP_FIRST(sts, read_u32(s, "vm.compressor_page_count", &vm->compressor_page_count));
    KEEP_FIRST(sts, snap_u64(s, "vm.total_uncompressed_pages_in_compressor",
                             &vm->total_uncompressed_pages_in_compressor));
    KEEP_FIRST(sts, snap_u64(s, "vm.reactivations", &vm->reactivations));
    KEEP_FIRST(sts, snap_u64(s, "vm.faults", &vm->faults));
    KEEP_FIRST(sts, snap_u64(s, "vm.cow_faults", &vm->cow_faults));
    KEEP_FIRST(sts, snap_u64(s, "vm.zero_fill_count", &vm->zero_fill_count));
    KEEP_FIRST(sts, snap_u64(s, "vm.pageins", &vm->pageins));
    KEEP_FIRST(sts, snap_u64(s, "vm.pageouts", &vm->pageouts));
    KEEP_FIRST(sts, snap_u64(s, "vm.swapins", &vm->swapins));
    KEEP_FIRST(sts, snap_u64(s, "vm.swapouts", &vm->swapouts));
    KEEP_FIRST(sts, snap_u64(s, "vm.compressions", &vm->compressions));
    KEEP_FIRST(sts, snap_u64(s, "vm.decompressions", &vm->decompressions));
    KEEP_FIRST(sts, read_u32(s, "vm.speculative_count", &vm->speculative_count));
    KEEP_FIRST(sts, read_u32(s, "vm.throttled_count", &vm->throttled_count));
    KEEP_FIRST(sts, read_u32(s, "vm.purgeable_count", &vm->purgeable_count));
    KEEP_FIRST(sts, read_u32(s, "vm.external_page_count", &vm->external_page_count));
    KEEP_FIRST(sts, read_u32(s, "vm.internal_page_count", &vm->internal_page_count));
    KEEP_FIRST(sts, snap_u64(s, "vm.purges", &vm->purges));
    return sts;
}

static int
read_swap(struct snap *s, struct plat_swap *swap)
{
    int sts = 0;

    KEEP_FIRST(sts, snap_u64(s, "swap.total", &swap->total));
    KEEP_FIRST(sts, snap_u64(s, "swap.avail", &swap->avail));
    KEEP_FIRST(sts, snap_u64(s, "swap.used", &swap->used));
    return sts;
}

static int
snapshot_memory(void *ctx, struct plat_memory *out)
{
    struct snap *s = at_now(ctx);

    out->vm_status = read_vm(s, &out->vm);
    out->swap_status = read_swap(s, &out->swap);
    for (int i = 0; i < PLAT_COMP_NSTATS; i++)
        out->compressor_status[i] = snap_u64(s, compressor_keys[i], &out->compressor[i]);
    return 0;
}

static int
snapshot_uname(void *ctx, struct plat_uname *out)
{
    struct snap *s = at_now(ctx);
    int sts = 0;

    KEEP_FIRST(sts, copy_text(s, "uname.sysname", out->sysname, sizeof(out->sysname)));
    KEEP_FIRST(sts, copy_text(s, "uname.nodename", out->nodename, sizeof(out->nodename)));
    KEEP_FIRST(sts, copy_text(s, "uname.release", out->release, sizeof(out->release)));
    KEEP_FIRST(sts, copy_text(s, "uname.version", out->version, sizeof(out->version)));
    KEEP_FIRST(sts, copy_text(s, "uname.machine", out->machine, sizeof(out->machine)));
    if (sts == 0)
        out->product_status = copy_text(s, "uname.product_version", out->product_version,
                                        sizeof(out->product_version));
    return sts;
}

static int
snapshot_loadavg(void *ctx, struct plat_loadavg *out)
{
    struct snap *s = at_now(ctx);
    int sts = 0;

    KEEP_FIRST(sts, read_u32(s, "load.avg1", &out->ldavg[0]));
    KEEP_FIRST(sts, read_u32(s, "load.avg5", &out->ldavg[1]));
    KEEP_FIRST(sts, read_u32(s, "load.avg15", &out->ldavg[2]));
    KEEP_FIRST(sts, snap_u64(s, "load.fscale", &out->fscale));
    return sts;
}

/* prefix followed by field in buf (cut to fit): cheaper than snprintf for
 * the many per-instance keys a refresh looks up. */
static const char *
join(char *buf, size_t size, const char *prefix, const char *field)
{
    size_t p = strlen(prefix), f = strlen(field);

    if (p >= size)
        p = size - 1;
    if (f >= size - p)
        f = size - p - 1;
    memcpy(buf, prefix, p);
    memcpy(buf + p, field, f);
    buf[p + f] = '\0';
    return buf;
}

/* Reads "<prefix>user" etc., where prefix is "cpu." or "cpu[name]." */
static int
read_ticks(struct snap *s, const char *prefix, struct plat_cpu_ticks *t)
{
    static const char *const states[] = { "user", "sys", "idle", "nice" };
    uint32_t *fields[] = { &t->user, &t->sys, &t->idle, &t->nice };
    char key[PLAT_NAME_MAX + 32];
    int sts = 0;

    for (int i = 0; i < 4 && sts == 0; i++)
        sts = read_u32(s, join(key, sizeof(key), prefix, states[i]), fields[i]);
    return sts;
}

static int
snapshot_cpu_total(void *ctx, struct plat_cpu_ticks *out)
{
    return read_ticks(at_now(ctx), "cpu.", out);
}

static int
snapshot_cpus(void *ctx, struct plat_cpu_set *out)
{
    struct snapshot_source *src = ctx;
    struct snap *s = at_now(ctx);
    unsigned int n = 0;
    const char *name;
    int sts;

    while ((name = snap_instance(s, "cpu", n)) != NULL) {
        struct plat_cpu *cpu;
        char prefix[PLAT_NAME_MAX + 8];

        if ((sts = array_grow((void **)&src->cpus, &src->cpus_cap, n, sizeof(*src->cpus))) < 0)
            return sts;
        cpu = &src->cpus[n];
        snprintf(cpu->name, sizeof(cpu->name), "%s", name);
        snprintf(prefix, sizeof(prefix), "cpu[%s].", name);
        if ((sts = read_ticks(s, prefix, &cpu->ticks)) < 0)
            return sts;
        n++;
    }
    out->ncpu = n;
    out->cpu = src->cpus;
    return 0;
}

static int
snapshot_clock(void *ctx, struct plat_clock *out)
{
    struct snap *s = at_now(ctx);
    uint64_t boot, now;
    int sts;

    if ((sts = snap_time(s, "clock.boot", &boot)) < 0)
        return sts;
    snap_now(s, &now);
    out->boot_sec = (int64_t)(boot / 1000000);
    out->boot_usec = (int32_t)(boot % 1000000);
    out->now_sec = (int64_t)(now / 1000000);
    out->now_usec = (int32_t)(now % 1000000);
    return 0;
}

static void
read_sysctls(struct snap *s, enum plat_sysctl_family family, struct plat_sysctl_set *out)
{
    unsigned int n;
    const struct plat_sysctl_def *defs = plat_sysctl_defs(family, &n);
    char key[128];

    out->n = n;
    for (unsigned int i = 0; i < n; i++) {
        snprintf(key, sizeof(key), "sysctl.%s", defs[i].name);
        out->status[i] = snap_u64(s, key, &out->value[i]);
    }
}

static int
snapshot_sysctls(void *ctx, enum plat_sysctl_family family, struct plat_sysctl_set *out)
{
    unsigned int n;

    if (plat_sysctl_defs(family, &n) == NULL)
        return -EINVAL;
    read_sysctls(at_now(ctx), family, out);
    return 0;
}

static int
snapshot_tasks(void *ctx, struct plat_tasks *out)
{
    struct snap *s = at_now(ctx);
    int sts = 0;

    KEEP_FIRST(sts, read_u32(s, "tasks.count", &out->tasks));
    KEEP_FIRST(sts, read_u32(s, "tasks.threads", &out->threads));
    return sts;
}

/* Records are instances of "utmpx"; one that a sample lacks is not in it. */
static int
snapshot_logins(void *ctx, struct plat_login_set *out)
{
    struct snapshot_source *src = ctx;
    struct snap *s = at_now(ctx);
    unsigned int n = 0;
    const char *name;

    for (unsigned int i = 0; (name = snap_instance(s, "utmpx", i)) != NULL; i++) {
        char key[PLAT_NAME_MAX + 32];
        const char *user;
        int32_t type;
        int sts;

        snprintf(key, sizeof(key), "utmpx[%s].type", name);
        if ((sts = snap_int(s, key, &type)) == -ENOENT)
            continue;
        if (sts < 0)
            return sts;
        if ((sts = array_grow((void **)&src->logins, &src->logins_cap, n, sizeof(*src->logins))) < 0)
            return sts;
        src->logins[n].type = type;
        snprintf(key, sizeof(key), "utmpx[%s].user", name);
        if ((sts = snap_text(s, key, &user)) < 0 && sts != -ENOENT)
            return sts;
        snprintf(src->logins[n].user, sizeof(src->logins[n].user), "%s", sts == 0 ? user : "");
        n++;
    }
    snap_clear_error(s);            /* records absent from this sample are not failures */
    out->n = n;
    out->login = src->logins;
    return 0;
}

static void
read_level(struct snap *s, unsigned int index, struct plat_perflevel *out)
{
    char key[64];

    snprintf(key, sizeof(key), "perflevel[%u].name", index);
    out->name_status = copy_text(s, key, out->name, sizeof(out->name));
    for (int f = 0; f < PLAT_PL_N; f++) {
        snprintf(key, sizeof(key), "perflevel[%u].%s", index, plat_perflevel_fields[f]);
        out->status[f] = snap_u64(s, key, &out->value[f]);
    }
}

static int
read_clusters(struct snapshot_source *src, struct snap *s, struct plat_topology *out)
{
    const char *cpu;
    unsigned int n = 0;

    for (unsigned int i = 0; (cpu = snap_instance(s, "cpu", i)) != NULL && n < PLAT_MAX_CPUS; i++) {
        char key[PLAT_NAME_MAX + 32];
        int sts;

        if ((sts = array_grow((void **)&src->clusters, &src->clusters_cap, n, sizeof(*src->clusters))) < 0)
            return sts;
        snprintf(key, sizeof(key), "cpu[%s].cluster_type", cpu);
        if ((sts = copy_text(s, key, src->clusters[n].type, sizeof(src->clusters[n].type))) == -ENOENT)
            continue;
        if (sts < 0)
            return sts;
        snprintf(src->clusters[n].cpu, sizeof(src->clusters[n].cpu), "%s", cpu);
        n++;
    }
    out->cluster = src->clusters;
    out->nclusters = n;
    return n > 0 ? 0 : -ENOENT;     /* a recording from an Intel Mac has none */
}

static int
snapshot_topology(void *ctx, struct plat_topology *out)
{
    struct snap *s = at_now(ctx);

    out->brand_status = copy_text(s, "topology.brand", out->brand, sizeof(out->brand));
    read_sysctls(s, PLAT_SYSCTL_CPU_COUNTS, &out->counts);
    out->nlevels = 0;
    if (out->counts.status[PLAT_CPU_NPERFLEVELS] == 0) {
        uint64_t n = out->counts.value[PLAT_CPU_NPERFLEVELS];

        out->nlevels = n < PLAT_MAX_PERFLEVELS ? (unsigned int)n : PLAT_MAX_PERFLEVELS;
    }
    for (unsigned int i = 0; i < out->nlevels; i++)
        read_level(s, i, &out->level[i]);
    out->clusters_status = read_clusters(ctx, s, out);
    return 0;
}

static int
optional_u64(struct snap *s, const char *prefix, const char *field, uint64_t *out)
{
    char key[PLAT_NAME_MAX + 48];

    return snap_u64(s, join(key, sizeof(key), prefix, field), out);
}

static int
read_netif(struct snap *s, const char *name, struct plat_netif *out)
{
    static const char *const fields[] = {
        "ipackets", "ierrors", "opackets", "oerrors", "collisions", "ibytes", "obytes", "imcasts", "omcasts", "iqdrops",
    };
    uint64_t *values[] = { &out->ipackets, &out->ierrors, &out->opackets, &out->oerrors, &out->collisions,
                           &out->ibytes, &out->obytes, &out->imcasts, &out->omcasts, &out->iqdrops };
    char prefix[PLAT_NAME_MAX + 16], key[PLAT_NAME_MAX + 48];
    uint64_t ft;
    int sts = 0;

    memset(out, 0, sizeof(*out));
    snprintf(out->name, sizeof(out->name), "%s", name);
    snprintf(prefix, sizeof(prefix), "netif[%s].", name);
#define FIELD32(f, dst) read_u32(s, join(key, sizeof(key), prefix, f), dst)
    KEEP_FIRST(sts, FIELD32("index", &out->index));
    KEEP_FIRST(sts, FIELD32("flags", &out->flags));
    KEEP_FIRST(sts, FIELD32("type", &out->type));
    KEEP_FIRST(sts, FIELD32("mtu", &out->mtu));
    KEEP_FIRST(sts, FIELD32("snd_drops", &out->snd_drops));
#undef FIELD32
    KEEP_FIRST(sts, optional_u64(s, prefix, "baudrate", &out->baudrate));
    for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
        KEEP_FIRST(sts, optional_u64(s, prefix, fields[i], values[i]));
    if (sts < 0)
        return sts;
    /* a Mac answers these per interface, and may not for some */
    out->functional_status = optional_u64(s, prefix, "functional_type", &ft);
    out->functional_type = (uint32_t)ft;
    out->mib_status = optional_u64(s, prefix, "mib_ibytes", &out->mib_ibytes);
    if (out->mib_status == 0)
        out->mib_status = optional_u64(s, prefix, "mib_obytes", &out->mib_obytes);
    return 0;
}

/* Interfaces are the instances of "netif"; one that a sample lacks is not in it. */
static int
snapshot_interfaces(void *ctx, struct plat_netif_set *out)
{
    struct snapshot_source *src = ctx;
    struct snap *s = at_now(ctx);
    unsigned int n = 0;
    const char *name;
    int sts;

    for (unsigned int i = 0; (name = snap_instance(s, "netif", i)) != NULL && n < PLAT_MAX_NETIFS; i++) {
        char key[PLAT_NAME_MAX + 32];
        uint32_t index;

        snprintf(key, sizeof(key), "netif[%s].index", name);
        if (read_u32(s, key, &index) == -ENOENT)
            continue;
        if ((sts = array_grow((void **)&src->netifs, &src->netifs_cap, n, sizeof(*src->netifs))) < 0)
            return sts;
        /* missing from one end of the interval being replayed: not there now */
        if ((sts = read_netif(s, name, &src->netifs[n])) == -ENOENT)
            continue;
        if (sts < 0)
            return sts;
        n++;
    }
    out->n = n;
    out->netif = src->netifs;
    return 0;
}

/* The ICMP histogram's keys, "icmp.inhist_N" and "icmp.outhist_N", by type. */
static char icmp_hist_fields[2][PLAT_ICMP_NTYPES][16];

static const char *
icmp_hist_field(int out, unsigned int type)
{
    char *f = icmp_hist_fields[out][type];

    if (f[0] == '\0')
        snprintf(f, sizeof(icmp_hist_fields[0][0]), "%s_%u", out ? "outhist" : "inhist", type);
    return f;
}

static int
snapshot_udp(void *ctx, struct plat_udp *out)
{
    struct snap *s = at_now(ctx);
    int sts = 0;

    KEEP_FIRST(sts, read_u32(s, "udp.ipackets", &out->ipackets));
    KEEP_FIRST(sts, read_u32(s, "udp.hdrops", &out->hdrops));
    KEEP_FIRST(sts, read_u32(s, "udp.badsum", &out->badsum));
    KEEP_FIRST(sts, read_u32(s, "udp.badlen", &out->badlen));
    KEEP_FIRST(sts, read_u32(s, "udp.noport", &out->noport));
    KEEP_FIRST(sts, read_u32(s, "udp.fullsock", &out->fullsock));
    KEEP_FIRST(sts, read_u32(s, "udp.opackets", &out->opackets));
    return sts;
}

static int
snapshot_icmp(void *ctx, struct plat_icmp *out)
{
    struct snap *s = at_now(ctx);
    char key[32];
    int sts = 0;

    KEEP_FIRST(sts, read_u32(s, "icmp.error", &out->error));
    KEEP_FIRST(sts, read_u32(s, "icmp.badcode", &out->badcode));
    KEEP_FIRST(sts, read_u32(s, "icmp.tooshort", &out->tooshort));
    KEEP_FIRST(sts, read_u32(s, "icmp.checksum", &out->checksum));
    KEEP_FIRST(sts, read_u32(s, "icmp.badlen", &out->badlen));
    for (unsigned int t = 0; t < PLAT_ICMP_NTYPES; t++) {
        KEEP_FIRST(sts, read_u32(s, join(key, sizeof(key), "icmp.", icmp_hist_field(0, t)), &out->inhist[t]));
        KEEP_FIRST(sts, read_u32(s, join(key, sizeof(key), "icmp.", icmp_hist_field(1, t)), &out->outhist[t]));
    }
    return sts;
}

static int
snapshot_ip6(void *ctx, struct plat_ip6 *out)
{
    struct snap *s = at_now(ctx);
    int sts = 0;

    KEEP_FIRST(sts, snap_u64(s, "ip6.total", &out->total));
    KEEP_FIRST(sts, snap_u64(s, "ip6.tooshort", &out->tooshort));
    KEEP_FIRST(sts, snap_u64(s, "ip6.toosmall", &out->toosmall));
    KEEP_FIRST(sts, snap_u64(s, "ip6.forward", &out->forward));
    KEEP_FIRST(sts, snap_u64(s, "ip6.odropped", &out->odropped));
    KEEP_FIRST(sts, snap_u64(s, "ip6.reassembled", &out->reassembled));
    KEEP_FIRST(sts, snap_u64(s, "ip6.ofragments", &out->ofragments));
    return sts;
}

static const char *const tcp_fields[] = { "connattempt", "accepts", "drops", "conndrops", "sndtotal", "sndrexmitpack", "sndctrl", "rcvtotal", "rcvbadsum", "rcvbadoff", "rcvmemdrop", "rcvshort" };
static const char *const tcp_states[PLAT_TCP_NSTATES] = { "closed", "listen", "syn_sent", "syn_received", "established", "close_wait", "fin_wait_1", "closing", "last_ack", "fin_wait_2", "time_wait" };

static int
snapshot_tcp(void *ctx, struct plat_tcp *out)
{
    struct snap *s = at_now(ctx);
    uint32_t *fields[] = { &out->connattempt, &out->accepts, &out->drops, &out->conndrops, &out->sndtotal,
                           &out->sndrexmitpack, &out->sndctrl, &out->rcvtotal, &out->rcvbadsum, &out->rcvbadoff,
                           &out->rcvmemdrop, &out->rcvshort };
    char key[40];
    int sts = 0;

    for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
        KEEP_FIRST(sts, read_u32(s, join(key, sizeof(key), "tcp.", tcp_fields[i]), fields[i]));
    out->access_status = read_u32(s, "tcp.access_disabled", &out->access_disabled);
    return sts;
}

static int
snapshot_tcpconn(void *ctx, struct plat_tcpconn *out)
{
    struct snap *s = at_now(ctx);
    char key[40];
    int sts = 0;

    memset(out, 0, sizeof(*out));
    for (int i = 0; i < PLAT_TCP_NSTATES; i++)
        KEEP_FIRST(sts, read_u32(s, join(key, sizeof(key), "tcpconn.", tcp_states[i]), &out->state[i]));
    KEEP_FIRST(sts, read_u32(s, "tcpconn.unknown_state", &out->unknown_state));
    return sts;
}

static const char *
snapshot_error(void *ctx)
{
    return snap_error(((struct snapshot_source *)ctx)->snap);
}

static const char *
snapshot_notes(void *ctx)
{
    return snap_notes(((struct snapshot_source *)ctx)->snap);
}

static void
snapshot_close(void *ctx)
{
    struct snapshot_source *src = ctx;

    snap_close(src->snap);
    free(src->schema);
    free(src->cpus);
    free(src->logins);
    free(src->clusters);
    free(src->netifs);
    free(src);
}

/* base_schema followed by a "sysctl.<name>" key for every sysctl family
 * member and the ICMP histogram's keys. */
static struct snap_field *
build_schema(void)
{
    size_t n = BASE_SCHEMA_N + 2 * PLAT_ICMP_NTYPES, k = 0;
    struct snap_field *schema;

    for (int f = 0; f < PLAT_SYSCTL_NFAMILIES; f++) {
        unsigned int count;

        plat_sysctl_defs((enum plat_sysctl_family)f, &count);
        n += count;
    }
    if ((schema = calloc(n + 1, sizeof(*schema))) == NULL)
        return NULL;
    for (; k < BASE_SCHEMA_N; k++)
        schema[k] = base_schema[k];
    for (int f = 0; f < PLAT_SYSCTL_NFAMILIES; f++) {
        unsigned int count;
        const struct plat_sysctl_def *defs = plat_sysctl_defs((enum plat_sysctl_family)f, &count);

        for (unsigned int i = 0; i < count; i++)
            schema[k++] = (struct snap_field){ "sysctl", defs[i].name, 0,
                                               defs[i].counter ? SNAP_COUNTER64 : SNAP_GAUGE64 };
    }
    for (unsigned int t = 0; t < PLAT_ICMP_NTYPES; t++)
        for (int out = 0; out < 2; out++)
            schema[k++] = (struct snap_field){ "icmp", icmp_hist_field(out, t), 0, SNAP_COUNTER32 };
    return schema;      /* calloc left the terminator's family NULL */
}

int
platform_snapshot_open(struct platform *out, const char *path, char *msg, unsigned int msglen)
{
    struct snapshot_source *src = calloc(1, sizeof(*src));

    if (src == NULL) {
        snprintf(msg, msglen, "out of memory");
        return -ENOMEM;
    }
    if ((src->schema = build_schema()) == NULL) {
        free(src);
        snprintf(msg, msglen, "out of memory");
        return -ENOMEM;
    }
    if ((src->snap = snap_open(path, src->schema, msg, msglen)) == NULL) {
        free(src->schema);
        free(src);
        return -EINVAL;
    }
    src->now_usec = monotonic_usec;
    *out = (struct platform) {
        .name = "snapshot",
        .ctx = src,
        .host = snapshot_host,
        .memory = snapshot_memory,
        .uname = snapshot_uname,
        .loadavg = snapshot_loadavg,
        .cpu_total = snapshot_cpu_total,
        .cpus = snapshot_cpus,
        .clock = snapshot_clock,
        .sysctls = snapshot_sysctls,
        .tasks = snapshot_tasks,
        .logins = snapshot_logins,
        .topology = snapshot_topology,
        .interfaces = snapshot_interfaces,
        .udp = snapshot_udp,
        .icmp = snapshot_icmp,
        .ip6 = snapshot_ip6,
        .tcp = snapshot_tcp,
        .tcpconn = snapshot_tcpconn,
        .error = snapshot_error,
        .notes = snapshot_notes,
        .close = snapshot_close,
    };
    snprintf(msg, msglen, "replaying %s (%u samples)", path, snap_nsamples(src->snap));
    return 0;
}

void
platform_snapshot_set_clock(struct platform *p, uint64_t (*now_usec)(void))
{
    struct snapshot_source *src = p->ctx;

    src->now_usec = now_usec;
    src->started = 0;
}
