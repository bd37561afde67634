#include "registry_decode.h"
#include "registry_props.h"
#include "registry_set.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

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


static int
has_statistics(const struct plat_reg_entry *e)
{
    for (unsigned int i = 0; i < e->nprops; i++)
        if (strncmp(e->prop[i].path, "Statistics.", 11) == 0)
            return 1;
    return 0;
}

/* A BSD name: "disk" and what follows, printable, no '/'. */
static int
bsd_name_of(const struct plat_reg_entry *e, char *out, size_t outlen)
{
    reg_text(reg_prop_in(e, "BSD Name", NULL), out, outlen);
    return out[0] != '\0' && strchr(out, '/') == NULL && strchr(out, '?') == NULL;
}

static int
name_taken(const char *name, const void *items, size_t stride, unsigned int n)
{
    for (unsigned int i = 0; i < n; i++)
        if (strcmp((const char *)items + i * stride, name) == 0)  /* each struct starts with its name */
            return 1;
    return 0;
}

/* ---- disks ---------------------------------------------------------------- */

static const char *const disk_stat_keys[REG_DISK_NSTATS] = {
    [REG_DISK_READS] = "Operations (Read)", [REG_DISK_WRITES] = "Operations (Write)",
    [REG_DISK_BYTES_READ] = "Bytes (Read)", [REG_DISK_BYTES_WRITTEN] = "Bytes (Write)",
    [REG_DISK_LATENT_READ_NS] = "Latency Time (Read)", [REG_DISK_LATENT_WRITE_NS] = "Latency Time (Write)",
    [REG_DISK_TOTAL_READ_NS] = "Total Time (Read)", [REG_DISK_TOTAL_WRITE_NS] = "Total Time (Write)",
    [REG_DISK_READ_ERRORS] = "Errors (Read)", [REG_DISK_WRITE_ERRORS] = "Errors (Write)",
    [REG_DISK_READ_RETRIES] = "Retries (Read)", [REG_DISK_WRITE_RETRIES] = "Retries (Write)",
};

/* The nearest of e and the entries above it (at most the set's size: a
 * cycle in bad data ends there) with this characteristic. */
static void
characteristic(const struct plat_reg_set *set, const struct plat_reg_entry *e, const char *dict, const char *key,
               char *out, size_t outlen)
{
    out[0] = '\0';
    for (unsigned int hops = 0; e != NULL && hops <= set->n && out[0] == '\0'; hops++, e = reg_entry_by_id(set, e->parent))
        reg_text(reg_prop_in(e, dict, key), out, outlen);
}

int
reg_disks(const struct plat_reg_set *set, struct reg_disk *out, unsigned int cap, unsigned int *n)
{
    *n = 0;
    for (unsigned int i = 0; i < set->n && *n < cap; i++) {
        const struct plat_reg_entry *media = &set->entry[i], *driver = reg_entry_by_id(set, media->parent);
        struct reg_disk *d = &out[*n];

        if (driver == NULL || !has_statistics(driver) || reg_flag(reg_prop(media, "Whole")) == 0 ||
            !bsd_name_of(media, d->name, sizeof(d->name)) || name_taken(d->name, out, sizeof(*out), *n))
            continue;
        d->have = 0;
        for (unsigned int s = 0; s < REG_DISK_NSTATS; s++)
            if (reg_number(reg_prop_in(driver, "Statistics", disk_stat_keys[s]), &d->stat[s]))
                d->have |= 1u << s;
            else
                d->stat[s] = 0;
        if (!reg_number(reg_prop_in(media, "Preferred Block Size", NULL), &d->block_size))
            d->block_size = 0;
        if (!reg_number(reg_prop(media, "Size"), &d->size))
            d->size = 0;
        d->removable = reg_flag(reg_prop(media, "Removable"));
        characteristic(set, driver, "Device Characteristics", "Medium Type", d->medium, sizeof(d->medium));
        characteristic(set, driver, "Protocol Characteristics", "Physical Interconnect", d->interconnect,
                       sizeof(d->interconnect));
        characteristic(set, driver, "Protocol Characteristics", "Physical Interconnect Location", d->location,
                       sizeof(d->location));
        (*n)++;
    }
    return *n > 0 ? 0 : -ENOENT;
}

/* ---- APFS ----------------------------------------------------------------- */

static const char *const apfs_stat_keys[REG_APFS_NSTATS] = {
    [REG_APFS_BYTES_READ] = "Bytes read from block device",
    [REG_APFS_BYTES_WRITTEN] = "Bytes written to block device",
    [REG_APFS_READ_REQUESTS] = "Read requests sent to block device",
    [REG_APFS_WRITE_REQUESTS] = "Write requests sent to block device",
    [REG_APFS_TRANSACTIONS] = "Number of transactions flushed",
    [REG_APFS_CACHE_HITS] = "Object cache: Number of hits",
    [REG_APFS_CACHE_EVICTIONS] = "Object cache: Number of evictions",
    [REG_APFS_READ_ERRORS] = "Metadata: Number of read errors",
    [REG_APFS_WRITE_ERRORS] = "Metadata: Number of write errors",
};

static int
is_container(const struct plat_reg_entry *e)
{
    return strcmp(e->class_name, "AppleAPFSContainer") == 0;
}

/* The container's name, its store and the store's whole disk, from the
 * BSD names above it, nearest first. */
static void
container_chain(const struct plat_reg_set *set, const struct plat_reg_entry *e, struct reg_apfs_container *c)
{
    unsigned int found = 0;

    c->name[0] = c->store[0] = c->store_disk[0] = '\0';
    for (unsigned int hops = 0; (e = reg_entry_by_id(set, e->parent)) != NULL && hops <= set->n; hops++) {
        char name[PLAT_NAME_MAX];

        if (!bsd_name_of(e, name, sizeof(name)))
            continue;
        if (found == 0)
            snprintf(c->name, sizeof(c->name), "%s", name);
        else if (found == 1)
            snprintf(c->store, sizeof(c->store), "%s", name);
        if (found >= 1 && reg_flag(reg_prop(e, "Whole")) == 1) {
            snprintf(c->store_disk, sizeof(c->store_disk), "%s", name);
            return;
        }
        found++;
    }
}

int
reg_apfs(const struct plat_reg_set *set, struct reg_apfs_container *c, unsigned int ccap, unsigned int *nc,
         struct reg_apfs_volume *v, unsigned int vcap, unsigned int *nv)
{
    *nc = *nv = 0;
    for (unsigned int i = 0; i < set->n && *nc < ccap; i++) {
        const struct plat_reg_entry *e = &set->entry[i];
        struct reg_apfs_container *k = &c[*nc];

        if (!is_container(e))
            continue;
        container_chain(set, e, k);
        if (k->name[0] == '\0' || name_taken(k->name, c, sizeof(*c), *nc))
            continue;
        k->block_size_ok = reg_number(reg_prop(e, "ContainerBlockSize"), &k->block_size);
        k->have = 0;
        for (unsigned int s = 0; s < REG_APFS_NSTATS; s++)
            if (reg_number(reg_prop_in(e, "Statistics", apfs_stat_keys[s]), &k->stat[s]))
                k->have |= 1u << s;
            else
                k->stat[s] = 0;
        (*nc)++;
    }
    for (unsigned int i = 0; i < set->n && *nv < vcap; i++) {
        const struct plat_reg_entry *e = &set->entry[i], *parent = reg_entry_by_id(set, e->parent);
        struct reg_apfs_volume *vol = &v[*nv];
        struct reg_apfs_container owner;

        if (parent == NULL || !is_container(parent) || !bsd_name_of(e, vol->name, sizeof(vol->name)) ||
            name_taken(vol->name, v, sizeof(*v), *nv))
            continue;
        container_chain(set, parent, &owner);
        snprintf(vol->container, sizeof(vol->container), "%s", owner.name);
        snprintf(vol->volume_name, sizeof(vol->volume_name), "%s", e->name);
        reg_text(reg_prop_in(e, "Role", "0"), vol->role, sizeof(vol->role));
        vol->encrypted = reg_flag(reg_prop(e, "Encrypted"));
        vol->locked = reg_flag(reg_prop(e, "Locked"));
        (*nv)++;
    }
    return *nc > 0 ? 0 : -ENOENT;
}
