/*
 * Synthetic, not recorded on a real Mac: the day runs without
 * /work/shared, so its Apple Silicon processor is written here, as few
 * entries as the agent's queries read (src/decode/queries.c).
 * The layouts are real ones: the device tree's CPUs as an M2 lists them
 * (tests/fixtures/ioreg/m2-cpus.txt), the pmgr's tables as dvfs_decode.h
 * reads them, IOReport's "CPU Stats" channels in "24Mticks" with states
 * DOWN, IDLE, then V0P<n-1> up to V<n-1>P0, as macmon prints them on an M4
 * Pro (real-macs ioreport/m4pro-mac16-8-macos27.0b-macmon66-cpu-residency-
 * partial.txt), and "GPU Stats" with OFF and P1..P15, as every M2-or-later
 * GPU lists them (issue 42, item 7). The clocks and voltages are made up.
 */
#include "day_silicon.h"
#include "dbl.h"
#include "platform.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define TICKS_A_SECOND 24000000ll   /* "24Mticks": the 24 MHz timebase */
#define MAX_CHANNELS (DBL_MAX_CPUS + 3)     /* every core, two clusters, the GPU */
#define MAX_CLOCKS 16                /* the GPU's 15 and its leading 0 entry */

/* The pmgr's tables (dvfs_decode.h: "-sram" for the CPU clusters, in Hz
 * up to the M3; the GPU's "voltage-states9" with its leading 0 entry). */
struct table {
    const char *key;
    unsigned int nclocks;
    uint32_t mhz[MAX_CLOCKS];
};

static const struct table e_table = { "voltage-states1-sram", 3, { 600, 1200, 1800 } };
static const struct table p_table = { "voltage-states5-sram", 4, { 1000, 2000, 3000, 3500 } };
#define GPU_CLOCKS (MAX_CLOCKS - 1)
#define GPU_LOW_MHZ 400
#define GPU_STEP_MHZ 70
#define GPU_BUSY_PERCENT 10
/* The GPU's state between P1 and the top one that it spends a quarter of
 * its active time in, and that reports kIOReportInvalidValue (INT64_MIN,
 * xnu-11417.101.15 iokit/IOKit/IOReportTypes.h:40-50: a value the
 * provider does not have) under the fault. */
#define GPU_MIDDLE_STATE 8

/* A state channel and what its residencies are. */
struct channel {
    unsigned int id;
    unsigned int nclocks;
    int gpu;
};

static struct channel channels[MAX_CHANNELS];
static unsigned int nchannels, cluster_channel, gpu_channel;
static int gpu_invalid;

static void
pmgr_table(void *props, const char *key, unsigned int nclocks, const uint32_t *mhz)
{
    unsigned char raw[8 * MAX_CLOCKS];

    for (unsigned int i = 0; i < nclocks; i++) {
        uint32_t pair[2] = { mhz[i] * 1000000u, 700 + 25 * i };     /* Hz, then mV rising with the clock */

        for (unsigned int k = 0; k < 8; k++)
            raw[8 * i + k] = (unsigned char)(pair[k / 4] >> (8 * (k % 4)));     /* little-endian */
    }
    dbl_cf_put(props, key, dbl_cf_data(raw, 8 * nclocks));
}

static void
pmgr(void)
{
    unsigned int arm_io = dbl_reg_entry(0x100000100, "arm-io", NULL, "AppleARMIODevice", NULL);
    uint32_t gpu[MAX_CLOCKS] = { 0 };
    void *props = dbl_cf_dict();

    for (unsigned int i = 1; i <= GPU_CLOCKS; i++)
        gpu[i] = GPU_LOW_MHZ + GPU_STEP_MHZ * (i - 1);
    pmgr_table(props, e_table.key, e_table.nclocks, e_table.mhz);
    pmgr_table(props, p_table.key, p_table.nclocks, p_table.mhz);
    pmgr_table(props, "voltage-states9", GPU_CLOCKS + 1, gpu);
    dbl_reg_attach(arm_io, "IODeviceTree", DBL_REG_ROOT);
    dbl_reg_attach(dbl_reg_entry(0x100000200, "pmgr", "20e000000", "AppleARMIODevice", props), "IODeviceTree",
                   arm_io);
}

/* The GPU's accelerator below its device-tree node, with the statistics
 * a real one gives (real-macs gpu/m1pro-or-max-macos12.6-stats1094.txt:
 * utilizations in %, unified memory in bytes): busy as its performance
 * states say, the tiler half of that; its model, cores and memory as
 * tests/fixtures/ioreg/m2-gpu.txt has them. Gauges: they do not move. */
static void
gpu_accelerator(void)
{
    unsigned int node = dbl_reg_entry(0x1000002a1, "gpu", NULL, "AppleARMIODevice", NULL), agx;
    void *stats = dbl_cf_dict(), *props = dbl_cf_dict();

    dbl_cf_put(stats, "Device Utilization %", dbl_cf_number(GPU_BUSY_PERCENT));
    dbl_cf_put(stats, "Renderer Utilization %", dbl_cf_number(GPU_BUSY_PERCENT));
    dbl_cf_put(stats, "Tiler Utilization %", dbl_cf_number(GPU_BUSY_PERCENT / 2));
    dbl_cf_put(stats, "In use system memory", dbl_cf_number(612368384));
    dbl_cf_put(stats, "Alloc system memory", dbl_cf_number(1489403904));
    dbl_cf_put(props, "model", dbl_cf_string("Apple M2"));
    dbl_cf_put(props, "gpu-core-count", dbl_cf_number(10));
    dbl_cf_put(props, "PerformanceStatistics", stats);
    dbl_reg_attach(node, "IOService", DBL_REG_ROOT);
    agx = dbl_reg_entry(0x1000005c3, "AGXAcceleratorG14G", NULL, "AGXAcceleratorG14G", props);
    dbl_reg_superclass(agx, "IOAccelerator");
    dbl_reg_attach(agx, "IOService", node);
}

/* /cpus and its CPUs, each with the two properties the agent reads. */
static void
cpus(unsigned int ncpu)
{
    unsigned int parent = dbl_reg_entry(0x100000110, "cpus", NULL, "IOPlatformDevice", NULL);

    dbl_reg_attach(parent, "IODeviceTree", DBL_REG_ROOT);
    for (unsigned int i = 0; i < ncpu; i++) {
        void *props = dbl_cf_dict();
        char name[16];

        snprintf(name, sizeof(name), "cpu%u", i);
        dbl_cf_put(props, "logical-cpu-id", dbl_cf_number(i));
        dbl_cf_put(props, "cluster-type", dbl_cf_data(i < ncpu / 2 ? "E" : "P", 2));
        dbl_reg_attach(dbl_reg_entry(0x100000111 + i, name, NULL, "IOPlatformDevice", props), "IODeviceTree", parent);
    }
}

/* A CPU channel: DOWN, IDLE, then its clocks named V<i>P<n-1-i>, the
 * table's index first. */
static unsigned int
cpu_channel(const char *name, const char *subgroup, unsigned int nclocks)
{
    struct channel *c = &channels[nchannels++];

    c->id = dbl_ioreport_states("CPU Stats", name, subgroup, "24Mticks");
    c->nclocks = nclocks;
    dbl_ioreport_state(c->id, "DOWN", 0);
    dbl_ioreport_state(c->id, "IDLE", 0);
    for (unsigned int i = 0; i < nclocks; i++) {
        char state[16];

        snprintf(state, sizeof(state), "V%uP%u", i, nclocks - 1 - i);
        dbl_ioreport_state(c->id, state, 0);
    }
    return c->id;
}

static void
gpu_states(void)
{
    struct channel *c = &channels[nchannels++];

    c->id = dbl_ioreport_states("GPU Stats", "GPUPH", SILICON_GPU, "24Mticks");
    c->nclocks = GPU_CLOCKS;
    c->gpu = 1;
    dbl_ioreport_state(c->id, "OFF", 0);
    for (unsigned int i = 1; i <= GPU_CLOCKS; i++) {
        char state[8];

        snprintf(state, sizeof(state), "P%u", i);
        dbl_ioreport_state(c->id, state, 0);
    }
    gpu_channel = c->id;
}

void
silicon_sysctls(unsigned int ncpu)
{
    static const struct {
        const char *name;
        uint64_t value[PLAT_PL_N];      /* no L3: the sysctls are absent */
    } levels[] = {
        { "Performance", { [PLAT_PL_L1ICACHESIZE] = 196608, 131072, 16777216 } },
        { "Efficiency", { [PLAT_PL_L1ICACHESIZE] = 131072, 65536, 4194304 } },
    };
    char name[64];

    dbl_sysctl_int("hw.nperflevels", sizeof(levels) / sizeof(levels[0]), 4);
    for (unsigned int l = 0; l < sizeof(levels) / sizeof(levels[0]); l++) {
        snprintf(name, sizeof(name), "hw.perflevel%u.name", l);
        dbl_sysctl_string(name, levels[l].name);
        for (unsigned int f = 0; f < PLAT_PL_N; f++) {
            int per_level = f == PLAT_PL_PHYSICALCPU || f == PLAT_PL_LOGICALCPU || f == PLAT_PL_CPUSPERL2;
            uint64_t value = per_level ? ncpu / 2 : levels[l].value[f];    /* a level's CPUs share its L2 */

            snprintf(name, sizeof(name), "hw.perflevel%u.%s", l, plat_perflevel_fields[f]);
            if (value != 0)
                dbl_sysctl_int(name, value, 4);
        }
    }
}

void
silicon_build(unsigned int ncpu)
{
    cpus(ncpu);
    pmgr();
    gpu_accelerator();
    dbl_ioreport_provider_next();
    cluster_channel = cpu_channel("ECPU", SILICON_CLUSTERS, e_table.nclocks);
    cpu_channel("PCPU", SILICON_CLUSTERS, p_table.nclocks);
    for (unsigned int i = 0; i < ncpu; i++) {
        char name[16];
        int efficiency = i < ncpu / 2;

        snprintf(name, sizeof(name), "%cCPU%u", efficiency ? 'E' : 'P', efficiency ? i : i - ncpu / 2);
        cpu_channel(name, SILICON_CORES, efficiency ? e_table.nclocks : p_table.nclocks);
    }
    dbl_ioreport_provider_next();
    gpu_states();
}

/* A CPU channel's residencies after `second`: busy a quarter of its
 * active time at its lowest clock and the rest at its highest, idle
 * otherwise, never down. */
static void
cpu_residencies(const struct channel *c, int64_t second, int64_t active)
{
    dbl_ioreport_residency(c->id, 1, (TICKS_A_SECOND - active) * second);
    dbl_ioreport_residency(c->id, 2, active / 4 * second);
    dbl_ioreport_residency(c->id, 1 + c->nclocks, (active - active / 4) * second);
}

/* The GPU's: off but for GPU_BUSY_PERCENT, half of that in P1 and a
 * quarter each in GPU_MIDDLE_STATE and the top state. */
static void
gpu_residencies(const struct channel *c, int64_t second)
{
    int64_t active = TICKS_A_SECOND * GPU_BUSY_PERCENT / 100;

    dbl_ioreport_residency(c->id, 0, (TICKS_A_SECOND - active) * second);
    dbl_ioreport_residency(c->id, 1, active / 2 * second);
    dbl_ioreport_residency(c->id, GPU_MIDDLE_STATE, gpu_invalid ? INT64_MIN : active / 4 * second);
    dbl_ioreport_residency(c->id, GPU_CLOCKS, (active - active / 2 - active / 4) * second);
}

void
silicon_tick(unsigned int second, unsigned int busy_ticks, unsigned int hz)
{
    int64_t active = TICKS_A_SECOND * busy_ticks / hz;

    for (unsigned int i = 0; i < nchannels; i++)
        if (channels[i].gpu)
            gpu_residencies(&channels[i], second);
        else
            cpu_residencies(&channels[i], second, active);
}

unsigned int
silicon_cpu_channel(void)
{
    return cluster_channel;
}

unsigned int
silicon_gpu_channel(void)
{
    return gpu_channel;
}

void
silicon_gpu_invalid(int invalid)
{
    gpu_invalid = invalid;
}
