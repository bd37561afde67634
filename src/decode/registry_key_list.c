#include "registry_key_list.h"
#include "registry_props.h"

void
reg_read_places(const struct plat_reg_entry *e, const struct reg_place *places, size_t n, unsigned int *have,
                uint64_t *value)
{
    for (size_t i = 0; e != NULL && i < n; i++) {
        unsigned int bit = 1u << places[i].field;
        const struct plat_reg_prop *p;

        if (*have & bit)
            continue;
        p = reg_prop_key(e, places[i].key);
        if (p != NULL && p->kind == PLAT_REG_BOOL)
            value[places[i].field] = p->number;
        else if (!reg_number(p, &value[places[i].field]))
            continue;
        *have |= bit;
    }
}

int
reg_places_wanted(const struct reg_place *places, size_t n, unsigned int have)
{
    for (size_t i = 0; i < n; i++)
        if (!(have & (1u << places[i].field)))
            return 1;
    return 0;
}
