#include "vm_copy_check.h"

#include <stddef.h>
#include <string.h>

/* The fields of vm_statistics64 that only count up, all 64-bit
 * (xnu-11417.101.15 osfmk/mach/vm_statistics.h:142-164). */
#define COUNTER(field) { #field, offsetof(struct plat_vm, field) }
static const struct {
    const char *name;
    size_t offset;
} counters[] = {
    COUNTER(reactivations), COUNTER(faults), COUNTER(cow_faults), COUNTER(zero_fill_count),
    COUNTER(pageins), COUNTER(pageouts), COUNTER(swapins), COUNTER(swapouts),
    COUNTER(compressions), COUNTER(decompressions), COUNTER(purges),
};

static uint64_t
counter(const struct plat_vm *vm, size_t offset)
{
    uint64_t v;

    memcpy(&v, (const char *)vm + offset, sizeof(v));
    return v;
}

const char *
vm_counter_stepped_back(const struct plat_vm *before, const struct plat_vm *now)
{
    for (size_t i = 0; i < sizeof(counters) / sizeof(counters[0]); i++)
        if (counter(now, counters[i].offset) < counter(before, counters[i].offset))
            return counters[i].name;
    return NULL;
}
