/*
 * The proc agent (domain 3) through its pmdaInterface over snapshot replay:
 * the fixtures' processes, and small snapshots written here for the edges.
 * Each upstream darwin_proc defect this agent does not reproduce has a test
 * (docs in ../shared/reference/upstream-darwin-metrics.tsv).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include <cmocka.h>

#include "agent_harness.h"
#include "collector.h"
#include "proc_ids.h"
#include "fault_platform.h"
#include "replay.h"
#include "proc_policy.h"
#include "proc_context.h"
#include "proc_values.h"
#include "real_macs_import.h"


#define CLIENT_CTX 5                /* the pmcd context the tests' requests come from */
#define INTERVAL_USEC 5000000ull    /* the fixtures' sample interval */

static struct fault_platform counted;
static uint64_t now_usec;

static uint64_t
replay_clock(void)
{
    return now_usec;
}

/* The proc agent over the snapshot at path, replaying its first sample. */
static void
start_at(const char *path)
{
    struct platform snap;
    char msg[512];

    assert_int_equal(platform_snapshot_open(&snap, path, msg, sizeof(msg)), 0);
    now_usec = 1000;
    platform_snapshot_set_clock(&snap, replay_clock);
    fault_platform_wrap(&counted, &snap);
    proc_access_reset();
    harness_agent = &proc_agent;
    harness_domain = 3;
    harness_source = &counted.p;
    assert_int_equal(harness_start(), 0);
    harness_ext()->e_context = CLIENT_CTX;
    __pmdaSetContext(CLIENT_CTX);
    {
        struct plat_timebase tb;        /* replay time starts at the first reading: now */

        assert_int_equal(counted.inner.timebase(counted.inner.ctx, &tb), 0);
    }
}

static void
start_fixture(const char *name)
{
    char path[512];

    snprintf(path, sizeof(path), "%s/%s", FIXTURES, name);
    start_at(path);
}

/* Replay sample s (0-based) of a snapshot recorded every 5 s. */
static void
go_to_sample(unsigned int s)
{
    now_usec = 1000 + s * INTERVAL_USEC;
}

static int
teardown_replay(void **state)
{
    (void)state;
    harness_stop();
    proc_access_reset();
    return 0;
}

/* A client authenticated as uid (as pmcd passes PMDA_ATTR_USERID). */
static void
client_is(uint32_t uid)
{
    char id[16];

    snprintf(id, sizeof(id), "%u", uid);
    proc_context_attribute(CLIENT_CTX, PMDA_ATTR_USERID, id, (int)strlen(id) + 1, harness_ext());
}

/* A metric's value for one instance: 1 found, 0 no value for it. */
static int
value_of(const char *name, int type, unsigned int inst, pmAtomValue *out)
{
    pmAtomValue v[64];
    int insts[64], n = harness_fetch(name, type, v, 64, insts);

    for (int i = 0; i < n && i < 64; i++)
        if ((unsigned int)insts[i] == inst) {
            *out = v[i];
            return 1;
        }
    return 0;
}

static uint64_t
u64_of(const char *name, unsigned int inst)
{
    pmAtomValue v;

    assert_int_equal(value_of(name, PM_TYPE_U64, inst, &v), 1);
    return v.ull;
}

static uint32_t
u32_of(const char *name, unsigned int inst)
{
    pmAtomValue v;

    assert_int_equal(value_of(name, PM_TYPE_U32, inst, &v), 1);
    return v.ul;
}

static const char *
string_of(const char *name, unsigned int inst)
{
    pmAtomValue v;

    assert_int_equal(value_of(name, PM_TYPE_STRING, inst, &v), 1);
    return v.cp;
}

/* What the agent answers for one instance of one row (after a fetch of its
 * cluster refreshed the table): the per-instance status pmcd would get. */
static int
row_status(const char *name, unsigned int inst)
{
    const struct collector *c = NULL;
    const struct metric_row *row = harness_row_of(name, &c);
    const void *table = agent_collector_state(c), *entry = collector_entry(c->indom, table, inst);
    pmAtomValue atom;

    if (entry == NULL)
        return PM_ERR_INST;
    return row->derive ? row->derive(table, entry, row, inst, &atom) : collector_field(row, entry, &atom);
}

/* The recorded task of pid, read straight from the snapshot. */
static struct plat_proc_task
recorded_task(int32_t pid)
{
    struct plat_proc_task t;

    assert_int_equal(counted.inner.proc_task(counted.inner.ctx, pid, &t), 0);
    return t;
}

/* ---- small snapshots for the edges ---- */

struct proc_spec {
    int32_t pid;
    const char *comm, *args_hex, *cwd;
    uint32_t ruid, uid;
    int64_t start;
    uint64_t total_user;
    int32_t faults, pageins;
    unsigned int tcp;
};

static size_t
put(char *buf, size_t len, size_t at, const char *fmt, ...)
{
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(buf + at, at < len ? len - at : 0, fmt, ap);
    va_end(ap);
    assert_true(n >= 0 && at + (size_t)n < len);
    return at + (size_t)n;
}

static size_t
put_proc(char *buf, size_t len, size_t at, const struct proc_spec *p)
{
#define KEY(fmt, ...) (at = put(buf, len, at, "proc[%d]." fmt "\n", (int)p->pid, __VA_ARGS__))
    KEY("ppid %d", 1); KEY("pgid %d", (int)p->pid); KEY("tpgid %d", 0);
    KEY("ruid %u", p->ruid); KEY("uid %u", p->uid); KEY("svuid %u", p->uid);
    KEY("rgid %d", 20); KEY("gid %d", 20); KEY("svgid %d", 20); KEY("ngroups %d", 1);
    KEY("stat %d", 2); KEY("flag %d", 0); KEY("nice %d", 0); KEY("priority %d", 31); KEY("usrpri %d", 31);
    KEY("tdev %u", PLAT_NODEV); KEY("wchan %d", 0); KEY("start %lld.000000", (long long)p->start);
    KEY("comm %s", p->comm); KEY("refused %d", 0); KEY("fds %d", 9); KEY("path /bin/%s", p->comm);
    KEY("cwd %s", p->cwd ? p->cwd : "/");
    if (p->args_hex)
        KEY("args %s", p->args_hex);
    KEY("task.virtual_size %d", 1048576); KEY("task.resident_size %d", 524288);
    KEY("task.total_user %llu", (unsigned long long)p->total_user); KEY("task.total_system %d", 0);
    KEY("task.faults %d", (int)p->faults); KEY("task.pageins %d", (int)p->pageins);
    KEY("task.cow_faults %d", 0); KEY("task.csw %d", 0); KEY("task.syscalls_mach %d", 0);
    KEY("task.syscalls_unix %d", 0); KEY("task.messages_sent %d", 0); KEY("task.messages_received %d", 0);
    KEY("task.threadnum %d", 1); KEY("task.numrunning %d", 1); KEY("task.priority %d", 31);
#undef KEY
    return put(buf, len, at, "sockets[%d].tcp %u\nsockets[%d].udp 0\n", (int)p->pid, p->tcp, (int)p->pid);
}

/* Start the agent over samples[0..n) of per_sample processes each (none
 * where a spec has no command) and an Apple Silicon timebase, 5 s apart,
 * on a Mac whose registry holds the GPU and its clients of the corpus's
 * dump gpu_dump (NULL: none), whose GPU is of class accelerator. */
static void
start_samples(const struct proc_spec *samples, unsigned int n, unsigned int per_sample, const char *gpu_dump,
              const char *accelerator)
{
    static char text[32768];
    char path[] = "/tmp/pmda-proc-test-XXXXXX";
    size_t at = 0;
    FILE *fp;

    assert_non_null(fp = fdopen(mkstemp(path), "w"));
    fputs("pmda-darwin-snapshot 1\nuname.machine arm64\nclock.boot 1700000000.000000\n", fp);
    if (gpu_dump != NULL) {
        /* the whole uname, so that the agent knows the machine (the text is synthetic) */
        fputs("uname.sysname Darwin\nuname.nodename synthetic.local\nuname.release 20.1.0\n"
              "uname.version Darwin Kernel Version 20.1.0: synthetic\n", fp);
        real_macs_import(fp, &plat_queries[PLAT_QUERY_GPU_CLIENTS], gpu_dump, accelerator);
    }
    /* the last sample ends the replay's lap (replay never stands on it): repeat the last specs */
    for (unsigned int s = 0; s <= n; s++) {
        const struct proc_spec *spec = &samples[(s < n ? s : n - 1) * per_sample];

        at = put(text, sizeof(text), at, "sample %u.000000\ntimebase.numer 125\ntimebase.denom 3\n",
                 1700000100 + 5 * s);
        for (unsigned int k = 0; k < per_sample; k++)
            if (spec[k].comm != NULL)   /* no command: no process in that sample */
                at = put_proc(text, sizeof(text), at, &spec[k]);
    }
    fputs(text, fp);
    fclose(fp);
    start_at(path);
    unlink(path);
}

/* One process a sample. */
static void
start_text(const struct proc_spec *samples, unsigned int n)
{
    start_samples(samples, n, 1, NULL, NULL);
}

/* ---- CPU time: the timebase, without overflow ---- */

/* Mach time to ns (ticks * numer / denom, without overflow), then the
 * milliseconds served. */
static uint64_t
apple_silicon_ms(uint64_t ticks)
{
    return (ticks / 3 * 125 + ticks % 3 * 125 / 3) / 1000000;
}

static void
cpu_time_uses_the_timebase(void **state)
{
    struct plat_proc_task t;

    (void)state;
    start_fixture("apple-silicon.snapshot");
    (void)u64_of("proc.psinfo.utime", 731);     /* refresh, then compare with the recording */
    t = recorded_task(731);
    /* Apple Silicon: 24 MHz Mach time, ns = ticks * 125 / 3 (upstream: ticks * 3 / 125) */
    assert_int_equal(u64_of("proc.psinfo.utime", 731), apple_silicon_ms(t.total_user));
    assert_int_equal(u64_of("proc.psinfo.stime", 731), apple_silicon_ms(t.total_system));
    /* the fixture's python3 ran 0.75 of a core for 3800 s less than the uptime: its
     * user time is about 192,000 s, not 1/41.7 of it */
    assert_true(u64_of("proc.psinfo.utime", 731) > 190000ull * 1000);
    teardown_replay(state);

    start_fixture("intel.snapshot");
    (void)u64_of("proc.psinfo.utime", 731);
    t = recorded_task(731);
    assert_int_equal(u64_of("proc.psinfo.utime", 731), t.total_user / 1000000);     /* Intel: 1/1 */
}

static void
cpu_time_of_years_does_not_overflow(void **state)
{
    /* 200 core-years of Mach time at 24 MHz: ticks * 125 overflows 64 bits */
    const uint64_t ticks = 200ull * 31557600ull * 24000000ull;
    struct proc_spec p = { .pid = 40, .comm = "renderd", .total_user = ticks, .start = 1700000000 };

    (void)state;
    assert_true(ticks > UINT64_MAX / 125);
    start_text(&p, 1);
    assert_int_equal(u64_of("proc.psinfo.utime", 40), apple_silicon_ms(ticks));
}

/* ---- ids, translation, state ---- */

static void
uid_is_real_and_euid_effective(void **state)
{
    /* a setuid-root program run by alice: real 501, effective 0 */
    struct proc_spec p = { .pid = 41, .comm = "sudo", .ruid = 501, .uid = 0, .start = 1700000050 };

    (void)state;
    start_text(&p, 1);
    assert_int_equal(u32_of("proc.id.uid", 41), 501);
    assert_int_equal(u32_of("proc.id.euid", 41), 0);
}

static void
a_name_the_directory_lacks_is_asked_for_once(void **state)
{
    /* the snapshot has no user[] records: every look-up fails, as for a uid
     * that a directory service does not know */
    struct proc_spec p = { .pid = 46, .comm = "orphan", .ruid = 777, .uid = 777, .start = 1700000050 };
    pmAtomValue v;

    (void)state;
    start_text(&p, 1);
    assert_int_equal(value_of("proc.id.uid_nm", PM_TYPE_STRING, 46, &v), 0);
    assert_int_equal(value_of("proc.id.euid_nm", PM_TYPE_STRING, 46, &v), 0);
    assert_int_equal(value_of("proc.id.uid_nm", PM_TYPE_STRING, 46, &v), 0);
    assert_int_equal(counted.calls[FAULT_user_name] + counted.calls[FAULT_group_name] +
                     counted.calls[FAULT_tty_name], 1);
}

static void
translated_is_zero_or_one(void **state)
{
    (void)state;
    start_fixture("apple-silicon.snapshot");
    assert_int_equal(u32_of("proc.psinfo.translated", 812), 1);     /* "Rosetta App": upstream served 131072 */
    assert_int_equal(u32_of("proc.psinfo.translated", 731), 0);
    assert_string_equal(string_of("proc.id.uid_nm", 1001), "bob");
    assert_string_equal(string_of("proc.id.gid_nm", 731), "staff");
}

static void
a_zombie_is_listed_without_values(void **state)
{
    (void)state;
    start_fixture("apple-silicon.snapshot");
    assert_string_equal(string_of("proc.psinfo.sname", 900), "Z");
    assert_int_equal(row_status("proc.psinfo.utime", 900), PM_ERR_VALUE);
    (void)u64_of("proc.memory.rss", 731);
    assert_int_equal(row_status("proc.memory.rss", 900), PM_ERR_VALUE);
    assert_int_equal(harness_u32("proc.nprocs"), 8);    /* counts it */
}

/* ---- instances: the pid, as PCP's process tools take it ---- */

/* A pid the kernel gives to another process keeps its instance id, as on
 * Linux (pcp ps and pidstat look processes up by pid): the name, the
 * strings and the values are the new process's. */
static void
a_reused_pid_is_the_new_process(void **state)
{
    uint64_t cc_utime;

    (void)state;
    start_fixture("apple-silicon.snapshot");
    go_to_sample(1);
    assert_string_equal(string_of("proc.psinfo.sname", 2001), "R");
    go_to_sample(2);
    cc_utime = u64_of("proc.psinfo.utime", 2001);
    assert_string_equal(string_of("proc.psinfo.cmd", 2001), "cc -O2 -c main.c");
    go_to_sample(3);                                            /* ld has the same pid */
    assert_true(u64_of("proc.psinfo.utime", 2001) < cc_utime);  /* ld's own time */
    assert_string_equal(string_of("proc.psinfo.cmd", 2001), "ld -o main main.o");
}

static void
a_pid_reused_between_two_fetches_is_the_new_process(void **state)
{
    struct proc_spec p[2] = {
        { .pid = 42, .comm = "make", .start = 1700000090, .total_user = 240000000 },
        { .pid = 42, .comm = "make", .start = 1700000102, .total_user = 24000000 },
    };

    (void)state;
    start_text(p, 2);
    assert_int_equal(u64_of("proc.psinfo.utime", 42), 10000);
    go_to_sample(1);
    assert_int_equal(u64_of("proc.psinfo.utime", 42), 1000);
}

static void
a_pid_seen_again_after_a_gap_is_listed_again(void **state)
{
    struct proc_spec p[3] = {
        { .pid = 45, .comm = "cron", .start = 1700000001, .total_user = 24000000 },
        { .pid = 45 },
        { .pid = 45, .comm = "cron", .start = 1700000107, .total_user = 48000000 },
    };
    pmAtomValue v;

    (void)state;
    start_text(p, 3);
    assert_int_equal(u64_of("proc.psinfo.utime", 45), 1000);
    go_to_sample(1);
    assert_int_equal(value_of("proc.psinfo.utime", PM_TYPE_U64, 45, &v), 0);
    go_to_sample(2);
    assert_int_equal(u64_of("proc.psinfo.utime", 45), 2000);
}

static void
counters_never_go_backwards(void **state)
{
    static const unsigned int pids[] = { 1, 88, 612, 731, 812, 1001 };
    uint64_t last[6][2] = { { 0 } };

    (void)state;
    start_fixture("apple-silicon.snapshot");
    for (unsigned int s = 0; s < 4; s++) {      /* the fifth sample ends the replay's lap */
        go_to_sample(s);
        for (unsigned int k = 0; k < 6; k++) {
            uint64_t u = u64_of("proc.psinfo.utime", pids[k]), w = u64_of("proc.io.write_bytes", pids[k]);

            assert_true(u >= last[k][0]);
            assert_true(w >= last[k][1]);
            last[k][0] = u;
            last[k][1] = w;
        }
    }
}

static void
minor_faults_stop_when_the_kernel_count_saturates(void **state)
{
    /* pti_faults saturates at INT32_MAX (xnu bsd_kern.c fill_taskprocinfo) while
     * pageins grows: faults - pageins would go backwards */
    struct proc_spec p[2] = {
        { .pid = 43, .comm = "db", .start = 1700000000, .faults = 2000000000, .pageins = 5 },
        { .pid = 43, .comm = "db", .start = 1700000000, .faults = INT32_MAX, .pageins = 500 },
    };

    (void)state;
    start_text(p, 2);
    assert_int_equal(u32_of("proc.psinfo.minflt", 43), 1999999995);
    go_to_sample(1);
    (void)u32_of("proc.psinfo.majflt", 43);
    assert_int_equal(row_status("proc.psinfo.minflt", 43), PM_ERR_VALUE);
}

/* A thread instance carries its process's task counts: none when the
 * process's task call failed (it exited between the list and the call),
 * rather than the zeros of a task never read. */
static void
a_thread_has_no_task_counts_its_process_call_did_not_give(void **state)
{
    const unsigned int thread = 0x40000000u | 50203;   /* a thread of python3 (731) */
    pmAtomValue v;

    (void)state;
    start_fixture("apple-silicon.snapshot");
    proc_access_policy()->threads = 1;
    assert_int_equal(value_of("proc.psinfo.majflt", PM_TYPE_U32, thread, &v), 1);
    counted.target = FAULT_proc_task;
    counted.sts = -ESRCH;
    assert_int_equal(value_of("proc.psinfo.majflt", PM_TYPE_U32, thread, &v), 0);
    assert_int_equal(value_of("proc.psinfo.pswitch", PM_TYPE_U64, thread, &v), 0);
    assert_int_equal(value_of("proc.psinfo.minflt", PM_TYPE_U32, thread, &v), 0);
}

/* ---- strings refresh; arguments never include the environment ---- */

static void
cmd_and_cwd_follow_an_exec_and_a_chdir(void **state)
{
    /* argc 2, "/bin/sh", "sh", "-c" ; then argc 2 "/usr/bin/python3", "python3", "app.py" */
    struct proc_spec p[2] = {
        { .pid = 44, .comm = "sh", .start = 1700000000, .cwd = "/tmp",
          .args_hex = "020000002f62696e2f73680000736800" "2d6300" "484f4d453d2f00" },
        { .pid = 44, .comm = "python3", .start = 1700000000, .cwd = "/Users/alice",
          .args_hex = "020000002f7573722f62696e2f707974686f6e330000707974686f6e3300" "6170702e707900" },
    };

    (void)state;
    start_text(p, 2);
    proc_access_policy()->all_access = 1;
    assert_string_equal(string_of("proc.psinfo.cmd", 44), "sh -c");
    assert_string_equal(string_of("proc.psinfo.cwd", 44), "/tmp");
    go_to_sample(1);
    assert_string_equal(string_of("proc.psinfo.cmd", 44), "python3 app.py");
    assert_string_equal(string_of("proc.psinfo.cwd", 44), "/Users/alice");
    assert_string_equal(string_of("proc.psinfo.exe", 44), "/bin/python3");
}

static void
arguments_leave_the_environment_out(void **state)
{
    (void)state;
    start_fixture("apple-silicon.snapshot");
    assert_string_equal(string_of("proc.psinfo.psargs", 731), "python3 train.py --epochs 10");
    assert_string_equal(string_of("proc.psinfo.cmd", 1), "/sbin/launchd");  /* its buffer ends in HOME=... */
    assert_string_equal(string_of("proc.psinfo.psargs", 900), "(defunct-child)");
}

/* ---- refusals are errors, never zeros ---- */

static void
refused_data_is_a_permission_error(void **state)
{
    pmAtomValue v;

    (void)state;
    start_fixture("intel.snapshot");          /* recorded as alice: others' task data refused */
    assert_true(u64_of("proc.psinfo.utime", 731) > 0);
    assert_int_equal(value_of("proc.psinfo.utime", PM_TYPE_U64, 1, &v), 0);
    assert_int_equal(row_status("proc.psinfo.utime", 1), PM_ERR_PERMISSION);
    (void)u64_of("proc.io.read_bytes", 731);
    assert_int_equal(row_status("proc.io.read_bytes", 1001), PM_ERR_PERMISSION);
    assert_int_equal(u32_of("proc.id.uid", 1001), 502);     /* ids come from the list: open to all */
}

static void
energy_and_core_times_are_absent_where_the_kernel_has_none(void **state)
{
    (void)state;
    start_fixture("intel.snapshot");
    (void)u64_of("proc.memory.footprint_peak", 731);
    assert_int_equal(row_status("proc.cpu.energy", 731), PM_ERR_APPVERSION);
    assert_int_equal(row_status("proc.cpu.pcore_time", 731), PM_ERR_APPVERSION);
    assert_int_equal(row_status("proc.cpu.instructions", 731), PM_ERR_APPVERSION);
    teardown_replay(state);

    start_fixture("apple-silicon.snapshot");
    assert_true(u64_of("proc.cpu.energy", 731) > 0);
    /* python3 ran 70% on P cores */
    assert_true(u64_of("proc.cpu.pcore_time", 731) > u64_of("proc.cpu.ecore_time", 731));
}

/* ---- GPU time: the M1's GPU clients, recorded ---- */

#define M1_GPU_CLIENTS "gpu/m1-macbookair10-1-macos11.0.1-agx-user-clients.txt"
#define M1_ACCELERATOR "AGXAcceleratorG13G_B0"     /* its GPU's class */

/* Processes of the M1's dump, each with its own clients' time summed over
 * their APIs, as the dump gives them; launchd has no client, so 0. */
static void
gpu_time_is_the_sum_of_a_process_clients(void **state)
{
    const struct proc_spec procs[] = {
        { .pid = 1, .comm = "launchd", .start = 1700000000 },
        { .pid = 357, .comm = "WindowServer", .start = 1700000010 },
        { .pid = 929, .comm = "Safari", .start = 1700000020 },
        { .pid = 942, .comm = "Dock", .start = 1700000030 },
        { .pid = 9083, .comm = "firefox", .start = 1700000040 },
    };

    (void)state;
    start_samples(procs, 1, sizeof(procs) / sizeof(procs[0]), M1_GPU_CLIENTS, M1_ACCELERATOR);
    assert_int_equal(u64_of("proc.gpu.time", 357), 249658696208ull + 5914750ull);     /* two Metal entries */
    assert_int_equal(u64_of("proc.gpu.time", 929), 14125750ull + 172052375ull);
    assert_int_equal(u64_of("proc.gpu.time", 9083), 0ull + 224600041ull);            /* Metal, then GL/CL */
    assert_int_equal(u64_of("proc.gpu.time", 942), 0);          /* a client that submitted nothing */
    assert_int_equal(u64_of("proc.gpu.time", 1), 0);            /* no client */
}

/* Where the registry has no AGX GPU (an Apple Silicon VM's GPU is another
 * class), and on an Intel Mac, whose clients are not read: no value, never 0. */
static void
gpu_time_has_no_value_without_its_source(void **state)
{
    const struct proc_spec window_server = { .pid = 357, .comm = "WindowServer", .start = 1700000010 };

    (void)state;
    start_samples(&window_server, 1, 1, M1_GPU_CLIENTS, M1_ACCELERATOR);
    counted.target = FAULT_QUERY + PLAT_QUERY_GPU_CLIENTS;
    counted.sts = FAULT_ZERO;                   /* the registry answers without entries */
    (void)harness_fetch("proc.gpu.time", PM_TYPE_U64, NULL, 0, NULL);
    assert_int_equal(counted.injected, 1);
    assert_int_equal(row_status("proc.gpu.time", 357), PM_ERR_APPVERSION);
    teardown_replay(state);
    start_fixture("intel.snapshot");
    (void)harness_fetch("proc.gpu.time", PM_TYPE_U64, NULL, 0, NULL);
    assert_int_equal(row_status("proc.gpu.time", 88), PM_ERR_APPVERSION);
}

static void
logical_writes_are_bytes_as_xnu_counts_them(void **state)
{
    struct plat_proc_rusage ru;

    (void)state;
    start_fixture("apple-silicon.snapshot");
    assert_int_equal(counted.inner.proc_rusage(counted.inner.ctx, 731, &ru), 0);
    assert_int_equal(u64_of("proc.io.logical_writes", 731), ru.logical_writes);
    assert_int_equal(u64_of("proc.io.write_bytes", 731), ru.diskio_byteswritten);
}

/* ---- access: each side of the policy ---- */

static void
owner_only_data_needs_the_owner_or_root(void **state)
{
    (void)state;
    start_fixture("apple-silicon.snapshot");
    (void)u64_of("proc.psinfo.utime", 731);
    /* no credentials: public data yes, working directory and descriptors no */
    assert_int_equal(row_status("proc.psinfo.cwd", 731), PM_ERR_PERMISSION);
    assert_true(row_status("proc.psinfo.utime", 731) >= 0);
    client_is(502);                             /* bob */
    assert_string_equal(string_of("proc.psinfo.cwd", 1001), "/Users/bob");
    assert_int_equal(row_status("proc.psinfo.cwd", 731), PM_ERR_PERMISSION);    /* alice's */
    assert_int_equal(u32_of("proc.net.tcp_count", 1001), 1);
    assert_int_equal(row_status("proc.net.tcp_count", 731), PM_ERR_PERMISSION);
    client_is(0);                               /* root sees all */
    assert_string_equal(string_of("proc.psinfo.cwd", 731), "/Users/alice/src");
    assert_int_equal(u32_of("proc.net.tcp_count", 731), 4);
    assert_int_equal(u32_of("proc.fd.count", 731), 21);
    proc_context_end(CLIENT_CTX);               /* the client left: its successor has no credentials */
    assert_int_equal(row_status("proc.psinfo.cwd", 731), PM_ERR_PERMISSION);
}

static void
access_conf_allows_named_users(void **state)
{
    struct proc_policy policy;
    struct proc_client alice = { .has_uid = 1, .uid = 501, .threads = -1 };
    char msg[128];
    FILE *fp;
    static const char good[] = "# who may see every process\n\nallowed: admin, monitor\nallowed:ops\n";

    (void)state;
    memset(&policy, 0, sizeof(policy));
    fp = fmemopen((void *)good, sizeof(good) - 1, "r");
    assert_int_equal(proc_policy_read(&policy, fp, "access.conf", msg, sizeof(msg)), 0);
    fclose(fp);
    assert_int_equal(policy.nallowed, 3);
    assert_true(proc_policy_is_allowed(&policy, "monitor"));
    assert_true(proc_policy_is_allowed(&policy, "ops"));
    assert_false(proc_policy_is_allowed(&policy, "alice"));
    assert_int_equal(proc_policy_allows(&policy, &alice, 502, PROC_OWNER), PM_ERR_PERMISSION);
    assert_int_equal(proc_policy_allows(&policy, &alice, 501, PROC_OWNER), 0);
    assert_int_equal(proc_policy_allows(&policy, &alice, 502, PROC_PUBLIC), 0);
    alice.allowed = 1;
    assert_int_equal(proc_policy_allows(&policy, &alice, 502, PROC_OWNER), 0);
    assert_int_equal(proc_policy_allows(&policy, NULL, 502, PROC_OWNER), PM_ERR_PERMISSION);
    policy.all_access = 1;                      /* -A */
    assert_int_equal(proc_policy_allows(&policy, NULL, 502, PROC_OWNER), 0);

    fp = fmemopen((void *)"allowed: a\nallow b\n", 19, "r");
    assert_int_equal(proc_policy_read(&policy, fp, "access.conf", msg, sizeof(msg)), -EINVAL);
    fclose(fp);
    assert_string_equal(msg, "access.conf:2: expected \"allowed: user, ...\"");
}

/* ---- Linux's names that PCP's process tools require ---- */

static void
linux_names_serve_what_macos_has(void **state)
{
    struct proc_spec old = { .pid = 47, .comm = "oldcap", .start = 1700000050 };   /* no task.policy */

    (void)state;
    start_fixture("apple-silicon.snapshot");
    assert_int_equal(u64_of("proc.psinfo.rss", 731), 900 * 1024);   /* 900 MiB */
    assert_int_equal(u64_of("proc.psinfo.rss", 731), u64_of("proc.memory.rss", 731));
    assert_int_equal(u64_of("proc.psinfo.vsize", 731), u64_of("proc.memory.size", 731));
    assert_int_equal(u32_of("proc.psinfo.policy", 731), 0);                         /* timesharing, NORMAL */
    assert_int_equal(u32_of("proc.psinfo.rt_priority", 731), 0);                    /* not real-time */
    assert_int_equal(u64_of("proc.psinfo.guest_time", 731), 0);                     /* none apart */
    assert_int_equal(row_status("proc.psinfo.processor", 731), PM_ERR_APPVERSION);  /* macOS tells none */
    assert_int_equal(row_status("proc.memory.vmstack", 731), PM_ERR_APPVERSION);
    assert_int_equal(row_status("proc.psinfo.rss", 900), PM_ERR_VALUE);     /* the zombie has no task */
    teardown_replay(state);

    start_text(&old, 1);
    assert_int_equal(u64_of("proc.psinfo.rss", 47), 512);                       /* a capture without the */
    assert_int_equal(row_status("proc.psinfo.policy", 47), PM_ERR_APPVERSION);  /* policy loses it alone */
}

/* ---- threads on request; calls only for what was asked ---- */

static void
threads_are_instances_when_asked(void **state)
{
    pmAtomValue v;
    agent_result *res;
    pmValueSet vs = { .numval = 1, .valfmt = PM_VAL_INSITU };
    agent_result store = { .numpmid = 1 };

    (void)state;
    start_fixture("apple-silicon.snapshot");
    assert_int_equal(value_of("proc.psinfo.tid", PM_TYPE_U64, 0x40000000u | 50202, &v), 0);
    assert_int_equal(counted.calls[FAULT_proc_threads], 0);
    vs.pmid = harness_pmid("proc.control.perclient.threads");
    vs.vlist[0].value.lval = 1;
    store.vset[0] = &vs;
    res = &store;
    assert_int_equal(harness_dp.version.seven.store((void *)res, harness_ext()), 0);    /* perclient */
    assert_string_equal(string_of("proc.psinfo.thread_name", 0x40000000u | 50202), "Thread-1");
    assert_int_equal(u64_of("proc.psinfo.tid", 0x40000000u | 50203), 50203);
    assert_int_equal(u32_of("proc.psinfo.pid", 0x40000000u | 50203), 731);
    assert_int_equal(harness_u32("proc.nprocs"), 8);                        /* still 8 processes */
    assert_int_equal(u32_of("proc.psinfo.policy", 0x40000000u | 2203), 2);  /* CVDisplayLink: Mach RR, RR */
    /* no Linux scale */
    assert_int_equal(row_status("proc.psinfo.rt_priority", 0x40000000u | 2203), PMDA_FETCH_NOVALUES);
    assert_int_equal(u32_of("proc.psinfo.policy", 0x40000000u | 2202), 0);
    vs.pmid = harness_pmid("proc.control.all.threads");     /* the global switch: root's only */
    assert_int_equal(harness_dp.version.seven.store((void *)res, harness_ext()), PM_ERR_PERMISSION);
    client_is(0);
    assert_int_equal(harness_dp.version.seven.store((void *)res, harness_ext()), 0);
}

static void
a_request_makes_only_the_calls_its_rows_need(void **state)
{
    unsigned int live;

    (void)state;
    start_fixture("apple-silicon.snapshot");
    (void)u32_of("proc.psinfo.pid", 731);   /* the list alone */
    assert_int_equal(counted.calls[FAULT_procs], 1);
    assert_int_equal(fault_platform_process_calls(&counted), 1);
    live = 7;                                   /* 8 processes, one a zombie */
    fault_platform_zero(&counted);
    (void)u64_of("proc.psinfo.utime", 731);     /* one task call per live process */
    assert_int_equal(counted.calls[FAULT_proc_task], live);
    assert_int_equal(counted.calls[FAULT_proc_rusage] + counted.calls[FAULT_proc_fds] + counted.calls[FAULT_proc_cwd] +
                     counted.calls[FAULT_proc_threads] + counted.calls[FAULT_sock_owners] +
                     counted.calls[FAULT_QUERY + PLAT_QUERY_GPU_CLIENTS], 0);
    fault_platform_zero(&counted);
    (void)string_of("proc.psinfo.cmd", 731);    /* read once per process, then cached */
    (void)string_of("proc.psinfo.cmd", 731);
    assert_int_equal(counted.calls[FAULT_proc_args], live);
    fault_platform_zero(&counted);
    client_is(0);
    (void)u32_of("proc.net.tcp_count", 731);    /* sockets: one read for every process */
    assert_int_equal(counted.calls[FAULT_sock_owners], 1);
    assert_int_equal(fault_platform_process_calls(&counted), 2);
    fault_platform_zero(&counted);
    (void)harness_fetch("proc.gpu.time", PM_TYPE_U64, NULL, 0, NULL);  /* GPU time: one registry query */
    assert_int_equal(counted.calls[FAULT_QUERY + PLAT_QUERY_GPU_CLIENTS], 1);
    assert_int_equal(counted.calls[FAULT_proc_task] + counted.calls[FAULT_proc_rusage], 0);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(cpu_time_uses_the_timebase, teardown_replay),
        cmocka_unit_test_teardown(cpu_time_of_years_does_not_overflow, teardown_replay),
        cmocka_unit_test_teardown(uid_is_real_and_euid_effective, teardown_replay),
        cmocka_unit_test_teardown(a_name_the_directory_lacks_is_asked_for_once, teardown_replay),
        cmocka_unit_test_teardown(translated_is_zero_or_one, teardown_replay),
        cmocka_unit_test_teardown(a_zombie_is_listed_without_values, teardown_replay),
        cmocka_unit_test_teardown(a_reused_pid_is_the_new_process, teardown_replay),
        cmocka_unit_test_teardown(a_pid_reused_between_two_fetches_is_the_new_process, teardown_replay),
        cmocka_unit_test_teardown(a_pid_seen_again_after_a_gap_is_listed_again, teardown_replay),
        cmocka_unit_test_teardown(counters_never_go_backwards, teardown_replay),
        cmocka_unit_test_teardown(minor_faults_stop_when_the_kernel_count_saturates, teardown_replay),
        cmocka_unit_test_teardown(a_thread_has_no_task_counts_its_process_call_did_not_give, teardown_replay),
        cmocka_unit_test_teardown(cmd_and_cwd_follow_an_exec_and_a_chdir, teardown_replay),
        cmocka_unit_test_teardown(arguments_leave_the_environment_out, teardown_replay),
        cmocka_unit_test_teardown(refused_data_is_a_permission_error, teardown_replay),
        cmocka_unit_test_teardown(energy_and_core_times_are_absent_where_the_kernel_has_none, teardown_replay),
        cmocka_unit_test_teardown(logical_writes_are_bytes_as_xnu_counts_them, teardown_replay),
        cmocka_unit_test_teardown(gpu_time_is_the_sum_of_a_process_clients, teardown_replay),
        cmocka_unit_test_teardown(gpu_time_has_no_value_without_its_source, teardown_replay),
        cmocka_unit_test_teardown(owner_only_data_needs_the_owner_or_root, teardown_replay),
        cmocka_unit_test(access_conf_allows_named_users),
        cmocka_unit_test_teardown(linux_names_serve_what_macos_has, teardown_replay),
        cmocka_unit_test_teardown(threads_are_instances_when_asked, teardown_replay),
        cmocka_unit_test_teardown(a_request_makes_only_the_calls_its_rows_need, teardown_replay),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
