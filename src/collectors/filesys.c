/*
 * The filesys collector: mounted filesystems as df shows them (cluster 5),
 * and what df does not print but a Mac administrator asks (cluster 105):
 * whether one is mounted read-only (the sealed APFS system volume is) and
 * whether it is local. All from getfsstat with MNT_NOWAIT (the kernel's
 * cached statistics: a dead NFS or SMB server cannot stall pmcd, and its
 * figures are those of its last refresh).
 *
 * Instances are mount points (unique, where f_mntfromname repeats), kept
 * by name. Filesystems that hold no storage (devfs,
 * autofs's maps, fdesc) are not instances and not counted by hinv.nfilesys.
 * Sizes are in KiB, computed without overflow however large the block
 * counts. APFS volumes of one container share its space: each reports the
 * container's size as f_blocks, the container's free space as f_bavail,
 * and size less its own use as f_bfree (so df's Used is the volume's own):
 * sum used, not capacity, over a container; the "apfs_container" label
 * says which volumes share.
 */
#include "array_grow.h"
#include "collector.h"
#include "metric_ids.h"
#include "instance_names.h"
#include "metric_units.h"
#include "convert.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    ITEM_NFILESYS = 31, ITEM_CAPACITY, ITEM_USED, ITEM_FREE, ITEM_USEDFILES, ITEM_FREEFILES, ITEM_MOUNTDIR,
    ITEM_FULL, ITEM_BLOCKSIZE, ITEM_AVAIL, ITEM_TYPE, ITEM_MAXFILES = 129
};
enum { ITEM_READONLY = 0, ITEM_LOCAL };     /* cluster 105 */

struct fs_entry {
    int inst;
    struct plat_mount m;
    uint64_t used_blocks, used_files;       /* as df counts them: the total less the free, never below 0 */
};

struct filesys_state {
    struct fs_entry *mounts;
    unsigned int nmounts, mounts_cap, logged_clash;
};

static row_derive full;

/* units then the row's binding or derive function */
#define FS(name, item, type, sem, ...) { "filesys." name, CLUSTER_FILESYS, item, type, INDOM_FILESYS, sem, __VA_ARGS__ }
#define STATE(name, item, mask) { "filesys." name, CLUSTER_FILESYS_STATE, item, PM_TYPE_U32, INDOM_FILESYS, \
                                  PM_SEM_INSTANT, UNITS_NONE, FIELD_FLAG_OF(struct fs_entry, m.flags, mask) }
/* A count of blocks in KiB, at the filesystem's block size. */
#define KB(member) FIELD_SCALED_OF(struct fs_entry, member, FIELD_NO_STATUS, m.bsize)
#define PLAIN(member) FIELD_ALWAYS(struct fs_entry, member, FIELD_PLAIN)

static const struct metric_row rows[] = {
    { "hinv.nfilesys", CLUSTER_FILESYS, ITEM_NFILESYS, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_DISCRETE, UNITS_NONE,
      FIELD_ALWAYS(struct filesys_state, nmounts, FIELD_PLAIN) },
    FS("capacity", ITEM_CAPACITY, PM_TYPE_U64, PM_SEM_DISCRETE, UNITS_KBYTE, KB(m.blocks)),
    FS("used", ITEM_USED, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE, KB(used_blocks)),
    FS("free", ITEM_FREE, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE, KB(m.bfree)),
    FS("usedfiles", ITEM_USEDFILES, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_NONE, PLAIN(used_files)),
    FS("freefiles", ITEM_FREEFILES, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_NONE, PLAIN(m.ffree)),
    FS("mountdir", ITEM_MOUNTDIR, PM_TYPE_STRING, PM_SEM_DISCRETE, UNITS_NONE, FIELD_TEXT_ALWAYS(struct fs_entry, m.on)),
    FS("full", ITEM_FULL, PM_TYPE_DOUBLE, PM_SEM_INSTANT, UNITS_NONE, .derive = full),
    FS("blocksize", ITEM_BLOCKSIZE, PM_TYPE_U32, PM_SEM_INSTANT, PMDA_PMUNITS(1, 0, 0, PM_SPACE_BYTE, 0, 0),
       PLAIN(m.bsize)),
    FS("avail", ITEM_AVAIL, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_KBYTE, KB(m.bavail)),
    FS("type", ITEM_TYPE, PM_TYPE_STRING, PM_SEM_DISCRETE, UNITS_NONE, FIELD_TEXT_ALWAYS(struct fs_entry, m.fstype)),
    FS("maxfiles", ITEM_MAXFILES, PM_TYPE_U64, PM_SEM_INSTANT, UNITS_NONE, PLAIN(m.files)),
    STATE("readonly", ITEM_READONLY, PLAT_MNT_RDONLY),
    STATE("local", ITEM_LOCAL, PLAT_MNT_LOCAL),
};

static const struct indom_def indom = { .serial = INDOM_FILESYS, .label_name = "filesystem",
                                        .table = INSTANCES_AT(struct filesys_state, mounts, nmounts, struct fs_entry,
                                                              inst) };

/* Filesystems that hold no storage of their own. */
static int
holds_storage(const struct plat_mount *m)
{
    static const char *const pseudo[] = { "devfs", "autofs", "fdesc", "volfs" };

    for (size_t i = 0; i < sizeof(pseudo) / sizeof(pseudo[0]); i++)
        if (strcmp(m->fstype, pseudo[i]) == 0)
            return 0;
    return m->on[0] != '\0';
}

static int
mounted_twice(const struct filesys_state *s, const char *on)
{
    for (unsigned int i = 0; i < s->nmounts; i++)
        if (strcmp(s->mounts[i].m.on, on) == 0)
            return 1;
    return 0;
}

static uint64_t
less_or_zero(uint64_t total, uint64_t part)
{
    return total > part ? total - part : 0;
}

static void
keep(struct fs_entry *e, int inst, const struct plat_mount *m)
{
    e->inst = inst;
    e->m = *m;
    e->used_blocks = less_or_zero(m->blocks, m->bfree);
    e->used_files = less_or_zero(m->files, m->ffree);
}

static int
filesys_refresh(void *state, struct refresh_call *call)
{
    struct filesys_state *s = state;
    const struct platform *p = call->p;
    pmInDom id = call->indom;
    struct plat_mount_set set;
    unsigned int clashed = 0;
    int sts;

    if ((sts = p->mounts(p->ctx, &set)) < 0)
        return collector_error(sts);
    names_begin(id);
    s->nmounts = 0;
    for (unsigned int i = 0; i < set.n; i++) {
        const struct plat_mount *m = &set.mount[i];

        if (!holds_storage(m) || mounted_twice(s, m->on))
            continue;               /* one over another at the same point: the first listed stands */
        if (array_grow((void **)&s->mounts, &s->mounts_cap, s->nmounts, sizeof(*s->mounts)) < 0)
            return -ENOMEM;
        /* macOS mounts a second volume called Untitled at "/Volumes/Untitled 1",
         * which PCP cannot tell from "/Volumes/Untitled": it is left out. */
        if ((sts = names_add(id, m->on)) == -EEXIST) {
            clashed = 1;
            continue;
        }
        if (sts < 0)
            return sts;
        keep(&s->mounts[s->nmounts++], sts, m);
    }
    collector_note_parts(call, NULL, clashed, &s->logged_clash,
                         "a mount point is the same as another up to a space, and PCP tells instances apart by "
                         "that part: it has no instance");
    return 0;
}

/* df's Capacity: used / (used + available to users), without its rounding up. */
static int
full(const void *state, const void *entry, const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    const struct fs_entry *e = entry;
    uint64_t used = blocks_to_kbytes(e->used_blocks, e->m.bsize), avail = blocks_to_kbytes(e->m.bavail, e->m.bsize);

    (void)state;
    (void)row;
    (void)inst;
    if (used == 0 && avail == 0)
        return PMDA_FETCH_NOVALUES;     /* an empty or size-less filesystem has no fullness */
    atom->d = 100.0 * (double)used / ((double)used + (double)avail);
    return PMDA_FETCH_STATIC;
}

/* The APFS container of a volume's device: "/dev/disk3s5" and its
 * snapshot "/dev/disk3s1s1" are volumes of container disk3. */
static int
apfs_container(const struct plat_mount *m, char *out, size_t len)
{
    const char *dev = m->from;
    size_t n = 0;

    if (strcmp(m->fstype, "apfs") != 0 || strncmp(dev, "/dev/disk", 9) != 0)
        return 0;
    dev += 5;
    while (n + 1 < len && (n < 4 || (dev[n] >= '0' && dev[n] <= '9')))
        out[n] = dev[n], n++;
    out[n] = '\0';
    return n > 4;
}

static int
filesys_labels(const void *state, pmInDom id, unsigned int inst, char *json, size_t len)
{
    const struct fs_entry *e = collector_entry(&indom, state, inst);
    const struct plat_mount *m;
    char device[PLAT_PATH_MAX], fstype[PLAT_FSTYPE_MAX], container[PLAT_NAME_MAX];
    int n;

    (void)id;
    if (e == NULL)
        return -1;
    m = &e->m;
    collector_label_text(m->from, device, sizeof(device));
    collector_label_text(m->fstype, fstype, sizeof(fstype));
    n = snprintf(json, len, "{\"fstype\":\"%s\",\"device\":\"%s\",\"local\":%s", fstype, device,
                 m->flags & PLAT_MNT_LOCAL ? "true" : "false");
    if (n > 0 && (size_t)n < len && apfs_container(m, container, sizeof(container)))
        n += snprintf(json + n, len - (size_t)n, ",\"apfs_container\":\"%s\"", container);
    if (n > 0 && (size_t)n < len)
        snprintf(json + n, len - (size_t)n, "}");
    return 0;
}

static void
filesys_teardown(void *state)
{
    free(((struct filesys_state *)state)->mounts);
}

const struct collector filesys_collector = {
    .name = "filesys",
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .indom = &indom,
    .state_size = sizeof(struct filesys_state),
    .refresh = filesys_refresh,
    .instance_labels = filesys_labels,
    .teardown = filesys_teardown,
};
