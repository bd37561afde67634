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
        "thrashing_detected", "major_compactions", "lz4_compressions",
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
    uint64_t named = 0;         /* levels whose name this sample already has */
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
        if (cpu->perflevel != PLAT_PERFLEVEL_UNKNOWN) {
            fprintf(fp, "%sperflevel %d\n", prefix, cpu->perflevel);
            if (cpu->perflevel_name[0] != '\0' && cpu->perflevel >= 0 && cpu->perflevel < 64 &&
                !(named & (UINT64_C(1) << cpu->perflevel))) {
                named |= UINT64_C(1) << cpu->perflevel;
                fprintf(fp, "perflevel[%d].name %s\n", cpu->perflevel, cpu->perflevel_name);
            }
        }
    }
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
    return ferror(fp) ? -EIO : 0;
}
