/*
 * Mach: port names with user references, the host's statistics and the
 * memory the kernel hands out.
 *  - mach_host_self() and processor_set_default() each give the caller one
 *    more send right reference, returned with mach_port_deallocate
 *    (xnu-11417.101.15 osfmk/kern/ipc_host.c host_self_trap, MIG copyout);
 *    mach_task_self() reads a cached name and adds none (mach_init.h).
 *    IOKit objects are port names too: IOObjectRelease is
 *    mach_port_deallocate (IOKitUser-100222.0.4 IOKitLib.c), so this
 *    table holds them; a name used after its last reference is a bug.
 *  - The CPUs' ticks and the VM statistics host_stats.c answers with,
 *    growing with virtual time at the rates a test sets.
 *  - host_processor_info() returns an array the kernel allocated in the
 *    caller's address space, count integer_t's long, which the caller
 *    frees with vm_deallocate (osfmk/kern/host.c host_processor_info).
 */
#include "double.h"
#include "dbl_mach.h"

#include <IOKit/IOKitLib.h>
#include <mach/mach.h>
#include <mach/mach_time.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PORTS 65536
#define PORT_BASE 0x1003u           /* port names are never 0 (MACH_PORT_NULL) */

static struct port {
    enum dbl_port_kind kind;        /* 0: free */
    long refs;
    void *payload;
} ports[MAX_PORTS];

mach_port_t mach_task_self_ = 0x203;    /* the name mach_task_self() reads */

static struct {
    unsigned int ncpu;
    uint32_t ticks[DBL_MAX_CPUS][CPU_STATE_MAX];    /* at virtual time 0 */
    uint32_t tick_rate[DBL_MAX_CPUS][CPU_STATE_MAX];    /* per virtual second */
    int vm_rev0;                    /* the kernel knows only revision 0 */
    uint64_t vm_seed;
    uint64_t vm_rate;               /* each field's growth per virtual second */
    uint32_t page_size;
    uint32_t numer, denom;
    int32_t tasks, threads;
    void *region;                   /* host_processor_info's array, until vm_deallocate */
    size_t region_size;
    long regions;
} mach;

void
dbl_mach_reset(void)
{
    memset(ports, 0, sizeof(ports));
    free(mach.region);
    memset(&mach, 0, sizeof(mach));
    mach.page_size = 16384;
    mach.numer = 125;
    mach.denom = 3;
}

void
dbl_mach_held(struct dbl_held *h)
{
    for (unsigned int i = 0; i < MAX_PORTS; i++)
        if (ports[i].kind != DBL_PORT_FREE)
            h->ports += ports[i].refs;
    h->vm = mach.regions;
}

/* What rate per second adds up to by virtual time ns. */
static uint64_t
elapsed(uint64_t rate, uint64_t ns)
{
    return rate * (ns / 1000000000u) + rate * (ns % 1000000000u) / 1000000000u;
}

/* A processor's ticks in one state at virtual time ns: a 32-bit count that
 * wraps (osfmk/kern/processor.c:742-746 truncates to uint32_t). */
static uint32_t
cpu_ticks_at(unsigned int cpu, int state, uint64_t ns)
{
    return mach.ticks[cpu][state] + (uint32_t)elapsed(mach.tick_rate[cpu][state], ns);
}

/* Names are handed out in turn, so that a released one is not soon
 * reused and a use after release is seen as one. */
mach_port_t
dbl_port_new(enum dbl_port_kind kind, void *payload)
{
    static unsigned int next;

    for (unsigned int tried = 0; tried < MAX_PORTS; tried++, next = (next + 1) % MAX_PORTS)
        if (ports[next].kind == DBL_PORT_FREE) {
            mach_port_t name = PORT_BASE + next;

            ports[next] = (struct port){ kind, 1, payload };
            next = (next + 1) % MAX_PORTS;      /* after the last name, the first again */
            return name;
        }
    dbl_violation("more than %d port names held", MAX_PORTS);
}

/* The port's payload when it names a live port of that kind, else NULL
 * (the caller returns the error Apple's call does). */
void *
dbl_port_get(mach_port_t name, enum dbl_port_kind kind, const char *caller)
{
    struct port *p;

    if (name < PORT_BASE || name - PORT_BASE >= MAX_PORTS)
        return NULL;
    p = &ports[name - PORT_BASE];
    if (p->kind == DBL_PORT_FREE && p->refs == 0 && p->payload != NULL)
        dbl_violation("%s: port name %#x used after its last reference was released", caller, name);
    return p->kind == kind ? p->payload : NULL;
}

kern_return_t
mach_port_deallocate(ipc_space_t task, mach_port_name_t name)
{
    struct port *p;

    if (task != mach_task_self_)
        dbl_violation("mach_port_deallocate in task %#x, not this task", task);
    if (name == MACH_PORT_NULL)
        return KERN_INVALID_NAME;       /* osfmk/ipc/mach_port.c: no right to drop */
    if (name < PORT_BASE || name - PORT_BASE >= MAX_PORTS || ports[name - PORT_BASE].kind == DBL_PORT_FREE)
        dbl_violation("mach_port_deallocate(%#x): no such right (released twice?)", name);
    p = &ports[name - PORT_BASE];
    if (--p->refs == 0) {
        enum dbl_port_kind kind = p->kind;

        p->kind = DBL_PORT_FREE;
        if (dbl_port_freed != NULL)
            dbl_port_freed(kind, p->payload);
    }
    return KERN_SUCCESS;
}

void (*dbl_port_freed)(enum dbl_port_kind kind, void *payload);

long
dbl_ports_of(int kind)
{
    long held = 0;

    for (unsigned int i = 0; i < MAX_PORTS; i++)
        if ((int)ports[i].kind == kind)
            held += ports[i].refs;
    return held;
}

mach_port_t
mach_host_self(void)
{
    static int host;                /* any payload: the host has one port */

    for (unsigned int i = 0; i < MAX_PORTS; i++)
        if (ports[i].kind == DBL_PORT_HOST) {
            ports[i].refs++;
            return PORT_BASE + i;
        }
    return dbl_port_new(DBL_PORT_HOST, &host);
}

kern_return_t
processor_set_default(host_t host, processor_set_name_t *pset)
{
    static int default_set;
    int err;

    if (dbl_port_get(host, DBL_PORT_HOST, "processor_set_default") == NULL)
        return KERN_INVALID_ARGUMENT;
    if ((err = dbl_failing("processor_set_default")) != 0)
        return err;
    *pset = dbl_port_new(DBL_PORT_PSET, &default_set);
    return KERN_SUCCESS;
}

kern_return_t
processor_set_statistics(processor_set_name_t pset, processor_set_flavor_t flavor, processor_set_info_t info,
                         mach_msg_type_number_t *count)
{
    struct processor_set_load_info *load = (struct processor_set_load_info *)info;
    int err;

    if (dbl_port_get(pset, DBL_PORT_PSET, "processor_set_statistics") == NULL)
        return KERN_INVALID_ARGUMENT;
    if (flavor != PROCESSOR_SET_LOAD_INFO || *count < PROCESSOR_SET_LOAD_INFO_COUNT)
        return KERN_FAILURE;            /* osfmk/kern/processor.c processor_set_statistics */
    if ((err = dbl_failing("processor_set_statistics")) != 0)
        return err;
    memset(load, 0, sizeof(*load));
    load->task_count = mach.tasks;
    load->thread_count = mach.threads;
    *count = PROCESSOR_SET_LOAD_INFO_COUNT;
    return KERN_SUCCESS;
}

/* Each field of vm_statistics64 gets a value of its own (seed plus its
 * offset), so that a test can tell a field read from the wrong place; every
 * field grows by the rate a test set, so that a copy made earlier is older. */
uint64_t
dbl_vm_value_at(size_t offset, uint64_t ns)
{
    return mach.vm_seed + offset + elapsed(mach.vm_rate, ns);
}

uint64_t
dbl_vm_value(size_t offset)
{
    return dbl_vm_value_at(offset, dbl_clock_ns());
}

/* HOST_CPU_LOAD_INFO as the kernel adds it up at virtual time ns: each
 * processor's ticks into 32-bit sums (xnu-11417.101.15 osfmk/kern/host.c:504-519
 * with processor.c:735-747, the per-processor ticks host_processor_info gives). */
void
dbl_mach_cpu_load_at(uint64_t ns, natural_t ticks[CPU_STATE_MAX])
{
    memset(ticks, 0, CPU_STATE_MAX * sizeof(ticks[0]));
    for (unsigned int c = 0; c < mach.ncpu; c++)
        for (int s = 0; s < CPU_STATE_MAX; s++)
            ticks[s] += cpu_ticks_at(c, s, ns);
}

kern_return_t
host_page_size(host_t host, vm_size_t *size)
{
    int err;

    if (dbl_port_get(host, DBL_PORT_HOST, "host_page_size") == NULL)
        return KERN_INVALID_ARGUMENT;
    if ((err = dbl_failing("host_page_size")) != 0)
        return err;
    *size = mach.page_size;
    return KERN_SUCCESS;
}

kern_return_t
host_processor_info(host_t host, processor_flavor_t flavor, natural_t *ncpu, processor_info_array_t *info,
                    mach_msg_type_number_t *count)
{
    processor_cpu_load_info_t load;
    int err;

    if (dbl_port_get(host, DBL_PORT_HOST, "host_processor_info") == NULL)
        return KERN_INVALID_ARGUMENT;
    if (flavor != PROCESSOR_CPU_LOAD_INFO)
        dbl_violation("host_processor_info flavor %d: not one the live code uses", flavor);
    if ((err = dbl_failing("host_processor_info")) != 0)
        return err;
    if (mach.region != NULL)
        dbl_violation("host_processor_info: the previous array was never vm_deallocate'd");
    mach.region_size = mach.ncpu * sizeof(*load);
    if ((load = calloc(1, mach.region_size ? mach.region_size : 1)) == NULL)
        dbl_violation("out of memory");
    for (unsigned int c = 0; c < mach.ncpu; c++)
        for (int s = 0; s < CPU_STATE_MAX; s++)
            load[c].cpu_ticks[s] = cpu_ticks_at(c, s, dbl_clock_ns());
    mach.region = load;
    mach.regions++;
    *ncpu = mach.ncpu;
    *info = (processor_info_array_t)load;
    *count = mach.ncpu * PROCESSOR_CPU_LOAD_INFO_COUNT;
    return KERN_SUCCESS;
}

/* The region must be the one given out, whole (rounded to pages by the
 * kernel, so a size that covers it frees it all). */
kern_return_t
vm_deallocate(vm_map_t task, vm_address_t address, vm_size_t size)
{
    if (task != mach_task_self_)
        dbl_violation("vm_deallocate in task %#x, not this task", task);
    if (mach.region == NULL || address != (vm_address_t)mach.region)
        dbl_violation("vm_deallocate(%#lx): not a region the kernel gave out", (unsigned long)address);
    if (size < mach.region_size)
        dbl_violation("vm_deallocate of %lu bytes of a region of %zu: the rest stays mapped", (unsigned long)size,
                      mach.region_size);
    free(mach.region);
    mach.region = NULL;
    mach.regions--;
    return KERN_SUCCESS;
}

kern_return_t
mach_timebase_info(mach_timebase_info_t info)
{
    int err;

    if ((err = dbl_failing("mach_timebase_info")) != 0)
        return err;
    info->numer = mach.numer;
    info->denom = mach.denom;
    return KERN_SUCCESS;
}

/* Virtual time ns in ticks of the timebase mach_timebase_info gives
 * (numer/denom ns each). */
uint64_t
dbl_mach_abs(uint64_t ns)
{
    if (mach.numer == 0)
        dbl_violation("mach_absolute_time with no timebase set (dbl_mach_timebase)");
    return ns * mach.denom / mach.numer;
}

uint64_t
mach_absolute_time(void)
{
    return dbl_mach_abs(dbl_clock_ns());
}

/* The same clock counting sleep too: sleep is not modelled. */
uint64_t
mach_continuous_time(void)
{
    return mach_absolute_time();
}

/* Darwin's texts for the codes the live code can see (mach/kern_return.h,
 * IOKit's iokit/IOKit/IOReturn.h); mach_error_string never fails. */
char *
mach_error_string(mach_error_t code)
{
    switch (code) {
    case KERN_SUCCESS: return "(os/kern) successful";
    case KERN_INVALID_ARGUMENT: return "(os/kern) invalid argument";
    case KERN_FAILURE: return "(os/kern) failure";
    case KERN_INVALID_HOST: return "(os/kern) invalid host";
    case KERN_RESOURCE_SHORTAGE: return "(os/kern) resource shortage";
    case KERN_INVALID_NAME: return "(os/kern) invalid name";
    /* xnu-11417.101.15 libsyscall/mach/err_iokit.sub:50, :70, :83 */
    case kIOReturnNotPrivileged: return "(iokit/common) privilege violation";
    case kIOReturnBusy: return "(iokit/common) Device Busy";
    case kIOReturnNotPermitted: return "(iokit/common) not permitted";
    default: return "unknown error code";
    }
}

void
dbl_mach_cpus(unsigned int ncpu, const uint32_t *ticks)
{
    if (ncpu > DBL_MAX_CPUS)
        dbl_violation("more than %d CPUs", DBL_MAX_CPUS);
    mach.ncpu = ncpu;
    for (unsigned int c = 0; c < ncpu; c++)
        for (int s = 0; s < CPU_STATE_MAX; s++)
            mach.ticks[c][s] = ticks[c * CPU_STATE_MAX + s];
}

void
dbl_mach_tick_rate(const uint32_t *per_second)
{
    for (unsigned int c = 0; c < mach.ncpu; c++)
        for (int s = 0; s < CPU_STATE_MAX; s++)
            mach.tick_rate[c][s] = per_second[c * CPU_STATE_MAX + s];
}

/* How many integers of vm_statistics64 the kernel fills for revision 1's
 * count: revision 0's on a kernel that knows only that. */
mach_msg_type_number_t
dbl_mach_vm_filled(void)
{
    return mach.vm_rev0 ? HOST_VM_INFO64_REV0_COUNT : HOST_VM_INFO64_REV1_COUNT;
}

void dbl_mach_vm_rate(uint64_t per_second) { mach.vm_rate = per_second; }
void dbl_mach_vm(uint64_t seed, int rev0) { mach.vm_seed = seed; mach.vm_rev0 = rev0; }
void dbl_mach_page_size(uint32_t size) { mach.page_size = size; }
void dbl_mach_load(int32_t tasks, int32_t threads) { mach.tasks = tasks; mach.threads = threads; }
void dbl_mach_timebase(uint32_t numer, uint32_t denom) { mach.numer = numer; mach.denom = denom; }
