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
 *  - host_statistics(HOST_CPU_LOAD_INFO) and host_statistics64
 *    (HOST_VM_INFO64) fail with KERN_FAILURE when the count is below the
 *    flavor's; HOST_VM_INFO64 fills the revision-0 fields, and the
 *    revision-1 ones only when the count has room, and says in the count
 *    which it filled; the reply copies only that many integers into the
 *    caller's buffer (osfmk/kern/host.c host_statistics, vm_stats).
 *  - host_processor_info() returns an array the kernel allocated in the
 *    caller's address space, count integer_t's long, which the caller
 *    frees with vm_deallocate (osfmk/kern/host.c host_processor_info).
 */
#include "double.h"
#include "dbl_mach.h"

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
    uint32_t ticks[DBL_MAX_CPUS][CPU_STATE_MAX];
    int vm_rev0;                    /* the kernel knows only revision 0 */
    uint64_t vm_seed;
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

kern_return_t
host_statistics(host_t host, host_flavor_t flavor, host_info_t info, mach_msg_type_number_t *count)
{
    host_cpu_load_info_t load = (host_cpu_load_info_t)info;
    int err;

    if (dbl_port_get(host, DBL_PORT_HOST, "host_statistics") == NULL)
        return KERN_INVALID_HOST;
    if (flavor != HOST_CPU_LOAD_INFO)
        dbl_violation("host_statistics flavor %d: not one the live code uses", flavor);
    if (*count < HOST_CPU_LOAD_INFO_COUNT)
        return KERN_FAILURE;
    if ((err = dbl_failing("host_statistics")) != 0)
        return err;
    memset(load->cpu_ticks, 0, sizeof(load->cpu_ticks));
    for (unsigned int c = 0; c < mach.ncpu; c++)
        for (int s = 0; s < CPU_STATE_MAX; s++)
            load->cpu_ticks[s] += mach.ticks[c][s];
    *count = HOST_CPU_LOAD_INFO_COUNT;
    return KERN_SUCCESS;
}

/* Each field of vm_statistics64 gets a value of its own (seed plus its
 * offset), so that a test can tell a field read from the wrong place. */
uint64_t
dbl_vm_value(size_t offset)
{
    return mach.vm_seed + offset;
}

kern_return_t
host_statistics64(host_t host, host_flavor_t flavor, host_info64_t info, mach_msg_type_number_t *count)
{
    vm_statistics64_data_t vs;
    mach_msg_type_number_t filled = mach.vm_rev0 ? HOST_VM_INFO64_REV0_COUNT : HOST_VM_INFO64_REV1_COUNT;
    int err;

    if (dbl_port_get(host, DBL_PORT_HOST, "host_statistics64") == NULL)
        return KERN_INVALID_HOST;
    if (flavor != HOST_VM_INFO64)
        dbl_violation("host_statistics64 flavor %d: not one the live code uses", flavor);
    if (*count < HOST_VM_INFO64_REV0_COUNT)
        return KERN_FAILURE;
    if ((err = dbl_failing("host_statistics64")) != 0)
        return err;
    if (*count < filled)
        filled = HOST_VM_INFO64_REV0_COUNT;
    dbl_vm_fill(&vs);
    memcpy(info, &vs, filled * sizeof(integer_t));      /* the reply's integers, no more */
    *count = filled;
    return KERN_SUCCESS;
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
        memcpy(load[c].cpu_ticks, mach.ticks[c], sizeof(load[c].cpu_ticks));
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

/* Ticks of the timebase mach_timebase_info gives (numer/denom ns each). */
uint64_t
mach_absolute_time(void)
{
    if (mach.numer == 0)
        dbl_violation("mach_absolute_time with no timebase set (dbl_mach_timebase)");
    return dbl_clock_ns() * mach.denom / mach.numer;
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

void dbl_mach_vm(uint64_t seed, int rev0) { mach.vm_seed = seed; mach.vm_rev0 = rev0; }
void dbl_mach_page_size(uint32_t size) { mach.page_size = size; }
void dbl_mach_load(int32_t tasks, int32_t threads) { mach.tasks = tasks; mach.threads = threads; }
void dbl_mach_timebase(uint32_t numer, uint32_t denom) { mach.numer = numer; mach.denom = denom; }
