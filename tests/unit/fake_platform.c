#include "fake_platform.h"

#include <stdio.h>
#include <string.h>

#define FAKE(f) ((struct fake_platform *)(f))

static int fake_host(void *c, struct plat_host *o) { FAKE(c)->calls.host++; *o = FAKE(c)->host; return FAKE(c)->host_sts; }
static int fake_memory(void *c, struct plat_memory *o) { FAKE(c)->calls.memory++; *o = FAKE(c)->memory; return FAKE(c)->memory_sts; }
static int fake_uname(void *c, struct plat_uname *o) { FAKE(c)->calls.uname++; *o = FAKE(c)->uname; return FAKE(c)->uname_sts; }
static int fake_loadavg(void *c, struct plat_loadavg *o) { FAKE(c)->calls.loadavg++; *o = FAKE(c)->load; return FAKE(c)->load_sts; }
static int fake_cpu_total(void *c, struct plat_cpu_ticks *o) { FAKE(c)->calls.cpu_total++; *o = FAKE(c)->total; return FAKE(c)->total_sts; }
static int fake_clock(void *c, struct plat_clock *o) { FAKE(c)->calls.clock++; *o = FAKE(c)->clock; return FAKE(c)->clock_sts; }

static int
fake_cpus(void *c, struct plat_cpu_set *o)
{
    FAKE(c)->calls.cpus++;
    o->ncpu = FAKE(c)->ncpu;
    o->cpu = FAKE(c)->cpu;
    return FAKE(c)->cpus_sts;
}

static const char *fake_error(void *c) { (void)c; return "injected failure"; }
static const char *fake_notes(void *c) { (void)c; return ""; }
static void fake_close(void *c) { (void)c; }

void
fake_platform_cpu(struct fake_platform *f, unsigned int i, const char *name, int level)
{
    struct plat_cpu *cpu = &f->cpu[i];

    memset(cpu, 0, sizeof(*cpu));
    snprintf(cpu->name, sizeof(cpu->name), "%s", name);
    cpu->perflevel = level < 0 ? PLAT_PERFLEVEL_UNKNOWN : level;
    if (level >= 0)
        snprintf(cpu->perflevel_name, sizeof(cpu->perflevel_name), "%s", level == 0 ? "Performance" : "Efficiency");
}

void
fake_platform_init(struct fake_platform *f)
{
    memset(f, 0, sizeof(*f));
    f->p = (struct platform){
        .name = "fake", .ctx = f, .host = fake_host, .memory = fake_memory, .uname = fake_uname,
        .loadavg = fake_loadavg, .cpu_total = fake_cpu_total, .cpus = fake_cpus, .clock = fake_clock,
        .error = fake_error, .notes = fake_notes, .close = fake_close,
    };
    f->host = (struct plat_host){ .page_size = 16384, .clock_hz = 100, .memsize = 16ULL << 30 };
    snprintf(f->host.model, sizeof(f->host.model), "Mac14,2");
    f->memory.vm.free_count = 1000;
    f->memory.vm.active_count = 2000;
    f->memory.vm.inactive_count = 3000;
    f->memory.vm.wire_count = 400;
    f->memory.vm.compressor_page_count = 50;
    f->memory.swap = (struct plat_swap){ .total = 2ULL << 30, .used = 1ULL << 29, .avail = 3ULL << 29 };
    snprintf(f->uname.sysname, sizeof(f->uname.sysname), "Darwin");
    snprintf(f->uname.nodename, sizeof(f->uname.nodename), "test.local");
    snprintf(f->uname.release, sizeof(f->uname.release), "23.5.0");
    snprintf(f->uname.version, sizeof(f->uname.version), "Darwin Kernel Version 23.5.0");
    snprintf(f->uname.machine, sizeof(f->uname.machine), "arm64");
    snprintf(f->uname.product_version, sizeof(f->uname.product_version), "14.5");
    f->load = (struct plat_loadavg){ .ldavg = { 5120, 4096, 2048 }, .fscale = 2048 };
    f->total = (struct plat_cpu_ticks){ .user = 12345, .sys = 2000, .idle = 90000, .nice = 7 };
    f->ncpu = 4;
    fake_platform_cpu(f, 0, "cpu0", 1);
    fake_platform_cpu(f, 1, "cpu1", 1);
    fake_platform_cpu(f, 2, "cpu2", 0);
    fake_platform_cpu(f, 3, "cpu3", 0);
    f->clock = (struct plat_clock){ .boot_sec = 1000, .now_sec = 4600 };
}
