/*
 * The memory family, from host_statistics64(HOST_VM_INFO64), vm.swapusage
 * and the compressor sysctls: physical memory, paging, swap and the
 * compressor (cluster 1); the rest of what vm_stat prints, derived figures
 * with stated definitions (src/vm_derived.h), and the file cache and swap
 * under the Linux names that pcp-htop, pmstat and pcp free read (cluster 101).
 */
#include "collector.h"
#include "families.h"
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
    ITEM_UTIL_CACHED, ITEM_UTIL_SWAP_TOTAL, ITEM_UTIL_SWAP_FREE
};

/* The compressor sysctl behind each of items 135..140.
 * mem.compressor.major_compactions has no source: no XNU release declares
 * a sysctl that counts them. */
#define NO_SOURCE (-1)
static const int compressor_stat[] = {
    [ITEM_SWAPOUTS_UNDER_30S - ITEM_SWAPOUTS_UNDER_30S] = PLAT_COMP_SWAPOUTS_UNDER_30S,
    [ITEM_SWAPOUTS_UNDER_60S - ITEM_SWAPOUTS_UNDER_30S] = PLAT_COMP_SWAPOUTS_UNDER_60S,
    [ITEM_SWAPOUTS_UNDER_300S - ITEM_SWAPOUTS_UNDER_30S] = PLAT_COMP_SWAPOUTS_UNDER_300S,
    [ITEM_THRASHING_DETECTED - ITEM_SWAPOUTS_UNDER_30S] = PLAT_COMP_THRASHING_DETECTED,
    [ITEM_MAJOR_COMPACTIONS - ITEM_SWAPOUTS_UNDER_30S] = NO_SOURCE,
    [ITEM_LZ4_COMPRESSIONS - ITEM_SWAPOUTS_UNDER_30S] = PLAT_COMP_LZ4_COMPRESSIONS,
};

#define ROW(name, item, type, sem, units) { name, CLUSTER_MEMORY, item, type, COLLECTOR_NO_INDOM, sem, units }
#define VM_ROW(name, item, type, sem, units) { name, CLUSTER_VMSTAT, item, type, COLLECTOR_NO_INDOM, sem, units }

static const struct metric_row rows[] = {
    ROW("hinv.physmem", ITEM_HINV_PHYSMEM, PM_TYPE_U32, PM_SEM_DISCRETE, PMDA_PMUNITS(1, 0, 0, PM_SPACE_MBYTE, 0, 0)),
    ROW("mem.physmem", ITEM_PHYSMEM, PM_TYPE_U64, PM_SEM_DISCRETE, UNITS_KBYTE),
    ROW("mem.freemem", ITEM_FREEMEM, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE),
    ROW("mem.active", ITEM_ACTIVE, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE),
    ROW("mem.inactive", ITEM_INACTIVE, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE),
    ROW("mem.pages.freemem", ITEM_PAGES_FREE, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_COUNT),
    ROW("mem.pages.active", ITEM_PAGES_ACTIVE, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_COUNT),
    ROW("mem.pages.inactive", ITEM_PAGES_INACTIVE, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_COUNT),
    ROW("mem.pages.reactivated", ITEM_PAGES_REACTIVATED, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT),
    ROW("mem.pages.wired", ITEM_PAGES_WIRED, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_COUNT),
    ROW("mem.pages.faults", ITEM_PAGES_FAULTS, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT),
    ROW("mem.pages.cow_faults", ITEM_PAGES_COW_FAULTS, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT),
    ROW("mem.pages.zero_filled", ITEM_PAGES_ZERO_FILLED, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT),
    ROW("mem.pageins", ITEM_PAGEINS, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT),
    ROW("mem.pageouts", ITEM_PAGEOUTS, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT),
    ROW("mem.util.wired", ITEM_UTIL_WIRED, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE),
    ROW("mem.util.active", ITEM_UTIL_ACTIVE, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE),
    ROW("mem.util.inactive", ITEM_UTIL_INACTIVE, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE),
    ROW("mem.util.free", ITEM_UTIL_FREE, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE),
    ROW("mem.util.used", ITEM_UTIL_USED, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE),
    ROW("swap.length", ITEM_SWAP_LENGTH, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE),
    ROW("swap.used", ITEM_SWAP_USED, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE),
    ROW("swap.free", ITEM_SWAP_FREE, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE),
    ROW("swap.pagesin", ITEM_SWAP_PAGESIN, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT),
    ROW("swap.pagesout", ITEM_SWAP_PAGESOUT, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT),
    ROW("mem.util.compressed", ITEM_UTIL_COMPRESSED, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE),
    ROW("mem.compressions", ITEM_COMPRESSIONS, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT),
    ROW("mem.decompressions", ITEM_DECOMPRESSIONS, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT),
    ROW("mem.compressor.pages", ITEM_COMPRESSOR_PAGES, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_COUNT),
    ROW("mem.compressor.uncompressed_pages", ITEM_COMPRESSOR_UNCOMPRESSED, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_COUNT),
    ROW("mem.compressor.swapouts_under_30s", ITEM_SWAPOUTS_UNDER_30S,
        PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT),
    ROW("mem.compressor.swapouts_under_60s", ITEM_SWAPOUTS_UNDER_60S,
        PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT),
    ROW("mem.compressor.swapouts_under_300s", ITEM_SWAPOUTS_UNDER_300S,
        PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT),
    ROW("mem.compressor.thrashing_detected", ITEM_THRASHING_DETECTED,
        PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT),
    ROW("mem.compressor.major_compactions", ITEM_MAJOR_COMPACTIONS,
        PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT),
    ROW("mem.compressor.lz4_compressions", ITEM_LZ4_COMPRESSIONS,
        PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT),
    VM_ROW("mem.pages.speculative", ITEM_PAGES_SPECULATIVE, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_COUNT),
    VM_ROW("mem.pages.throttled", ITEM_PAGES_THROTTLED, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_COUNT),
    VM_ROW("mem.pages.purgeable", ITEM_PAGES_PURGEABLE, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_COUNT),
    VM_ROW("mem.pages.file_backed", ITEM_PAGES_FILE_BACKED, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_COUNT),
    VM_ROW("mem.pages.anonymous", ITEM_PAGES_ANONYMOUS, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_COUNT),
    VM_ROW("mem.purges", ITEM_PURGES, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT),
    VM_ROW("mem.util.speculative", ITEM_UTIL_SPECULATIVE, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE),
    VM_ROW("mem.util.purgeable", ITEM_UTIL_PURGEABLE, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE),
    VM_ROW("mem.util.file_backed", ITEM_UTIL_FILE_BACKED, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE),
    VM_ROW("mem.util.anonymous", ITEM_UTIL_ANONYMOUS, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE),
    VM_ROW("mem.util.app", ITEM_UTIL_APP, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE),
    VM_ROW("mem.util.memory_used", ITEM_UTIL_MEMORY_USED, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE),
    VM_ROW("mem.util.available", ITEM_UTIL_AVAILABLE, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE),
    VM_ROW("mem.compressor.ratio", ITEM_COMPRESSION_RATIO, PM_TYPE_DOUBLE, PM_SEM_INSTANT,
        UNITS_NONE),
    VM_ROW("mem.util.cached", ITEM_UTIL_CACHED, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE),
    VM_ROW("mem.util.swapTotal", ITEM_UTIL_SWAP_TOTAL, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE),
    VM_ROW("mem.util.swapFree", ITEM_UTIL_SWAP_FREE, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE),
};

static struct plat_memory mem;
static unsigned int logged_failures;

static int
memory_refresh(const struct platform *p, pmInDom indom)
{
    unsigned int failures = 0;
    int sts;

    (void)indom;
    memset(&mem, 0, sizeof(mem));
    if ((sts = p->memory(p->ctx, &mem)) < 0)
        return collector_error(sts);
    failures |= (mem.vm_status < 0) << 0;
    failures |= (mem.swap_status < 0) << 1;
    for (int i = 0; i < PLAT_COMP_NSTATS; i++)
        failures |= (unsigned int)(mem.compressor_status[i] < 0) << (2 + i);
    collector_note_parts("memory", failures, &logged_failures, p->error(p->ctx));
    return 0;
}

/* vm.swapusage's total, used or available space in kilobytes, or the
 * swap read's error: swap.* and its Linux names in cluster 101 share this. */
enum swap_part { SWAP_TOTAL, SWAP_USED, SWAP_AVAIL };
static int
swap_kbytes(enum swap_part part, pmAtomValue *atom)
{
    if (mem.swap_status < 0)
        return collector_error(mem.swap_status);
    switch (part) {
    case SWAP_TOTAL: atom->ull = mem.swap.total / 1024; break;
    case SWAP_USED: atom->ull = mem.swap.used / 1024; break;
    default: atom->ull = mem.swap.avail / 1024; break;
    }
    return PMDA_FETCH_STATIC;
}

static int
fetch_vm(unsigned int item, uint64_t page_size, pmAtomValue *atom)
{
    const struct plat_vm *vm = &mem.vm;

    if (mem.vm_status < 0)
        return collector_error(mem.vm_status);
    switch (item) {
    case ITEM_FREEMEM:
    case ITEM_UTIL_FREE:
        atom->ull = pages_to_kbytes(vm->free_count, page_size);
        break;
    case ITEM_ACTIVE:
    case ITEM_UTIL_ACTIVE:
        atom->ull = pages_to_kbytes(vm->active_count, page_size);
        break;
    case ITEM_INACTIVE:
    case ITEM_UTIL_INACTIVE:
        atom->ull = pages_to_kbytes(vm->inactive_count, page_size);
        break;
    case ITEM_UTIL_WIRED:
        atom->ull = pages_to_kbytes(vm->wire_count, page_size);
        break;
    case ITEM_UTIL_USED:
        atom->ull = pages_to_kbytes((uint64_t)vm->wire_count + vm->active_count + vm->inactive_count +
                                    vm->compressor_page_count, page_size);
        break;
    case ITEM_UTIL_COMPRESSED:
        atom->ull = pages_to_kbytes(vm->compressor_page_count, page_size);
        break;
    case ITEM_PAGES_FREE: atom->ul = vm->free_count; break;
    case ITEM_PAGES_ACTIVE: atom->ul = vm->active_count; break;
    case ITEM_PAGES_INACTIVE: atom->ul = vm->inactive_count; break;
    case ITEM_PAGES_WIRED: atom->ul = vm->wire_count; break;
    case ITEM_COMPRESSOR_PAGES: atom->ul = vm->compressor_page_count; break;
    case ITEM_COMPRESSOR_UNCOMPRESSED: atom->ull = vm->total_uncompressed_pages_in_compressor; break;
    case ITEM_PAGES_REACTIVATED: atom->ull = vm->reactivations; break;
    case ITEM_PAGES_FAULTS: atom->ull = vm->faults; break;
    case ITEM_PAGES_COW_FAULTS: atom->ull = vm->cow_faults; break;
    case ITEM_PAGES_ZERO_FILLED: atom->ull = vm->zero_fill_count; break;
    case ITEM_PAGEINS: atom->ull = vm->pageins; break;
    case ITEM_PAGEOUTS: atom->ull = vm->pageouts; break;
    case ITEM_SWAP_PAGESIN: atom->ull = vm->swapins; break;
    case ITEM_SWAP_PAGESOUT: atom->ull = vm->swapouts; break;
    case ITEM_COMPRESSIONS: atom->ull = vm->compressions; break;
    case ITEM_DECOMPRESSIONS: atom->ull = vm->decompressions; break;
    default:
        return PM_ERR_PMID;
    }
    return PMDA_FETCH_STATIC;
}

static int
fetch_pages(unsigned int item, const struct plat_vm *vm, uint64_t page_size, pmAtomValue *atom)
{
    uint64_t pages;

    switch (item) {
    case ITEM_UTIL_SPECULATIVE: pages = vm->speculative_count; break;
    case ITEM_UTIL_PURGEABLE: pages = vm->purgeable_count; break;
    case ITEM_UTIL_FILE_BACKED:
    case ITEM_UTIL_CACHED: pages = vm->external_page_count; break;
    case ITEM_UTIL_ANONYMOUS: pages = vm->internal_page_count; break;
    case ITEM_UTIL_APP: pages = vm_app_pages(vm); break;
    case ITEM_UTIL_MEMORY_USED: pages = vm_used_pages(vm); break;
    default:
        return PM_ERR_PMID;
    }
    atom->ull = pages_to_kbytes(pages, page_size);
    return PMDA_FETCH_STATIC;
}

/* A cluster 101 value: what else vm_stat prints, and the derived figures. */
static int
vmstat_fetch(const struct metric_row *row, const struct plat_host *host, pmAtomValue *atom)
{
    const struct plat_vm *vm = &mem.vm;

    if (row->item == ITEM_UTIL_SWAP_TOTAL)
        return swap_kbytes(SWAP_TOTAL, atom);
    if (row->item == ITEM_UTIL_SWAP_FREE)
        return swap_kbytes(SWAP_AVAIL, atom);
    if (mem.vm_status < 0)
        return collector_error(mem.vm_status);
    switch (row->item) {
    case ITEM_PAGES_SPECULATIVE: atom->ul = vm->speculative_count; break;
    case ITEM_PAGES_THROTTLED: atom->ul = vm->throttled_count; break;
    case ITEM_PAGES_PURGEABLE: atom->ul = vm->purgeable_count; break;
    case ITEM_PAGES_FILE_BACKED: atom->ul = vm->external_page_count; break;
    case ITEM_PAGES_ANONYMOUS: atom->ul = vm->internal_page_count; break;
    case ITEM_PURGES: atom->ull = vm->purges; break;
    case ITEM_UTIL_AVAILABLE:
        atom->ull = vm_available_bytes(vm, host->memsize, host->page_size) / 1024;
        break;
    case ITEM_COMPRESSION_RATIO:
        /* An empty compressor has no ratio: no value, rather than 0 or 1. */
        return vm_compression_ratio(vm, &atom->d) < 0 ? PMDA_FETCH_NOVALUES : PMDA_FETCH_STATIC;
    default:
        return fetch_pages(row->item, vm, host->page_size, atom);
    }
    return PMDA_FETCH_STATIC;
}

static int
memory_fetch(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    const struct plat_host *host = hinv_host_facts();
    unsigned int item = row->item;

    (void)inst;
    if (host == NULL)                   /* cannot happen: hinv is a dependency */
        return PM_ERR_AGAIN;
    if (row->cluster == CLUSTER_VMSTAT)
        return vmstat_fetch(row, host, atom);
    if (item >= ITEM_SWAPOUTS_UNDER_30S && item <= ITEM_LZ4_COMPRESSIONS) {
        int which = compressor_stat[item - ITEM_SWAPOUTS_UNDER_30S];

        if (which == NO_SOURCE)
            return PM_ERR_APPVERSION;
        if (mem.compressor_status[which] < 0)
            return collector_error(mem.compressor_status[which]);
        atom->ull = mem.compressor[which];
        return PMDA_FETCH_STATIC;
    }
    switch (item) {
    case ITEM_HINV_PHYSMEM:
        atom->ul = (uint32_t)(host->memsize >> 20);
        return PMDA_FETCH_STATIC;
    case ITEM_PHYSMEM:
        atom->ull = host->memsize / 1024;
        return PMDA_FETCH_STATIC;
    case ITEM_SWAP_LENGTH:
        return swap_kbytes(SWAP_TOTAL, atom);
    case ITEM_SWAP_USED:
        return swap_kbytes(SWAP_USED, atom);
    case ITEM_SWAP_FREE:
        return swap_kbytes(SWAP_AVAIL, atom);
    default:
        return fetch_vm(item, host->page_size, atom);
    }
}

static void
memory_teardown(pmInDom indom)
{
    (void)indom;
    logged_failures = 0;
}

const struct collector memory_collector = {
    .name = "memory",
    .ndepends = 1,
    .depends = { &hinv_collector },
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .refresh = memory_refresh,
    .fetch = memory_fetch,
    .teardown = memory_teardown,
};
