#include "vm_derived.h"

#include <errno.h>

uint64_t
vm_app_pages(const struct plat_vm *vm)
{
    return vm->internal_page_count > vm->purgeable_count
        ? (uint64_t)vm->internal_page_count - vm->purgeable_count : 0;
}

uint64_t
vm_used_pages(const struct plat_vm *vm)
{
    return vm_app_pages(vm) + vm->wire_count + vm->compressor_page_count;
}

uint64_t
vm_available_bytes(const struct plat_vm *vm, uint64_t memsize, uint64_t page_size)
{
    unsigned __int128 used = (unsigned __int128)vm_used_pages(vm) * page_size;

    return used >= memsize ? 0 : memsize - (uint64_t)used;
}

int
vm_compression_ratio(const struct plat_vm *vm, double *ratio)
{
    if (vm->compressor_page_count == 0)
        return -ERANGE;
    *ratio = (double)vm->total_uncompressed_pages_in_compressor / (double)vm->compressor_page_count;
    return 0;
}
