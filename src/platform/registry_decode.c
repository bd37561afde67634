#include "registry_decode.h"
#include "registry_set.h"

#include <errno.h>
#include <stdio.h>

/* A device-tree number: a CFNumber, or data holding a little-endian 32-bit value. */
static int
tree_number(const struct plat_reg_prop *p, uint32_t *out)
{
    if (p == NULL)
        return 0;
    if (p->kind == PLAT_REG_NUMBER && p->number <= UINT32_MAX) {
        *out = (uint32_t)p->number;
        return 1;
    }
    if (p->kind == PLAT_REG_DATA && p->len >= 4) {
        *out = (uint32_t)p->data[0] | (uint32_t)p->data[1] << 8 | (uint32_t)p->data[2] << 16 |
               (uint32_t)p->data[3] << 24;
        return 1;
    }
    return 0;
}

/* Device-tree text: data up to its first NUL, printable characters only. */
static int
tree_word(const struct plat_reg_prop *p, char *out, size_t outlen)
{
    size_t n = 0;

    if (p == NULL || p->kind != PLAT_REG_DATA)
        return 0;
    for (uint32_t i = 0; i < p->len && n + 1 < outlen && p->data[i] > ' ' && p->data[i] < 0x7f; i++)
        out[n++] = (char)p->data[i];
    out[n] = '\0';
    return n > 0;
}

int
reg_cpu_clusters(const struct plat_reg_set *set, struct plat_cpu_cluster *out, unsigned int cap,
                 unsigned int *n)
{
    *n = 0;
    for (unsigned int i = 0; i < set->n && *n < cap; i++) {
        const struct plat_reg_entry *e = &set->entry[i];
        struct plat_cpu_cluster *c = &out[*n];
        uint32_t id;

        if (tree_number(reg_prop(e, "logical-cpu-id"), &id) &&
            tree_word(reg_prop(e, "cluster-type"), c->type, sizeof(c->type))) {
            snprintf(c->cpu, sizeof(c->cpu), "cpu%u", (unsigned int)id);
            (*n)++;
        }
    }
    return *n > 0 ? 0 : -ENOENT;
}
