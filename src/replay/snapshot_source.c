/*
 * The snapshot platform source: answers every platform call from a snapshot
 * file at the replay position that the elapsed time selects.
 */
#include "array_grow.h"
#include "platform.h"
#include "replay.h"
#include "registry_decode.h"
#include "entry_set.h"
#include "snapshot_proc.h"
#include "snapshot_records.h"
#include "snapshot_store.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct snapshot_source {
    struct snap *snap;
    uint64_t (*now_usec)(void);
    int started;
    uint64_t start_usec;
    struct snap_field *schema;          /* the described keys, the sysctl keys, and a terminator */
    struct plat_cpu *cpus;
    unsigned int cpus_cap;
    struct plat_login *logins;
    unsigned int logins_cap;
    struct plat_cpu_cluster clusters[PLAT_MAX_CPUS];
    struct plat_netif *netifs;
    unsigned int netifs_cap;
    struct entry_builder entries;
    struct plat_mount *mounts;
    unsigned int mounts_cap;
    struct snap_proc_state procs;
    struct rec_cache found;             /* the records read at every refresh */
    const struct snap_entry *sysctl[PLAT_SYSCTL_NGROUPS][PLAT_SYSCTL_SET_MAX];
    unsigned char sysctl_found[PLAT_SYSCTL_NGROUPS];
    struct query_plan *plans;             /* one per registry query asked */
};

static uint64_t
monotonic_usec(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

/* Move the replay position to the current time; replay starts at the first call. */
static struct snap *
at_now(void *ctx)
{
    struct snapshot_source *src = ctx;
    uint64_t now = src->now_usec();

    if (!src->started) {
        src->started = 1;
        src->start_usec = now;
    }
    snap_set_position(src->snap, now - src->start_usec);
    snap_clear_error(src->snap);        /* each platform call reports its own failures */
    return src->snap;
}

/* A record at the replay position, its keys found at the first read. */
#define READ(ctx, desc, instance, out) \
    rec_read_found(&((struct snapshot_source *)(ctx))->found, at_now(ctx), desc, instance, out)

static int
snapshot_host(void *ctx, struct plat_host *out)
{
    return READ(ctx, &rec_host, NULL, out);
}

static int
snapshot_memory(void *ctx, struct plat_memory *out)
{
    return READ(ctx, &rec_memory, NULL, out);     /* each part has its own status */
}

static int
snapshot_uname(void *ctx, struct plat_uname *out)
{
    return READ(ctx, &rec_uname, NULL, out);
}

static int
snapshot_loadavg(void *ctx, struct plat_loadavg *out)
{
    return READ(ctx, &rec_loadavg, NULL, out);
}

static int
snapshot_cpu_total(void *ctx, struct plat_cpu_ticks *out)
{
    return READ(ctx, &rec_ticks, NULL, out);
}

static int
snapshot_cpus(void *ctx, struct plat_cpu_set *out)
{
    struct snapshot_source *src = ctx;
    struct snap *s = at_now(ctx);
    unsigned int n = 0;
    const char *name;
    int sts;

    while ((name = snap_instance(s, "cpu", n)) != NULL) {
        struct plat_cpu *cpu;

        if ((sts = array_grow((void **)&src->cpus, &src->cpus_cap, n, sizeof(*src->cpus))) < 0)
            return sts;
        cpu = &src->cpus[n];
        entry_copy_text(cpu->name, sizeof(cpu->name), name);
        if ((sts = rec_read_found(&src->found, s, &rec_ticks, name, &cpu->ticks)) < 0)
            return sts;
        n++;
    }
    out->ncpu = n;
    out->cpu = src->cpus;
    return 0;
}

static int
snapshot_clock(void *ctx, struct plat_clock *out)
{
    struct snap *s = at_now(ctx);
    uint64_t now;
    int sts;

    if ((sts = rec_read_found(&((struct snapshot_source *)ctx)->found, s, &rec_clock, NULL, out)) < 0)
        return sts;
    snap_now(s, &now);                  /* the replayed sample's time */
    out->now_sec = (int64_t)(now / 1000000);
    out->now_usec = (int32_t)(now % 1000000);
    return 0;
}

/* A group's sysctls, their keys found at the first read. */
static void
read_sysctls(struct snapshot_source *src, struct snap *s, enum plat_sysctl_group group,
             struct plat_sysctl_set *out)
{
    unsigned int n;
    const struct plat_sysctl_def *defs = plat_sysctl_defs(group, &n);
    char key[128];

    for (unsigned int i = 0; !src->sysctl_found[group] && i < n; i++) {
        snprintf(key, sizeof(key), "sysctl.%s", defs[i].name);
        src->sysctl[group][i] = snap_find(s, key);
    }
    src->sysctl_found[group] = 1;
    out->n = n;
    for (unsigned int i = 0; i < n; i++) {
        if (src->sysctl[group][i] != NULL) {
            out->status[i] = snap_u64_of(s, src->sysctl[group][i], &out->value[i]);
            continue;
        }
        snprintf(key, sizeof(key), "sysctl.%s", defs[i].name);
        out->status[i] = snap_missing(s, key);
    }
}

static int
snapshot_sysctls(void *ctx, enum plat_sysctl_group group, struct plat_sysctl_set *out)
{
    unsigned int n;

    if (plat_sysctl_defs(group, &n) == NULL)
        return -EINVAL;
    read_sysctls(ctx, at_now(ctx), group, out);
    return 0;
}

static int
snapshot_tasks(void *ctx, struct plat_tasks *out)
{
    return READ(ctx, &rec_tasks, NULL, out);
}

/* Records are instances of "utmpx"; one that a sample lacks is not in it. */
static int
snapshot_logins(void *ctx, struct plat_login_set *out)
{
    struct snapshot_source *src = ctx;
    struct snap *s = at_now(ctx);
    unsigned int n = 0;
    const char *name;

    for (unsigned int i = 0; (name = snap_instance(s, "utmpx", i)) != NULL; i++) {
        int sts;

        if (!rec_present(&src->found, s, &rec_login, name))
            continue;
        if ((sts = array_grow((void **)&src->logins, &src->logins_cap, n, sizeof(*src->logins))) < 0)
            return sts;
        if ((sts = rec_read_found(&src->found, s, &rec_login, name, &src->logins[n])) < 0)
            return sts;
        n++;
    }
    out->n = n;
    out->login = src->logins;
    return 0;
}

/* What a registry query reads from the file, found at its first answer:
 * the recorded entries "ioreg[MATCH#ID]" and, of each, the properties the
 * query asks for (an imported dump holds more: the live reader would
 * record none of those), in the order the file gives them: the source's.
 * An IOReport channel's states come in the order of their indexes in
 * libIOReport, which their names' order is not (V10P8 sorts before V1P17,
 * P10 before P2). */
struct plan_prop {
    const char *path;                   /* points into the entry's key */
    const struct snap_entry *value;
    int counter;
    int line;                           /* where the file first gives it */
};

struct plan_entry {
    uint64_t id;
    const struct snap_entry *name, *class_name, *parent;
    const char *parent_text;            /* the parent's text last read, and its id: */
    uint64_t parent_id;                 /* parsed once for each sample that gives it */
    unsigned int first, nprops;         /* its properties in the plan's prop[] */
};

struct query_plan {
    const struct plat_query *query;
    struct plan_entry *entry;
    unsigned int n, entry_cap;
    struct plan_prop *prop;
    unsigned int nprops, prop_cap;
    struct query_plan *next;
};

static const struct snap_entry *
find_field(struct snap *s, const char *instance, const char *field)
{
    char key[SNAP_KEY_MAX];

    snprintf(key, sizeof(key), "ioreg[%s].%s", instance, field);
    return snap_find(s, key);
}

static int
in_file_order(const void *a, const void *b)
{
    int x = ((const struct plan_prop *)a)->line, y = ((const struct plan_prop *)b)->line;

    return (x > y) - (x < y);
}

static int
plan_entry(struct query_plan *p, struct snap *s, const char *instance, uint64_t id)
{
    const struct plat_query *q = p->query;
    char prefix[SNAP_KEY_MAX];
    size_t cursor = 0, plen = (size_t)snprintf(prefix, sizeof(prefix), "ioreg[%s].prop.", instance);
    int registry = query_is_registry(q), sts;
    struct plan_entry *e;
    const struct snap_entry *value;
    const char *k;

    if (plen >= sizeof(prefix))
        return 0;                       /* no key of the file is that long */
    if ((sts = array_grow((void **)&p->entry, &p->entry_cap, p->n, sizeof(*p->entry))) < 0)
        return sts;
    e = &p->entry[p->n++];
    *e = (struct plan_entry){ .id = id, .name = find_field(s, instance, "name"),
                              .class_name = find_field(s, instance, "class"),
                              .parent = find_field(s, instance, "parent"), .first = p->nprops };
    while ((k = snap_key_with_prefix(s, prefix, &cursor)) != NULL) {
        if (registry && !entry_path_wanted(q->keys, k + plen))
            continue;
        if ((sts = array_grow((void **)&p->prop, &p->prop_cap, p->nprops, sizeof(*p->prop))) < 0)
            return sts;
        value = snap_find(s, k);
        p->prop[p->nprops++] = (struct plan_prop){ k + plen, value, rec_registry_is_counter(q, k + plen),
                                                   snap_first_line(s, value) };
        e->nprops++;
    }
    if (e->nprops > 1)
        qsort(p->prop + e->first, e->nprops, sizeof(*p->prop), in_file_order);
    return 0;
}

static void
plans_free(struct query_plan *p)
{
    while (p != NULL) {
        struct query_plan *next = p->next;

        free(p->entry);
        free(p->prop);
        free(p);
        p = next;
    }
}

/* The plan of query q, made at its first answer; NULL without memory (and
 * then none is kept, so that the next answer tries again whole). */
static struct query_plan *
plan_of(struct snapshot_source *src, struct snap *s, const struct plat_query *q)
{
    size_t mlen = strlen(q->match);
    struct query_plan *p;
    const char *inst;

    for (p = src->plans; p != NULL; p = p->next)
        if (p->query == q)
            return p;
    if ((p = calloc(1, sizeof(*p))) == NULL)
        return NULL;
    p->query = q;
    for (unsigned int i = 0; (inst = snap_instance(s, "ioreg", i)) != NULL; i++)
        if (strncmp(inst, q->match, mlen) == 0 && inst[mlen] == '#' &&
            plan_entry(p, s, inst, strtoull(inst + mlen + 1, NULL, 16)) < 0) {
            plans_free(p);
            return NULL;
        }
    p->next = src->plans;
    src->plans = p;
    return p;
}

/* One planned entry as the current sample has it, the query's counters
 * interpolated between samples. */
static int
read_entry(struct entry_builder *b, struct snap *s, const struct query_plan *p, struct plan_entry *e)
{
    const char *name = "", *class_name = "", *parent = NULL;
    int sts;

    if (snap_has_of(s, e->name))
        snap_text_of(s, e->name, &name);
    if (snap_has_of(s, e->parent))
        snap_text_of(s, e->parent, &parent);
    if ((sts = snap_text_of(s, e->class_name, &class_name)) < 0)
        return sts;
    if (parent != e->parent_text) {     /* a sample's text stays where it is */
        e->parent_text = parent;
        e->parent_id = parent ? strtoull(parent, NULL, 0) : 0;
    }
    if ((sts = entry_builder_entry(b, e->id, e->parent_id, name, class_name)) < 0)
        return sts;
    for (unsigned int i = e->first; i < e->first + e->nprops; i++) {
        struct plat_prop value;

        if ((sts = snap_registry_of(s, p->prop[i].value, p->prop[i].counter, &value)) == -ENOENT)
            continue;                   /* not in the sample being replayed */
        if (sts < 0 || (sts = entry_builder_prop(b, p->prop[i].path, &value)) < 0)
            return sts;
    }
    return 0;
}

/* An entry whose class a sample lacks is not there in it. */
static int
read_entries(struct snapshot_source *src, struct snap *s, const struct plat_query *q,
              struct plat_entry_set *out)
{
    struct query_plan *p = plan_of(src, s, q);
    int sts;

    if (p == NULL)
        return -ENOMEM;
    entry_builder_reset(&src->entries);
    for (unsigned int i = 0; i < p->n; i++) {
        if (p->entry[i].class_name == NULL || snap_absent_of(s, p->entry[i].class_name))
            continue;
        if ((sts = read_entry(&src->entries, s, p, &p->entry[i])) < 0)
            return sts;
    }
    snap_clear_error(s);                /* entries absent now are not failures */
    entry_builder_finish(&src->entries, out);
    return out->n > 0 ? 0 : -ENOENT;    /* nothing recorded: what a Mac without it says */
}

static int
snapshot_query(void *ctx, const struct plat_query *q, struct plat_entry_set *out)
{
    return read_entries(ctx, at_now(ctx), q, out);
}

static int
snapshot_topology(void *ctx, struct plat_topology *out)
{
    struct snapshot_source *src = ctx;
    struct snap *s = at_now(ctx);
    struct plat_entry_set cpus;

    /* The registry first: its read forgets what failed before it in the call. */
    out->cluster = src->clusters;
    out->nclusters = 0;
    if ((out->clusters_status = read_entries(src, s, &plat_queries[PLAT_QUERY_CPUS], &cpus)) == 0)
        out->clusters_status = reg_cpu_clusters(&cpus, src->clusters, PLAT_MAX_CPUS, &out->nclusters);
    rec_read_found(&src->found, s, &rec_topology, NULL, out);      /* the brand has its own status */
    read_sysctls(src, s, PLAT_SYSCTL_CPU_COUNTS, &out->counts);
    out->nlevels = 0;
    if (out->counts.status[PLAT_CPU_NPERFLEVELS] == 0) {
        uint64_t n = out->counts.value[PLAT_CPU_NPERFLEVELS];

        out->nlevels = n < PLAT_MAX_PERFLEVELS ? (unsigned int)n : PLAT_MAX_PERFLEVELS;
    }
    for (unsigned int i = 0; i < out->nlevels; i++) {
        char index[16];

        snprintf(index, sizeof(index), "%u", i);
        rec_read_found(&src->found, s, &rec_perflevel, index, &out->level[i]);   /* each field has its own status */
    }
    return 0;
}

/* Interfaces are the instances of "netif"; one that a sample lacks (either
 * end of the interval being replayed: hot-plug) is not there now. */
static int
snapshot_interfaces(void *ctx, struct plat_netif_set *out)
{
    struct snapshot_source *src = ctx;
    struct snap *s = at_now(ctx);
    unsigned int n = 0;
    const char *name;
    int sts;

    for (unsigned int i = 0; (name = snap_instance(s, "netif", i)) != NULL && n < PLAT_MAX_NETIFS; i++) {
        struct plat_netif *f;

        if ((sts = array_grow((void **)&src->netifs, &src->netifs_cap, n, sizeof(*src->netifs))) < 0)
            return sts;
        f = &src->netifs[n];
        memset(f, 0, sizeof(*f));
        entry_copy_text(f->name, sizeof(f->name), name);
        if ((sts = rec_read_found(&src->found, s, &rec_netif, name, f)) == -ENOENT)
            continue;
        if (sts < 0)
            return sts;
        n++;
    }
    snap_clear_error(s);            /* interfaces absent now are not failures */
    out->n = n;
    out->netif = src->netifs;
    return 0;
}

/* Mounts are the instances of "mount" (N); one that a sample lacks is not mounted then. */
static int
snapshot_mounts(void *ctx, struct plat_mount_set *out)
{
    struct snapshot_source *src = ctx;
    struct snap *s = at_now(ctx);
    unsigned int n = 0;
    const char *name;
    int sts;

    for (unsigned int i = 0; (name = snap_instance(s, "mount", i)) != NULL && n < PLAT_MAX_MOUNTS; i++) {
        if (!rec_present(&src->found, s, &rec_mount, name))
            continue;
        if ((sts = array_grow((void **)&src->mounts, &src->mounts_cap, n, sizeof(*src->mounts))) < 0)
            return sts;
        memset(&src->mounts[n], 0, sizeof(src->mounts[n]));
        if ((sts = rec_read_found(&src->found, s, &rec_mount, name, &src->mounts[n])) < 0)
            return sts;
        n++;
    }
    snap_clear_error(s);
    out->n = n;
    out->mount = src->mounts;
    return 0;
}

static int
snapshot_nfs(void *ctx, struct plat_nfs *out)
{
    memset(out, 0, sizeof(*out));
    return READ(ctx, &rec_nfs, NULL, out);      /* each side has its own status */
}

static int
snapshot_udp(void *ctx, struct plat_udp *out)
{
    return READ(ctx, &rec_udp, NULL, out);
}

static int
snapshot_icmp(void *ctx, struct plat_icmp *out)
{
    return READ(ctx, &rec_icmp, NULL, out);
}

static int
snapshot_ip6(void *ctx, struct plat_ip6 *out)
{
    return READ(ctx, &rec_ip6, NULL, out);
}

static int
snapshot_tcp(void *ctx, struct plat_tcp *out)
{
    return READ(ctx, &rec_tcp, NULL, out);
}

static int
snapshot_tcpconn(void *ctx, struct plat_tcpconn *out)
{
    memset(out, 0, sizeof(*out));
    return READ(ctx, &rec_tcpconn, NULL, out);
}

static const char *
snapshot_error(void *ctx)
{
    return snap_error(((struct snapshot_source *)ctx)->snap);
}


static int
snapshot_timebase(void *ctx, struct plat_timebase *out)
{
    return READ(ctx, &rec_timebase, NULL, out);
}

/* The process calls replay what the recording user could read (snapshot_proc.c). */
#define PROC_CALL(name, call, ...) \
    static int name(void *ctx, int32_t pid, __VA_ARGS__) { \
        return call(at_now(ctx), &((struct snapshot_source *)ctx)->procs, pid, out); }
#define PROC_TEXT_CALL(name, call) \
    static int name(void *ctx, int32_t pid, char *out, size_t len) { \
        return call(at_now(ctx), &((struct snapshot_source *)ctx)->procs, pid, out, len); }
PROC_CALL(snapshot_proc_task, snap_proc_task, struct plat_proc_task *out)
PROC_CALL(snapshot_proc_rusage, snap_proc_rusage, struct plat_proc_rusage *out)
PROC_CALL(snapshot_proc_args, snap_proc_args, struct plat_bytes *out)
PROC_CALL(snapshot_proc_fds, snap_proc_fds, struct plat_proc_fds *out)
PROC_CALL(snapshot_proc_threads, snap_proc_threads, struct plat_thread_set *out)
PROC_TEXT_CALL(snapshot_proc_path, snap_proc_path)
PROC_TEXT_CALL(snapshot_proc_cwd, snap_proc_cwd)

static int
snapshot_procs(void *ctx, struct plat_proc_set *out)
{
    return snap_procs(at_now(ctx), &((struct snapshot_source *)ctx)->procs, out);
}

static int
snapshot_sock_owners(void *ctx, struct plat_sock_owner_set *out)
{
    return snap_sock_owners(at_now(ctx), &((struct snapshot_source *)ctx)->procs, out);
}

#define NAME_CALL(name, desc) \
    static int name(void *ctx, uint32_t id, char *out, size_t len) { \
        return snap_name(at_now(ctx), &desc, id, out, len); }
NAME_CALL(snapshot_user_name, rec_user)
NAME_CALL(snapshot_group_name, rec_group)
NAME_CALL(snapshot_tty_name, rec_tty)

static void
snapshot_close(void *ctx)
{
    struct snapshot_source *src = ctx;

    snap_close(src->snap);
    rec_schema_free(src->schema);
    free(src->cpus);
    free(src->logins);
    free(src->netifs);
    entry_builder_free(&src->entries);
    free(src->mounts);
    snap_proc_free(&src->procs);
    rec_cache_free(&src->found);
    plans_free(src->plans);
    free(src);
}

/* The described keys and the registry's. */
static struct snap_field *
build_schema(int processes)
{
    static const struct snap_field extra[] = {
        { "ioreg", "name", 1, SNAP_TEXT },
        { "ioreg", "class", 1, SNAP_TEXT },
        { "ioreg", "parent", 1, SNAP_TEXT },
        { "ioreg", "prop.*", 1, SNAP_REGISTRY },    /* any property path */
    };

    return rec_schema(extra, sizeof(extra) / sizeof(extra[0]), processes);
}

static int
open_snapshot(struct platform *out, const char *path, char *msg, unsigned int msglen, int processes)
{
    struct snapshot_source *src = calloc(1, sizeof(*src));

    if (src == NULL) {
        snprintf(msg, msglen, "out of memory");
        return -ENOMEM;
    }
    if ((src->schema = build_schema(processes)) == NULL) {
        free(src);
        snprintf(msg, msglen, "out of memory");
        return -ENOMEM;
    }
    if ((src->snap = snap_open(path, src->schema, msg, msglen)) == NULL) {
        rec_schema_free(src->schema);
        free(src);
        return -EINVAL;
    }
    src->now_usec = monotonic_usec;
    rec_cache_init(&src->found);
    *out = (struct platform) {
        .name = "snapshot",
        .ctx = src,
        .host = snapshot_host,
        .memory = snapshot_memory,
        .uname = snapshot_uname,
        .loadavg = snapshot_loadavg,
        .cpu_total = snapshot_cpu_total,
        .cpus = snapshot_cpus,
        .clock = snapshot_clock,
        .sysctls = snapshot_sysctls,
        .tasks = snapshot_tasks,
        .logins = snapshot_logins,
        .topology = snapshot_topology,
        .interfaces = snapshot_interfaces,
        .udp = snapshot_udp,
        .icmp = snapshot_icmp,
        .ip6 = snapshot_ip6,
        .tcp = snapshot_tcp,
        .tcpconn = snapshot_tcpconn,
        .query = snapshot_query,
        .mounts = snapshot_mounts,
        .nfs = snapshot_nfs,
        .timebase = snapshot_timebase,
        .procs = snapshot_procs,
        .proc_task = snapshot_proc_task,
        .proc_rusage = snapshot_proc_rusage,
        .proc_args = snapshot_proc_args,
        .proc_path = snapshot_proc_path,
        .proc_cwd = snapshot_proc_cwd,
        .proc_fds = snapshot_proc_fds,
        .proc_threads = snapshot_proc_threads,
        .sock_owners = snapshot_sock_owners,
        .user_name = snapshot_user_name,
        .group_name = snapshot_group_name,
        .tty_name = snapshot_tty_name,
        .error = snapshot_error,
        .close = snapshot_close,
    };
    snprintf(msg, msglen, "replaying %s (%u samples)", path, snap_nsamples(src->snap));
    return 0;
}

int
platform_snapshot_open(struct platform *out, const char *path, char *msg, unsigned int msglen)
{
    return open_snapshot(out, path, msg, msglen, 1);
}

int
platform_snapshot_open_without_processes(struct platform *out, const char *path, char *msg, unsigned int msglen)
{
    return open_snapshot(out, path, msg, msglen, 0);
}

const char *
platform_snapshot_notes(const struct platform *p)
{
    return snap_notes(((struct snapshot_source *)p->ctx)->snap);
}

void
platform_snapshot_set_clock(struct platform *p, uint64_t (*now_usec)(void))
{
    struct snapshot_source *src = p->ctx;

    src->now_usec = now_usec;
    src->started = 0;
}
