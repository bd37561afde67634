/*
 * IOReport state channels built in a test as the live reader records them
 * (an entry of class "IOReportChannel" with its subgroup, unit and one
 * "state.NAME" number per state), by hand or from the lines of macmon's
 * debug output in the corpus of real-Mac data. Header-only helpers for
 * cmocka tests.
 */
#ifndef PMDA_DARWIN_IOREPORT_CHANNELS_H
#define PMDA_DARWIN_IOREPORT_CHANNELS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "real_macs_file.h"
#include "entry_set.h"

static inline void
state_channel(struct entry_builder *rb, uint64_t id, const char *name, const char *unit)
{
    assert_int_equal(entry_builder_entry(rb, id, 0, name, "IOReportChannel"), 0);
    assert_int_equal(entry_builder_string(rb, "subgroup", ""), 0);
    assert_int_equal(entry_builder_string(rb, "unit", unit), 0);
}

static inline void
channel_state(struct entry_builder *rb, const char *state, uint64_t ticks)
{
    char path[128];

    snprintf(path, sizeof(path), "state.%s", state);
    assert_int_equal(entry_builder_number(rb, path, ticks), 0);
}

/* One "GROUP :: SUBGROUP :: NAME (UNIT) = [("STATE", TICKS), ...]" line of
 * macmon's debug output as a channel, its states in the order macmon
 * printed them (libIOReport's, by index); 0, or -1 when the line is cut. */
static inline int
macmon_channel(struct entry_builder *rb, uint64_t id, char *line)
{
    char *name = strstr(line, ":: "), *unit, *s;

    while (name != NULL && strstr(name + 3, ":: ") != NULL)
        name = strstr(name + 3, ":: ");
    if (name == NULL || line[strlen(line) - 1] != ']')
        return -1;
    name += 3;
    unit = strchr(name, '(');
    unit[-1] = '\0';
    *strchr(unit, ')') = '\0';
    state_channel(rb, id, name, unit + 1);
    for (s = strchr(unit + strlen(unit) + 1, '['); (s = strstr(s, "(\"")) != NULL;) {
        char *q = strchr(s + 2, '"');

        *q = '\0';
        channel_state(rb, s + 2, strtoull(q + 2, NULL, 10));
        s = q + 1;
    }
    return 0;
}

/* The whole lines of a corpus file that start with prefix, as channels
 * numbered from 1 into rb (reset first): the set they make. */
static inline struct plat_entry_set
macmon_channels(struct entry_builder *rb, const char *relative, const char *prefix)
{
    FILE *f = fopen(real_macs_file(relative), "r");
    struct plat_entry_set set;
    char line[2048];
    unsigned int n = 0;

    assert_non_null(f);
    entry_builder_reset(rb);
    while (fgets(line, sizeof(line), f) != NULL) {
        line[strcspn(line, "\r\n")] = '\0';
        if (strncmp(line, prefix, strlen(prefix)) == 0 && macmon_channel(rb, n + 1, line) == 0)
            n++;
    }
    fclose(f);
    entry_builder_finish(rb, &set);
    return set;
}

#endif
