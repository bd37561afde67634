/*
 * Collectors that serve integer sysctls read as a group
 * (plat_sysctl_defs): refresh with per-value failures logged once, and
 * rows bound to the values (SYSCTL_FIELD), served by collector_field.
 */
#ifndef PMDA_DARWIN_SYSCTL_VALUES_H
#define PMDA_DARWIN_SYSCTL_VALUES_H

#include "collector.h"

/* Read the group into set. Returns 0 (values fail alone), or the
 * collector error when the whole call failed. Logs a change of the set of
 * failed values once, as collector_note_parts does. */
int sysctl_values_refresh(const struct platform *p, enum plat_sysctl_group group, struct plat_sysctl_set *set,
                          const char *collector, unsigned int *logged);

/* The binding of a row to the index-th value of a sysctl group's set. */
#define SYSCTL_FIELD(index) \
    FIELD_OF(struct plat_sysctl_set, value[index], status[index], FIELD_PLAIN)

/*
 * Define `const struct collector ident` for a group whose every row is
 * bound to one of its values (SYSCTL_FIELD): the row's item is its own.
 */
#define SYSCTL_TABLE_COLLECTOR(ident, cname, group, table)                                     \
    static struct plat_sysctl_set ident##_values;                                             \
    static unsigned int ident##_logged;                                                       \
    static int ident##_refresh(const struct platform *p, pmInDom indom, const char **reason)   \
    {                                                                                         \
        (void)indom;                                                                          \
        (void)reason;                                                                         \
        return sysctl_values_refresh(p, group, &ident##_values, cname, &ident##_logged);      \
    }                                                                                         \
    static int ident##_fetch(const struct metric_row *row, unsigned int inst, pmAtomValue *atom) \
    {                                                                                         \
        (void)inst;                                                                           \
        return collector_field(row, &ident##_values, 0, atom);                                \
    }                                                                                         \
    static void ident##_teardown(pmInDom indom)                                               \
    {                                                                                         \
        (void)indom;                                                                          \
        ident##_logged = 0;                                                                   \
    }                                                                                         \
    const struct collector ident = {                                                          \
        .name = cname, .rows = table,                                                         \
        .nrows = sizeof(table) / sizeof(table[0]), .refresh = ident##_refresh,                \
        .fetch = ident##_fetch, .teardown = ident##_teardown,                                 \
    }

#endif
