/*
 * Processes, threads, their owners' names and their sockets, as the proc
 * agent's reader (src/macos/procs.c) finds them on a Mac:
 *  - proc_pidinfo answers the bytes the kernel wrote, or 0 with errno set
 *    when __proc_info failed: a list with no entries is 0 bytes with errno
 *    untouched (xnu-11417.101.15 libsyscall/wrappers/libproc/libproc.c
 *    proc_pidinfo turns only the syscall's -1 into 0).
 *  - bsd/kern/proc_info.c proc_pidinfo, in its order: a buffer shorter
 *    than the flavor's struct is ENOMEM (PROC_PIDLISTFDS without a buffer
 *    asks no minimum); proc_find finds neither a process gone nor a zombie:
 *    ESRCH; proc_security_policy with CHECK_SAME_USER refuses another
 *    user's process (effective uids) to anyone but root: EPERM.
 *  - proc_pidfdlist: without a buffer, room for fd_nfiles + 20 entries (an
 *    estimate); with one, as many entries as it holds, and their bytes.
 *  - proc_pidlistthreads and fill_taskthreadlist (osfmk/kern/bsd_kern.c):
 *    at most the buffer's worth of thread unique ids, and their bytes.
 *  - proc_pidthreadinfo: ESRCH for a thread no longer in the task.
 *  - proc_pidvnodepathinfo: the struct zeroed where there is no cwd.
 *  - proc_pidpath (libproc.c): ENOMEM below PROC_PIDPATHINFO_SIZE,
 *    EOVERFLOW above PROC_PIDPATHINFO_MAXSIZE, else the path's length;
 *    PROC_PIDPATHINFO is NO_CHECK_SAME_USER; proc_pidpathinfo copies out
 *    the whole buffer and answers ESRCH without an executable vnode.
 *  - proc_pid_rusage (proc_info.c): a zombie answers (proc_find_zombref),
 *    then CHECK_SAME_USER; proc_get_rusage (bsd/kern/kern_resource.c)
 *    copies out the flavor's struct and no more, and answers EINVAL to a
 *    flavor it does not know: xnu-7195.141.2 (macOS 11) knows 0 to 5.
 *  - KERN_PROC_ALL (bsd/kern/kern_sysctl.c sysctl_prochandle,
 *    fill_user64_externproc, fill_user64_eproc): zombies are listed;
 *    p_comm gets MAXCOMLEN bytes; P_WEXIT while the process exits; e_tdev
 *    is NODEV and e_tpgid 0 unless P_CONTROLT; p_usrpri, p_wchan and
 *    e_wmesg are never filled.
 *  - KERN_PROCARGS2 (kern_sysctl.c sysctl_procargsx): argc then the
 *    strings (cut as xnu cuts them when the buffer is short: sysctl.c);
 *    EINVAL for a process proc_find does not find or without a user
 *    stack, and, to anyone but root, for another user's.
 *  - getpwuid_r and getgrgid_r (Libinfo-600 lookup.subproj/libinfo.c,
 *    copy_user_r and copy_group_r): ERANGE for no buffer or one that cannot
 *    hold the entry's strings (a group's too: its members' pointers, the
 *    NULL after them, and their names); 0 without a result for an id that
 *    has no entry.
 *  - devname_r (Libc-1725.0.11 gen/devname.c): the /dev entry's name, NULL
 *    when there is none or it does not fit.
 *  - net.inet.{tcp,udp}.pcblist_n (bsd/netinet/in_pcblist.c get_pcblist_n):
 *    an xinpgen, each socket's records padded to 8 bytes (ROUNDUP64), an
 *    xinpgen of the same generation. Zig's headers have none of these
 *    structs: xinpgen, xsocket_n and xtcpcb_n (up to t_state) are
 *    tests/unit/xnu_layouts.h's, from XNU's headers; the xinpcb_n and
 *    xsockstat_n records, which nothing here reads, are left out.
 */
#include "double.h"
#include "../../unit/xnu_layouts.h"

#include <errno.h>
#include <grp.h>
#include <libproc.h>
#include <pwd.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/proc.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysctl.h>
#include <unistd.h>

/* bsd/sys/proc_info_private.h: not in the public SDK. */
#define PROC_PIDLISTTHREADIDS 28
#define PROC_PIDLISTTHREADIDS_SIZE (2 * sizeof(uint32_t))

#define MAX_PROCS 128
#define MAX_THREADS 4096
#define MAX_NAMES 64
#define MAX_SOCKETS 256
#define FD_ESTIMATE_SLACK 20        /* proc_pidfdlist's numfds += 20 */
#define THREAD_SLACK 10             /* proc_pidlistthreads' get_numthreads() + 10 */

struct dproc {
    struct dbl_proc d;
    char comm[64];
    int exiting, gone;
    struct proc_taskinfo task;
    struct rusage_info_v6 rusage;
    uint32_t nfds;
    char cwd[MAXPATHLEN];           /* "": no cwd */
    char path[MAXPATHLEN];          /* "": no executable vnode */
    unsigned char *args;            /* argc, then the strings; NULL: no user stack */
    size_t args_len;
};

struct dthread {
    int32_t pid;
    uint64_t tid;
    struct proc_threadinfo info;
    int ends, gone;
};

struct name_entry {
    uint32_t id;
    char name[64], gecos[4096], dir[1024];
    unsigned int members;
};

static struct {
    struct dproc procs[MAX_PROCS];
    unsigned int nprocs;
    struct dthread threads[MAX_THREADS];
    unsigned int nthreads;
    uint32_t euid;
    int rusage_newest;
    struct name_entry users[MAX_NAMES], groups[MAX_NAMES];
    unsigned int nusers, ngroups;
    struct { uint32_t dev; char name[64]; } ttys[MAX_NAMES];
    unsigned int nttys;
    struct { int tcp; int32_t pid; } sockets[MAX_SOCKETS];
    unsigned int nsockets;
} procs;

void
dbl_procs_reset(void)
{
    for (unsigned int i = 0; i < procs.nprocs; i++)
        free(procs.procs[i].args);
    memset(&procs, 0, sizeof(procs));
    procs.rusage_newest = RUSAGE_INFO_V6;
}

static int
fail(int err)
{
    dbl_set_errno(err);
    return -1;
}

/* libproc's answer to a failed call: 0, errno set. */
static int
fail_zero(int err)
{
    dbl_set_errno(err);
    return 0;
}

/* ---- fields filled as the seed plus their offset ---- */

struct field {
    const char *name;
    size_t offset, size;
};
#define F(type, name) { #name, offsetof(struct type, name), sizeof(((struct type *)0)->name) }
static const struct field task_fields[] = {
    F(proc_taskinfo, pti_virtual_size), F(proc_taskinfo, pti_resident_size), F(proc_taskinfo, pti_total_user),
    F(proc_taskinfo, pti_total_system), F(proc_taskinfo, pti_threads_user), F(proc_taskinfo, pti_threads_system),
    F(proc_taskinfo, pti_policy), F(proc_taskinfo, pti_faults), F(proc_taskinfo, pti_pageins),
    F(proc_taskinfo, pti_cow_faults), F(proc_taskinfo, pti_messages_sent), F(proc_taskinfo, pti_messages_received),
    F(proc_taskinfo, pti_syscalls_mach), F(proc_taskinfo, pti_syscalls_unix), F(proc_taskinfo, pti_csw),
    F(proc_taskinfo, pti_threadnum), F(proc_taskinfo, pti_numrunning), F(proc_taskinfo, pti_priority),
};
static const struct field rusage_fields[] = {
    F(rusage_info_v6, ri_user_time), F(rusage_info_v6, ri_system_time), F(rusage_info_v6, ri_pkg_idle_wkups),
    F(rusage_info_v6, ri_interrupt_wkups), F(rusage_info_v6, ri_pageins), F(rusage_info_v6, ri_wired_size),
    F(rusage_info_v6, ri_resident_size), F(rusage_info_v6, ri_phys_footprint),
    F(rusage_info_v6, ri_proc_start_abstime), F(rusage_info_v6, ri_proc_exit_abstime),
    F(rusage_info_v6, ri_child_user_time), F(rusage_info_v6, ri_child_system_time),
    F(rusage_info_v6, ri_child_pkg_idle_wkups), F(rusage_info_v6, ri_child_interrupt_wkups),
    F(rusage_info_v6, ri_child_pageins), F(rusage_info_v6, ri_child_elapsed_abstime),
    F(rusage_info_v6, ri_diskio_bytesread), F(rusage_info_v6, ri_diskio_byteswritten),
    F(rusage_info_v6, ri_cpu_time_qos_default), F(rusage_info_v6, ri_cpu_time_qos_maintenance),
    F(rusage_info_v6, ri_cpu_time_qos_background), F(rusage_info_v6, ri_cpu_time_qos_utility),
    F(rusage_info_v6, ri_cpu_time_qos_legacy), F(rusage_info_v6, ri_cpu_time_qos_user_initiated),
    F(rusage_info_v6, ri_cpu_time_qos_user_interactive), F(rusage_info_v6, ri_billed_system_time),
    F(rusage_info_v6, ri_serviced_system_time), F(rusage_info_v6, ri_logical_writes),
    F(rusage_info_v6, ri_lifetime_max_phys_footprint), F(rusage_info_v6, ri_instructions),
    F(rusage_info_v6, ri_cycles), F(rusage_info_v6, ri_billed_energy), F(rusage_info_v6, ri_serviced_energy),
    F(rusage_info_v6, ri_interval_max_phys_footprint), F(rusage_info_v6, ri_runnable_time),
    F(rusage_info_v6, ri_flags), F(rusage_info_v6, ri_user_ptime), F(rusage_info_v6, ri_system_ptime),
    F(rusage_info_v6, ri_pinstructions), F(rusage_info_v6, ri_pcycles), F(rusage_info_v6, ri_energy_nj),
    F(rusage_info_v6, ri_penergy_nj),
};
static const struct field thread_fields[] = {
    F(proc_threadinfo, pth_user_time), F(proc_threadinfo, pth_system_time), F(proc_threadinfo, pth_cpu_usage),
    F(proc_threadinfo, pth_policy), F(proc_threadinfo, pth_run_state), F(proc_threadinfo, pth_flags),
    F(proc_threadinfo, pth_sleep_time), F(proc_threadinfo, pth_curpri), F(proc_threadinfo, pth_priority),
    F(proc_threadinfo, pth_maxpriority),
};
#undef F
#define NFIELDS(table) (sizeof(table) / sizeof(table[0]))

static void
fill_fields(void *s, const struct field *fields, size_t n, uint64_t seed)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t v = seed + fields[i].offset;
        uint32_t v32 = (uint32_t)v;

        memcpy((unsigned char *)s + fields[i].offset, fields[i].size == 8 ? (void *)&v : (void *)&v32,
               fields[i].size);
    }
}

static uint64_t
field_value(const void *s, const struct field *fields, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(fields[i].name, name) == 0) {
            uint64_t v = 0;

            memcpy(&v, (const unsigned char *)s + fields[i].offset, fields[i].size);
            return v;
        }
    dbl_violation("no field %s", name);
}

/* ---- the processes and what the kernel publishes of them ---- */

static struct dproc *
proc_of(int32_t pid)
{
    for (unsigned int i = 0; i < procs.nprocs; i++)
        if (procs.procs[i].d.pid == pid)
            return &procs.procs[i];
    return NULL;
}

static struct dproc *
described(int32_t pid)
{
    struct dproc *p = proc_of(pid);

    if (p == NULL)
        dbl_violation("process %d was not described", (int)pid);
    return p;
}

static void
fill_kinfo(struct kinfo_proc *kp, const struct dproc *p)
{
    struct extern_proc *x = &kp->kp_proc;
    struct eproc *e = &kp->kp_eproc;
    size_t comm = strlen(p->comm);

    memset(kp, 0, sizeof(*kp));
    x->p_starttime.tv_sec = p->d.start_sec;
    x->p_starttime.tv_usec = p->d.start_usec;
    x->p_flag = (int)(p->d.flag | (p->exiting ? P_WEXIT : 0));
    x->p_stat = (char)p->d.stat;
    x->p_pid = p->d.pid;
    x->p_priority = (u_char)p->d.priority;
    x->p_nice = (char)p->d.nice;
    memcpy(x->p_comm, p->comm, comm < MAXCOMLEN ? comm : MAXCOMLEN);
    e->e_ppid = p->d.ppid;
    e->e_pgid = p->d.pgid;
    e->e_pcred.p_ruid = p->d.ruid;
    e->e_pcred.p_svuid = p->d.svuid;
    e->e_pcred.p_rgid = p->d.rgid;
    e->e_pcred.p_svgid = p->d.svgid;
    e->e_ucred.cr_uid = p->d.uid;
    e->e_ucred.cr_ngroups = (short)p->d.ngroups;
    e->e_ucred.cr_groups[0] = p->d.gid;
    e->e_tdev = NODEV;
    if (p->d.flag & P_CONTROLT) {
        e->e_tdev = (dev_t)p->d.tdev;
        e->e_tpgid = p->d.tpgid;
    }
}

static int
another_users(const struct dproc *p)
{
    return procs.euid != 0 && procs.euid != p->d.uid;
}

static void
publish_args(const struct dproc *p)
{
    int mib[3] = { CTL_KERN, KERN_PROCARGS2, p->d.pid };
    char name[64];

    snprintf(name, sizeof(name), "kern.procargs2.%d", (int)p->d.pid);
    dbl_sysctl_procargs(name, mib, 3, p->args, p->args ? p->args_len : 0);
    if (p->gone || p->d.stat == SZOMB || p->args == NULL || another_users(p))
        dbl_sysctl_error(name, EINVAL);     /* the entry keeps its MIB */
}

/* KERN_PROC_ALL's list and each process's KERN_PROCARGS2, after any change. */
static void
publish(void)
{
    int mib[3] = { CTL_KERN, KERN_PROC, KERN_PROC_ALL };
    struct kinfo_proc *list = calloc(procs.nprocs ? procs.nprocs : 1, sizeof(*list));
    unsigned int n = 0;

    if (list == NULL)
        dbl_violation("out of memory");
    for (unsigned int i = 0; i < procs.nprocs; i++) {
        if (!procs.procs[i].gone)
            fill_kinfo(&list[n++], &procs.procs[i]);
        publish_args(&procs.procs[i]);
    }
    dbl_sysctl_list("kern.proc.all", mib, 3, list, n * sizeof(*list));
    free(list);
}

void
dbl_proc(const struct dbl_proc *d)
{
    struct dproc *p = proc_of(d->pid);

    if (p == NULL) {
        if (procs.nprocs == MAX_PROCS)
            dbl_violation("more than %d processes", MAX_PROCS);
        p = &procs.procs[procs.nprocs++];
    }
    free(p->args);
    memset(p, 0, sizeof(*p));
    p->d = *d;
    strlcpy(p->comm, d->comm ? d->comm : "", sizeof(p->comm));
    p->d.comm = NULL;
    publish();
}

void
dbl_proc_euid(uint32_t uid)
{
    procs.euid = uid;
    publish();
}

void
dbl_proc_task(int32_t pid, uint64_t seed)
{
    fill_fields(&described(pid)->task, task_fields, NFIELDS(task_fields), seed);
}

void
dbl_proc_rusage(int32_t pid, uint64_t seed)
{
    fill_fields(&described(pid)->rusage, rusage_fields, NFIELDS(rusage_fields), seed);
}

void
dbl_rusage_newest(int flavor)
{
    procs.rusage_newest = flavor;
}

uint64_t
dbl_proc_field(int32_t pid, const char *field)
{
    const struct dproc *p = described(pid);

    if (strncmp(field, "pti_", 4) == 0)
        return field_value(&p->task, task_fields, NFIELDS(task_fields), field);
    return field_value(&p->rusage, rusage_fields, NFIELDS(rusage_fields), field);
}

void
dbl_proc_fds(int32_t pid, uint32_t count)
{
    described(pid)->nfds = count;
}

void
dbl_proc_cwd(int32_t pid, const char *path)
{
    strlcpy(described(pid)->cwd, path ? path : "", MAXPATHLEN);
}

void
dbl_proc_path(int32_t pid, const char *path)
{
    strlcpy(described(pid)->path, path ? path : "", MAXPATHLEN);
}

void
dbl_proc_args(int32_t pid, int32_t argc, const void *strings, size_t len)
{
    struct dproc *p = described(pid);

    free(p->args);
    if ((p->args = malloc(sizeof(argc) + len)) == NULL)
        dbl_violation("out of memory");
    memcpy(p->args, &argc, sizeof(argc));
    memcpy(p->args + sizeof(argc), strings, len);
    p->args_len = sizeof(argc) + len;
    publish();
}

void
dbl_proc_thread(int32_t pid, uint64_t tid, uint64_t seed, const char *name)
{
    struct dthread *t;

    (void)described(pid);
    if (procs.nthreads == MAX_THREADS)
        dbl_violation("more than %d threads", MAX_THREADS);
    t = &procs.threads[procs.nthreads++];
    memset(t, 0, sizeof(*t));
    t->pid = pid;
    t->tid = tid;
    fill_fields(&t->info, thread_fields, NFIELDS(thread_fields), seed);
    strlcpy(t->info.pth_name, name ? name : "", sizeof(t->info.pth_name));
}

static struct dthread *
thread_of(int32_t pid, uint64_t tid)
{
    for (unsigned int i = 0; i < procs.nthreads; i++)
        if (procs.threads[i].pid == pid && procs.threads[i].tid == tid && !procs.threads[i].gone)
            return &procs.threads[i];
    return NULL;
}

void
dbl_thread_ends(int32_t pid, uint64_t tid)
{
    struct dthread *t = thread_of(pid, tid);

    if (t == NULL)
        dbl_violation("thread %llu of %d was not described", (unsigned long long)tid, (int)pid);
    t->ends = 1;
}

uint64_t
dbl_thread_field(int32_t pid, uint64_t tid, const char *field)
{
    for (unsigned int i = 0; i < procs.nthreads; i++)
        if (procs.threads[i].pid == pid && procs.threads[i].tid == tid)
            return field_value(&procs.threads[i].info, thread_fields, NFIELDS(thread_fields), field);
    dbl_violation("thread %llu of %d was not described", (unsigned long long)tid, (int)pid);
}

void
dbl_proc_exiting(int32_t pid)
{
    struct dproc *p = described(pid);

    p->exiting = 1;
    p->nfds = 0;
    for (unsigned int i = 0; i < procs.nthreads; i++)
        if (procs.threads[i].pid == pid)
            procs.threads[i].gone = 1;
    publish();
}

void
dbl_proc_gone(int32_t pid)
{
    described(pid)->gone = 1;
    publish();
}

/* ---- libproc ---- */

uid_t
geteuid(void)
{
    return procs.euid;
}

/* The process proc_find finds: neither gone nor a zombie. */
static struct dproc *
found_proc(int32_t pid)
{
    struct dproc *p = proc_of(pid);

    return p == NULL || p->gone || p->d.stat == SZOMB ? NULL : p;
}

static int
list_fds(const struct dproc *p, void *buffer, int size)
{
    struct proc_fdinfo *fds = buffer;
    uint32_t n = (uint32_t)size / sizeof(*fds);

    if (buffer == NULL)
        return (int)((p->nfds + FD_ESTIMATE_SLACK) * sizeof(*fds));
    if (n > p->nfds)
        n = p->nfds;
    for (uint32_t i = 0; i < n; i++)
        fds[i] = (struct proc_fdinfo){ .proc_fd = (int32_t)i, .proc_fdtype = PROX_FDTYPE_VNODE };
    return (int)(n * sizeof(*fds));
}

static int
list_threads(int32_t pid, void *buffer, int size)
{
    uint64_t *ids = buffer;
    uint32_t max = (uint32_t)size / sizeof(*ids), live = 0, n = 0;

    for (unsigned int i = 0; i < procs.nthreads; i++)
        live += procs.threads[i].pid == pid && !procs.threads[i].gone;
    if (max > live + THREAD_SLACK)
        max = live + THREAD_SLACK;
    for (unsigned int i = 0; i < procs.nthreads && n < max; i++) {
        struct dthread *t = &procs.threads[i];

        if (t->pid != pid || t->gone)
            continue;
        ids[n++] = t->tid;
        t->gone = t->ends;          /* it ends right after the list */
    }
    return (int)(n * sizeof(*ids));
}

static int
thread_info(int32_t pid, uint64_t tid, void *buffer)
{
    const struct dthread *t = thread_of(pid, tid);

    if (t == NULL)
        return fail(ESRCH);
    memcpy(buffer, &t->info, sizeof(t->info));
    return (int)sizeof(t->info);
}

static int
vnode_paths(const struct dproc *p, void *buffer)
{
    struct proc_vnodepathinfo *vpi = buffer;

    memset(vpi, 0, sizeof(*vpi));
    strlcpy(vpi->pvi_cdir.vip_path, p->cwd, sizeof(vpi->pvi_cdir.vip_path));
    return (int)sizeof(*vpi);
}

/* The least buffer a flavor takes (proc_pidinfo's size switch). */
static size_t
flavor_size(int flavor, const void *buffer)
{
    switch (flavor) {
    case PROC_PIDTASKINFO:
        return sizeof(struct proc_taskinfo);
    case PROC_PIDVNODEPATHINFO:
        return sizeof(struct proc_vnodepathinfo);
    case PROC_PIDLISTFDS:
        return buffer == NULL ? 0 : sizeof(struct proc_fdinfo);
    case PROC_PIDLISTTHREADIDS:
        return PROC_PIDLISTTHREADIDS_SIZE;
    case PROC_PIDTHREADID64INFO:
        return sizeof(struct proc_threadinfo);
    default:
        dbl_violation("proc_pidinfo flavor %d: not a call the live code makes", flavor);
    }
}

static int
pidinfo(int pid, int flavor, uint64_t arg, void *buffer, int size)
{
    struct dproc *p;
    int err;

    if ((uint32_t)size < flavor_size(flavor, buffer))     /* the kernel's buffersize is unsigned */
        return fail(ENOMEM);
    if (buffer == NULL && flavor != PROC_PIDLISTFDS)
        dbl_violation("proc_pidinfo flavor %d into no buffer", flavor);
    if ((err = dbl_failing("proc_pidinfo")) != 0)
        return fail(err);
    if ((p = found_proc(pid)) == NULL)
        return fail(ESRCH);
    if (another_users(p))
        return fail(EPERM);
    switch (flavor) {
    case PROC_PIDTASKINFO:
        memcpy(buffer, &p->task, sizeof(p->task));
        return (int)sizeof(p->task);
    case PROC_PIDVNODEPATHINFO:
        return vnode_paths(p, buffer);
    case PROC_PIDLISTFDS:
        return list_fds(p, buffer, size);
    case PROC_PIDLISTTHREADIDS:
        return list_threads(pid, buffer, size);
    default:
        return thread_info(pid, arg, buffer);
    }
}

int
proc_pidinfo(int pid, int flavor, uint64_t arg, void *buffer, int size)
{
    int got = pidinfo(pid, flavor, arg, buffer, size);

    return got < 0 ? 0 : got;       /* libproc: -1 (errno set) is 0 */
}

int
proc_pid_rusage(int pid, int flavor, rusage_info_t *buffer)
{
    struct dproc *p = proc_of(pid);
    size_t size;
    int err;

    if (flavor == RUSAGE_INFO_V6)
        size = sizeof(struct rusage_info_v6);
    else if (flavor == RUSAGE_INFO_V4)
        size = sizeof(struct rusage_info_v4);
    else
        dbl_violation("proc_pid_rusage flavor %d: not a call the live code makes", flavor);
    if ((err = dbl_failing("proc_pid_rusage")) != 0)
        return fail(err);
    if (p == NULL || p->gone)           /* a zombie answers: proc_find_zombref */
        return fail(ESRCH);
    if (another_users(p))
        return fail(EPERM);
    if (flavor > procs.rusage_newest)
        return fail(EINVAL);
    memcpy((void *)buffer, &p->rusage, size);
    return 0;
}

int
proc_pidpath(int pid, void *buffer, uint32_t size)
{
    const struct dproc *p;
    int err;

    if (size < PROC_PIDPATHINFO_SIZE)
        return fail_zero(ENOMEM);
    if (size > PROC_PIDPATHINFO_MAXSIZE)
        return fail_zero(EOVERFLOW);
    if ((err = dbl_failing("proc_pidpath")) != 0)
        return fail_zero(err);
    if ((p = found_proc(pid)) == NULL || p->path[0] == '\0')
        return fail_zero(ESRCH);
    memset(buffer, 0, size);
    strlcpy(buffer, p->path, size);
    return (int)strlen(p->path);
}

/* ---- directory services and /dev ---- */

static struct name_entry *
name_entry(struct name_entry *table, unsigned int *n, uint32_t id)
{
    for (unsigned int i = 0; i < *n; i++)
        if (table[i].id == id)
            return &table[i];
    if (*n == MAX_NAMES)
        dbl_violation("more than %d names", MAX_NAMES);
    memset(&table[*n], 0, sizeof(table[*n]));
    table[*n].id = id;
    return &table[(*n)++];
}

static const struct name_entry *
find_entry(const struct name_entry *table, unsigned int n, uint32_t id)
{
    for (unsigned int i = 0; i < n; i++)
        if (table[i].id == id)
            return &table[i];
    return NULL;
}

void
dbl_user(uint32_t uid, const char *name, const char *gecos, const char *dir)
{
    struct name_entry *u = name_entry(procs.users, &procs.nusers, uid);

    strlcpy(u->name, name, sizeof(u->name));
    strlcpy(u->gecos, gecos, sizeof(u->gecos));
    strlcpy(u->dir, dir, sizeof(u->dir));
}

void
dbl_group(uint32_t gid, const char *name, unsigned int members)
{
    struct name_entry *g = name_entry(procs.groups, &procs.ngroups, gid);

    strlcpy(g->name, name, sizeof(g->name));
    g->members = members;
}

/* Copy s into the caller's buffer at *at; its place there. */
static char *
put_string(char **at, const char *s)
{
    char *place = *at;
    size_t len = strlen(s) + 1;

    memcpy(place, s, len);
    *at += len;
    return place;
}

int
getpwuid_r(uid_t uid, struct passwd *pw, char *buf, size_t len, struct passwd **res)
{
    static const char passwd[] = "********", class[] = "", shell[] = "/bin/zsh";
    const struct name_entry *u;
    size_t need;
    int err;

    if (res != NULL)
        *res = NULL;
    if (pw == NULL || buf == NULL || res == NULL || len == 0)
        return ERANGE;
    if ((err = dbl_failing("getpwuid_r")) != 0)
        return err;
    if ((u = find_entry(procs.users, procs.nusers, uid)) == NULL)
        return 0;
    need = strlen(u->name) + sizeof(passwd) + sizeof(class) + strlen(u->gecos) + strlen(u->dir) + sizeof(shell) + 3;
    if (need > len)
        return ERANGE;
    *pw = (struct passwd){ .pw_uid = uid, .pw_gid = 20 };
    pw->pw_name = put_string(&buf, u->name);
    pw->pw_passwd = put_string(&buf, passwd);
    pw->pw_class = put_string(&buf, class);
    pw->pw_gecos = put_string(&buf, u->gecos);
    pw->pw_dir = put_string(&buf, u->dir);
    pw->pw_shell = put_string(&buf, shell);
    *res = pw;
    return 0;
}

static void
member_name(char *out, size_t len, unsigned int i)
{
    snprintf(out, len, "member%u", i);
}

static size_t
group_size(const struct name_entry *g, const char *passwd)
{
    size_t need = strlen(g->name) + 1 + strlen(passwd) + 1 + sizeof(char *);
    char member[32];

    for (unsigned int i = 0; i < g->members; i++) {
        member_name(member, sizeof(member), i);
        need += sizeof(char *) + strlen(member) + 1;
    }
    return need;
}

int
getgrgid_r(gid_t gid, struct group *gr, char *buf, size_t len, struct group **res)
{
    static const char passwd[] = "*";
    const struct name_entry *g;
    char *names, member[32];
    int err;

    if (res != NULL)
        *res = NULL;
    if (gr == NULL || buf == NULL || res == NULL || len == 0)
        return ERANGE;
    if ((err = dbl_failing("getgrgid_r")) != 0)
        return err;
    if ((g = find_entry(procs.groups, procs.ngroups, gid)) == NULL)
        return 0;
    if (group_size(g, passwd) > len)
        return ERANGE;
    *gr = (struct group){ .gr_gid = gid };
    gr->gr_name = put_string(&buf, g->name);
    gr->gr_passwd = put_string(&buf, passwd);
    /* the pointers, unaligned as copy_group_r leaves them, then the names */
    names = buf + (g->members + 1) * sizeof(char *);
    gr->gr_mem = (char **)(void *)buf;
    for (unsigned int i = 0; i < g->members; i++) {
        char *place;

        member_name(member, sizeof(member), i);
        place = put_string(&names, member);
        memcpy(buf + i * sizeof(char *), &place, sizeof(place));
    }
    memset(buf + g->members * sizeof(char *), 0, sizeof(char *));
    *res = gr;
    return 0;
}

void
dbl_tty(uint32_t dev, const char *name)
{
    if (procs.nttys == MAX_NAMES)
        dbl_violation("more than %d terminals", MAX_NAMES);
    procs.ttys[procs.nttys].dev = dev;
    strlcpy(procs.ttys[procs.nttys++].name, name, sizeof(procs.ttys[0].name));
}

char *
devname_r(dev_t dev, mode_t type, char *buf, int len)
{
    if (type != S_IFCHR)
        dbl_violation("devname_r of type %#o: the live code asks for terminals", (unsigned int)type);
    if (dbl_failing("devname_r") != 0)
        return NULL;                /* opendir("/dev") failed */
    for (unsigned int i = 0; i < procs.nttys; i++)
        if ((dev_t)procs.ttys[i].dev == dev) {
            if (len <= 0 || strlen(procs.ttys[i].name) + 1 > (size_t)len)
                return NULL;
            memcpy(buf, procs.ttys[i].name, strlen(procs.ttys[i].name) + 1);
            return buf;
        }
    return NULL;
}

/* ---- the sockets' pcblist_n streams ---- */

/* struct xsockbuf_n, bsd/sys/socketvar.h (inside #pragma pack(4)). */
struct xsockbuf_n {
    uint32_t xsb_len, xsb_kind, sb_cc, sb_hiwat, sb_mbcnt, sb_mbmax;
    int32_t sb_lowat;
    int16_t sb_flags, sb_timeo;
};
#define XSO_SOCKET 0x001
#define XSO_RCVBUF 0x002
#define XSO_SNDBUF 0x004
#define PCBLIST_GEN 41

struct stream {
    unsigned char *bytes;
    size_t len, cap;
};

static void
append(struct stream *s, const void *record, size_t len)
{
    size_t padded = (len + 7) & ~(size_t)7;

    if (s->len + padded > s->cap) {
        size_t cap = (s->len + padded) * 2;
        unsigned char *grown = realloc(s->bytes, cap);

        if (grown == NULL)
            dbl_violation("out of memory");
        s->bytes = grown;
        s->cap = cap;
    }
    memset(s->bytes + s->len, 0, padded);
    memcpy(s->bytes + s->len, record, len);
    s->len += padded;
}

static void
append_socket(struct stream *s, int tcp, int32_t pid, unsigned int n)
{
    struct xnu_xsocket_n so = { .xso_len = sizeof(so), .xso_kind = XSO_SOCKET, .xso_so = 0x1000 + n,
                                .so_type = tcp ? 1 : 2, .xso_protocol = tcp ? 6 : 17, .xso_family = 2,
                                .so_uid = 501, .so_last_pid = pid, .so_e_pid = pid };
    struct xsockbuf_n rcv = { .xsb_len = sizeof(rcv), .xsb_kind = XSO_RCVBUF, .sb_hiwat = 131072 };
    struct xsockbuf_n snd = { .xsb_len = sizeof(snd), .xsb_kind = XSO_SNDBUF, .sb_hiwat = 131072 };
    struct xnu_xtcpcb_n_head tp = { .xt_len = sizeof(tp), .xt_kind = XNU_XSO_TCPCB, .t_state = 4 };

    append(s, &so, sizeof(so));
    append(s, &rcv, sizeof(rcv));
    append(s, &snd, sizeof(snd));
    if (tcp)
        append(s, &tp, sizeof(tp));
}

static void
publish_pcblist(const char *name, int tcp)
{
    struct stream s = { 0 };
    struct xnu_xinpgen gen = { .xig_len = sizeof(gen), .xig_gen = PCBLIST_GEN, .xig_sogen = PCBLIST_GEN };

    for (unsigned int i = 0; i < procs.nsockets; i++)
        gen.xig_count += procs.sockets[i].tcp == tcp;
    append(&s, &gen, sizeof(gen));
    for (unsigned int i = 0; i < procs.nsockets; i++)
        if (procs.sockets[i].tcp == tcp)
            append_socket(&s, tcp, procs.sockets[i].pid, i);
    append(&s, &gen, sizeof(gen));
    dbl_sysctl_list(name, NULL, 0, s.bytes, s.len);
    free(s.bytes);
}

void
dbl_socket(int tcp, int32_t last_pid)
{
    if (procs.nsockets == MAX_SOCKETS)
        dbl_violation("more than %d sockets", MAX_SOCKETS);
    procs.sockets[procs.nsockets].tcp = tcp != 0;
    procs.sockets[procs.nsockets++].pid = last_pid;
    publish_pcblist("net.inet.tcp.pcblist_n", 1);
    publish_pcblist("net.inet.udp.pcblist_n", 0);
}
