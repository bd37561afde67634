#include "snapshot_write.h"
#include "snapshot_store.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

static void
failed(FILE *fp, const struct platform *p, const char *what, int sts)
{
    fprintf(fp, "# %s failed (%s): %s\n", what, strerror(-sts), p->error(p->ctx));
}

static void
write_time(FILE *fp, const char *key, int64_t sec, int32_t usec)
{
    fprintf(fp, "%s %" PRId64 ".%06d\n", key, sec, (int)usec);
}

/* Whether an earlier family already has this sysctl (a key is written once a sample). */
static int
written_before(enum plat_sysctl_family family, const char *name)
{
    for (int f = 0; f < (int)family; f++) {
        unsigned int n;
        const struct plat_sysctl_def *defs = plat_sysctl_defs((enum plat_sysctl_family)f, &n);

        for (unsigned int i = 0; i < n; i++)
            if (strcmp(defs[i].name, name) == 0)
                return 1;
    }
    return 0;
}

static void
write_sysctl_set(FILE *fp, enum plat_sysctl_family family, const struct plat_sysctl_set *set)
{
    unsigned int n;
    const struct plat_sysctl_def *defs = plat_sysctl_defs(family, &n);

    for (unsigned int i = 0; i < n && i < set->n; i++) {
        if (written_before(family, defs[i].name))
            continue;
        if (set->status[i] < 0)
            fprintf(fp, "# sysctl.%s failed (%s)\n", defs[i].name, strerror(-set->status[i]));
        else
            fprintf(fp, "sysctl.%s %" PRIu64 "\n", defs[i].name, set->value[i]);
    }
}

/* The fixed processor topology, once, before the samples. */
static void
write_topology(FILE *fp, const struct platform *p)
{
    struct plat_topology t;
    int sts;

    memset(&t, 0, sizeof(t));
    if ((sts = p->topology(p->ctx, &t)) < 0) {
        failed(fp, p, "topology", sts);
        return;
    }
    if (t.brand_status < 0)
        fprintf(fp, "# topology.brand failed (%s)\n", strerror(-t.brand_status));
    else
        fprintf(fp, "topology.brand %s\n", t.brand);
    write_sysctl_set(fp, PLAT_SYSCTL_CPU_COUNTS, &t.counts);
    for (unsigned int l = 0; l < t.nlevels; l++) {
        const struct plat_perflevel *level = &t.level[l];

        if (level->name_status == 0)
            fprintf(fp, "perflevel[%u].name %s\n", l, level->name);
        for (int f = 0; f < PLAT_PL_N; f++)
            if (level->status[f] == 0)
                fprintf(fp, "perflevel[%u].%s %" PRIu64 "\n", l, plat_perflevel_fields[f], level->value[f]);
    }
    /* Intel Macs have no cluster types: absent there is not a failure. */
    if (t.clusters_status == -ENOENT)
        fprintf(fp, "# cpu cluster types absent (%s)\n", strerror(ENOENT));
    else if (t.clusters_status < 0)
        fprintf(fp, "# cpu cluster types failed (%s)\n", strerror(-t.clusters_status));
    for (unsigned int c = 0; c < t.nclusters; c++)
        fprintf(fp, "cpu[%s].cluster_type %s\n", t.cluster[c].cpu, t.cluster[c].type);
}

int
snapshot_write_header(FILE *fp, const struct platform *p, const char *note)
{
    struct plat_host host;
    struct plat_uname u;
    struct plat_clock clock;
    int sts;

    fprintf(fp, "pmda-darwin-snapshot %d\n", SNAP_FORMAT_VERSION);
    if (note != NULL && note[0] != '\0')
        fprintf(fp, "# %s\n", note);
    if ((sts = p->host(p->ctx, &host)) < 0)
        failed(fp, p, "host", sts);
    else
        fprintf(fp, "host.page_size %" PRIu64 "\nhost.clock_hz %" PRIu32 "\nhost.memsize %" PRIu64
                "\nhost.model %s\n", host.page_size, host.clock_hz, host.memsize, host.model);
    if ((sts = p->uname(p->ctx, &u)) < 0)
        failed(fp, p, "uname", sts);
    else {
        fprintf(fp, "uname.sysname %s\nuname.nodename %s\nuname.release %s\nuname.version %s\n"
                "uname.machine %s\n", u.sysname, u.nodename, u.release, u.version, u.machine);
        if (u.product_status < 0)
            failed(fp, p, "product version", u.product_status);
        else
            fprintf(fp, "uname.product_version %s\n", u.product_version);
    }
    if ((sts = p->clock(p->ctx, &clock)) < 0)
        failed(fp, p, "boot time", sts);
    else
        write_time(fp, "clock.boot", clock.boot_sec, clock.boot_usec);
    write_topology(fp, p);
    return ferror(fp) ? -EIO : 0;
}

static void
write_ticks(FILE *fp, const char *prefix, const struct plat_cpu_ticks *t)
{
    fprintf(fp, "%suser %" PRIu32 "\n%ssys %" PRIu32 "\n%sidle %" PRIu32 "\n%snice %" PRIu32 "\n",
            prefix, t->user, prefix, t->sys, prefix, t->idle, prefix, t->nice);
}

static void
write_memory(FILE *fp, const struct platform *p)
{
    static const char *const compressor[PLAT_COMP_NSTATS] = {
        "swapouts_under_30s", "swapouts_under_60s", "swapouts_under_300s",
        "thrashing_detected", "lz4_compressions",
    };
    struct plat_memory m;
    const struct plat_vm *vm = &m.vm;
    int sts;

    memset(&m, 0, sizeof(m));
    if ((sts = p->memory(p->ctx, &m)) < 0) {
        failed(fp, p, "memory", sts);
        return;
    }
    if (m.vm_status < 0)
        failed(fp, p, "vm statistics", m.vm_status);
    else
        fprintf(fp, "vm.free_count %" PRIu32 "\nvm.active_count %" PRIu32 "\nvm.inactive_count %" PRIu32
                "\nvm.wire_count %" PRIu32 "\nvm.compressor_page_count %" PRIu32
                "\nvm.total_uncompressed_pages_in_compressor %" PRIu64 "\nvm.reactivations %" PRIu64
                "\nvm.faults %" PRIu64 "\nvm.cow_faults %" PRIu64 "\nvm.zero_fill_count %" PRIu64
                "\nvm.pageins %" PRIu64 "\nvm.pageouts %" PRIu64 "\nvm.swapins %" PRIu64
                "\nvm.swapouts %" PRIu64 "\nvm.compressions %" PRIu64 "\nvm.decompressions %" PRIu64 "\n",
                vm->free_count, vm->active_count, vm->inactive_count, vm->wire_count,
                vm->compressor_page_count, vm->total_uncompressed_pages_in_compressor, vm->reactivations,
                vm->faults, vm->cow_faults, vm->zero_fill_count, vm->pageins, vm->pageouts, vm->swapins,
                vm->swapouts, vm->compressions, vm->decompressions);
    if (m.vm_status == 0)
        fprintf(fp, "vm.speculative_count %" PRIu32 "\nvm.throttled_count %" PRIu32 "\nvm.purgeable_count %" PRIu32
                "\nvm.external_page_count %" PRIu32 "\nvm.internal_page_count %" PRIu32 "\nvm.purges %" PRIu64 "\n",
                vm->speculative_count, vm->throttled_count, vm->purgeable_count, vm->external_page_count,
                vm->internal_page_count, vm->purges);
    if (m.swap_status < 0)
        failed(fp, p, "swap usage", m.swap_status);
    else
        fprintf(fp, "swap.total %" PRIu64 "\nswap.avail %" PRIu64 "\nswap.used %" PRIu64 "\n",
                m.swap.total, m.swap.avail, m.swap.used);
    for (int i = 0; i < PLAT_COMP_NSTATS; i++) {
        if (m.compressor_status[i] < 0)
            fprintf(fp, "# compressor.%s failed (%s)\n", compressor[i], strerror(-m.compressor_status[i]));
        else
            fprintf(fp, "compressor.%s %" PRIu64 "\n", compressor[i], m.compressor[i]);
    }
}

static void
write_cpus(FILE *fp, const struct platform *p)
{
    struct plat_cpu_ticks total;
    struct plat_cpu_set set;
    int sts;

    if ((sts = p->cpu_total(p->ctx, &total)) < 0)
        failed(fp, p, "cpu totals", sts);
    else
        write_ticks(fp, "cpu.", &total);
    if ((sts = p->cpus(p->ctx, &set)) < 0) {
        failed(fp, p, "per-cpu ticks", sts);
        return;
    }
    for (unsigned int i = 0; i < set.ncpu; i++) {
        const struct plat_cpu *cpu = &set.cpu[i];
        char prefix[PLAT_NAME_MAX + 8];

        snprintf(prefix, sizeof(prefix), "cpu[%s].", cpu->name);
        write_ticks(fp, prefix, &cpu->ticks);
    }
}

/* The sysctl families that change, task totals and login records. */
static void
write_kernel(FILE *fp, const struct platform *p)
{
    static const enum plat_sysctl_family families[] = {
        PLAT_SYSCTL_VFS, PLAT_SYSCTL_LIMITS, PLAT_SYSCTL_IPC, PLAT_SYSCTL_PRESSURE, PLAT_SYSCTL_SOCKSTAT,
    };
    struct plat_sysctl_set set;
    struct plat_tasks tasks;
    struct plat_login_set logins;
    int sts;

    for (size_t f = 0; f < sizeof(families) / sizeof(families[0]); f++) {
        if ((sts = p->sysctls(p->ctx, families[f], &set)) < 0)
            failed(fp, p, "sysctls", sts);
        else
            write_sysctl_set(fp, families[f], &set);
    }
    if ((sts = p->tasks(p->ctx, &tasks)) < 0)
        failed(fp, p, "task counts", sts);
    else
        fprintf(fp, "tasks.count %" PRIu32 "\ntasks.threads %" PRIu32 "\n", tasks.tasks, tasks.threads);
    if ((sts = p->logins(p->ctx, &logins)) < 0) {
        failed(fp, p, "login records", sts);
        return;
    }
    for (unsigned int i = 0; i < logins.n; i++) {
        fprintf(fp, "utmpx[%u].type %d\n", i, logins.login[i].type);
        if (logins.login[i].user[0] != '\0')
            fprintf(fp, "utmpx[%u].user %s\n", i, logins.login[i].user);
    }
}

static void
write_interfaces(FILE *fp, const struct platform *p)
{
    struct plat_netif_set set;
    int sts;

    if ((sts = p->interfaces(p->ctx, &set)) < 0) {
        failed(fp, p, "interfaces", sts);
        return;
    }
    for (unsigned int i = 0; i < set.n; i++) {
        const struct plat_netif *f = &set.netif[i];
        const char *n = f->name;

        fprintf(fp, "netif[%s].index %" PRIu32 "\nnetif[%s].flags %" PRIu32 "\nnetif[%s].type %" PRIu32
                "\nnetif[%s].mtu %" PRIu32 "\nnetif[%s].baudrate %" PRIu64 "\nnetif[%s].ipackets %" PRIu64
                "\nnetif[%s].ierrors %" PRIu64 "\nnetif[%s].opackets %" PRIu64 "\nnetif[%s].oerrors %" PRIu64
                "\nnetif[%s].collisions %" PRIu64 "\nnetif[%s].ibytes %" PRIu64 "\nnetif[%s].obytes %" PRIu64
                "\nnetif[%s].imcasts %" PRIu64 "\nnetif[%s].omcasts %" PRIu64 "\nnetif[%s].iqdrops %" PRIu64
                "\nnetif[%s].snd_drops %" PRIu32 "\n",
                n, f->index, n, f->flags, n, f->type, n, f->mtu, n, f->baudrate, n, f->ipackets, n, f->ierrors,
                n, f->opackets, n, f->oerrors, n, f->collisions, n, f->ibytes, n, f->obytes, n, f->imcasts,
                n, f->omcasts, n, f->iqdrops, n, f->snd_drops);
        if (f->functional_status == 0)
            fprintf(fp, "netif[%s].functional_type %" PRIu32 "\n", n, f->functional_type);
        if (f->mib_status == 0)
            fprintf(fp, "netif[%s].mib_ibytes %" PRIu64 "\nnetif[%s].mib_obytes %" PRIu64 "\n",
                    n, f->mib_ibytes, n, f->mib_obytes);
        else
            fprintf(fp, "# netif[%s] IFMIB_IFDATA failed (%s)\n", n, strerror(-f->mib_status));
    }
}

static void
write_tcp(FILE *fp, const struct platform *p)
{
    static const char *const states[PLAT_TCP_NSTATES] = {
        "closed", "listen", "syn_sent", "syn_received", "established", "close_wait", "fin_wait_1", "closing", "last_ack", "fin_wait_2", "time_wait",
    };
    struct plat_tcp t;
    struct plat_tcpconn c;
    int sts;

    if ((sts = p->tcp(p->ctx, &t)) < 0) {
        failed(fp, p, "tcp statistics", sts);
    } else {
        fprintf(fp, "tcp.connattempt %" PRIu32 "\ntcp.accepts %" PRIu32 "\ntcp.drops %" PRIu32 "\ntcp.conndrops %" PRIu32
                "\ntcp.sndtotal %" PRIu32 "\ntcp.sndrexmitpack %" PRIu32 "\ntcp.sndctrl %" PRIu32 "\ntcp.rcvtotal %" PRIu32
                "\ntcp.rcvbadsum %" PRIu32 "\ntcp.rcvbadoff %" PRIu32 "\ntcp.rcvmemdrop %" PRIu32 "\ntcp.rcvshort %" PRIu32 "\n",
                t.connattempt, t.accepts, t.drops, t.conndrops, t.sndtotal, t.sndrexmitpack, t.sndctrl, t.rcvtotal,
                t.rcvbadsum, t.rcvbadoff, t.rcvmemdrop, t.rcvshort);
        if (t.access_status == 0)
            fprintf(fp, "tcp.access_disabled %" PRIu32 "\n", t.access_disabled);
    }
    if ((sts = p->tcpconn(p->ctx, &c)) < 0) {
        failed(fp, p, "tcp connections", sts);
        return;
    }
    for (int i = 0; i < PLAT_TCP_NSTATES; i++)
        fprintf(fp, "tcpconn.%s %" PRIu32 "\n", states[i], c.state[i]);
    fprintf(fp, "tcpconn.unknown_state %" PRIu32 "\n", c.unknown_state);
}

static void
write_protocols(FILE *fp, const struct platform *p)
{
    struct plat_udp u;
    struct plat_icmp c;
    struct plat_ip6 i;
    int sts;

    if ((sts = p->udp(p->ctx, &u)) < 0)
        failed(fp, p, "udp statistics", sts);
    else
        fprintf(fp, "udp.ipackets %" PRIu32 "\nudp.hdrops %" PRIu32 "\nudp.badsum %" PRIu32 "\nudp.badlen %" PRIu32
                "\nudp.noport %" PRIu32 "\nudp.fullsock %" PRIu32 "\nudp.opackets %" PRIu32 "\n",
                u.ipackets, u.hdrops, u.badsum, u.badlen, u.noport, u.fullsock, u.opackets);
    if ((sts = p->icmp(p->ctx, &c)) < 0) {
        failed(fp, p, "icmp statistics", sts);
    } else {
        fprintf(fp, "icmp.error %" PRIu32 "\nicmp.badcode %" PRIu32 "\nicmp.tooshort %" PRIu32
                "\nicmp.checksum %" PRIu32 "\nicmp.badlen %" PRIu32 "\n",
                c.error, c.badcode, c.tooshort, c.checksum, c.badlen);
        for (unsigned int t = 0; t < PLAT_ICMP_NTYPES; t++)
            fprintf(fp, "icmp.inhist_%u %" PRIu32 "\nicmp.outhist_%u %" PRIu32 "\n", t, c.inhist[t], t, c.outhist[t]);
    }
    write_tcp(fp, p);
    if ((sts = p->ip6(p->ctx, &i)) < 0)
        failed(fp, p, "ipv6 statistics", sts);
    else
        fprintf(fp, "ip6.total %" PRIu64 "\nip6.tooshort %" PRIu64 "\nip6.toosmall %" PRIu64 "\nip6.forward %" PRIu64
                "\nip6.odropped %" PRIu64 "\nip6.reassembled %" PRIu64 "\nip6.ofragments %" PRIu64 "\n",
                i.total, i.tooshort, i.toosmall, i.forward, i.odropped, i.reassembled, i.ofragments);
}

int
snapshot_write_sample(FILE *fp, const struct platform *p)
{
    struct plat_clock clock;
    struct plat_loadavg load;
    int sts;

    if ((sts = p->clock(p->ctx, &clock)) < 0) {
        failed(fp, p, "clock", sts);
        return sts;             /* a sample needs its time */
    }
    write_time(fp, "sample", clock.now_sec, clock.now_usec);
    write_memory(fp, p);
    if ((sts = p->loadavg(p->ctx, &load)) < 0)
        failed(fp, p, "load average", sts);
    else
        fprintf(fp, "load.avg1 %" PRIu32 "\nload.avg5 %" PRIu32 "\nload.avg15 %" PRIu32 "\nload.fscale %" PRIu64 "\n",
                load.ldavg[0], load.ldavg[1], load.ldavg[2], load.fscale);
    write_cpus(fp, p);
    write_kernel(fp, p);
    write_interfaces(fp, p);
    write_protocols(fp, p);
    return ferror(fp) ? -EIO : 0;
}
