/*
 * The snapshot platform source: answers every platform call from a snapshot
 * file at the replay position that the elapsed time selects.
 */
#include "platform.h"
#include "snapshot_store.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Every key the format knows (docs/snapshot-format.md lists them with their meaning). */
static const struct snap_field schema[] = {
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
    { "swap", "total", 0, SNAP_GAUGE64 },
    { "swap", "avail", 0, SNAP_GAUGE64 },
    { "swap", "used", 0, SNAP_GAUGE64 },
    { "compressor", "swapouts_under_30s", 0, SNAP_COUNTER64 },
    { "compressor", "swapouts_under_60s", 0, SNAP_COUNTER64 },
    { "compressor", "swapouts_under_300s", 0, SNAP_COUNTER64 },
    { "compressor", "thrashing_detected", 0, SNAP_COUNTER64 },
    { "compressor", "major_compactions", 0, SNAP_COUNTER64 },
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
    { "cpu", "perflevel", 1, SNAP_INT },
    { "perflevel", "name", 1, SNAP_TEXT },
    { "clock", "boot", 0, SNAP_TIME },
    { NULL, NULL, 0, 0 }
};

static const char *const compressor_keys[PLAT_COMP_NSTATS] = {
    [PLAT_COMP_SWAPOUTS_UNDER_30S] = "compressor.swapouts_under_30s",
    [PLAT_COMP_SWAPOUTS_UNDER_60S] = "compressor.swapouts_under_60s",
    [PLAT_COMP_SWAPOUTS_UNDER_300S] = "compressor.swapouts_under_300s",
    [PLAT_COMP_THRASHING_DETECTED] = "compressor.thrashing_detected",
    [PLAT_COMP_MAJOR_COMPACTIONS] = "compressor.major_compactions",
    [PLAT_COMP_LZ4_COMPRESSIONS] = "compressor.lz4_compressions",
};

struct snapshot_source {
    struct snap *snap;
    uint64_t (*now_usec)(void);
    int started;
    uint64_t start_usec;
    struct plat_cpu *cpus;
    unsigned int cpus_cap;
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

/* Reads "<prefix>user" etc., where prefix is "cpu." or "cpu[name]." */
static int
read_ticks(struct snap *s, const char *prefix, struct plat_cpu_ticks *t)
{
    static const char *const states[] = { "user", "sys", "idle", "nice" };
    uint32_t *fields[] = { &t->user, &t->sys, &t->idle, &t->nice };
    char key[PLAT_NAME_MAX + 32];
    int sts = 0;

    for (int i = 0; i < 4 && sts == 0; i++) {
        snprintf(key, sizeof(key), "%s%s", prefix, states[i]);
        sts = read_u32(s, key, fields[i]);
    }
    return sts;
}

static int
snapshot_cpu_total(void *ctx, struct plat_cpu_ticks *out)
{
    return read_ticks(at_now(ctx), "cpu.", out);
}

/* The level of a CPU and its name are optional: a recording from a machine
 * that reports no performance levels simply has neither. */
static int
read_perflevel(struct snap *s, const char *cpu, struct plat_cpu *out)
{
    char key[PLAT_NAME_MAX + 32];
    const char *name;
    int32_t level;
    int sts;

    out->perflevel = PLAT_PERFLEVEL_UNKNOWN;
    out->perflevel_name[0] = '\0';
    snprintf(key, sizeof(key), "cpu[%s].perflevel", cpu);
    if ((sts = snap_int(s, key, &level)) == -ENOENT)
        return 0;
    if (sts < 0)
        return sts;
    out->perflevel = level;
    snprintf(key, sizeof(key), "perflevel[%d].name", (int)level);
    if ((sts = snap_text(s, key, &name)) == 0)
        snprintf(out->perflevel_name, sizeof(out->perflevel_name), "%s", name);
    return sts == -ENOENT ? 0 : sts;
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

        if (n == src->cpus_cap) {
            unsigned int cap = src->cpus_cap ? src->cpus_cap * 2 : 16;
            struct plat_cpu *grown = realloc(src->cpus, cap * sizeof(*grown));

            if (grown == NULL)
                return -ENOMEM;
            src->cpus = grown;
            src->cpus_cap = cap;
        }
        cpu = &src->cpus[n];
        snprintf(cpu->name, sizeof(cpu->name), "%s", name);
        snprintf(prefix, sizeof(prefix), "cpu[%s].", name);
        if ((sts = read_ticks(s, prefix, &cpu->ticks)) < 0 || (sts = read_perflevel(s, name, cpu)) < 0)
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
    free(src->cpus);
    free(src);
}

int
platform_snapshot_open(struct platform *out, const char *path, char *msg, unsigned int msglen)
{
    struct snapshot_source *src = calloc(1, sizeof(*src));

    if (src == NULL) {
        snprintf(msg, msglen, "out of memory");
        return -ENOMEM;
    }
    if ((src->snap = snap_open(path, schema, msg, msglen)) == NULL) {
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
