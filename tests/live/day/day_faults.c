#include "day_faults.h"
#include "day_machine.h"
#include "day_silicon.h"
#include "harness.h"            /* Darwin's kern_return_t and SMC results; errno 1 to 34 are Linux's */

#include <errno.h>

/* The live source's stated retry interval for a failing private source
 * (HID, the SMC, an IOReport subscription; platform.h), in seconds: its
 * longest wait. */
#define RETRY_S ((unsigned int)(PLAT_RETRY_CAP_NS / SECOND_NS))

/* dbl_fail with error 0 at the next call: the function answers again. */
#define CLEARS(fn) static void clear_##fn(void) { dbl_fail(#fn, 1, 0); }
#define FAILS(fn, err) static void fail_##fn(void) { dbl_fail(#fn, 0, err); }
#define CALL_FAULT(fn, err) FAILS(fn, err) CLEARS(fn)

CALL_FAULT(host_statistics64, D_KERN_FAILURE)
CALL_FAULT(host_statistics, D_KERN_FAILURE)
CALL_FAULT(host_processor_info, D_KERN_FAILURE)
CALL_FAULT(sysctl, EIO)
CALL_FAULT(sysctlbyname, EIO)
CALL_FAULT(getfsstat, EIO)
CALL_FAULT(IOReportCreateSamples, 1)
CALL_FAULT(IOHIDEventSystemClientCopyServices, 1)
CALL_FAULT(IOHIDEventSystemClientCreate, 1)
CALL_FAULT(processor_set_statistics, D_KERN_FAILURE)
CALL_FAULT(gettimeofday, EIO)

static void hid_restart(void) { dbl_hid_restart(); }
static void hid_silent(void) { dbl_hid_no_reading(machine_hid_sensor()); }
static void hid_speaks(void) { machine_hid_reading(); }
static void loadavg_gone(void) { dbl_sysctl_error("vm.loadavg", EIO); }
static void sysctls_back(void) { machine_sysctls(); }
static void fan_refused(void) { dbl_smc_fail("F0Ac", 0, SMC_NOT_READABLE); }
static void fan_read(void) { dbl_smc_fail("F0Ac", 1, 0); }
/* The Mac sleeps for a minute and wakes: the SMC is busy meanwhile. */
#define SLEEP_S 60
static void mac_sleeps(void) { dbl_smc_sleep_wake(SLEEP_S * SECOND_NS); }
static void interfaces_arrive(void) { dbl_netif_arriving(10, 3); }
static void volume_mounted(void) { machine_mount_volume(); }

#define CALL(fn) { #fn " fails", fail_##fn, clear_##fn, 0, NULL }
#define CALL_RETRY(fn, retry) { #fn " fails", fail_##fn, clear_##fn, retry, NULL }

/* A provider of each IOReport group registers again (a new entry ID). */
#define PROVIDER_FAULT(group, channel)                                                                         \
    static void group##_gone(void) { dbl_ioreport_provider_gone(channel()); }                                \
    static void group##_back(void) { dbl_ioreport_provider_back(channel()); }
PROVIDER_FAULT(energy, machine_energy_channel)
PROVIDER_FAULT(cpu_stats, silicon_cpu_channel)
PROVIDER_FAULT(gpu_stats, silicon_gpu_channel)
static void gpu_state_invalid(void) { silicon_gpu_invalid(1); }
static void gpu_state_valid(void) { silicon_gpu_invalid(0); }
/* A Stats-like poller of both host_statistics flavors, 20 calls a second,
 * its answers landing in the cache 50 ms after it took them. */
static void stats_polls(void) { dbl_host_poller(20, 50000000ull); }
static void stats_quits(void) { dbl_host_poller(0, 0); }

const struct day_fault day_faults[] = {
    CALL(host_statistics64),
    CALL(host_statistics),
    CALL(host_processor_info),
    CALL(sysctl),
    CALL(sysctlbyname),
    CALL(getfsstat),
    CALL_RETRY(IOReportCreateSamples, RETRY_S),
    CALL_RETRY(IOHIDEventSystemClientCopyServices, RETRY_S),
    CALL_RETRY(IOHIDEventSystemClientCreate, RETRY_S),
    { "the Energy Model's provider registers again", energy_gone, energy_back, RETRY_S, NULL },
    { "CPU Stats' provider registers again", cpu_stats_gone, cpu_stats_back, RETRY_S, NULL },
    { "GPU Stats' provider registers again", gpu_stats_gone, gpu_stats_back, RETRY_S, NULL },
    { "a GPU state reports kIOReportInvalidValue", gpu_state_invalid, gpu_state_valid, 0, NULL },
    { "Stats polls host_statistics", stats_polls, stats_quits, 0, NULL },
    CALL(processor_set_statistics),
    CALL(gettimeofday),
    { "hidd restarts", hid_restart, NULL, RETRY_S, NULL },
    { "a HID sensor gives no reading", hid_silent, hid_speaks, RETRY_S, NULL },
    { "vm.loadavg fails", loadavg_gone, sysctls_back, 0, NULL },
    { "the SMC refuses the fan's speed", fan_refused, fan_read, 0, NULL },
    { "the Mac sleeps and wakes", mac_sleeps, NULL, SLEEP_S + RETRY_S, NULL },
    { "interfaces arrive during a read", interfaces_arrive, NULL, 0, NULL },
    { "a volume is mounted", volume_mounted, NULL, 0, NULL },
};
const unsigned int day_nfaults = sizeof(day_faults) / sizeof(day_faults[0]);

/* splitmix64: small, and the same sequence from the same seed everywhere. */
static uint64_t
next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A fault lasts up to LONGEST seconds; the machine is quiet up to QUIET
 * seconds before the next, long enough for every value to come back. */
#define LONGEST 600
#define QUIET 900

unsigned int
day_schedule(uint64_t seed, unsigned int rounds, struct day_event *events, unsigned int max)
{
    uint64_t state = seed;
    unsigned int n = 0, at = 1;

    for (;;) {
        const struct day_fault *f = &day_faults[next(&state) % day_nfaults];
        unsigned int start = at + 1 + (unsigned int)(next(&state) % QUIET);
        unsigned int clear = start + (f->clear ? 1 + (unsigned int)(next(&state) % LONGEST) : 0);

        if (n == max || clear + f->retry_s + 2 > rounds)
            return n;
        events[n++] = (struct day_event){ f, start, clear };
        at = clear + f->retry_s + 2;
    }
}
