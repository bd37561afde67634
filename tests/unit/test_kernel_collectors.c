/*
 * The kernel, memory-pressure, vm_stat and topology clusters through the
 * agent: values and their edges, per-value failures, what each request
 * reads from the platform, and CPU time per performance level.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "agent_harness.h"
#include "metric_ids.h"



static const char *
text(const char *name)
{
    pmAtomValue v[1];

    assert_int_equal(harness_fetch(name, PM_TYPE_STRING, v, 1, NULL), 1);
    return v[0].cp;
}

/* The status of a fetch of one metric (numval, or the error). */
static int
status(const char *name, int type)
{
    pmAtomValue v[8];

    return harness_fetch(name, type, v, 8, NULL);
}

static int
level_inst(const char *name)
{
    return harness_inst(INDOM_PERFLEVEL, name);
}

static void
vfs_files_vnodes_and_tasks(void **state)
{
    (void)state;
    assert_int_equal(harness_u32("vfs.files.count"), 9000);
    assert_int_equal(harness_u32("vfs.files.max"), 245760);
    assert_int_equal(harness_u32("vfs.files.free"), 245760 - 9000);
    assert_int_equal(harness_u32("vfs.vnodes.count"), 140000);
    assert_int_equal(harness_u32("vfs.vnodes.max"), 263168);
    assert_int_equal(harness_u32("kernel.all.nprocs"), 520);    /* tasks, not task_max */
    assert_int_equal(harness_u32("kernel.all.nthreads"), 2400);
    fake.sysctl[PLAT_SYSCTL_VFS].value[PLAT_VFS_MAXFILES] = 100;   /* lowered below the number open */
    assert_int_equal(harness_u32("vfs.files.free"), 0);
}

static void
one_failing_sysctl_fails_only_its_metrics(void **state)
{
    (void)state;
    fake.sysctl[PLAT_SYSCTL_VFS].status[PLAT_VFS_NUM_FILES] = -ENOENT;
    fake.tasks_sts = -EIO;
    assert_int_equal(status("vfs.files.count", PM_TYPE_U32), PM_ERR_APPVERSION);
    assert_int_equal(status("vfs.files.free", PM_TYPE_U32), PM_ERR_APPVERSION);     /* needs files.count */
    assert_int_equal(status("kernel.all.nprocs", PM_TYPE_U32), PM_ERR_AGAIN);
    assert_int_equal(harness_u32("vfs.files.max"), 245760);     /* still there */
    assert_int_equal(harness_u32("vfs.vnodes.count"), 140000);
    fake.sysctl_sts[PLAT_SYSCTL_VFS] = -EIO;                            /* the whole group */
    assert_int_equal(status("vfs.files.max", PM_TYPE_U32), PM_ERR_AGAIN);
    assert_int_equal(harness_u32("kernel.limits.maxproc"), 8000);   /* another cluster is unaffected */
}

static void
limits_refresh_alone_and_read_nothing_else(void **state)
{
    (void)state;
    assert_int_equal(harness_u32("kernel.limits.maxproc"), 8000);
    assert_int_equal(fake.calls.sysctls[PLAT_SYSCTL_LIMITS], 1);
    assert_int_equal(fake.calls.sysctls[PLAT_SYSCTL_VFS], 0);
    assert_int_equal(fake.calls.tasks, 0);
    assert_int_equal(harness_u32("kernel.limits.maxprocperuid"), 5333);
    assert_int_equal(harness_u32("kernel.limits.maxfiles"), 245760);
    assert_int_equal(harness_u32("kernel.limits.maxfilesperproc"), 122880);
    assert_int_equal(harness_u64("vfs.vnodes.recycled"), 5ULL << 32);   /* all 64 bits */
    assert_int_equal(fake.calls.sysctls[PLAT_SYSCTL_LIMITS], 5);
}

static void
a_32_bit_metric_never_serves_a_truncated_value(void **state)
{
    (void)state;
    fake.sysctl[PLAT_SYSCTL_LIMITS].value[PLAT_LIMITS_MAXPROC] = 1ULL << 32;
    assert_int_equal(status("kernel.limits.maxproc", PM_TYPE_U32), PM_ERR_AGAIN);
    assert_int_equal(harness_u32("kernel.limits.maxprocperuid"), 5333);
}

static void
ipc_settings_and_defunct_sockets(void **state)
{
    (void)state;
    assert_int_equal(harness_u32("ipc.mbuf.clusters"), 65536);
    assert_int_equal(harness_u32("ipc.maxsockbuf"), 8388608);
    assert_int_equal(harness_u32("ipc.somaxconn"), 128);
    fake.sysctl[PLAT_SYSCTL_IPC].value[PLAT_IPC_SODEFUNCT_CALLS] = UINT64_MAX - 5;
    assert_int_equal(harness_u64("ipc.socket.defunct"), UINT64_MAX - 5);
}

/* A source that answers a group with fewer values than it names: those
 * it left out have no value, and the log says so once, not per fetch. */
static void
a_short_sysctl_answer_fails_the_values_it_left_out(void **state)
{
    int sts[3][2];
    unsigned int lines, lost;
    char gave[64];

    (void)state;
    snprintf(gave, sizeof(gave), "gave %d of its %d values", PLAT_IPC_SOMAXCONN, PLAT_IPC_N);
    fake.sysctl[PLAT_SYSCTL_IPC].n = PLAT_IPC_SOMAXCONN;        /* clusters and maxsockbuf only */
    harness_log_start();
    for (int round = 0; round < 3; round++) {
        sts[round][0] = status("ipc.maxsockbuf", PM_TYPE_U32);
        sts[round][1] = status("ipc.socket.defunct", PM_TYPE_U64);
    }
    lines = harness_log_lines("");
    lost = harness_log_lines(gave);
    harness_log_stop();
    for (int round = 0; round < 3; round++) {
        assert_int_equal(sts[round][0], 1);
        assert_int_equal(sts[round][1], PM_ERR_AGAIN);
    }
    assert_int_equal(lost, 1);
    assert_int_equal(lines, 1);
    fake.sysctl[PLAT_SYSCTL_IPC].n = PLAT_IPC_N;
    assert_int_equal(harness_u64("ipc.socket.defunct"), fake.sysctl[PLAT_SYSCTL_IPC].value[PLAT_IPC_SODEFUNCT_CALLS]);
}

static void
logins_count_sessions_not_records(void **state)
{
    (void)state;
    /* the fake has BOOT_TIME, alice, root and DEAD_PROCESS records */
    assert_int_equal(harness_u32("kernel.all.nsessions"), 2);
    assert_int_equal(harness_u32("kernel.all.nusers"), 2);  /* root included */
    assert_int_equal(harness_u32("kernel.all.nroots"), 1);
    fake_platform_login(&fake, PLAT_UTMPX_USER_PROCESS, "");    /* a session with no user name */
    fake_platform_login(&fake, PLAT_UTMPX_USER_PROCESS, "alice");
    fake_platform_login(&fake, 6, "LOGIN");                 /* LOGIN_PROCESS: a getty, not a session */
    assert_int_equal(harness_u32("kernel.all.nsessions"), 4);
    assert_int_equal(harness_u32("kernel.all.nusers"), 3);
    assert_int_equal(harness_u32("kernel.all.nroots"), 1);
    fake.nlogin = 0;                                        /* nobody logged in */
    assert_int_equal(harness_u32("kernel.all.nsessions"), 0);
    fake.logins_sts = -EACCES;                              /* unreadable: an error, not zero */
    assert_int_equal(status("kernel.all.nsessions", PM_TYPE_U32), PM_ERR_PERMISSION);
}

/* Upstream's cluster 27: the kernel's level as it is, its name in
 * upstream's words, and the percentage available. */
static void
memory_pressure_levels(void **state)
{
    static const struct {
        uint64_t level;
        const char *name;
    } cases[] = { { 1, "Normal" }, { 2, "Warning" }, { 4, "Critical" }, { 0, "Unknown" }, { 3, "Unknown" },
                  { 8, "Unknown" }, { UINT32_MAX, "Unknown" } };

    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        fake.sysctl[PLAT_SYSCTL_PRESSURE].value[PLAT_PRESSURE_LEVEL] = cases[i].level;
        assert_int_equal(harness_u32("mem.pressure.level"), cases[i].level);
        assert_string_equal(text("mem.pressure.state"), cases[i].name);
    }
    assert_int_equal(harness_u32("mem.pressure.available"), 63);
    fake.sysctl[PLAT_SYSCTL_PRESSURE].status[PLAT_PRESSURE_LEVEL] = -EPERM;
    assert_int_equal(status("mem.pressure.level", PM_TYPE_U32), PM_ERR_PERMISSION);
    assert_int_equal(status("mem.pressure.state", PM_TYPE_STRING), PM_ERR_PERMISSION);
    assert_int_equal(harness_u32("mem.pressure.available"), 63);
}

/* Upstream's 78.19.5 and 78.19.6: the thread limits, read as the kernel
 * declares them (kern.num_threads and kern.num_taskthreads). */
static void
thread_limits(void **state)
{
    (void)state;
    assert_int_equal(harness_u32("kernel.limits.maxthreads"), 40960);
    assert_int_equal(harness_u32("kernel.limits.maxtaskthreads"), 8192);
    fake.sysctl[PLAT_SYSCTL_LIMITS].status[PLAT_LIMITS_MAXTASKTHREADS] = -ENOENT;
    assert_int_equal(status("kernel.limits.maxtaskthreads", PM_TYPE_U32), PM_ERR_APPVERSION);
    assert_int_equal(harness_u32("kernel.limits.maxthreads"), 40960);
}

/* What pcp free reads besides what Linux and macOS share: all memory is low
 * memory on a 64-bit kernel; shared, buffer and slab memory macOS does not count. */
static void
memory_under_pcp_frees_names(void **state)
{
    (void)state;
    assert_int_equal(harness_u64("mem.util.highTotal"), 0);
    assert_int_equal(harness_u64("mem.util.highFree"), 0);
    assert_int_equal(harness_u64("mem.util.lowTotal"), 16ULL << 20);    /* mem.physmem, KB */
    assert_int_equal(harness_u64("mem.util.lowFree"), harness_u64("mem.util.free"));
    assert_int_equal(status("mem.util.shmem", PM_TYPE_U64), PM_ERR_APPVERSION);
    assert_int_equal(status("mem.util.bufmem", PM_TYPE_U64), PM_ERR_APPVERSION);
    assert_int_equal(status("mem.util.slabReclaimable", PM_TYPE_U64), PM_ERR_APPVERSION);
}

/* Linux's CPU states that pcp mpstat and pidstat read, for all CPUs and each:
 * user and nice without guests' time (none apart), guest time 0, and no
 * value for what XNU does not count apart. */
static void
cpu_states_under_linux_names(void **state)
{
    static const char *const scopes[] = { "kernel.all", "kernel.percpu" };
    static const char *const no_source[] = { "cpu.wait.total", "cpu.irq.hard", "cpu.irq.soft", "cpu.steal", "intr" };
    pmAtomValue v[8], w[8];
    char name[64];

    (void)state;
    assert_int_equal(harness_u64("kernel.all.cpu.vuser"), harness_u64("kernel.all.cpu.user"));
    assert_int_equal(harness_u64("kernel.all.cpu.vnice"), harness_u64("kernel.all.cpu.nice"));
    assert_int_equal(harness_fetch("kernel.percpu.cpu.vuser", PM_TYPE_U64, v, 8, NULL), 4);
    assert_int_equal(harness_fetch("kernel.percpu.cpu.user", PM_TYPE_U64, w, 8, NULL), 4);
    for (int i = 0; i < 4; i++)
        assert_int_equal(v[i].ull, w[i].ull);                                     /* per CPU too */
    for (size_t c = 0; c < 2; c++) {
        snprintf(name, sizeof(name), "%s.cpu.guest", scopes[c]);
        assert_int_equal(harness_fetch(name, PM_TYPE_U64, v, 8, NULL), c ? 4 : 1);
        assert_int_equal(v[0].ull, 0);
        for (size_t k = 0; k < sizeof(no_source) / sizeof(no_source[0]); k++) {
            snprintf(name, sizeof(name), "%s.%s", scopes[c], no_source[k]);
            assert_int_equal(status(name, PM_TYPE_U64), PM_ERR_APPVERSION);
        }
    }
}

/* pcp mpstat looks processors up by hinv.map.cpu_num's values: each must be
 * its processor's instance id. Online: every one while as many are available
 * as are listed; when fewer are, which is not known. */
static void
cpu_numbers_and_online(void **state)
{
    pmAtomValue v[8];
    int inst[8];

    (void)state;
    assert_int_equal(harness_fetch("hinv.map.cpu_num", PM_TYPE_U32, v, 8, inst), 4);
    for (int i = 0; i < 4; i++) {
        char name[8];

        snprintf(name, sizeof(name), "cpu%u", v[i].ul);
        assert_int_equal(inst[i], (int)v[i].ul);
        assert_string_equal(harness_inst_name(INDOM_CPU, inst[i]), name);
    }
    assert_int_equal(harness_fetch("hinv.cpu.online", PM_TYPE_U32, v, 8, NULL), 4);
    assert_int_equal(v[3].ul, 1);
    fake.sysctl[PLAT_SYSCTL_CPU_COUNTS].value[PLAT_CPU_ACTIVE] = 3;
    assert_int_equal(status("hinv.cpu.online", PM_TYPE_U32), 0);
    fake.sysctl_sts[PLAT_SYSCTL_CPU_COUNTS] = -EIO;
    assert_int_equal(status("hinv.cpu.online", PM_TYPE_U32), PM_ERR_AGAIN);
    assert_int_equal(status("kernel.percpu.cpu.user", PM_TYPE_U64), 4);     /* the CPU times stay */
}

static void
vm_stat_fields_and_derived_memory(void **state)
{
    (void)state;
    assert_int_equal(harness_u32("mem.pages.speculative"), 100);
    assert_int_equal(harness_u32("mem.pages.purgeable"), 300);
    assert_int_equal(harness_u32("mem.pages.file_backed"), 2500);
    assert_int_equal(harness_u32("mem.pages.anonymous"), 2600);
    assert_int_equal(harness_u64("mem.purges"), 77);
    assert_int_equal(harness_u64("mem.util.speculative"), 100 * 16);    /* KB at 16 KiB pages */
    assert_int_equal(harness_u64("mem.util.app"), (2600 - 300) * 16);
    assert_int_equal(harness_u64("mem.util.memory_used"), (2300 + 400 + 50) * 16);
    assert_int_equal(harness_u64("mem.util.available"), (16ULL << 20) - 2750 * 16);
    assert_int_equal(harness_u64("mem.util.cached"), 2500 * 16);    /* the file cache */
    assert_int_equal(harness_u64("mem.util.swapTotal"), harness_u64("swap.length"));
    assert_int_equal(harness_u64("mem.util.swapFree"), harness_u64("swap.free"));
    fake.memory.swap_status = -ENOENT;                      /* no swap source: no value, the rest stands */
    assert_int_equal(status("mem.util.swapTotal", PM_TYPE_U64), PM_ERR_APPVERSION);
    assert_int_equal(status("mem.util.swapFree", PM_TYPE_U64), PM_ERR_APPVERSION);
    assert_int_equal(harness_u64("mem.util.cached"), 2500 * 16);
    fake.memory.vm.purgeable_count = 3000;                  /* more than the anonymous pages */
    assert_int_equal(harness_u64("mem.util.app"), 0);
}

static void
compression_ratio_has_no_value_for_an_empty_compressor(void **state)
{
    pmAtomValue v[1];

    (void)state;
    assert_int_equal(harness_fetch("mem.compressor.ratio", PM_TYPE_DOUBLE, v, 1, NULL), 1);
    assert_float_equal(v[0].d, 3.2, 1e-9);                  /* 160 stored in 50 */
    fake.memory.vm.compressor_page_count = 0;
    fake.memory.vm.total_uncompressed_pages_in_compressor = 0;
    assert_int_equal(harness_fetch("mem.compressor.ratio", PM_TYPE_DOUBLE, v, 1, NULL), 0);
}

static void
vm_stat_cluster_makes_no_os_call_of_its_own(void **state)
{
    pmID pmids[] = { harness_pmid("mem.freemem"), harness_pmid("mem.util.app"), harness_pmid("mem.compressor.ratio") };
    agent_result *res = NULL;

    (void)state;
    assert_int_equal(harness_dp.version.seven.fetch(3, pmids, (void *)&res, harness_ext()), 0);
    harness_ext()->e_resultCallBack((void *)res);
    assert_int_equal(fake.calls.memory, 1);                 /* cluster 1's read serves both */
    fake.memory.vm_status = -EIO;
    assert_int_equal(status("mem.util.app", PM_TYPE_U64), PM_ERR_AGAIN);
    fake.memory_sts = -EIO;                                 /* cluster 1 fails: its dependant too */
    assert_int_equal(status("mem.util.app", PM_TYPE_U64), PM_ERR_AGAIN);
}

static void
boot_time_keeps_microseconds_and_survives_a_bad_clock(void **state)
{
    pmAtomValue v[1];

    (void)state;
    assert_int_equal(harness_fetch("kernel.all.boottime", PM_TYPE_DOUBLE, v, 1, NULL), 1);
    assert_float_equal(v[0].d, 1000.25, 1e-9);
    fake.clock.now_sec = 10;  /* wall clock set before the boot time */
    assert_int_equal(status("kernel.all.uptime", PM_TYPE_U32), PM_ERR_AGAIN);   /* uptime fails alone */
    assert_int_equal(harness_fetch("kernel.all.boottime", PM_TYPE_DOUBLE, v, 1, NULL), 1);
    fake.clock.boot_sec = 1763500000;
    fake.clock.boot_usec = 999999;
    assert_int_equal(harness_fetch("kernel.all.boottime", PM_TYPE_DOUBLE, v, 1, NULL), 1);
    assert_float_equal(v[0].d, 1763500000.999999, 1e-7);
    fake.clock_sts = -EIO;
    assert_int_equal(status("kernel.all.boottime", PM_TYPE_DOUBLE), PM_ERR_AGAIN);
}

static void
topology_is_read_once(void **state)
{
    (void)state;
    assert_string_equal(text("hinv.cpu.brand"), "Apple M2");
    assert_int_equal(harness_u32("hinv.cpu.physical"), 4);
    assert_int_equal(harness_u32("hinv.cpu.logical"), 4);
    assert_int_equal(harness_u32("hinv.cpu.nperflevels"), 2);
    assert_int_equal(harness_inst_value("hinv.perflevel.logical", PM_TYPE_U32, "performance"), 2);
    assert_int_equal(harness_inst_value("hinv.perflevel.l2cache", PM_TYPE_U64, "efficiency"), 4 << 20);
    assert_int_equal(status("kernel.percpu.cpu.user", PM_TYPE_U64), 4);     /* per-CPU fetches depend on it too */
    assert_int_equal(fake.calls.topology, 1);
}

static void
a_level_without_l3_has_no_value(void **state)
{
    (void)state;
    assert_int_equal(status("hinv.perflevel.l3cache", PM_TYPE_U64), 0);     /* neither level */
    harness_stop();
    fake_platform_init(&fake);
    fake.topology.level[0].status[PLAT_PL_L3CACHESIZE] = 0;
    fake.topology.level[0].value[PLAT_PL_L3CACHESIZE] = 12 << 20;
    assert_int_equal(harness_start(), 0);
    assert_int_equal(status("hinv.perflevel.l3cache", PM_TYPE_U64), 1);     /* only the level that has one */
    assert_int_equal(harness_inst_value("hinv.perflevel.l3cache", PM_TYPE_U64, "performance"), 12 << 20);
}

static void
level_names_and_labels(void **state)
{
    pmLabelSet *sets = NULL;
    char buf[128];
    int n;

    (void)state;
    assert_int_equal(status("hinv.perflevel.name", PM_TYPE_STRING), 2);
    assert_true(level_inst("performance") >= 0);
    assert_true(level_inst("efficiency") >= 0);
    n = harness_dp.version.seven.label((int)pmInDom_build(78, INDOM_PERFLEVEL), PM_LABEL_INSTANCES, &sets,
                                       harness_ext());
    assert_int_equal(n, 2);
    for (int i = 0; i < n; i++) {
        pmLabelSet *one = &sets[i];

        pmMergeLabelSets(&one, 1, buf, sizeof(buf), NULL, NULL);
        assert_string_equal(buf, (int)one->inst == level_inst("performance")
                                     ? "{\"perflevel\":\"performance\",\"perflevel_index\":0}"
                                     : "{\"perflevel\":\"efficiency\",\"perflevel_index\":1}");
    }
    pmFreeLabelSets(sets, n);
}

static void
duplicate_or_missing_level_names_get_indexed_names(void **state)
{
    (void)state;
    harness_stop();
    fake_platform_init(&fake);
    fake_platform_level(&fake, 0, "Performance", 1, 3);
    fake_platform_level(&fake, 1, "Performance", 1, 3);
    fake_platform_level(&fake, 2, "", 2, 3);
    fake.topology.level[2].name_status = -ENOENT;
    assert_int_equal(harness_start(), 0);
    assert_int_equal(status("hinv.perflevel.name", PM_TYPE_STRING), 2);     /* the nameless level has no name value */
    assert_true(level_inst("performance") >= 0);
    assert_true(level_inst("perflevel1") >= 0);
    assert_true(level_inst("perflevel2") >= 0);
}

/* The labels of each CPU instance cpuN, as text, into out[N]. */
static void
cpu_labels(char out[][96], int ncpu)
{
    pmLabelSet *sets = NULL;
    pmAtomValue v[8];
    int inst[8], n;

    assert_int_equal(harness_fetch("kernel.percpu.cpu.user", PM_TYPE_U64, v, 8, inst), ncpu);
    n = harness_dp.version.seven.label((int)pmInDom_build(78, 3), PM_LABEL_INSTANCES, &sets, harness_ext());
    assert_int_equal(n, ncpu);
    for (int i = 0; i < n; i++) {
        pmLabelSet *one = &sets[i];
        const char *name = harness_inst_name(3, (int)one->inst);
        int cpu;

        assert_non_null(name);
        assert_int_equal(sscanf(name, "cpu%d", &cpu), 1);
        assert_true(cpu >= 0 && cpu < ncpu);
        out[cpu][0] = '\0';
        if (one->nlabels > 0)
            pmMergeLabelSets(&one, 1, out[cpu], 96, NULL, NULL);
    }
    pmFreeLabelSets(sets, n);
}

/* An M5 Max's shape (shared/real-macs/cpus): hw.perflevel0 "Super" on
 * its P clusters, perflevel1 "Performance" on its M clusters. */
static void
levels_map_by_cluster_type_not_by_name(void **state)
{
    char labels[8][96];

    (void)state;
    harness_stop();
    fake_platform_init(&fake);
    fake_platform_level(&fake, 0, "Super", 2, 2);
    fake_platform_level(&fake, 1, "Performance", 2, 2);
    fake_platform_cpu(&fake, 0, "cpu0", "M");
    fake_platform_cpu(&fake, 1, "cpu1", "M");
    fake_platform_cpu(&fake, 2, "cpu2", "P");
    fake_platform_cpu(&fake, 3, "cpu3", "P");
    assert_int_equal(harness_start(), 0);
    cpu_labels(labels, 4);
    assert_string_equal(labels[0], "{\"perflevel\":\"performance\",\"perflevel_index\":1}");
    assert_string_equal(labels[1], "{\"perflevel\":\"performance\",\"perflevel_index\":1}");
    assert_string_equal(labels[2], "{\"perflevel\":\"super\",\"perflevel_index\":0}");
    assert_string_equal(labels[3], "{\"perflevel\":\"super\",\"perflevel_index\":0}");
}

static void
one_level_holds_every_cpu_without_cluster_types(void **state)
{
    char labels[8][96];

    (void)state;
    harness_stop();
    fake_platform_init(&fake);
    fake_platform_level(&fake, 0, "Performance", 4, 1);
    fake.topology.clusters_status = -ENOENT;            /* an Intel Mac has no IODeviceTree:/cpus */
    fake.topology.nclusters = 0;
    assert_int_equal(harness_start(), 0);
    cpu_labels(labels, 4);
    for (int i = 0; i < 4; i++)
        assert_string_equal(labels[i], "{\"perflevel\":\"performance\",\"perflevel_index\":0}");
    fake.cpu[0].ticks.user = 100;
    fake.cpu[3].ticks.user = 23;
    /* all four CPUs, msec */
    assert_int_equal(harness_inst_value("kernel.perflevel.cpu.user", PM_TYPE_U64, "performance"), 1230);
}

static void
a_failing_topology_leaves_cpus_working_without_levels(void **state)
{
    char labels[8][96];

    (void)state;
    harness_stop();
    fake_platform_init(&fake);
    fake.topology_sts = -EIO;
    assert_int_equal(harness_start(), 0);
    cpu_labels(labels, 4);
    for (int i = 0; i < 4; i++)
        assert_string_equal(labels[i], "");             /* no level is invented */
    assert_int_equal(status("hinv.cpu.brand", PM_TYPE_STRING), PM_ERR_AGAIN);
    assert_int_equal(status("kernel.perflevel.cpu.user", PM_TYPE_U64), 0);  /* no levels, no values */
    fake.topology_sts = 0;                                                  /* read again until it works */
    assert_string_equal(text("hinv.cpu.brand"), "Apple M2");
    cpu_labels(labels, 4);
    assert_string_equal(labels[0], "{\"perflevel\":\"efficiency\",\"perflevel_index\":1}");
}

static void
no_perflevels_before_macos_12(void **state)
{
    (void)state;
    harness_stop();
    fake_platform_init(&fake);
    fake.topology.nlevels = 0;
    fake.topology.counts.status[PLAT_CPU_NPERFLEVELS] = -ENOENT;
    assert_int_equal(harness_start(), 0);
    assert_int_equal(status("hinv.cpu.nperflevels", PM_TYPE_U32), PM_ERR_APPVERSION);
    assert_int_equal(status("hinv.perflevel.name", PM_TYPE_STRING), 0);
    assert_int_equal(status("kernel.perflevel.cpu.sys", PM_TYPE_U64), 0);
    assert_int_equal(harness_u32("hinv.cpu.logical"), 4);   /* the other counts are there */
}

static void
cpu_time_per_level(void **state)
{
    (void)state;
    /* cpu0, cpu1 efficiency; cpu2, cpu3 performance; 100 Hz */
    fake.cpu[0].ticks = (struct plat_cpu_ticks){ .user = 10, .sys = 1, .idle = 500, .nice = 0 };
    fake.cpu[1].ticks = (struct plat_cpu_ticks){ .user = 20, .sys = 2, .idle = 400, .nice = 1 };
    fake.cpu[2].ticks = (struct plat_cpu_ticks){ .user = 300, .sys = 30, .idle = 100, .nice = 0 };
    fake.cpu[3].ticks = (struct plat_cpu_ticks){ .user = 400, .sys = 40, .idle = 50, .nice = 2 };
    assert_int_equal(harness_inst_value("kernel.perflevel.cpu.user", PM_TYPE_U64, "efficiency"), 300);  /* msec */
    assert_int_equal(harness_inst_value("kernel.perflevel.cpu.user", PM_TYPE_U64, "performance"), 7000);
    assert_int_equal(harness_inst_value("kernel.perflevel.cpu.sys", PM_TYPE_U64, "performance"), 700);
    assert_int_equal(harness_inst_value("kernel.perflevel.cpu.idle", PM_TYPE_U64, "efficiency"), 9000);
    assert_int_equal(harness_inst_value("kernel.perflevel.cpu.nice", PM_TYPE_U64, "performance"), 20);
    fake.cpu[0].ticks.user += 5;
    fake.cpu[2].ticks.user = 1u << 31;              /* read at least once per 2^31 ticks */
    assert_int_equal(harness_inst_value("kernel.perflevel.cpu.user", PM_TYPE_U64, "efficiency"), 350);
    fake.cpu[2].ticks.user = UINT32_MAX;            /* across the 32-bit wrap below */
    assert_int_equal(harness_inst_value("kernel.perflevel.cpu.user", PM_TYPE_U64, "performance"),
                     ((uint64_t)UINT32_MAX + 400) * 10);
    fake.cpu[2].ticks.user = 9;                     /* wrapped: +10 ticks */
    assert_int_equal(harness_inst_value("kernel.perflevel.cpu.user", PM_TYPE_U64, "performance"),
                     ((uint64_t)UINT32_MAX + 410) * 10);
}

/* A host total below the last reading is an older copy (host_statistics
 * past its rate limit, xnu-11417.101.15 osfmk/kern/host.c:733-780), not a
 * 32-bit wrap: kernel.all.cpu.user has no value while it lasts, then counts
 * on from the highest reading; one log line when it starts, one when it
 * ends; 100 Hz. */
static void
cpu_total_has_no_value_for_an_older_copy(void **state)
{
    unsigned int started, ended;

    (void)state;
    harness_log_start();
    fake.total.user = 1000;
    assert_int_equal(harness_u64("kernel.all.cpu.user"), 10000);
    fake.total.user = 990;
    assert_int_equal(status("kernel.all.cpu.user", PM_TYPE_U64), PM_ERR_AGAIN);
    fake.total.user = 995;
    assert_int_equal(status("kernel.all.cpu.user", PM_TYPE_U64), PM_ERR_AGAIN);
    fake.total.user = 1010;
    assert_int_equal(harness_u64("kernel.all.cpu.user"), 10100);
    started = harness_log_lines("cpu_total: some metrics unavailable: the host's CPU ticks read below");
    ended = harness_log_lines("cpu_total: all metrics available again");
    harness_log_stop();
    assert_int_equal(started, 1);
    assert_int_equal(ended, 1);
}

static void
level_counters_never_go_backwards(void **state)
{
    int64_t before;

    (void)state;
    fake.cpu[2].ticks.user = 1000;
    fake.cpu[3].ticks.user = 2000;
    before = harness_inst_value("kernel.perflevel.cpu.user", PM_TYPE_U64, "performance");
    assert_int_equal(before, 30000);
    fake.ncpu = 3;                                  /* cpu3 goes away with its 2000 ticks */
    fake.cpu[2].ticks.user = 1010;
    assert_int_equal(harness_inst_value("kernel.perflevel.cpu.user", PM_TYPE_U64, "performance"), before + 100);
    fake.ncpu = 4;                                  /* it returns with its since-boot ticks */
    fake.cpu[3].ticks.user = 5000;
    /* counts from now */
    assert_int_equal(harness_inst_value("kernel.perflevel.cpu.user", PM_TYPE_U64, "performance"), before + 100);
    fake.cpu[3].ticks.user = 5001;
    assert_int_equal(harness_inst_value("kernel.perflevel.cpu.user", PM_TYPE_U64, "performance"), before + 110);
}

static void
per_cpu_fetches_in_between_lose_nothing(void **state)
{
    (void)state;
    fake.cpu[2].ticks.user = 100;
    fake.cpu[3].ticks.user = 100;
    assert_int_equal(harness_inst_value("kernel.perflevel.cpu.user", PM_TYPE_U64, "performance"), 2000);
    fake.cpu[2].ticks.user = 150;
    assert_int_equal(status("kernel.percpu.cpu.user", PM_TYPE_U64), 4);     /* another client reads per-CPU values */
    fake.cpu[2].ticks.user = 170;
    assert_int_equal(harness_inst_value("kernel.perflevel.cpu.user", PM_TYPE_U64, "performance"), 2700);
}

/* One CPU of a type no level can be told from: no CPU's level is known,
 * so no level has a value (a sum of the rest would be wrong, 0 made up). */
static void
cpus_of_unknown_level_leave_levels_without_values(void **state)
{
    char labels[8][96];

    (void)state;
    harness_stop();
    fake_platform_init(&fake);
    fake_platform_cpu(&fake, 3, "cpu3", "X");
    fake.cpu[2].ticks.user = 100;
    fake.cpu[3].ticks.user = 900;
    assert_int_equal(harness_start(), 0);
    assert_int_equal(status("kernel.perflevel.cpu.user", PM_TYPE_U64), 0);
    cpu_labels(labels, 4);
    assert_string_equal(labels[2], "");
    assert_int_equal(status("kernel.percpu.cpu.user", PM_TYPE_U64), 4);     /* per-CPU time is unaffected */
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        HARNESS_TEST(vfs_files_vnodes_and_tasks),
        HARNESS_TEST(one_failing_sysctl_fails_only_its_metrics),
        HARNESS_TEST(limits_refresh_alone_and_read_nothing_else),
        HARNESS_TEST(a_32_bit_metric_never_serves_a_truncated_value),
        HARNESS_TEST(ipc_settings_and_defunct_sockets),
        HARNESS_TEST(a_short_sysctl_answer_fails_the_values_it_left_out),
        HARNESS_TEST(logins_count_sessions_not_records),
        HARNESS_TEST(memory_pressure_levels),
        HARNESS_TEST(thread_limits),
        HARNESS_TEST(memory_under_pcp_frees_names),
        HARNESS_TEST(cpu_states_under_linux_names),
        HARNESS_TEST(cpu_numbers_and_online),
        HARNESS_TEST(vm_stat_fields_and_derived_memory),
        HARNESS_TEST(compression_ratio_has_no_value_for_an_empty_compressor),
        HARNESS_TEST(vm_stat_cluster_makes_no_os_call_of_its_own),
        HARNESS_TEST(boot_time_keeps_microseconds_and_survives_a_bad_clock),
        HARNESS_TEST(topology_is_read_once),
        HARNESS_TEST(a_level_without_l3_has_no_value),
        HARNESS_TEST(level_names_and_labels),
        HARNESS_TEST(duplicate_or_missing_level_names_get_indexed_names),
        HARNESS_TEST(levels_map_by_cluster_type_not_by_name),
        HARNESS_TEST(one_level_holds_every_cpu_without_cluster_types),
        HARNESS_TEST(a_failing_topology_leaves_cpus_working_without_levels),
        HARNESS_TEST(no_perflevels_before_macos_12),
        HARNESS_TEST(cpu_time_per_level),
        HARNESS_TEST(cpu_total_has_no_value_for_an_older_copy), HARNESS_TEST(level_counters_never_go_backwards),
        HARNESS_TEST(per_cpu_fetches_in_between_lose_nothing),
        HARNESS_TEST(cpus_of_unknown_level_leave_levels_without_values),
    };
    pmSetProgname("test_kernel_collectors");
    return cmocka_run_group_tests(tests, NULL, NULL);
}
