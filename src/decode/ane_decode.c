#include "ane_decode.h"
#include "entry_props.h"

#include <errno.h>
#include <string.h>

int
ane_power_state(const struct plat_entry_set *set, uint32_t *state, uint32_t *max)
{
    int found = 0;

    *state = *max = 0;
    for (unsigned int i = 0; i < set->n; i++) {
        uint64_t s, m;

        if (!entry_number(entry_prop_key(&set->entry[i], ANE_STATE_KEY), &s) ||
            !entry_number(entry_prop_key(&set->entry[i], ANE_STATE_MAX_KEY), &m))
            continue;
        if (m > UINT32_MAX || s > m)
            return -ERANGE;
        if (!found || s > *state)
            *state = (uint32_t)s;
        if (!found || m > *max)
            *max = (uint32_t)m;
        found = 1;
    }
    return found ? 0 : -ENOENT;
}

int
ane_residency(const struct plat_entry_set *set, uint64_t *running, uint64_t *total)
{
    static const char running_path[] = "state." ANE_RUNNING_STATE;
    int found = 0;

    *running = *total = 0;
    for (unsigned int i = 0; i < set->n; i++) {
        const struct plat_entry *e = &set->entry[i];

        for (unsigned int k = 0; k < e->nprops; k++) {
            const struct plat_prop *p = &e->prop[k];
            uint64_t v;

            if (strncmp(p->path, "state.", 6) != 0 || !entry_number(p, &v))
                continue;
            *total += v;
            if (strcmp(p->path, running_path) == 0) {
                *running += v;
                found = 1;
            }
        }
    }
    return found ? 0 : -ENOENT;
}
