#include "key_list.h"
#include "entry_props.h"

void
read_key_places(const struct plat_entry *e, const struct key_place *places, size_t n, unsigned int *have,
                uint64_t *value)
{
    unsigned int from = 0;

    for (size_t i = 0; e != NULL && i < n; i++) {
        unsigned int bit = 1u << places[i].field;
        const struct plat_prop *p;

        if (*have & bit)
            continue;
        p = entry_prop_key_from(e, places[i].key, &from);
        if (p != NULL && p->kind == PLAT_PROP_BOOL)
            value[places[i].field] = p->number;
        else if (!entry_number(p, &value[places[i].field]))
            continue;
        *have |= bit;
    }
}

int
key_places_wanted(const struct key_place *places, size_t n, unsigned int have)
{
    for (size_t i = 0; i < n; i++)
        if (!(have & (1u << places[i].field)))
            return 1;
    return 0;
}
