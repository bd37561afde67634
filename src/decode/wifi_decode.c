#include "wifi_decode.h"
#include "entry_props.h"

#include <stdio.h>

static const char *const fact_key[WIFI_NFACTS] = {
    [WIFI_CHANNEL] = WIFI_CHANNEL_KEY, [WIFI_FREQUENCY_MHZ] = WIFI_FREQUENCY_KEY, [WIFI_WIDTH_MHZ] = WIFI_WIDTH_KEY,
    [WIFI_BAND] = WIFI_BAND_KEY, [WIFI_COUNTRY] = WIFI_COUNTRY_KEY,
};

/* The property of a fact on the interface, else on its parent. */
static const struct plat_prop *
fact_prop(const struct plat_entry_set *set, const struct plat_entry *e, enum wifi_fact f)
{
    const struct plat_prop *p = entry_prop_key(e, fact_key[f]);
    const struct plat_entry *parent;

    if (p == NULL && (parent = entry_by_id(set, e->parent)) != NULL)
        p = entry_prop_key(parent, fact_key[f]);
    return p;
}

/* One interface's link: its facts into l; how many were found. */
static unsigned int
link_of(const struct plat_entry_set *set, const struct plat_entry *e, struct wifi_link *l)
{
    char *text[WIFI_NFACTS] = { [WIFI_BAND] = l->band, [WIFI_COUNTRY] = l->country };
    unsigned int found = 0;

    l->have = 0;
    for (int f = 0; f < WIFI_NFACTS; f++) {
        const struct plat_prop *p = fact_prop(set, e, (enum wifi_fact)f);
        uint64_t v;

        found += p != NULL;
        if (text[f] != NULL) {
            entry_text(p, text[f], WIFI_TEXT_MAX);
            l->have |= text[f][0] != '\0' ? 1u << f : 0;
        } else if (entry_number(p, &v) && v <= UINT32_MAX) {
            l->number[f] = (uint32_t)v;
            l->have |= 1u << f;
        }
    }
    return found;
}

unsigned int
wifi_links(const struct plat_entry_set *set, struct wifi_link *out, unsigned int cap)
{
    unsigned int n = 0;

    for (unsigned int i = 0; i < set->n && n < cap; i++) {
        const struct plat_entry *e = &set->entry[i];
        const struct plat_prop *name = entry_prop_key(e, WIFI_NAME_KEY);

        if (name == NULL || name->kind != PLAT_PROP_STRING || link_of(set, e, &out[n]) == 0)
            continue;
        entry_text(name, out[n].name, sizeof(out[n].name));
        n++;
    }
    return n;
}
