/*
 * Cluster 101: the rest of what vm_stat prints, derived figures with stated
 * definitions (src/vm_derived.h), and the file cache and swap under the
 * Linux names that pcp-htop, pmstat and pcp free read. The data is cluster
 * 1's read of host_statistics64 and vm.swapusage, so this cluster makes no
 * OS call of its own.
 */
#include "collector.h"
#include "metric_units.h"
#include "convert.h"
#include "hinv.h"
#include "memory.h"
#include "vm_derived.h"

enum {
    ITEM_PAGES_SPECULATIVE = 0, ITEM_PAGES_THROTTLED, ITEM_PAGES_PURGEABLE, ITEM_PAGES_FILE_BACKED,
    ITEM_PAGES_ANONYMOUS, ITEM_PURGES,
    ITEM_UTIL_SPECULATIVE = 10, ITEM_UTIL_PURGEABLE, ITEM_UTIL_FILE_BACKED, ITEM_UTIL_ANONYMOUS,
    ITEM_UTIL_APP, ITEM_UTIL_MEMORY_USED, ITEM_UTIL_AVAILABLE, ITEM_COMPRESSION_RATIO,
    ITEM_UTIL_CACHED, ITEM_UTIL_SWAP_TOTAL, ITEM_UTIL_SWAP_FREE
};

#define ROW(name, item, type, sem, units) { name, item, type, COLLECTOR_NO_INDOM, sem, units }

static const struct metric_row rows[] = {
    ROW("mem.pages.speculative", ITEM_PAGES_SPECULATIVE, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_COUNT),
    ROW("mem.pages.throttled", ITEM_PAGES_THROTTLED, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_COUNT),
    ROW("mem.pages.purgeable", ITEM_PAGES_PURGEABLE, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_COUNT),
    ROW("mem.pages.file_backed", ITEM_PAGES_FILE_BACKED, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_COUNT),
    ROW("mem.pages.anonymous", ITEM_PAGES_ANONYMOUS, PM_TYPE_U32, PM_SEM_INSTANT, UNITS_COUNT),
    ROW("mem.purges", ITEM_PURGES, PM_TYPE_U64, PM_SEM_COUNTER, UNITS_COUNT),
    ROW("mem.util.speculative", ITEM_UTIL_SPECULATIVE, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE),
    ROW("mem.util.purgeable", ITEM_UTIL_PURGEABLE, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE),
    ROW("mem.util.file_backed", ITEM_UTIL_FILE_BACKED, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE),
    ROW("mem.util.anonymous", ITEM_UTIL_ANONYMOUS, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE),
    ROW("mem.util.app", ITEM_UTIL_APP, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE),
    ROW("mem.util.memory_used", ITEM_UTIL_MEMORY_USED, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE),
    ROW("mem.util.available", ITEM_UTIL_AVAILABLE, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE),
    ROW("mem.compressor.ratio", ITEM_COMPRESSION_RATIO, PM_TYPE_DOUBLE, PM_SEM_INSTANT,
        UNITS_NONE),
    ROW("mem.util.cached", ITEM_UTIL_CACHED, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE),
    ROW("mem.util.swapTotal", ITEM_UTIL_SWAP_TOTAL, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE),
    ROW("mem.util.swapFree", ITEM_UTIL_SWAP_FREE, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE),
};

static int
vmstat_refresh(const struct platform *p, pmInDom indom)
{
    (void)p;
    (void)indom;
    return 0;       /* cluster 1, a dependency, has read the data */
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

static int
vmstat_fetch(const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    const struct plat_host *host = hinv_host_facts();
    const struct plat_memory *mem = memory_facts();
    const struct plat_vm *vm;

    (void)inst;
    if (host == NULL || mem == NULL)            /* cannot happen: clusters 0 and 1 are dependencies */
        return PM_ERR_AGAIN;
    if (row->item == ITEM_UTIL_SWAP_TOTAL)
        return memory_swap_kbytes(MEMORY_SWAP_TOTAL, atom);
    if (row->item == ITEM_UTIL_SWAP_FREE)
        return memory_swap_kbytes(MEMORY_SWAP_AVAIL, atom);
    if (mem->vm_status < 0)
        return collector_error(mem->vm_status);
    vm = &mem->vm;
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

const struct collector vmstat_collector = {
    .name = "vmstat",
    .cluster = 101,
    .ndepends = 2,
    .depends = { HINV_CLUSTER, MEMORY_CLUSTER },
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .refresh = vmstat_refresh,
    .fetch = vmstat_fetch,
};
