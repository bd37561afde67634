/*
 * An agent's metric rows found by the metric's name, as clients address
 * metrics: for the tests and benchmarks that drive an agent in-process.
 */
#ifndef PMDA_DARWIN_METRIC_BY_NAME_H
#define PMDA_DARWIN_METRIC_BY_NAME_H

#include <string.h>

#include "agent.h"
#include "collector.h"

/* The row of desc called name, and the collector that owns it (unless
 * owner is NULL); NULL when no row has that name. */
static inline const struct metric_row *
metric_row_named(const struct agent_desc *desc, const char *name, const struct collector **owner)
{
    for (unsigned int c = 0; c < desc->ncollectors; c++) {
        const struct collector *col = desc->collectors[c];

        for (unsigned int r = 0; r < col->nrows; r++)
            if (strcmp(col->rows[r].name, name) == 0) {
                if (owner != NULL)
                    *owner = col;
                return &col->rows[r];
            }
    }
    return NULL;
}

#endif
