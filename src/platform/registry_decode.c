#include "registry_decode.h"
#include "registry_set.h"

#include <errno.h>
#include <stdio.h>

/* A CPU's logical number. XNU's IOPlatformExpert sets "logical-cpu-id" on
 * each CPU's nub as a 32-bit OSNumber (setProperty(..., 32U) in
 * iokit/Kernel/IOPlatformExpert.cpp, every release from xnu-7195, macOS 11,
 * to xnu-11417.121.6); XNU's own tests/cpucount.c reads it as a number. */
static int
cpu_number(const struct plat_reg_prop *p, uint32_t *out)
{
    if (p == NULL || p->kind != PLAT_REG_NUMBER || p->number > UINT32_MAX)
        return 0;
    *out = (uint32_t)p->number;
    return 1;
}

/* The cluster type: device-tree data of 1 to 8 bytes that XNU reads as a
 * little-endian integer and compares with 'E' and 'P' (ml_readprop and
 * ml_parse_cpu_topology in osfmk/arm64/machine_routines.c, xnu-11417.121.6):
 * the letter and NUL padding. Its printable bytes up to the first NUL. */
static int
cluster_type(const struct plat_reg_prop *p, char *out, size_t outlen)
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

        if (cpu_number(reg_prop(e, "logical-cpu-id"), &id) &&
            cluster_type(reg_prop(e, "cluster-type"), c->type, sizeof(c->type))) {
            snprintf(c->cpu, sizeof(c->cpu), "cpu%u", (unsigned int)id);
            (*n)++;
        }
    }
    return *n > 0 ? 0 : -ENOENT;
}
