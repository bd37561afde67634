/*
 * Processes and threads, for the proc agent (a daemon run as root). The
 * list is one sysctl (KERN_PROC_ALL, open to every user); everything else
 * is one libproc call per process, made only for what a request needs.
 * No task_for_pid, so no Mach ports to leak. Which calls another user's
 * process refuses (xnu-11417.121.6 bsd/kern/proc_info.c proc_security_policy
 * with CHECK_SAME_USER: task, thread, fd and vnode-path flavors, and
 * proc_pid_rusage) are reported as -EPERM; root is refused nothing.
 * These run in pmdaproc, never inside pmcd. Only the name look-ups can
 * wait: users and groups on opendirectoryd, a terminal's name on a walk
 * of /dev (Libc-1725 gen/devname.c); the agent makes each once per id.
 */
#include "array_grow.h"
#include "live_source.h"
#include "netstat_parse.h"

#include <errno.h>
#include <grp.h>
#include <libproc.h>
#include <mach/mach_time.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysctl.h>
#include <unistd.h>

_Static_assert(sizeof(((struct extern_proc *)0)->p_comm) == PLAT_COMM_MAX, "p_comm size");
_Static_assert(MAXTHREADNAMESIZE == PLAT_THREAD_NAME_MAX, "pth_name size");
_Static_assert(NODEV == (dev_t)PLAT_NODEV, "NODEV");

/* Listed in bsd/sys/proc_info_private.h (the same number since xnu-7195,
 * macOS 11, through xnu-11417); the public SDK leaves it out. It lists
 * the threads' unique ids, which PROC_PIDTHREADID64INFO takes. */
#ifndef PROC_PIDLISTTHREADIDS
#define PROC_PIDLISTTHREADIDS 28
#endif

#define PROC_LIST_MAX (64u << 20)       /* far above 99999 processes of 648 bytes */

int
live_timebase(void *ctx, struct plat_timebase *out)
{
    struct live_source *src = live_begin(ctx);
    mach_timebase_info_data_t tb;
    kern_return_t kr = mach_timebase_info(&tb);

    if (kr != KERN_SUCCESS)
        return live_fail(src, -EIO, "mach_timebase_info: %s", mach_error_string(kr));
    out->numer = tb.numer;
    out->denom = tb.denom;
    return 0;
}

int
live_procs(void *ctx, struct plat_proc_set *out)
{
    struct live_source *src = live_begin(ctx);
    int mib[3] = { CTL_KERN, KERN_PROC, KERN_PROC_ALL };
    const struct kinfo_proc *kp;
    size_t len, n;
    int sts;

    out->n = 0;
    out->proc = src->procs;
    if ((sts = live_sysctl_growing(src, "kern.proc.all", mib, 3, &src->proclist, PROC_LIST_MAX, &len)) < 0)
        return sts;
    kp = (const struct kinfo_proc *)(const void *)src->proclist.data;
    n = len / sizeof(*kp);
    if (n > src->procs_cap) {
        void *grown = realloc(src->procs, n * sizeof(*src->procs));

        if (grown == NULL)
            return live_fail(src, -ENOMEM, "kern.proc.all: out of memory");
        src->procs = grown;
        src->procs_cap = (unsigned int)n;
    }
    for (size_t i = 0; i < n; i++) {
        const struct extern_proc *p = &kp[i].kp_proc;
        const struct eproc *e = &kp[i].kp_eproc;
        struct plat_proc *o = &src->procs[i];

        memset(o, 0, sizeof(*o));
        o->pid = p->p_pid;
        o->ppid = e->e_ppid;
        o->pgid = e->e_pgid;
        o->tpgid = e->e_tpgid;
        o->ruid = e->e_pcred.p_ruid;
        o->uid = e->e_ucred.cr_uid;
        o->svuid = e->e_pcred.p_svuid;
        o->rgid = e->e_pcred.p_rgid;
        o->gid = e->e_ucred.cr_ngroups > 0 ? e->e_ucred.cr_groups[0] : e->e_pcred.p_rgid;
        o->svgid = e->e_pcred.p_svgid;
        o->ngroups = (uint32_t)e->e_ucred.cr_ngroups;
        o->stat = p->p_stat;
        o->flag = (uint32_t)p->p_flag;
        o->nice = p->p_nice;
        o->priority = p->p_priority;
        o->usrpri = p->p_usrpri;
        o->tdev = (uint32_t)e->e_tdev;
        o->wchan = (uint64_t)(uintptr_t)p->p_wchan;
        o->start_sec = p->p_starttime.tv_sec;
        o->start_usec = p->p_starttime.tv_usec;
        memcpy(o->comm, p->p_comm, sizeof(o->comm));
        o->comm[sizeof(o->comm) - 1] = '\0';
        snprintf(o->wmesg, sizeof(o->wmesg), "%s", e->e_wmesg);
    }
    out->n = (unsigned int)n;
    out->proc = src->procs;
    return 0;
}

/* proc_pidinfo's answer: the bytes written, or -errno (-EMSGSIZE for fewer
 * than least). libproc answers 0 both for a failure, with errno set, and for a list
 * with no entries, errno untouched (an exiting process with no fds or
 * threads left), so errno is cleared first (xnu-11417.101.15
 * libsyscall/wrappers/libproc/libproc.c proc_pidinfo; bsd/kern/proc_info.c
 * proc_pidfdlist, proc_pidlistthreads). A process gone is ESRCH. */
static int
pidinfo(struct live_source *src, int32_t pid, int flavor, uint64_t arg, void *buf, int size, int least,
        const char *what)
{
    int got;

    errno = 0;
    got = proc_pidinfo(pid, flavor, arg, buf, size);
    if (got == 0 && errno != 0)
        return live_fail(src, -errno, "%s of %d: %s", what, (int)pid, strerror(errno));
    if (got < least)
        return live_fail(src, -EMSGSIZE, "%s of %d: %d bytes", what, (int)pid, got);
    return got;
}

int
live_proc_task(void *ctx, int32_t pid, struct plat_proc_task *out)
{
    struct live_source *src = live_begin(ctx);
    struct proc_taskinfo ti;
    int sts;

    if ((sts = pidinfo(src, pid, PROC_PIDTASKINFO, 0, &ti, sizeof(ti), sizeof(ti), "PROC_PIDTASKINFO")) < 0)
        return sts;
    *out = (struct plat_proc_task) {
        .virtual_size = ti.pti_virtual_size, .resident_size = ti.pti_resident_size,
        .total_user = ti.pti_total_user, .total_system = ti.pti_total_system,
        .faults = ti.pti_faults, .pageins = ti.pti_pageins, .cow_faults = ti.pti_cow_faults, .csw = ti.pti_csw,
        .syscalls_mach = ti.pti_syscalls_mach, .syscalls_unix = ti.pti_syscalls_unix,
        .messages_sent = ti.pti_messages_sent, .messages_received = ti.pti_messages_received,
        .threadnum = ti.pti_threadnum, .numrunning = ti.pti_numrunning, .priority = ti.pti_priority,
        .policy = ti.pti_policy,
    };
    return 0;
}

int
live_proc_rusage(void *ctx, int32_t pid, struct plat_proc_rusage *out)
{
    struct live_source *src = live_begin(ctx);
    struct rusage_info_v6 ri;

    memset(out, 0, sizeof(*out));
    memset(&ri, 0, sizeof(ri));
    /* flavor 6 from macOS 12 (xnu-8019); older kernels answer EINVAL to it */
    if (proc_pid_rusage(pid, RUSAGE_INFO_V6, (rusage_info_t *)(void *)&ri) == 0)
        out->version = 6;
    else if (errno == EINVAL && proc_pid_rusage(pid, RUSAGE_INFO_V4, (rusage_info_t *)(void *)&ri) == 0)
        out->version = 4;
    else
        return live_fail(src, -errno, "proc_pid_rusage of %d: %s", (int)pid, strerror(errno));
    out->user_time = ri.ri_user_time;
    out->system_time = ri.ri_system_time;
    out->pkg_idle_wkups = ri.ri_pkg_idle_wkups;
    out->interrupt_wkups = ri.ri_interrupt_wkups;
    out->phys_footprint = ri.ri_phys_footprint;
    out->lifetime_max_phys_footprint = ri.ri_lifetime_max_phys_footprint;
    out->diskio_bytesread = ri.ri_diskio_bytesread;
    out->diskio_byteswritten = ri.ri_diskio_byteswritten;
    out->logical_writes = ri.ri_logical_writes;
    out->qos[0] = ri.ri_cpu_time_qos_default;
    out->qos[1] = ri.ri_cpu_time_qos_maintenance;
    out->qos[2] = ri.ri_cpu_time_qos_background;
    out->qos[3] = ri.ri_cpu_time_qos_utility;
    out->qos[4] = ri.ri_cpu_time_qos_legacy;
    out->qos[5] = ri.ri_cpu_time_qos_user_initiated;
    out->qos[6] = ri.ri_cpu_time_qos_user_interactive;
    out->instructions = ri.ri_instructions;
    out->cycles = ri.ri_cycles;
    out->runnable_time = ri.ri_runnable_time;
    if (out->version >= 6) {
        out->user_ptime = ri.ri_user_ptime;
        out->system_ptime = ri.ri_system_ptime;
        out->energy_nj = ri.ri_energy_nj;
    }
    return 0;
}

/* KERN_PROCARGS2 refuses another user's process to non-root with EINVAL,
 * not EPERM (xnu-11417.121.6 bsd/kern/kern_sysctl.c sysctl_procargsx): it
 * is reported as the refusal it is. The buffer is kern.argmax bytes, taken
 * once. */
int
live_proc_args(void *ctx, int32_t pid, struct plat_bytes *out)
{
    struct live_source *src = live_begin(ctx);
    int mib[3] = { CTL_KERN, KERN_PROCARGS2, pid };
    size_t len;

    if (src->args.data == NULL) {
        int argmax = 0;
        size_t size = sizeof(argmax);
        int amib[2] = { CTL_KERN, KERN_ARGMAX };

        if (sysctl(amib, 2, &argmax, &size, NULL, 0) < 0)
            return live_fail(src, -errno, "kern.argmax: %s", strerror(errno));
        if (argmax <= 0)
            return live_fail(src, -ERANGE, "kern.argmax: %d", argmax);
        if ((src->args.data = malloc((size_t)argmax)) == NULL)
            return live_fail(src, -ENOMEM, "KERN_PROCARGS2: out of memory");
        src->args.cap = (size_t)argmax;
    }
    len = src->args.cap;
    if (sysctl(mib, 3, src->args.data, &len, NULL, 0) < 0) {
        int err = errno;

        if (err == EINVAL && geteuid() != 0)
            err = EPERM;
        return live_fail(src, -err, "KERN_PROCARGS2 of %d: %s", (int)pid, strerror(errno));
    }
    /* A buffer too short gets argc, the bytes that end where the strings
     * end (zeros after the first of them), and success (xnu-11417.101.15
     * bsd/kern/kern_sysctl.c:1553-1611): a full buffer does not begin with
     * the path and arguments. */
    if (len == src->args.cap)
        return live_fail(src, -EMSGSIZE, "KERN_PROCARGS2 of %d: cut short at %zu bytes", (int)pid, len);
    out->data = src->args.data;
    out->len = len;
    return 0;
}

int
live_proc_path(void *ctx, int32_t pid, char *out, size_t len)
{
    struct live_source *src = live_begin(ctx);
    char path[PROC_PIDPATHINFO_MAXSIZE];

    if (proc_pidpath(pid, path, sizeof(path)) <= 0)
        return live_fail(src, errno ? -errno : -ENOENT, "proc_pidpath of %d: %s", (int)pid, strerror(errno));
    snprintf(out, len, "%s", path);
    return 0;
}

int
live_proc_cwd(void *ctx, int32_t pid, char *out, size_t len)
{
    struct live_source *src = live_begin(ctx);
    struct proc_vnodepathinfo vpi;
    int sts;

    sts = pidinfo(src, pid, PROC_PIDVNODEPATHINFO, 0, &vpi, sizeof(vpi), sizeof(vpi), "PROC_PIDVNODEPATHINFO");
    if (sts < 0)
        return sts;
    if (vpi.pvi_cdir.vip_path[0] == '\0')
        return -ENOENT;
    snprintf(out, len, "%s", vpi.pvi_cdir.vip_path);
    return 0;
}

/* PROC_PIDLISTFDS without a buffer answers a size with room to spare, so
 * the real count needs the list: read into a buffer kept between calls. */
int
live_proc_fds(void *ctx, int32_t pid, struct plat_proc_fds *out)
{
    struct live_source *src = live_begin(ctx);
    int size, got;

    if ((size = pidinfo(src, pid, PROC_PIDLISTFDS, 0, NULL, 0, 0, "PROC_PIDLISTFDS")) < 0)
        return size;
    if ((size_t)size > src->fdlist.cap) {
        void *grown = realloc(src->fdlist.data, (size_t)size);

        if (grown == NULL)
            return live_fail(src, -ENOMEM, "PROC_PIDLISTFDS: out of memory");
        src->fdlist.data = grown;
        src->fdlist.cap = (size_t)size;
    }
    if ((got = pidinfo(src, pid, PROC_PIDLISTFDS, 0, src->fdlist.data, size, 0, "PROC_PIDLISTFDS")) < 0)
        return got;
    out->count = (uint32_t)((size_t)got / sizeof(struct proc_fdinfo));
    return 0;
}

/* The thread ids into the kept buffer. PROC_PIDLISTTHREADIDS fills at most
 * the buffer and answers the bytes it wrote (xnu-11417.121.6
 * bsd/kern/proc_info.c proc_pidlistthreads), so a full buffer may have been
 * too small: grow it and ask again. No PROC_PIDTASKINFO call to size it. */
static int
list_thread_ids(struct live_source *src, int32_t pid)
{
    size_t cap = src->tids.cap ? src->tids.cap : 64 * sizeof(uint64_t);

    for (;;) {
        int got;

        if (cap > src->tids.cap) {
            void *grown = realloc(src->tids.data, cap);

            if (grown == NULL)
                return live_fail(src, -ENOMEM, "PROC_PIDLISTTHREADIDS: out of memory");
            src->tids.data = grown;
            src->tids.cap = cap;
        }
        got = pidinfo(src, pid, PROC_PIDLISTTHREADIDS, 0, src->tids.data, (int)cap, 0, "PROC_PIDLISTTHREADIDS");
        if (got < 0 || (size_t)got < cap || cap >= PROC_LIST_MAX)
            return got;
        cap *= 2;                       /* full: there may be more */
    }
}

int
live_proc_threads(void *ctx, int32_t pid, struct plat_thread_set *out)
{
    struct live_source *src = live_begin(ctx);
    unsigned int n = 0;
    const uint64_t *ids;
    int got;

    out->n = 0;
    out->thread = src->threads;
    if ((got = list_thread_ids(src, pid)) < 0)
        return got;
    ids = (const uint64_t *)(const void *)src->tids.data;
    if ((unsigned int)got / sizeof(uint64_t) > src->threads_cap) {
        unsigned int want = (unsigned int)got / sizeof(uint64_t);
        void *grown = realloc(src->threads, want * sizeof(*src->threads));

        if (grown == NULL)
            return live_fail(src, -ENOMEM, "threads: out of memory");
        src->threads = grown;
        src->threads_cap = want;
    }
    for (unsigned int i = 0; i < (unsigned int)got / sizeof(uint64_t); i++) {
        struct proc_threadinfo pth;
        struct plat_thread *t = &src->threads[n];

        if (proc_pidinfo(pid, PROC_PIDTHREADID64INFO, ids[i], &pth, sizeof(pth)) < (int)sizeof(pth))
            continue;               /* the thread ended since the list */
        t->tid = ids[i];
        t->user_ns = pth.pth_user_time;
        t->system_ns = pth.pth_system_time;
        t->run_state = pth.pth_run_state;
        t->flags = pth.pth_flags;
        t->curpri = pth.pth_curpri;
        t->priority = pth.pth_priority;
        t->policy_status = 0;
        t->policy = pth.pth_policy;
        memcpy(t->name, pth.pth_name, sizeof(t->name));
        t->name[sizeof(t->name) - 1] = '\0';
        n++;
    }
    out->n = n;
    out->thread = src->threads;
    return 0;
}

/* One pcblist per protocol for all processes, counted by so_last_pid. */
int
live_sock_owners(void *ctx, struct plat_sock_owner_set *out)
{
    struct live_source *src = live_begin(ctx);
    static const char *const lists[2] = { "net.inet.tcp.pcblist_n", "net.inet.udp.pcblist_n" };
    unsigned int n = 0;

    out->n = 0;
    out->owner = src->owners;
    if (src->sock_counts == NULL &&
        (src->sock_counts = calloc(2 * PLAT_PID_LIMIT, sizeof(*src->sock_counts))) == NULL)
        return live_fail(src, -ENOMEM, "socket owners: out of memory");
    memset(src->sock_counts, 0, 2 * PLAT_PID_LIMIT * sizeof(*src->sock_counts));
    for (int l = 0; l < 2; l++) {
        int mib[CTL_MAXNAME];
        size_t miblen = CTL_MAXNAME, len;
        int sts;

        if (sysctlnametomib(lists[l], mib, &miblen) < 0)
            return live_fail(src, -errno, "%s: %s", lists[l], strerror(errno));
        if ((sts = live_sysctl_growing(src, lists[l], mib, (unsigned int)miblen, &src->pcblist, 64u << 20, &len)) < 0)
            return sts;
        if ((sts = netstat_count_socket_owners(src->pcblist.data, len, src->sock_counts + l * PLAT_PID_LIMIT,
                                               PLAT_PID_LIMIT)) < 0)
            return live_fail(src, sts, "%s: malformed record stream", lists[l]);
    }
    for (unsigned int pid = 0; pid < PLAT_PID_LIMIT; pid++) {
        uint32_t tcp = src->sock_counts[pid], udp = src->sock_counts[PLAT_PID_LIMIT + pid];

        if (tcp == 0 && udp == 0)
            continue;
        if (array_grow((void **)&src->owners, &src->owners_cap, n, sizeof(*src->owners)) < 0)
            return live_fail(src, -ENOMEM, "socket owners: out of memory");
        src->owners[n++] = (struct plat_sock_owner){ (int32_t)pid, tcp, udp };
    }
    out->n = n;
    out->owner = src->owners;
    return 0;
}

/* sysconf's hint for both (Libc-1725.0.11 gen/FreeBSD/sysconf.c), and a
 * bound far above it: a group of some 50000 members. */
#define NAME_BUF_FIRST 4096u
#define NAME_BUF_MAX (1u << 20)

/* A user's or group's name, kept in buf; else NULL and *err (0: no entry). */
static const char *
user_in(uint32_t uid, char *buf, size_t len, int *err)
{
    struct passwd pw, *res = NULL;

    *err = getpwuid_r((uid_t)uid, &pw, buf, len, &res);
    return res != NULL ? pw.pw_name : NULL;
}

static const char *
group_in(uint32_t gid, char *buf, size_t len, int *err)
{
    struct group gr, *res = NULL;

    *err = getgrgid_r((gid_t)gid, &gr, buf, len, &res);
    return res != NULL ? gr.gr_name : NULL;
}

/* The entry's strings (a group's member list too: "staff" and "everyone"
 * can hold hundreds) go in the caller's buffer; ERANGE asks for a larger
 * one (Libinfo-600 lookup.subproj/libinfo.c copy_user_r, copy_group_r).
 * The directory services behind these can be slow; the agent asks once
 * per id. */
static int
name_of(struct live_source *src, const char *call, uint32_t id,
        const char *(*lookup)(uint32_t, char *, size_t, int *), char *out, size_t len)
{
    for (size_t cap = NAME_BUF_FIRST;; cap *= 2) {
        char *buf = malloc(cap);
        const char *name;
        int err;

        if (buf == NULL)
            return live_fail(src, -ENOMEM, "%s(%u): out of memory", call, id);
        if ((name = lookup(id, buf, cap, &err)) != NULL)
            snprintf(out, len, "%s", name);
        free(buf);
        if (name != NULL)
            return 0;
        if (err != ERANGE || cap >= NAME_BUF_MAX)
            return err ? live_fail(src, -err, "%s(%u): %s", call, id, strerror(err)) : -ENOENT;
    }
}

int
live_user_name(void *ctx, uint32_t uid, char *out, size_t len)
{
    return name_of(live_begin(ctx), "getpwuid_r", uid, user_in, out, len);
}

int
live_group_name(void *ctx, uint32_t gid, char *out, size_t len)
{
    return name_of(live_begin(ctx), "getgrgid_r", gid, group_in, out, len);
}

int
live_tty_name(void *ctx, uint32_t dev, char *out, size_t len)
{
    char buf[PLAT_NAME_MAX];

    (void)live_begin(ctx);
    if (devname_r((dev_t)dev, S_IFCHR, buf, sizeof(buf)) == NULL)
        return -ENOENT;
    snprintf(out, len, "%s", buf);
    return 0;
}
