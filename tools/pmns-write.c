/*
 * Writes an agent's PMNS from its metric rows: every row's name with its
 * PMID, and each upstream alias (a name upstream's agent gave a PMID that
 * this agent serves under another name), read from the compat table. The
 * files in pmns/ are its output; the test pmns.generated keeps them so.
 *
 * usage: pmns-write darwin|proc COMPAT_TSV > FILE
 */
#include "agent.h"
#include "collector.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct leaf {
    char *name;
    char pmid[32];      /* "DARWIN:c:i" */
};

static struct leaf *leaves;
static size_t nleaves;

static void
add_leaf(const char *name, const char *pmid)
{
    if ((leaves = realloc(leaves, (nleaves + 1) * sizeof(*leaves))) == NULL ||
        (leaves[nleaves].name = strdup(name)) == NULL) {
        perror("pmns-write");
        exit(1);
    }
    snprintf(leaves[nleaves++].pmid, sizeof(leaves[0].pmid), "%s", pmid);
}

static const char *
served_name(const char *pmid)
{
    for (size_t i = 0; i < nleaves; i++)
        if (strcmp(leaves[i].pmid, pmid) == 0)
            return leaves[i].name;
    return NULL;
}

/* The compat table's rows are "name<TAB>domain.cluster.item<TAB>...". */
static void
add_aliases(const char *path, const char *domain)
{
    FILE *fp = fopen(path, "r");
    char line[512];

    if (fp == NULL) {
        perror(path);
        exit(1);
    }
    while (fgets(line, sizeof(line), fp) != NULL) {
        char *name = strtok(line, "\t\n"), *id = strtok(NULL, "\t\n"), pmid[32];
        unsigned int d, c, i;
        const char *served;

        if (name == NULL || id == NULL || sscanf(id, "%u.%u.%u", &d, &c, &i) != 3)
            continue;   /* the header */
        snprintf(pmid, sizeof(pmid), "%s:%u:%u", domain, c, i);
        if ((served = served_name(pmid)) != NULL && strcmp(served, name) != 0)
            add_leaf(name, pmid);
    }
    fclose(fp);
}

static int
by_name(const void *a, const void *b)
{
    return strcmp(((const struct leaf *)a)->name, ((const struct leaf *)b)->name);
}

/* Whether name lies under node ("" is the root), and its next component. */
static int
child_of(const char *node, const char *name, const char **child, size_t *len)
{
    size_t n = strlen(node);

    if (n > 0 && (strncmp(name, node, n) != 0 || name[n] != '.'))
        return 0;
    *child = name + (n > 0 ? n + 1 : 0);
    *len = strcspn(*child, ".");
    return 1;
}

/* The node's block: its children, each once, in name order. */
static void
write_node(const char *node)
{
    const char *last = NULL, *child;
    size_t last_len = 0, len;

    printf("\n%s {\n", node);
    for (size_t i = 0; i < nleaves; i++) {
        if (!child_of(node, leaves[i].name, &child, &len) || (last != NULL && len == last_len &&
                                                              strncmp(child, last, len) == 0))
            continue;
        if (child[len] == '\0')
            printf("    %-19s %s\n", child, leaves[i].pmid);
        else
            printf("    %.*s\n", (int)len, child);
        last = child;
        last_len = len;
    }
    printf("}\n");
}

/* Every inner node, parents before children: each distinct proper prefix
 * of a name, in name order. */
static void
write_nodes(void)
{
    char prev[256] = "";

    for (size_t i = 0; i < nleaves; i++) {
        const char *name = leaves[i].name;

        for (const char *dot = strchr(name, '.'); dot != NULL; dot = strchr(dot + 1, '.')) {
            char node[256];
            size_t n = (size_t)(dot - name);

            if (n >= sizeof(node))
                continue;
            memcpy(node, name, n);
            node[n] = '\0';
            /* a prefix seen before is a prefix of the previous name too */
            if (strncmp(prev, node, n) == 0 && (prev[n] == '.' || prev[n] == '\0'))
                continue;
            write_node(node);
        }
        snprintf(prev, sizeof(prev), "%s", name);
    }
}

int
main(int argc, char **argv)
{
    int proc = argc == 3 && strcmp(argv[1], "proc") == 0;
    const struct agent_desc *agent = proc ? &proc_agent : &darwin_agent;
    const char *domain = proc ? "PROC" : "DARWIN";

    if (argc != 3 || (!proc && strcmp(argv[1], "darwin") != 0)) {
        fprintf(stderr, "usage: %s darwin|proc COMPAT_TSV\n", argv[0]);
        return 2;
    }
    for (unsigned int c = 0; c < agent->ncollectors; c++)
        for (unsigned int r = 0; r < agent->collectors[c]->nrows; r++) {
            const struct metric_row *row = &agent->collectors[c]->rows[r];
            char pmid[32];

            snprintf(pmid, sizeof(pmid), "%s:%u:%u", domain, row->cluster, row->item);
            add_leaf(row->name, pmid);
        }
    add_aliases(argv[2], domain);
    qsort(leaves, nleaves, sizeof(*leaves), by_name);
    printf("/*\n * The %s agent's metric names and PMIDs (upstream's where upstream has\n"
           " * the metric), written by tools/pmns-write from the metric rows: edit\n"
           " * the rows, not this file.\n */\n", agent->name);
    write_nodes();
    for (size_t i = 0; i < nleaves; i++)
        free(leaves[i].name);
    free(leaves);
    return 0;
}
