/*
 * Collectors that serve integer sysctls read as a group
 * (plat_sysctl_defs): refresh with per-value failures logged once, and
 * rows bound to the values (SYSCTL_FIELD), served by collector_field.
 */
#ifndef PMDA_DARWIN_SYSCTL_VALUES_H
#define PMDA_DARWIN_SYSCTL_VALUES_H

#include "collector.h"

/* A sysctl group's values, as a collector's state holds them: the values
 * first, so that a row's SYSCTL_FIELD is at the same offset in both. */
struct sysctl_state {
    struct plat_sysctl_set values;
    unsigned int logged;                /* the failed values last logged */
};

/* Read the group into s. Returns 0 (values fail alone), or the collector
 * error when the whole call failed. Logs a change of the set of failed
 * values once, as collector_note_parts does. */
int sysctl_values_refresh(const struct refresh_call *call, enum plat_sysctl_group group, struct sysctl_state *s);

/* The binding of a row to the index-th value of a sysctl group's set. */
#define SYSCTL_FIELD(index) \
    FIELD_OF(struct plat_sysctl_set, value[index], status[index], FIELD_PLAIN)

/*
 * Define `const struct collector ident` for a group whose every row is
 * bound to one of its values (SYSCTL_FIELD), or derived from them: the
 * row's item is its own, and the state a struct sysctl_state.
 */
#define SYSCTL_TABLE_COLLECTOR(ident, cname, group, table)                                     \
    static int ident##_refresh(void *state, struct refresh_call *call)                        \
    {                                                                                         \
        return sysctl_values_refresh(call, group, state);                                     \
    }                                                                                         \
    const struct collector ident = {                                                          \
        .name = cname, .rows = table, .nrows = sizeof(table) / sizeof(table[0]),              \
        .state_size = sizeof(struct sysctl_state), .refresh = ident##_refresh,                \
    }

#endif
