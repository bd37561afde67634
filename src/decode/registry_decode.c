#include "registry_decode.h"
#include "entry_props.h"
#include "entry_set.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* A CPU's logical number. XNU's IOPlatformExpert sets "logical-cpu-id" on
 * each CPU's nub as a 32-bit OSNumber (setProperty(..., 32U) in
 * iokit/Kernel/IOPlatformExpert.cpp, every release from xnu-7195, macOS 11,
 * to xnu-11417.121.6); XNU's own tests/cpucount.c reads it as a number. */
static int
cpu_number(const struct plat_prop *p, uint32_t *out)
{
    if (p == NULL || p->kind != PLAT_PROP_NUMBER || p->number > UINT32_MAX)
        return 0;
    *out = (uint32_t)p->number;
    return 1;
}

/* The cluster type: device-tree data of 1 to 8 bytes that XNU reads as a
 * little-endian integer and compares with 'E' and 'P' (ml_readprop and
 * ml_parse_cpu_topology in osfmk/arm64/machine_routines.c, xnu-11417.121.6):
 * the letter and NUL padding. Its printable bytes up to the first NUL. */
static int
cluster_type(const struct plat_prop *p, char *out, size_t outlen)
{
    size_t n = 0;

    if (p == NULL || p->kind != PLAT_PROP_DATA)
        return 0;
    for (uint32_t i = 0; i < p->len && n + 1 < outlen && p->data[i] > ' ' && p->data[i] < 0x7f; i++)
        out[n++] = (char)p->data[i];
    out[n] = '\0';
    return n > 0;
}

int
reg_cpu_clusters(const struct plat_entry_set *set, struct plat_cpu_cluster *out, unsigned int cap,
                 unsigned int *n)
{
    *n = 0;
    for (unsigned int i = 0; i < set->n && *n < cap; i++) {
        const struct plat_entry *e = &set->entry[i];
        struct plat_cpu_cluster *c = &out[*n];
        uint32_t id;

        if (cpu_number(entry_prop(e, "logical-cpu-id"), &id) &&
            cluster_type(entry_prop(e, "cluster-type"), c->type, sizeof(c->type))) {
            snprintf(c->cpu, sizeof(c->cpu), "cpu%u", (unsigned int)id);
            (*n)++;
        }
    }
    return *n > 0 ? 0 : -ENOENT;
}


/* A BSD name: "disk" and what follows, printable, no '/'. */
static int
bsd_name_of(const struct plat_entry *e, char *out, size_t outlen)
{
    entry_text(entry_prop_key(e, REG_BSD_NAME_KEY), out, outlen);
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

_Static_assert(REG_DISK_NSTATS <= 32 && REG_APFS_NSTATS <= 32, "every statistic has a bit of have");

static const struct key_place disk_places[] = { DISK_STATISTICS_KEYS(REG_PLACE) };

/* The nearest of e and the entries above it (at most the set's size: a
 * cycle in bad data ends there) with this characteristic. */
static void
characteristic(const struct plat_entry_set *set, const struct plat_entry *e, const char *key, char *out,
               size_t outlen)
{
    out[0] = '\0';
    for (unsigned int hops = 0; e != NULL && hops <= set->n && out[0] == '\0'; hops++, e = entry_by_id(set, e->parent))
        entry_text(entry_prop_key(e, key), out, outlen);
}

int
reg_disks(const struct plat_entry_set *set, struct reg_disk *out, unsigned int cap, unsigned int *n)
{
    *n = 0;
    for (unsigned int i = 0; i < set->n && *n < cap; i++) {
        const struct plat_entry *media = &set->entry[i], *driver = entry_by_id(set, media->parent);
        struct reg_disk *d = &out[*n];

        if (driver == NULL || entry_flag(entry_prop_key(media, REG_WHOLE_KEY)) == 0 ||
            !bsd_name_of(media, d->name, sizeof(d->name)) || name_taken(d->name, out, sizeof(*out), *n))
            continue;
        memset(d->stat, 0, sizeof(d->stat));
        d->device = driver->parent;
        d->have = 0;
        read_key_places(driver, disk_places, REG_NPLACES(disk_places), &d->have, d->stat);
        if (d->have == 0)
            continue;                   /* a partition's or a synthesized disk's parent: no driver */
        if (!entry_number(entry_prop_key(media, DISK_BLOCK_SIZE_KEY), &d->block_size))
            d->block_size = 0;
        if (!entry_number(entry_prop_key(media, DISK_SIZE_KEY), &d->size))
            d->size = 0;
        d->removable = entry_flag(entry_prop_key(media, DISK_REMOVABLE_KEY));
        characteristic(set, driver, DISK_MEDIUM_KEY, d->medium, sizeof(d->medium));
        characteristic(set, driver, DISK_INTERCONNECT_KEY, d->interconnect, sizeof(d->interconnect));
        characteristic(set, driver, DISK_LOCATION_KEY, d->location, sizeof(d->location));
        (*n)++;
    }
    return *n > 0 ? 0 : -ENOENT;
}

/* ---- APFS ----------------------------------------------------------------- */

static const struct key_place apfs_places[] = { APFS_STATISTICS_KEYS(REG_PLACE) };

static int
is_container(const struct plat_entry *e)
{
    return strcmp(e->class_name, "AppleAPFSContainer") == 0;
}

/* The nearest entry above e with a BSD name, its name in name ("" and NULL
 * for none); *hops counts the steps up, bounded by the set's size. */
static const struct plat_entry *
named_above(const struct plat_entry_set *set, const struct plat_entry *e, char *name, size_t len,
            unsigned int *hops)
{
    while ((e = entry_by_id(set, e->parent)) != NULL && (*hops)++ <= set->n)
        if (bsd_name_of(e, name, len))
            return e;
    name[0] = '\0';
    return NULL;
}

/* The container's name, its store and the store's whole disk, from the
 * BSD names above it, nearest first. */
static void
container_chain(const struct plat_entry_set *set, const struct plat_entry *e, struct reg_apfs_container *c)
{
    char name[PLAT_NAME_MAX];
    unsigned int hops = 0;

    c->name[0] = c->store[0] = c->store_disk[0] = '\0';
    for (unsigned int found = 0; (e = named_above(set, e, name, sizeof(name), &hops)) != NULL; found++) {
        if (found == 0)
            entry_copy_text(c->name, sizeof(c->name), name);
        else if (found == 1)
            entry_copy_text(c->store, sizeof(c->store), name);
        if (found >= 1 && entry_flag(entry_prop_key(e, REG_WHOLE_KEY)) == 1) {
            entry_copy_text(c->store_disk, sizeof(c->store_disk), name);
            return;
        }
    }
}

int
reg_apfs(const struct plat_entry_set *set, struct reg_apfs_container *c, unsigned int ccap, unsigned int *nc,
         struct reg_apfs_volume *v, unsigned int vcap, unsigned int *nv)
{
    *nc = *nv = 0;
    for (unsigned int i = 0; i < set->n && *nc < ccap; i++) {
        const struct plat_entry *e = &set->entry[i];
        struct reg_apfs_container *k = &c[*nc];

        if (!is_container(e))
            continue;
        container_chain(set, e, k);
        if (k->name[0] == '\0' || name_taken(k->name, c, sizeof(*c), *nc))
            continue;
        k->block_size_ok = entry_number(entry_prop_key(e, APFS_BLOCK_SIZE_KEY), &k->block_size);
        memset(k->stat, 0, sizeof(k->stat));
        k->have = 0;
        read_key_places(e, apfs_places, REG_NPLACES(apfs_places), &k->have, k->stat);
        (*nc)++;
    }
    for (unsigned int i = 0; i < set->n && *nv < vcap; i++) {
        const struct plat_entry *e = &set->entry[i], *parent = entry_by_id(set, e->parent);
        struct reg_apfs_volume *vol = &v[*nv];
        unsigned int hops = 0;

        if (parent == NULL || !is_container(parent) || !bsd_name_of(e, vol->name, sizeof(vol->name)) ||
            name_taken(vol->name, v, sizeof(*v), *nv))
            continue;
        named_above(set, parent, vol->container, sizeof(vol->container), &hops);    /* the container's name */
        entry_copy_text(vol->volume_name, sizeof(vol->volume_name), e->name);
        entry_text(entry_prop_in(e, APFS_ROLE_KEY, "0"), vol->role, sizeof(vol->role));
        vol->encrypted = entry_flag(entry_prop_key(e, APFS_ENCRYPTED_KEY));
        vol->locked = entry_flag(entry_prop_key(e, APFS_LOCKED_KEY));
        (*nv)++;
    }
    return *nc > 0 ? 0 : -ENOENT;
}
