/*
 * The metric names of an agent's table, one a line ("darwin" or "proc"):
 * what the integration tests compare with the PMNS and count, so that no
 * test types the number of metrics.
 */
#include "agent.h"
#include "collector.h"

#include <stdio.h>
#include <string.h>

int
main(int argc, char **argv)
{
    const struct agent_desc *agent = argc == 2 && strcmp(argv[1], "proc") == 0 ? &proc_agent : &darwin_agent;

    if (argc != 2 || (strcmp(argv[1], "proc") != 0 && strcmp(argv[1], "darwin") != 0)) {
        fprintf(stderr, "usage: %s darwin|proc\n", argv[0]);
        return 2;
    }
    for (unsigned int c = 0; c < agent->ncollectors; c++)
        for (unsigned int r = 0; r < agent->collectors[c]->nrows; r++)
            puts(agent->collectors[c]->rows[r].name);
    return 0;
}
