/*
 * procs.c on the double: the process list, each process's libproc answers,
 * its threads, the sockets' owners and the names of users, groups and
 * terminals; what each reads from where, and what it says when macOS
 * refuses (another user's process), when a process goes away or exits,
 * and when an answer outgrows its first buffer.
 */
#include "harness.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define ROOT 0
#define USER 501                    /* the first user macOS makes */
#define OTHER 502
#define P_CONTROLT 0x2              /* bsd/sys/proc.h */
#define P_WEXIT 0x2000
#define SRUN 2
#define SZOMB 5
#define ARG_MAX (1024 * 1024)       /* sys/syslimits.h: kern.argmax */

/* A running process of uid's, every field its own value. */
static struct dbl_proc
a_process(int32_t pid, uint32_t uid, const char *comm)
{
    return (struct dbl_proc){ .pid = pid, .ppid = pid - 7, .pgid = pid + 11, .tpgid = pid + 13, .ruid = uid + 1,
                              .uid = uid, .svuid = uid + 2, .rgid = 20, .gid = 80, .svgid = 12, .ngroups = 14,
                              .stat = SRUN, .nice = -5, .priority = 31, .tdev = 0x10000003,
                              .start_sec = 1763000000 + pid, .start_usec = 123456, .comm = comm };
}

static void
describe(int32_t pid, uint32_t uid, const char *comm)
{
    struct dbl_proc p = a_process(pid, uid, comm);

    dbl_proc(&p);
}

static const struct plat_proc *
listed(const struct plat_proc_set *set, int32_t pid)
{
    for (unsigned int i = 0; i < set->n; i++)
        if (set->proc[i].pid == pid)
            return &set->proc[i];
    fail_msg("pid %d is not in the list", (int)pid);
    return NULL;
}

/* ---- the list ---- */

static void
test_procs_read_every_field(void **state)
{
    struct platform *p = *state;
    struct dbl_proc with_tty = a_process(412, USER, "zsh");
    struct dbl_proc without = a_process(97, ROOT, "a-very-long-daemon-name");
    struct plat_proc_set set;
    const struct plat_proc *o;

    with_tty.flag = P_CONTROLT;
    dbl_proc(&with_tty);
    dbl_proc(&without);
    assert_int_equal(p->procs(p->ctx, &set), 0);
    assert_int_equal(set.n, 2);

    o = listed(&set, 412);
    assert_int_equal(o->ppid, 405);
    assert_int_equal(o->pgid, 423);
    assert_int_equal(o->tpgid, 425);
    assert_int_equal(o->ruid, USER + 1);
    assert_int_equal(o->uid, USER);
    assert_int_equal(o->svuid, USER + 2);
    assert_int_equal(o->rgid, 20);
    assert_int_equal(o->gid, 80);
    assert_int_equal(o->svgid, 12);
    assert_int_equal(o->ngroups, 14);
    assert_int_equal(o->stat, SRUN);
    assert_int_equal(o->flag, P_CONTROLT);
    assert_int_equal(o->nice, -5);
    assert_int_equal(o->priority, 31);
    assert_int_equal(o->tdev, 0x10000003);
    assert_int_equal(o->start_sec, 1763000412);
    assert_int_equal(o->start_usec, 123456);
    assert_string_equal(o->comm, "zsh");
    /* never filled by the kernel */
    assert_int_equal(o->usrpri, 0);
    assert_int_equal(o->wchan, 0);
    assert_string_equal(o->wmesg, "");

    o = listed(&set, 97);
    assert_int_equal(o->tdev, PLAT_NODEV);      /* no controlling terminal */
    assert_int_equal(o->tpgid, 0);
    assert_string_equal(o->comm, "a-very-long-daem");  /* MAXCOMLEN bytes */
}

static void
test_procs_zombie_and_exiting_listed(void **state)
{
    struct platform *p = *state;
    struct dbl_proc zombie = a_process(300, USER, "defunct");
    struct plat_proc_set set;

    zombie.stat = SZOMB;
    dbl_proc(&zombie);
    describe(301, USER, "leaving");
    dbl_proc_exiting(301);
    describe(302, USER, "gone");
    dbl_proc_gone(302);
    assert_int_equal(p->procs(p->ctx, &set), 0);
    assert_int_equal(set.n, 2);
    assert_int_equal(listed(&set, 300)->stat, SZOMB);
    assert_int_equal(listed(&set, 301)->flag & P_WEXIT, P_WEXIT);
}

/* The arrays grow with the list and come back the same size after. */
static void
test_procs_list_grows_and_shrinks(void **state)
{
    struct platform *p = *state;
    struct plat_proc_set set;

    describe(1, ROOT, "launchd");
    assert_int_equal(p->procs(p->ctx, &set), 0);
    assert_int_equal(set.n, 1);
    for (int32_t pid = 100; pid < 180; pid++)
        describe(pid, USER, "worker");
    assert_int_equal(p->procs(p->ctx, &set), 0);
    assert_int_equal(set.n, 81);
    assert_int_equal(listed(&set, 179)->pid, 179);
    for (int32_t pid = 100; pid < 180; pid++)
        dbl_proc_gone(pid);
    assert_int_equal(p->procs(p->ctx, &set), 0);
    assert_int_equal(set.n, 1);
    assert_int_equal(set.proc[0].pid, 1);
}

static void
test_procs_refused(void **state)
{
    struct platform *p = *state;
    struct plat_proc_set set;

    assert_int_equal(p->procs(p->ctx, &set), -ENOENT);     /* no such sysctl */
    assert_int_equal(set.n, 0);
    describe(1, ROOT, "launchd");
    dbl_fail("sysctl", 2, EPERM);       /* the read after the size */
    assert_int_equal(p->procs(p->ctx, &set), -EPERM);
    assert_int_equal(set.n, 0);
    assert_error_has(p, "kern.proc.all: Operation not permitted");
}

static void
procs_round(struct platform *p)
{
    struct plat_proc_set set;

    assert_int_equal(p->procs(p->ctx, &set), 0);
    assert_int_equal(set.n, 40);
}

static void
test_procs_hold_nothing(void **state)
{
    for (int32_t pid = 1; pid <= 40; pid++)
        describe(pid, USER, "p");
    assert_steady(*state, procs_round, 500);
}

/* ---- task and rusage ---- */

static void
test_task_reads_every_field(void **state)
{
    struct platform *p = *state;
    struct plat_proc_task t;

    describe(500, USER, "app");
    dbl_proc_task(500, 1000);
    assert_int_equal(p->proc_task(p->ctx, 500, &t), 0);
    assert_int_equal(t.virtual_size, dbl_proc_field(500, "pti_virtual_size"));
    assert_int_equal(t.resident_size, dbl_proc_field(500, "pti_resident_size"));
    assert_int_equal(t.total_user, dbl_proc_field(500, "pti_total_user"));
    assert_int_equal(t.total_system, dbl_proc_field(500, "pti_total_system"));
    assert_int_equal(t.faults, dbl_proc_field(500, "pti_faults"));
    assert_int_equal(t.pageins, dbl_proc_field(500, "pti_pageins"));
    assert_int_equal(t.cow_faults, dbl_proc_field(500, "pti_cow_faults"));
    assert_int_equal(t.csw, dbl_proc_field(500, "pti_csw"));
    assert_int_equal(t.syscalls_mach, dbl_proc_field(500, "pti_syscalls_mach"));
    assert_int_equal(t.syscalls_unix, dbl_proc_field(500, "pti_syscalls_unix"));
    assert_int_equal(t.messages_sent, dbl_proc_field(500, "pti_messages_sent"));
    assert_int_equal(t.messages_received, dbl_proc_field(500, "pti_messages_received"));
    assert_int_equal(t.threadnum, dbl_proc_field(500, "pti_threadnum"));
    assert_int_equal(t.numrunning, dbl_proc_field(500, "pti_numrunning"));
    assert_int_equal(t.priority, dbl_proc_field(500, "pti_priority"));
    assert_int_equal(t.policy, dbl_proc_field(500, "pti_policy"));
}

/* Another user's process is refused to a user, not to root; a process
 * gone or a zombie is not found. */
static void
test_task_refused_and_gone(void **state)
{
    struct platform *p = *state;
    struct dbl_proc zombie = a_process(602, OTHER, "defunct");
    struct plat_proc_task t;

    describe(600, OTHER, "theirs");
    describe(601, USER, "mine");
    zombie.stat = SZOMB;
    dbl_proc(&zombie);
    assert_int_equal(p->proc_task(p->ctx, 600, &t), 0);
    dbl_proc_euid(USER);
    assert_int_equal(p->proc_task(p->ctx, 600, &t), -EPERM);
    assert_error_has(p, "PROC_PIDTASKINFO of 600: Operation not permitted");
    assert_int_equal(p->proc_task(p->ctx, 601, &t), 0);
    dbl_proc_euid(ROOT);
    assert_int_equal(p->proc_task(p->ctx, 602, &t), -ESRCH);
    dbl_proc_gone(601);
    assert_int_equal(p->proc_task(p->ctx, 601, &t), -ESRCH);
    assert_error_has(p, "PROC_PIDTASKINFO of 601: No such process");
}

static void
assert_rusage_common(const struct plat_proc_rusage *r, int32_t pid)
{
    assert_int_equal(r->user_time, dbl_proc_field(pid, "ri_user_time"));
    assert_int_equal(r->system_time, dbl_proc_field(pid, "ri_system_time"));
    assert_int_equal(r->pkg_idle_wkups, dbl_proc_field(pid, "ri_pkg_idle_wkups"));
    assert_int_equal(r->interrupt_wkups, dbl_proc_field(pid, "ri_interrupt_wkups"));
    assert_int_equal(r->phys_footprint, dbl_proc_field(pid, "ri_phys_footprint"));
    assert_int_equal(r->lifetime_max_phys_footprint, dbl_proc_field(pid, "ri_lifetime_max_phys_footprint"));
    assert_int_equal(r->diskio_bytesread, dbl_proc_field(pid, "ri_diskio_bytesread"));
    assert_int_equal(r->diskio_byteswritten, dbl_proc_field(pid, "ri_diskio_byteswritten"));
    assert_int_equal(r->logical_writes, dbl_proc_field(pid, "ri_logical_writes"));
    assert_int_equal(r->qos[0], dbl_proc_field(pid, "ri_cpu_time_qos_default"));
    assert_int_equal(r->qos[1], dbl_proc_field(pid, "ri_cpu_time_qos_maintenance"));
    assert_int_equal(r->qos[2], dbl_proc_field(pid, "ri_cpu_time_qos_background"));
    assert_int_equal(r->qos[3], dbl_proc_field(pid, "ri_cpu_time_qos_utility"));
    assert_int_equal(r->qos[4], dbl_proc_field(pid, "ri_cpu_time_qos_legacy"));
    assert_int_equal(r->qos[5], dbl_proc_field(pid, "ri_cpu_time_qos_user_initiated"));
    assert_int_equal(r->qos[6], dbl_proc_field(pid, "ri_cpu_time_qos_user_interactive"));
    assert_int_equal(r->instructions, dbl_proc_field(pid, "ri_instructions"));
    assert_int_equal(r->cycles, dbl_proc_field(pid, "ri_cycles"));
    assert_int_equal(r->runnable_time, dbl_proc_field(pid, "ri_runnable_time"));
}

static void
test_rusage_v6(void **state)
{
    struct platform *p = *state;
    struct plat_proc_rusage r;

    describe(700, USER, "app");
    dbl_proc_rusage(700, 5000);
    assert_int_equal(p->proc_rusage(p->ctx, 700, &r), 0);
    assert_int_equal(r.version, 6);
    assert_rusage_common(&r, 700);
    assert_int_equal(r.user_ptime, dbl_proc_field(700, "ri_user_ptime"));
    assert_int_equal(r.system_ptime, dbl_proc_field(700, "ri_system_ptime"));
    assert_int_equal(r.energy_nj, dbl_proc_field(700, "ri_energy_nj"));
    assert_int_equal(dbl_calls("proc_pid_rusage"), 1);
}

/* macOS 11 knows flavors up to 5: flavor 6 is EINVAL, and 4 is read
 * instead, the newer fields left 0. */
static void
test_rusage_falls_back_to_v4(void **state)
{
    struct platform *p = *state;
    struct plat_proc_rusage r;

    describe(701, USER, "app");
    dbl_proc_rusage(701, 9000);
    dbl_rusage_newest(5);
    assert_int_equal(p->proc_rusage(p->ctx, 701, &r), 0);
    assert_int_equal(r.version, 4);
    assert_rusage_common(&r, 701);
    assert_int_equal(r.user_ptime, 0);
    assert_int_equal(r.system_ptime, 0);
    assert_int_equal(r.energy_nj, 0);
    assert_int_equal(dbl_calls("proc_pid_rusage"), 2);
}

static void
test_rusage_refused_and_gone(void **state)
{
    struct platform *p = *state;
    struct dbl_proc zombie = a_process(712, USER, "defunct");
    struct plat_proc_rusage r;

    describe(710, OTHER, "theirs");
    describe(711, USER, "mine");
    zombie.stat = SZOMB;
    dbl_proc(&zombie);
    dbl_proc_rusage(712, 100);
    dbl_proc_euid(USER);
    assert_int_equal(p->proc_rusage(p->ctx, 710, &r), -EPERM);
    assert_error_has(p, "proc_pid_rusage of 710: Operation not permitted");
    assert_int_equal(p->proc_rusage(p->ctx, 712, &r), 0);     /* a zombie's usage is still there */
    assert_int_equal(r.user_time, dbl_proc_field(712, "ri_user_time"));
    dbl_proc_gone(711);
    dbl_rusage_newest(5);               /* ESRCH is not the old kernel's EINVAL: no second try */
    assert_int_equal(p->proc_rusage(p->ctx, 711, &r), -ESRCH);
    assert_int_equal(dbl_calls("proc_pid_rusage"), 3);
    dbl_fail("proc_pid_rusage", 2, EIO);    /* flavor 4 fails after 6's EINVAL */
    assert_int_equal(p->proc_rusage(p->ctx, 712, &r), -EIO);
}

/* ---- arguments, path, cwd ---- */

static const char args[] = "/bin/sleep\0\0\0\0sleep\0" "100\0PATH=/usr/bin";

static void
test_args(void **state)
{
    struct platform *p = *state;
    struct plat_bytes b;
    int32_t argc;
    unsigned int sysctls;

    dbl_sysctl_argmax(ARG_MAX);
    describe(800, USER, "sleep");
    dbl_proc_args(800, 2, args, sizeof(args));
    assert_int_equal(p->proc_args(p->ctx, 800, &b), 0);
    assert_int_equal(b.len, sizeof(argc) + sizeof(args));
    memcpy(&argc, b.data, sizeof(argc));
    assert_int_equal(argc, 2);
    assert_memory_equal(b.data + sizeof(argc), args, sizeof(args));
    /* kern.argmax once: one sysctl a process after the first */
    sysctls = dbl_calls("sysctl");
    assert_int_equal(p->proc_args(p->ctx, 800, &b), 0);
    assert_int_equal(dbl_calls("sysctl"), sysctls + 1);
}

/* A buffer shorter than the arguments gets argc and their LAST bytes, with
 * success (xnu-11417.101.15 bsd/kern/kern_sysctl.c:1553-1611,
 * sysctl_procargsx): seen by the length, it is refused as cut short
 * rather than read as a path and arguments it does not begin with. */
static void
test_args_cut_short_are_refused(void **state)
{
    struct platform *p = *state;
    struct plat_bytes b;

    dbl_sysctl_argmax(sizeof(int32_t) + 16);
    describe(804, USER, "sleep");
    dbl_proc_args(804, 2, args, sizeof(args));
    assert_int_equal(p->proc_args(p->ctx, 804, &b), -D_EMSGSIZE);
    assert_error_has(p, "KERN_PROCARGS2 of 804: cut short at 20 bytes");
}

/* KERN_PROCARGS2 says EINVAL to a user for another user's process: it is
 * the refusal; root reads it. */
static void
test_args_refused(void **state)
{
    struct platform *p = *state;
    struct plat_bytes b;

    dbl_sysctl_argmax(ARG_MAX);
    describe(801, OTHER, "theirs");
    dbl_proc_args(801, 2, args, sizeof(args));
    dbl_proc_euid(USER);
    assert_int_equal(p->proc_args(p->ctx, 801, &b), -EPERM);
    assert_error_has(p, "KERN_PROCARGS2 of 801: Invalid argument");
    dbl_proc_euid(ROOT);
    assert_int_equal(p->proc_args(p->ctx, 801, &b), 0);
    describe(802, ROOT, "kernel_task");         /* no user stack: EINVAL, to root too */
    assert_int_equal(p->proc_args(p->ctx, 802, &b), -EINVAL);
}

static void
test_args_without_argmax(void **state)
{
    struct platform *p = *state;
    struct plat_bytes b;

    describe(803, USER, "sleep");
    dbl_proc_args(803, 2, args, sizeof(args));
    assert_int_equal(p->proc_args(p->ctx, 803, &b), -ENOENT);
    assert_error_has(p, "kern.argmax: No such file or directory");
    dbl_sysctl_argmax(0);                       /* read, but no size to allocate */
    assert_int_equal(p->proc_args(p->ctx, 803, &b), -ERANGE);
    assert_error_has(p, "kern.argmax: 0");
}

static void
test_path(void **state)
{
    struct platform *p = *state;
    char path[PLAT_PATH_MAX];

    describe(900, OTHER, "Safari");
    dbl_proc_path(900, "/Applications/Safari.app/Contents/MacOS/Safari");
    dbl_proc_euid(USER);            /* the path is open to every user */
    assert_int_equal(p->proc_path(p->ctx, 900, path, sizeof(path)), 0);
    assert_string_equal(path, "/Applications/Safari.app/Contents/MacOS/Safari");
    assert_int_equal(p->proc_path(p->ctx, 900, path, 16), 0);     /* cut to the caller's buffer */
    assert_string_equal(path, "/Applications/S");
    describe(0, ROOT, "kernel_task");       /* no executable */
    assert_int_equal(p->proc_path(p->ctx, 0, path, sizeof(path)), -ESRCH);
    dbl_proc_gone(900);
    assert_int_equal(p->proc_path(p->ctx, 900, path, sizeof(path)), -ESRCH);
    assert_error_has(p, "proc_pidpath of 900: No such process");
}

static void
test_cwd(void **state)
{
    struct platform *p = *state;
    char cwd[PLAT_PATH_MAX];

    describe(910, USER, "zsh");
    dbl_proc_cwd(910, "/Users/me/src");
    describe(911, ROOT, "kernel_task");
    describe(912, OTHER, "theirs");
    dbl_proc_cwd(912, "/private/var");
    assert_int_equal(p->proc_cwd(p->ctx, 910, cwd, sizeof(cwd)), 0);
    assert_string_equal(cwd, "/Users/me/src");
    assert_int_equal(p->proc_cwd(p->ctx, 911, cwd, sizeof(cwd)), -ENOENT);    /* none */
    dbl_proc_euid(USER);
    assert_int_equal(p->proc_cwd(p->ctx, 912, cwd, sizeof(cwd)), -EPERM);
    assert_error_has(p, "PROC_PIDVNODEPATHINFO of 912: Operation not permitted");
    dbl_proc_gone(910);
    assert_int_equal(p->proc_cwd(p->ctx, 910, cwd, sizeof(cwd)), -ESRCH);
}

/* ---- fds ---- */

static void
test_fds(void **state)
{
    struct platform *p = *state;
    struct plat_proc_fds f;

    describe(1000, USER, "app");
    dbl_proc_fds(1000, 37);
    assert_int_equal(p->proc_fds(p->ctx, 1000, &f), 0);
    assert_int_equal(f.count, 37);
    dbl_proc_fds(1000, 300);        /* more than the buffer kept from before */
    assert_int_equal(p->proc_fds(p->ctx, 1000, &f), 0);
    assert_int_equal(f.count, 300);
}

static void
test_fds_refused_and_failing(void **state)
{
    struct platform *p = *state;
    struct plat_proc_fds f;

    describe(1001, OTHER, "theirs");
    describe(1002, USER, "mine");
    dbl_proc_fds(1002, 4);
    dbl_proc_euid(USER);
    assert_int_equal(p->proc_fds(p->ctx, 1001, &f), -EPERM);
    assert_error_has(p, "PROC_PIDLISTFDS of 1001: Operation not permitted");
    dbl_fail("proc_pidinfo", 2, EIO);   /* the list after the estimate */
    assert_int_equal(p->proc_fds(p->ctx, 1002, &f), -EIO);
    dbl_proc_gone(1002);
    assert_int_equal(p->proc_fds(p->ctx, 1002, &f), -ESRCH);
}

/* Defect 6: an exiting process with no fds left answers 0 bytes, errno
 * untouched; that is 0 fds, not a failure with whatever errno last was. */
static void
test_fds_of_an_exiting_process(void **state)
{
    struct platform *p = *state;
    struct plat_proc_fds f;

    describe(1003, USER, "leaving");
    describe(1004, USER, "gone");
    dbl_proc_fds(1003, 6);
    dbl_proc_gone(1004);
    assert_int_equal(p->proc_fds(p->ctx, 1004, &f), -ESRCH);     /* leaves errno ESRCH */
    dbl_proc_exiting(1003);
    f.count = 99;
    assert_int_equal(p->proc_fds(p->ctx, 1003, &f), 0);
    assert_int_equal(f.count, 0);
}

/* ---- threads ---- */

static void
assert_thread(const struct plat_thread *t, int32_t pid, uint64_t tid, const char *name)
{
    assert_int_equal(t->tid, tid);
    assert_int_equal(t->user_ns, dbl_thread_field(pid, tid, "pth_user_time"));
    assert_int_equal(t->system_ns, dbl_thread_field(pid, tid, "pth_system_time"));
    assert_int_equal(t->run_state, dbl_thread_field(pid, tid, "pth_run_state"));
    assert_int_equal(t->flags, dbl_thread_field(pid, tid, "pth_flags"));
    assert_int_equal(t->curpri, dbl_thread_field(pid, tid, "pth_curpri"));
    assert_int_equal(t->priority, dbl_thread_field(pid, tid, "pth_priority"));
    assert_int_equal(t->policy_status, 0);
    assert_int_equal(t->policy, dbl_thread_field(pid, tid, "pth_policy"));
    assert_string_equal(t->name, name);
}

static void
test_threads_read_every_field(void **state)
{
    struct platform *p = *state;
    struct plat_thread_set set;

    describe(1100, USER, "app");
    dbl_proc_thread(1100, 0x1001, 100, "");
    dbl_proc_thread(1100, 0x1002, 200, "com.apple.main-thread");
    dbl_proc_thread(1100, 0x1003, 300, "com.apple.NSURLConnectionLoader");
    assert_int_equal(p->proc_threads(p->ctx, 1100, &set), 0);
    assert_int_equal(set.n, 3);
    assert_thread(&set.thread[0], 1100, 0x1001, "");
    assert_thread(&set.thread[1], 1100, 0x1002, "com.apple.main-thread");
    assert_thread(&set.thread[2], 1100, 0x1003, "com.apple.NSURLConnectionLoader");
}

/* More threads than the first buffer holds: it grows until the list is
 * shorter than the buffer. */
static void
test_threads_more_than_the_first_buffer(void **state)
{
    struct platform *p = *state;
    struct plat_thread_set set;

    describe(1101, USER, "busy");
    for (uint64_t i = 0; i < 300; i++)
        dbl_proc_thread(1101, 0x5000 + i, i * 1000, "worker");
    assert_int_equal(p->proc_threads(p->ctx, 1101, &set), 0);
    assert_int_equal(set.n, 300);
    for (unsigned int i = 0; i < 300; i++)
        assert_int_equal(set.thread[i].tid, 0x5000 + i);
    assert_thread(&set.thread[299], 1101, 0x5000 + 299, "worker");
}

/* Exactly as many threads as the first buffer: full, so asked again. */
static void
test_threads_filling_the_first_buffer(void **state)
{
    struct platform *p = *state;
    struct plat_thread_set set;

    describe(1102, USER, "pool");
    for (uint64_t i = 0; i < 64; i++)
        dbl_proc_thread(1102, 0x6000 + i, i, "w");
    assert_int_equal(p->proc_threads(p->ctx, 1102, &set), 0);
    assert_int_equal(set.n, 64);
    assert_int_equal(dbl_calls("proc_pidinfo"), 2 + 64);   /* two lists, then each thread */
}

static void
test_thread_that_ends_after_the_list(void **state)
{
    struct platform *p = *state;
    struct plat_thread_set set;

    describe(1103, USER, "app");
    dbl_proc_thread(1103, 1, 10, "a");
    dbl_proc_thread(1103, 2, 20, "b");
    dbl_proc_thread(1103, 3, 30, "c");
    dbl_thread_ends(1103, 2);
    assert_int_equal(p->proc_threads(p->ctx, 1103, &set), 0);
    assert_int_equal(set.n, 2);
    assert_thread(&set.thread[0], 1103, 1, "a");
    assert_thread(&set.thread[1], 1103, 3, "c");
}

static void
test_threads_refused_and_gone(void **state)
{
    struct platform *p = *state;
    struct plat_thread_set set;

    describe(1104, OTHER, "theirs");
    dbl_proc_thread(1104, 1, 10, "a");
    describe(1105, USER, "mine");
    dbl_proc_euid(USER);
    assert_int_equal(p->proc_threads(p->ctx, 1104, &set), -EPERM);
    assert_int_equal(set.n, 0);
    assert_error_has(p, "PROC_PIDLISTTHREADIDS of 1104: Operation not permitted");
    dbl_proc_gone(1105);
    assert_int_equal(p->proc_threads(p->ctx, 1105, &set), -ESRCH);
}

/* Defect 6: an exiting process with no threads left lists 0 bytes: no
 * threads, not a failure. */
static void
test_threads_of_an_exiting_process(void **state)
{
    struct platform *p = *state;
    struct plat_thread_set set;

    describe(1106, USER, "leaving");
    dbl_proc_thread(1106, 1, 10, "a");
    describe(1107, USER, "gone");
    dbl_proc_gone(1107);
    assert_int_equal(p->proc_threads(p->ctx, 1107, &set), -ESRCH);     /* leaves errno ESRCH */
    dbl_proc_exiting(1106);
    assert_int_equal(p->proc_threads(p->ctx, 1106, &set), 0);
    assert_int_equal(set.n, 0);
}

static void
threads_round(struct platform *p)
{
    struct plat_thread_set set;
    struct plat_proc_fds f;
    char text[PLAT_PATH_MAX];

    assert_int_equal(p->proc_threads(p->ctx, 1108, &set), 0);
    assert_int_equal(set.n, 100);
    assert_int_equal(p->proc_fds(p->ctx, 1108, &f), 0);
    assert_int_equal(p->proc_cwd(p->ctx, 1108, text, sizeof(text)), 0);
    assert_int_equal(p->proc_path(p->ctx, 1108, text, sizeof(text)), 0);
}

static void
test_per_process_calls_hold_nothing(void **state)
{
    describe(1108, USER, "app");
    for (uint64_t i = 0; i < 100; i++)
        dbl_proc_thread(1108, i + 1, i, "t");
    dbl_proc_fds(1108, 12);
    dbl_proc_cwd(1108, "/");
    dbl_proc_path(1108, "/usr/bin/app");
    assert_steady(*state, threads_round, 300);
}

/* ---- sockets' owners ---- */

static void
test_sock_owners(void **state)
{
    struct platform *p = *state;
    struct plat_sock_owner_set set;

    dbl_socket(1, 412);
    dbl_socket(0, 412);
    dbl_socket(1, 412);
    dbl_socket(0, 88);
    dbl_socket(1, 0);               /* the kernel's own */
    assert_int_equal(p->sock_owners(p->ctx, &set), 0);
    assert_int_equal(set.n, 3);
    assert_int_equal(set.owner[0].pid, 0);
    assert_int_equal(set.owner[0].tcp, 1);
    assert_int_equal(set.owner[0].udp, 0);
    assert_int_equal(set.owner[1].pid, 88);
    assert_int_equal(set.owner[1].tcp, 0);
    assert_int_equal(set.owner[1].udp, 1);
    assert_int_equal(set.owner[2].pid, 412);
    assert_int_equal(set.owner[2].tcp, 2);
    assert_int_equal(set.owner[2].udp, 1);
    /* counted afresh each time */
    assert_int_equal(p->sock_owners(p->ctx, &set), 0);
    assert_int_equal(set.owner[2].tcp, 2);
}

static void
test_sock_owners_fail(void **state)
{
    struct platform *p = *state;
    struct plat_sock_owner_set set;
    const unsigned char cut[10] = { 24 };

    assert_int_equal(p->sock_owners(p->ctx, &set), -ENOENT);
    assert_error_has(p, "net.inet.tcp.pcblist_n: No such file or directory");
    dbl_socket(1, 5);
    dbl_fail("sysctl", 1, EPERM);
    assert_int_equal(p->sock_owners(p->ctx, &set), -EPERM);
    assert_int_equal(set.n, 0);
    dbl_sysctl_list("net.inet.udp.pcblist_n", NULL, 0, cut, sizeof(cut));
    assert_int_equal(p->sock_owners(p->ctx, &set), -EINVAL);
    assert_error_has(p, "net.inet.udp.pcblist_n: malformed record stream");
}

static void
sock_owners_round(struct platform *p)
{
    struct plat_sock_owner_set set;

    assert_int_equal(p->sock_owners(p->ctx, &set), 0);
    assert_int_equal(set.n, 20);
}

static void
test_sock_owners_hold_nothing(void **state)
{
    for (int32_t pid = 1; pid <= 20; pid++)
        dbl_socket(pid & 1, pid * 3);
    assert_steady(*state, sock_owners_round, 100);
}

/* ---- names ---- */

static void
test_user_name(void **state)
{
    struct platform *p = *state;
    char name[PLAT_NAME_MAX];

    dbl_user(USER, "me", "Me Myself", "/Users/me");
    assert_int_equal(p->user_name(p->ctx, USER, name, sizeof(name)), 0);
    assert_string_equal(name, "me");
    assert_int_equal(p->user_name(p->ctx, 4242, name, sizeof(name)), -ENOENT);
    dbl_fail("getpwuid_r", 1, EIO);
    assert_int_equal(p->user_name(p->ctx, USER, name, sizeof(name)), -EIO);
    assert_error_has(p, "getpwuid_r(501): Input/output error");
}

/* Defect 7: an entry larger than the first buffer is ERANGE; the buffer
 * grows and the name is found. */
static void
test_user_name_of_a_large_entry(void **state)
{
    struct platform *p = *state;
    char name[PLAT_NAME_MAX], gecos[3000];

    memset(gecos, 'g', sizeof(gecos) - 1);
    gecos[sizeof(gecos) - 1] = '\0';
    dbl_user(USER, "longgecos", gecos, "/Users/longgecos");
    assert_int_equal(p->user_name(p->ctx, USER, name, sizeof(name)), 0);
    assert_string_equal(name, "longgecos");
}

static void
test_group_name(void **state)
{
    struct platform *p = *state;
    char name[PLAT_NAME_MAX];

    dbl_group(80, "admin", 3);
    assert_int_equal(p->group_name(p->ctx, 80, name, sizeof(name)), 0);
    assert_string_equal(name, "admin");
    assert_int_equal(p->group_name(p->ctx, 4242, name, sizeof(name)), -ENOENT);
    dbl_fail("getgrgid_r", 1, EIO);
    assert_int_equal(p->group_name(p->ctx, 80, name, sizeof(name)), -EIO);
    assert_error_has(p, "getgrgid_r(80): Input/output error");
}

/* Defect 7: "staff" with hundreds of members is more than 4 KiB. */
static void
test_group_of_hundreds_of_members(void **state)
{
    struct platform *p = *state;
    char name[PLAT_NAME_MAX];

    dbl_group(20, "staff", 600);
    assert_int_equal(p->group_name(p->ctx, 20, name, sizeof(name)), 0);
    assert_string_equal(name, "staff");
}

/* A group past any sane size: the retries stop, and say why. */
static void
test_group_too_large_stops(void **state)
{
    struct platform *p = *state;
    char name[PLAT_NAME_MAX];

    dbl_group(12, "everyone", 100000);
    assert_int_equal(p->group_name(p->ctx, 12, name, sizeof(name)), -ERANGE);
    assert_error_has(p, "getgrgid_r(12): Result too large");
    assert_in_range(dbl_calls("getgrgid_r"), 2, 12);
}

static void
test_tty_name(void **state)
{
    struct platform *p = *state;
    char name[PLAT_NAME_MAX];

    dbl_tty(0x10000003, "ttys003");
    assert_int_equal(p->tty_name(p->ctx, 0x10000003, name, sizeof(name)), 0);
    assert_string_equal(name, "ttys003");
    assert_int_equal(p->tty_name(p->ctx, 0x10000004, name, sizeof(name)), -ENOENT);
    dbl_fail("devname_r", 1, EIO);
    assert_int_equal(p->tty_name(p->ctx, 0x10000003, name, sizeof(name)), -ENOENT);
}

static void
names_round(struct platform *p)
{
    char name[PLAT_NAME_MAX];

    assert_int_equal(p->user_name(p->ctx, USER, name, sizeof(name)), 0);
    assert_int_equal(p->group_name(p->ctx, 20, name, sizeof(name)), 0);
    assert_int_equal(p->group_name(p->ctx, 4242, name, sizeof(name)), -ENOENT);
}

static void
test_names_hold_nothing(void **state)
{
    dbl_user(USER, "me", "Me", "/Users/me");
    dbl_group(20, "staff", 600);
    assert_steady(*state, names_round, 200);
}

#define T(name) cmocka_unit_test_setup_teardown(name, live_test_setup, live_test_teardown)

int
main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_procs_read_every_field), T(test_procs_zombie_and_exiting_listed),
        T(test_procs_list_grows_and_shrinks), T(test_procs_refused), T(test_procs_hold_nothing),
        T(test_task_reads_every_field), T(test_task_refused_and_gone), T(test_rusage_v6),
        T(test_rusage_falls_back_to_v4), T(test_rusage_refused_and_gone), T(test_args), T(test_args_cut_short_are_refused), T(test_args_refused),
        T(test_args_without_argmax), T(test_path), T(test_cwd), T(test_fds), T(test_fds_refused_and_failing),
        T(test_fds_of_an_exiting_process), T(test_threads_read_every_field),
        T(test_threads_more_than_the_first_buffer), T(test_threads_filling_the_first_buffer),
        T(test_thread_that_ends_after_the_list), T(test_threads_refused_and_gone),
        T(test_threads_of_an_exiting_process), T(test_per_process_calls_hold_nothing), T(test_sock_owners),
        T(test_sock_owners_fail), T(test_sock_owners_hold_nothing), T(test_user_name),
        T(test_user_name_of_a_large_entry), T(test_group_name), T(test_group_of_hundreds_of_members),
        T(test_group_too_large_stops), T(test_tty_name), T(test_names_hold_nothing),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
