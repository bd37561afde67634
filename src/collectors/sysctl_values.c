#include "sysctl_values.h"

#include <stdint.h>

int
sysctl_values_refresh(const struct platform *p, enum plat_sysctl_family family, struct plat_sysctl_set *set,
                      const char *collector, unsigned int *logged)
{
    unsigned int failed = 0;
    int sts;

    set->n = 0;
    if ((sts = p->sysctls(p->ctx, family, set)) < 0)
        return collector_error(sts);
    for (unsigned int i = 0; i < set->n && i < PLAT_SYSCTL_SET_MAX; i++)
        failed |= (unsigned int)(set->status[i] < 0) << i;
    collector_note_parts(collector, failed, logged, p->error(p->ctx));
    return 0;
}

int
sysctl_values_fetch(const struct plat_sysctl_set *set, unsigned int index, int type, pmAtomValue *atom)
{
    if (index >= set->n)
        return PM_ERR_PMID;
    if (set->status[index] < 0)
        return collector_error(set->status[index]);
    if (type == PM_TYPE_U64) {
        atom->ull = set->value[index];
    } else {
        if (set->value[index] > UINT32_MAX)
            return PM_ERR_AGAIN;
        atom->ul = (uint32_t)set->value[index];
    }
    return PMDA_FETCH_STATIC;
}
