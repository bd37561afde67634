/*
 * The memory collector, from host_statistics64(HOST_VM_INFO64), vm.swapusage
 * and the compressor sysctls: physical memory, paging, swap and the
 * compressor (cluster 1); the rest of what vm_stat prints, derived figures
 * with stated definitions (src/collectors/common/vm_derived.h), and the file cache and swap
 * under the names that pcp-htop, pmstat and pcp free read (cluster 101).
 */
#include "collector.h"
#include "metric_ids.h"
#include "collectors.h"
#include "metric_units.h"
#include "convert.h"
#include "hinv.h"
#include "vm_derived.h"

#include <string.h>

enum {
    ITEM_HINV_PHYSMEM = 2, ITEM_PHYSMEM = 3, ITEM_FREEMEM = 4, ITEM_ACTIVE = 5, ITEM_INACTIVE = 6,
    ITEM_PAGES_FREE = 7, ITEM_PAGES_ACTIVE = 8, ITEM_PAGES_INACTIVE = 9, ITEM_PAGES_REACTIVATED = 10,
    ITEM_PAGES_WIRED = 11, ITEM_PAGES_FAULTS = 12, ITEM_PAGES_COW_FAULTS = 13, ITEM_PAGES_ZERO_FILLED = 14,
    ITEM_PAGEINS = 15, ITEM_PAGEOUTS = 16,
    ITEM_UTIL_WIRED = 19, ITEM_UTIL_ACTIVE = 20, ITEM_UTIL_INACTIVE = 21, ITEM_UTIL_FREE = 22,
    ITEM_UTIL_USED = 23, ITEM_SWAP_LENGTH = 24, ITEM_SWAP_USED = 25, ITEM_SWAP_FREE = 26,
    ITEM_SWAP_PAGESIN = 27, ITEM_SWAP_PAGESOUT = 28,
    ITEM_UTIL_COMPRESSED = 130, ITEM_COMPRESSIONS = 131, ITEM_DECOMPRESSIONS = 132,
    ITEM_COMPRESSOR_PAGES = 133, ITEM_COMPRESSOR_UNCOMPRESSED = 134,
    ITEM_SWAPOUTS_UNDER_30S = 135, ITEM_SWAPOUTS_UNDER_60S = 136, ITEM_SWAPOUTS_UNDER_300S = 137,
    ITEM_THRASHING_DETECTED = 138, ITEM_MAJOR_COMPACTIONS = 139, ITEM_LZ4_COMPRESSIONS = 140
};
/* cluster 101 */
enum {
    ITEM_PAGES_SPECULATIVE = 0, ITEM_PAGES_THROTTLED, ITEM_PAGES_PURGEABLE, ITEM_PAGES_FILE_BACKED,
    ITEM_PAGES_ANONYMOUS, ITEM_PURGES,
    ITEM_UTIL_SPECULATIVE = 10, ITEM_UTIL_PURGEABLE, ITEM_UTIL_FILE_BACKED, ITEM_UTIL_ANONYMOUS,
    ITEM_UTIL_APP, ITEM_UTIL_MEMORY_USED, ITEM_UTIL_AVAILABLE, ITEM_COMPRESSION_RATIO,
    ITEM_UTIL_CACHED, ITEM_UTIL_SWAP_TOTAL, ITEM_UTIL_SWAP_FREE, ITEM_UTIL_SHMEM, ITEM_UTIL_BUFMEM,
    ITEM_UTIL_SLAB_RECLAIMABLE, ITEM_UTIL_HIGH_TOTAL, ITEM_UTIL_HIGH_FREE, ITEM_UTIL_LOW_TOTAL, ITEM_UTIL_LOW_FREE,
    ITEM_UTIL_EXTERNAL
};

/* What the collector serves: the platform's figures and the host facts
 * (hinv's) they are converted with, as of the last refresh. */
struct memory_state {
    struct plat_memory mem;
    uint64_t page_size, memsize;
    int memsize_status;
    int pages_status;               /* why there is no count of pages in KB this round (vm_status's error,
                                     * then the page size's), or 0 */
    unsigned int logged_failures;
};

/* A row, and after its units the field it serves or the function that derives it. */
#define MEMORY(name, item, type, sem, ...) { name, CLUSTER_MEMORY, item, type, COLLECTOR_NO_INDOM, sem, __VA_ARGS__ }
#define VMSTAT(name, item, type, sem, ...) { name, CLUSTER_VMSTAT, item, type, COLLECTOR_NO_INDOM, sem, __VA_ARGS__ }
#define VM(member, kind) FIELD_OF(struct memory_state, mem.vm.member, mem.vm_status, kind)
#define PAGES(member) \
    FIELD_SCALED_OF(struct memory_state, mem.vm.member, offsetof(struct memory_state, pages_status), page_size)
#define SWAP(member) FIELD_OF(struct memory_state, mem.swap.member, mem.swap_status, FIELD_BYTES_KB)
#define COMPRESSOR(which) \
    FIELD_OF(struct memory_state, mem.compressor[which], mem.compressor_status[which], FIELD_PLAIN)
#define MEMSIZE FIELD_OF(struct memory_state, memsize, memsize_status, FIELD_BYTES_KB)

/* The rows macOS gives no field for, each computed from the state. */

/* hinv.physmem, in MB as upstream gives it. */
static int
physmem_mb(const void *state, const void *entry, const struct metric_row *row, unsigned int inst,
           pmAtomValue *atom)
{
    const struct memory_state *s = state;

    (void)entry;
    (void)row;
    (void)inst;
    if (s->memsize_status < 0)
        return s->memsize_status;
    atom->ul = (uint32_t)(s->memsize >> 20);
    return PMDA_FETCH_STATIC;
}

/* A 64-bit kernel maps all memory: none is high. */
static int
no_high_memory(const void *state, const void *entry, const struct metric_row *row, unsigned int inst,
               pmAtomValue *atom)
{
    (void)entry;
    (void)state;
    (void)row;
    (void)inst;
    atom->ull = 0;
    return PMDA_FETCH_STATIC;
}

/* A count of pages in KB, or why there is none. */
static int
pages_kb(const struct memory_state *s, uint64_t pages, pmAtomValue *atom)
{
    int sts = s->pages_status;

    if (sts < 0)
        return sts;
    atom->ull = pages_to_kbytes(pages, s->page_size);
    return PMDA_FETCH_STATIC;
}

/* mem.util.used: wired, active, inactive and the compressor's pages. */
static int
used_kb(const void *state, const void *entry, const struct metric_row *row, unsigned int inst,
        pmAtomValue *atom)
{
    const struct plat_vm *vm = &((const struct memory_state *)state)->mem.vm;

    (void)entry;
    (void)row;
    (void)inst;
    return pages_kb(state, (uint64_t)vm->wire_count + vm->active_count + vm->inactive_count +
                               vm->compressor_page_count, atom);
}

static int
app_kb(const void *state, const void *entry, const struct metric_row *row, unsigned int inst,
       pmAtomValue *atom)
{
    (void)entry;
    (void)row;
    (void)inst;
    return pages_kb(state, vm_app_pages(&((const struct memory_state *)state)->mem.vm), atom);
}

static int
memory_used_kb(const void *state, const void *entry, const struct metric_row *row, unsigned int inst,
               pmAtomValue *atom)
{
    (void)entry;
    (void)row;
    (void)inst;
    return pages_kb(state, vm_used_pages(&((const struct memory_state *)state)->mem.vm), atom);
}

static int
available_kb(const void *state, const void *entry, const struct metric_row *row, unsigned int inst,
             pmAtomValue *atom)
{
    const struct memory_state *s = state;
    int sts = s->pages_status;

    (void)entry;
    (void)row;
    (void)inst;
    if (sts < 0 || (sts = s->memsize_status) < 0)
        return sts;
    atom->ull = vm_available_bytes(&s->mem.vm, s->memsize, s->page_size) / 1024;
    return PMDA_FETCH_STATIC;
}

/* An empty compressor has no ratio: no value, rather than 0 or 1. */
static int
compression_ratio(const void *state, const void *entry, const struct metric_row *row, unsigned int inst,
                  pmAtomValue *atom)
{
    const struct memory_state *s = state;
    int sts = s->pages_status;

    (void)entry;
    (void)row;
    (void)inst;
    if (sts < 0)
        return sts;
    return vm_compression_ratio(&s->mem.vm, &atom->d) < 0 ? PMDA_FETCH_NOVALUES : PMDA_FETCH_STATIC;
}

static const struct metric_row rows[] = {
    MEMORY("hinv.physmem", ITEM_HINV_PHYSMEM,
           PM_TYPE_U32, PM_SEM_DISCRETE, PMDA_PMUNITS(1, 0, 0, PM_SPACE_MBYTE, 0, 0), .derive = physmem_mb),
    MEMORY("mem.physmem", ITEM_PHYSMEM, PM_TYPE_U64, PM_SEM_DISCRETE, UNITS_KBYTE, MEMSIZE),
    MEMORY("mem.freemem", ITEM_FREEMEM, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE, PAGES(free_count)),
    MEMORY("mem.active", ITEM_ACTIVE, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE, PAGES(active_count)),
    MEMORY("mem.inactive", ITEM_INACTIVE, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE,
           PAGES(inactive_count)),
    MEMORY("mem.pages.freemem", ITEM_PAGES_FREE, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_COUNT,
           VM(free_count, FIELD_PLAIN)),
    MEMORY("mem.pages.active", ITEM_PAGES_ACTIVE, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_COUNT,
           VM(active_count, FIELD_PLAIN)),
    MEMORY("mem.pages.inactive", ITEM_PAGES_INACTIVE, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_COUNT,
           VM(inactive_count, FIELD_PLAIN)),
    MEMORY("mem.pages.reactivated", ITEM_PAGES_REACTIVATED, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT,
           VM(reactivations, FIELD_PLAIN)),
    MEMORY("mem.pages.wired", ITEM_PAGES_WIRED, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_COUNT,
           VM(wire_count, FIELD_PLAIN)),
    MEMORY("mem.pages.faults", ITEM_PAGES_FAULTS, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT, VM(faults, FIELD_PLAIN)),
    MEMORY("mem.pages.cow_faults", ITEM_PAGES_COW_FAULTS, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT,
           VM(cow_faults, FIELD_PLAIN)),
    MEMORY("mem.pages.zero_filled", ITEM_PAGES_ZERO_FILLED, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT,
           VM(zero_fill_count, FIELD_PLAIN)),
    MEMORY("mem.pageins", ITEM_PAGEINS, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT, VM(pageins, FIELD_PLAIN)),
    MEMORY("mem.pageouts", ITEM_PAGEOUTS, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT, VM(pageouts, FIELD_PLAIN)),
    MEMORY("mem.util.wired", ITEM_UTIL_WIRED, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE,
           PAGES(wire_count)),
    MEMORY("mem.util.active", ITEM_UTIL_ACTIVE, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE,
           PAGES(active_count)),
    MEMORY("mem.util.inactive", ITEM_UTIL_INACTIVE, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE,
           PAGES(inactive_count)),
    MEMORY("mem.util.free", ITEM_UTIL_FREE, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE, PAGES(free_count)),
    MEMORY("mem.util.used", ITEM_UTIL_USED, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE, .derive = used_kb),
    MEMORY("swap.length", ITEM_SWAP_LENGTH, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE, SWAP(total)),
    MEMORY("swap.used", ITEM_SWAP_USED, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE, SWAP(used)),
    MEMORY("swap.free", ITEM_SWAP_FREE, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE, SWAP(avail)),
    MEMORY("swap.pagesin", ITEM_SWAP_PAGESIN, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT, VM(swapins, FIELD_PLAIN)),
    MEMORY("swap.pagesout", ITEM_SWAP_PAGESOUT, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT, VM(swapouts, FIELD_PLAIN)),
    MEMORY("mem.util.compressed", ITEM_UTIL_COMPRESSED, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE,
           PAGES(compressor_page_count)),
    MEMORY("mem.compressions", ITEM_COMPRESSIONS, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT,
           VM(compressions, FIELD_PLAIN)),
    MEMORY("mem.decompressions", ITEM_DECOMPRESSIONS, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT,
           VM(decompressions, FIELD_PLAIN)),
    MEMORY("mem.compressor.pages", ITEM_COMPRESSOR_PAGES, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_COUNT,
           VM(compressor_page_count, FIELD_PLAIN)),
    MEMORY("mem.compressor.uncompressed_pages", ITEM_COMPRESSOR_UNCOMPRESSED, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_COUNT,
           VM(total_uncompressed_pages_in_compressor, FIELD_PLAIN)),
    MEMORY("mem.compressor.swapouts_under_30s", ITEM_SWAPOUTS_UNDER_30S, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT,
           COMPRESSOR(PLAT_COMP_SWAPOUTS_UNDER_30S)),
    MEMORY("mem.compressor.swapouts_under_60s", ITEM_SWAPOUTS_UNDER_60S, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT,
           COMPRESSOR(PLAT_COMP_SWAPOUTS_UNDER_60S)),
    MEMORY("mem.compressor.swapouts_under_300s", ITEM_SWAPOUTS_UNDER_300S, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT,
           COMPRESSOR(PLAT_COMP_SWAPOUTS_UNDER_300S)),
    MEMORY("mem.compressor.thrashing_detected", ITEM_THRASHING_DETECTED, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT,
           COMPRESSOR(PLAT_COMP_THRASHING_DETECTED)),
    /* no XNU release declares a sysctl that counts them */
    MEMORY("mem.compressor.major_compactions", ITEM_MAJOR_COMPACTIONS, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT,
           .derive = collector_no_source),
    MEMORY("mem.compressor.lz4_compressions", ITEM_LZ4_COMPRESSIONS, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT,
           COMPRESSOR(PLAT_COMP_LZ4_COMPRESSIONS)),
    VMSTAT("mem.pages.speculative", ITEM_PAGES_SPECULATIVE, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_COUNT,
           VM(speculative_count, FIELD_PLAIN)),
    VMSTAT("mem.pages.throttled", ITEM_PAGES_THROTTLED, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_COUNT,
           VM(throttled_count, FIELD_PLAIN)),
    VMSTAT("mem.pages.purgeable", ITEM_PAGES_PURGEABLE, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_COUNT,
           VM(purgeable_count, FIELD_PLAIN)),
    VMSTAT("mem.pages.file_backed", ITEM_PAGES_FILE_BACKED, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_COUNT,
           VM(external_page_count, FIELD_PLAIN)),
    VMSTAT("mem.pages.anonymous", ITEM_PAGES_ANONYMOUS, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_COUNT,
           VM(internal_page_count, FIELD_PLAIN)),
    VMSTAT("mem.purges", ITEM_PURGES, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT, VM(purges, FIELD_PLAIN)),
    VMSTAT("mem.util.speculative", ITEM_UTIL_SPECULATIVE, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE,
           PAGES(speculative_count)),
    VMSTAT("mem.util.purgeable", ITEM_UTIL_PURGEABLE, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE,
           PAGES(purgeable_count)),
    VMSTAT("mem.util.file_backed", ITEM_UTIL_FILE_BACKED, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE,
           PAGES(external_page_count)),
    VMSTAT("mem.util.anonymous", ITEM_UTIL_ANONYMOUS, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE,
           PAGES(internal_page_count)),
    VMSTAT("mem.util.app", ITEM_UTIL_APP, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE, .derive = app_kb),
    VMSTAT("mem.util.memory_used", ITEM_UTIL_MEMORY_USED, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE, .derive = memory_used_kb),
    VMSTAT("mem.util.available", ITEM_UTIL_AVAILABLE, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE, .derive = available_kb),
    VMSTAT("mem.compressor.ratio", ITEM_COMPRESSION_RATIO, PM_TYPE_DOUBLE, PM_SEM_INSTANT, UNITS_NONE,
           .derive = compression_ratio),
    VMSTAT("mem.util.cached", ITEM_UTIL_CACHED, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE,
           PAGES(external_page_count)),
    VMSTAT("mem.util.swapTotal", ITEM_UTIL_SWAP_TOTAL, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE, SWAP(total)),
    VMSTAT("mem.util.swapFree", ITEM_UTIL_SWAP_FREE, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE, SWAP(avail)),
    /* the rest of what pcp free reads: on a 64-bit kernel all memory is low memory */
    /* no count of shared memory, of a buffer cache apart from the unified
     * one (mem.util.cached), or of kernel zones that could be reclaimed */
    VMSTAT("mem.util.shmem", ITEM_UTIL_SHMEM, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE, .derive = collector_no_source),
    VMSTAT("mem.util.bufmem", ITEM_UTIL_BUFMEM, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE, .derive = collector_no_source),
    VMSTAT("mem.util.slabReclaimable", ITEM_UTIL_SLAB_RECLAIMABLE, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE,
           .derive = collector_no_source),
    VMSTAT("mem.util.highTotal", ITEM_UTIL_HIGH_TOTAL, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE, .derive = no_high_memory),
    VMSTAT("mem.util.highFree", ITEM_UTIL_HIGH_FREE, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE, .derive = no_high_memory),
    VMSTAT("mem.util.lowTotal", ITEM_UTIL_LOW_TOTAL, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE, MEMSIZE),
    VMSTAT("mem.util.lowFree", ITEM_UTIL_LOW_FREE, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE,
           PAGES(free_count)),
    /* the file cache under vm_statistics64's name, which PCP 7.2's pcp-htop reads on macOS */
    VMSTAT("mem.util.external", ITEM_UTIL_EXTERNAL, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE,
           PAGES(external_page_count)),
};

static int
memory_refresh(void *state, struct refresh_call *call)
{
    struct memory_state *s = state;
    const struct plat_memory *mem = &s->mem;
    const struct platform *p = call->p;
    unsigned int failures = 0;
    int sts, page_status = hinv_page_size(call->depends[0], &s->page_size);

    s->memsize_status = hinv_memsize(call->depends[0], &s->memsize);
    memset(&s->mem, 0, sizeof(s->mem));
    if ((sts = p->memory(p->ctx, &s->mem)) < 0)
        return collector_error(sts);
    s->pages_status = mem->vm_status < 0 ? collector_error(mem->vm_status) : page_status;
    failures |= (mem->vm_status < 0) << 0;
    failures |= (mem->swap_status < 0) << 1;
    for (int i = 0; i < PLAT_COMP_NSTATS; i++)
        failures |= (unsigned int)(mem->compressor_status[i] < 0) << (2 + i);
    collector_note_parts(call, NULL, failures, &s->logged_failures, p->error(p->ctx));
    return 0;
}

const struct collector memory_collector = {
    .name = "memory",
    .ndepends = 1,
    .depends = { &hinv_collector },
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .state_size = sizeof(struct memory_state),
    .refresh = memory_refresh,
};
