#include "snapshot_write.h"
#include "entry_set.h"
#include "writer.h"
#include "snapshot_store.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static void
failed(FILE *fp, const struct platform *p, const char *what, int sts)
{
    fprintf(fp, "# %s failed (%s): %s\n", what, strerror(-sts), p->error(p->ctx));
}

/* A platform call's record, or a comment saying why there is none. */
#define WRITE_RECORD(fp, p, call, desc, type, what)                 \
    do {                                                            \
        type v;                                                     \
        int sts;                                                    \
        memset(&v, 0, sizeof(v));                                   \
        if ((sts = (p)->call((p)->ctx, &v)) < 0)                    \
            failed(fp, p, what, sts);                               \
        else                                                        \
            rec_write(fp, &(desc), NULL, &v);                       \
    } while (0)

static void
write_sysctl_set(FILE *fp, enum plat_sysctl_group group, const struct plat_sysctl_set *set)
{
    unsigned int n;
    const struct plat_sysctl_def *defs = plat_sysctl_defs(group, &n);

    for (unsigned int i = 0; i < n && i < set->n; i++) {
        if (rec_sysctl_listed_before(group, defs[i].name))         /* a key is written once a sample */
            continue;
        if (set->status[i] < 0)
            fprintf(fp, "# sysctl.%s failed (%s)\n", defs[i].name, strerror(-set->status[i]));
        else
            fprintf(fp, "sysctl.%s %" PRIu64 "\n", defs[i].name, set->value[i]);
    }
}

/* The fixed processor topology, once, before the samples. */
static void
write_topology(FILE *fp, const struct platform *p)
{
    struct plat_topology t;
    int sts;

    memset(&t, 0, sizeof(t));
    if ((sts = p->topology(p->ctx, &t)) < 0) {
        failed(fp, p, "topology", sts);
        return;
    }
    rec_write(fp, &rec_topology, NULL, &t);
    write_sysctl_set(fp, PLAT_SYSCTL_CPU_COUNTS, &t.counts);
    for (unsigned int l = 0; l < t.nlevels; l++) {
        char index[16];

        snprintf(index, sizeof(index), "%u", l);
        rec_write(fp, &rec_perflevel, index, &t.level[l]);
    }
}

/* Every registry query the agent makes, entries as "ioreg[MATCH#ID]". The
 * CPUs' cluster types are among them: they are recorded raw, as the
 * registry has them, and decided on replay. */
static void
write_registry(FILE *fp, const struct platform *p)
{
    for (int q = 0; q < PLAT_QUERY_N; q++) {
        const char *match = plat_queries[q].match;
        struct plat_entry_set set;
        int sts;

        /* a Mac without such entries (Intel: no IODeviceTree:/cpus) is not failing */
        if ((sts = p->query(p->ctx, &plat_queries[q], &set)) == -ENOENT) {
            fprintf(fp, "# ioreg %s absent\n", match);
            continue;
        }
        if (sts < 0) {
            failed(fp, p, match, sts);
            continue;
        }
        for (unsigned int i = 0; i < set.n; i++) {
            const struct plat_entry *e = &set.entry[i];
            char inst[PLAT_NAME_MAX + 64];

            snprintf(inst, sizeof(inst), "%s#0x%" PRIx64, match, e->id);
            fprintf(fp, "ioreg[%s].class %s\n", inst, e->class_name);
            if (e->name[0] != '\0')
                fprintf(fp, "ioreg[%s].name %s\n", inst, e->name);
            if (e->parent != 0)
                fprintf(fp, "ioreg[%s].parent 0x%" PRIx64 "\n", inst, e->parent);
            for (unsigned int k = 0; k < e->nprops; k++) {
                fprintf(fp, "ioreg[%s].prop.%s ", inst, e->prop[k].path);
                reg_write_value(fp, &e->prop[k]);
            }
        }
    }
}

int
snapshot_write_header(FILE *fp, const struct platform *p, const char *note)
{
    fprintf(fp, "pmda-darwin-snapshot %d\n", SNAP_FORMAT_VERSION);
    if (note != NULL && note[0] != '\0')
        fprintf(fp, "# %s\n", note);
    WRITE_RECORD(fp, p, host, rec_host, struct plat_host, "host");
    WRITE_RECORD(fp, p, uname, rec_uname, struct plat_uname, "uname");
    WRITE_RECORD(fp, p, clock, rec_clock, struct plat_clock, "boot time");
    write_topology(fp, p);
    return ferror(fp) ? -EIO : 0;
}

static void
write_cpus(FILE *fp, const struct platform *p)
{
    struct plat_cpu_ticks total;
    struct plat_cpu_set set;
    int sts;

    if ((sts = p->cpu_total(p->ctx, &total)) < 0)
        failed(fp, p, "cpu totals", sts);
    else
        rec_write(fp, &rec_ticks, NULL, &total);
    if ((sts = p->cpus(p->ctx, &set)) < 0) {
        failed(fp, p, "per-cpu ticks", sts);
        return;
    }
    for (unsigned int i = 0; i < set.ncpu; i++)
        rec_write(fp, &rec_ticks, set.cpu[i].name, &set.cpu[i].ticks);
}

/* The sysctl groups that change, task totals and login records. */
static void
write_kernel(FILE *fp, const struct platform *p)
{
    static const enum plat_sysctl_group groups[] = {
        PLAT_SYSCTL_VFS, PLAT_SYSCTL_LIMITS, PLAT_SYSCTL_IPC, PLAT_SYSCTL_PRESSURE, PLAT_SYSCTL_SOCKSTAT,
    };
    struct plat_sysctl_set set;
    struct plat_login_set logins;
    int sts;

    for (size_t f = 0; f < sizeof(groups) / sizeof(groups[0]); f++) {
        if ((sts = p->sysctls(p->ctx, groups[f], &set)) < 0)
            failed(fp, p, "sysctls", sts);
        else
            write_sysctl_set(fp, groups[f], &set);
    }
    WRITE_RECORD(fp, p, tasks, rec_tasks, struct plat_tasks, "task counts");
    if ((sts = p->logins(p->ctx, &logins)) < 0) {
        failed(fp, p, "login records", sts);
        return;
    }
    for (unsigned int i = 0; i < logins.n; i++) {
        char index[16];

        snprintf(index, sizeof(index), "%u", i);
        rec_write(fp, &rec_login, index, &logins.login[i]);
    }
}

static void
write_interfaces(FILE *fp, const struct platform *p)
{
    struct plat_netif_set set;
    int sts;

    if ((sts = p->interfaces(p->ctx, &set)) < 0) {
        failed(fp, p, "interfaces", sts);
        return;
    }
    for (unsigned int i = 0; i < set.n; i++)
        rec_write(fp, &rec_netif, set.netif[i].name, &set.netif[i]);
}

static void
write_mounts(FILE *fp, const struct platform *p)
{
    struct plat_mount_set set;
    int sts;

    if ((sts = p->mounts(p->ctx, &set)) < 0) {
        failed(fp, p, "mounts", sts);
        return;
    }
    for (unsigned int i = 0; i < set.n; i++) {
        char index[16];

        snprintf(index, sizeof(index), "%u", i);
        rec_write(fp, &rec_mount, index, &set.mount[i]);
    }
}

static void
write_protocols(FILE *fp, const struct platform *p)
{
    WRITE_RECORD(fp, p, udp, rec_udp, struct plat_udp, "udp statistics");
    WRITE_RECORD(fp, p, icmp, rec_icmp, struct plat_icmp, "icmp statistics");
    WRITE_RECORD(fp, p, tcp, rec_tcp, struct plat_tcp, "tcp statistics");
    WRITE_RECORD(fp, p, tcpconn, rec_tcpconn, struct plat_tcpconn, "tcp connections");
    WRITE_RECORD(fp, p, ip6, rec_ip6, struct plat_ip6, "ipv6 statistics");
    WRITE_RECORD(fp, p, nfs, rec_nfs, struct plat_nfs, "NFS statistics");     /* failed sides as comments */
}

/* The refusals and strings of one process; failures other than a refusal
 * leave the string out, which replays as "gone" or "none". */
static void
write_process(FILE *fp, const struct platform *p, const struct plat_proc *proc)
{
    static struct snap_proc_text text;
    struct snap_proc rec = { .proc = *proc };
    struct plat_proc_task task;
    struct plat_proc_rusage ru;
    struct plat_proc_fds fds;
    struct plat_bytes args;
    struct plat_thread_set threads = { 0, NULL };
    char inst[16];
    int sts, task_sts, ru_sts, threads_sts;

    snprintf(inst, sizeof(inst), "%d", (int)proc->pid);
    memset(&text, 0, sizeof(text));
    if ((task_sts = p->proc_task(p->ctx, proc->pid, &task)) == -EPERM)
        rec.refused |= SNAP_REFUSED_TASK;
    if ((ru_sts = p->proc_rusage(p->ctx, proc->pid, &ru)) == -EPERM)
        rec.refused |= SNAP_REFUSED_RUSAGE;
    if ((sts = p->proc_fds(p->ctx, proc->pid, &fds)) == -EPERM)
        rec.refused |= SNAP_REFUSED_FDS;
    rec.fds = fds.count;
    rec.fds_status = sts < 0 ? sts : 0;
    if ((sts = p->proc_args(p->ctx, proc->pid, &args)) == -EPERM)
        rec.refused |= SNAP_REFUSED_ARGS;
    for (size_t i = 0; sts == 0 && i < args.len && i < SNAP_PROC_ARGS_MAX; i++)
        snprintf(&text.args_hex[2 * i], 3, "%02x", args.data[i]);
    if (p->proc_cwd(p->ctx, proc->pid, text.cwd, sizeof(text.cwd)) == -EPERM)
        rec.refused |= SNAP_REFUSED_CWD;
    if (p->proc_path(p->ctx, proc->pid, text.path, sizeof(text.path)) < 0)
        text.path[0] = '\0';
    if ((threads_sts = p->proc_threads(p->ctx, proc->pid, &threads)) == -EPERM)
        rec.refused |= SNAP_REFUSED_THREADS;
    for (unsigned int t = 0, at = 0; threads_sts == 0 && t < threads.n; t++) {
        int w = snprintf(text.threads + at, sizeof(text.threads) - at, "%s%llu", t ? " " : "",
                         (unsigned long long)threads.thread[t].tid);

        if (w < 0 || (size_t)w >= sizeof(text.threads) - at) {
            text.threads[at] = '\0';
            break;                  /* the rest of a huge thread list is not recorded */
        }
        at += (unsigned int)w;
    }
    rec_write(fp, &rec_proc, inst, &rec);
    rec_write(fp, &rec_proc_text, inst, &text);
    if (task_sts == 0)
        rec_write(fp, &rec_proc_task, inst, &task);
    if (ru_sts == 0)
        rec_write(fp, &rec_proc_rusage, inst, &ru);
    if (threads_sts == 0)
        for (unsigned int t = 0; t < threads.n; t++) {
            char tid[24];

            snprintf(tid, sizeof(tid), "%llu", (unsigned long long)threads.thread[t].tid);
            rec_write(fp, &rec_thread, tid, &threads.thread[t]);
        }
}

/* A user, group or terminal name, once per id per sample. */
static void
write_name(FILE *fp, const struct platform *p, const struct rec_desc *d,
           int (*lookup)(void *, uint32_t, char *, size_t), uint32_t id)
{
    struct snap_name rec;
    char inst[16];

    snprintf(inst, sizeof(inst), "%u", id);
    if (lookup(p->ctx, id, rec.name, sizeof(rec.name)) == 0)
        rec_write(fp, d, inst, &rec);
}

static int
seen(uint32_t *ids, unsigned int *n, unsigned int cap, uint32_t id)
{
    for (unsigned int i = 0; i < *n; i++)
        if (ids[i] == id)
            return 1;
    if (*n < cap)
        ids[(*n)++] = id;
    return 0;
}

static void
write_processes(FILE *fp, const struct platform *p)
{
    uint32_t users[256], groups[256], ttys[256];
    unsigned int nusers = 0, ngroups = 0, nttys = 0;
    struct plat_proc_set set;
    struct plat_sock_owner_set owners;
    struct plat_proc *copy;
    int sts;

    WRITE_RECORD(fp, p, timebase, rec_timebase, struct plat_timebase, "timebase");
    if ((sts = p->procs(p->ctx, &set)) < 0) {
        failed(fp, p, "process list", sts);
        return;
    }
    /* the per-process calls may reuse the source's buffers: keep the list */
    if ((copy = malloc((set.n ? set.n : 1) * sizeof(*copy))) == NULL)
        return;
    if (set.n > 0)
        memcpy(copy, set.proc, set.n * sizeof(*copy));     /* an empty list may be NULL */
    for (unsigned int i = 0; i < set.n; i++) {
        const struct plat_proc *proc = &copy[i];

        write_process(fp, p, proc);
        if (!seen(users, &nusers, 256, proc->ruid))
            write_name(fp, p, &rec_user, p->user_name, proc->ruid);
        if (!seen(users, &nusers, 256, proc->uid))
            write_name(fp, p, &rec_user, p->user_name, proc->uid);
        if (!seen(users, &nusers, 256, proc->svuid))
            write_name(fp, p, &rec_user, p->user_name, proc->svuid);
        if (!seen(groups, &ngroups, 256, proc->gid))
            write_name(fp, p, &rec_group, p->group_name, proc->gid);
        if (proc->tdev != PLAT_NODEV && !seen(ttys, &nttys, 256, proc->tdev))
            write_name(fp, p, &rec_tty, p->tty_name, proc->tdev);
    }
    free(copy);
    if ((sts = p->sock_owners(p->ctx, &owners)) < 0) {
        failed(fp, p, "socket owners", sts);
        return;
    }
    for (unsigned int i = 0; i < owners.n; i++) {
        char inst[16];

        snprintf(inst, sizeof(inst), "%d", (int)owners.owner[i].pid);
        rec_write(fp, &rec_sock_owner, inst, &owners.owner[i]);
    }
}

int
snapshot_write_sample(FILE *fp, const struct platform *p)
{
    struct plat_clock clock;
    int sts;

    if ((sts = p->clock(p->ctx, &clock)) < 0) {
        failed(fp, p, "clock", sts);
        return sts;             /* a sample needs its time */
    }
    fprintf(fp, "sample %" PRId64 ".%06d\n", clock.now_sec, (int)clock.now_usec);
    WRITE_RECORD(fp, p, memory, rec_memory, struct plat_memory, "memory");    /* failed parts as comments */
    WRITE_RECORD(fp, p, loadavg, rec_loadavg, struct plat_loadavg, "load average");
    write_cpus(fp, p);
    write_kernel(fp, p);
    write_interfaces(fp, p);
    write_protocols(fp, p);
    write_mounts(fp, p);
    write_registry(fp, p);
    write_processes(fp, p);
    return ferror(fp) ? -EIO : 0;
}
