/*
 * What darwin-snapshot records replays as it was read: snapshot source ->
 * writer -> snapshot source gives the same platform structs, for both
 * fixtures. On a Mac the same writer records the live source. And a value
 * the agent divides by is refused when a capture gives 0.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "platform.h"
#include "replay.h"
#include "snapshot_write.h"

static uint64_t fixed_now;

static uint64_t
fixed_clock(void)
{
    return fixed_now;
}

static void
open_at(struct platform *p, const char *path, uint64_t elapsed_usec)
{
    char msg[512];

    assert_int_equal(platform_snapshot_open(p, path, msg, sizeof(msg)), 0);
    fixed_now = 1000;
    platform_snapshot_set_clock(p, fixed_clock);
    assert_int_equal(platform_snapshot_notes(p)[0], '\0');
    fixed_now = 1000 + elapsed_usec;
}

static void
same_interfaces(struct platform *a, struct platform *b)
{
    struct plat_netif_set na, nb;

    assert_int_equal(a->interfaces(a->ctx, &na), 0);
    assert_int_equal(b->interfaces(b->ctx, &nb), 0);
    assert_true(na.n >= 3);
    assert_int_equal(na.n, nb.n);
    for (unsigned int i = 0; i < na.n; i++) {
        const struct plat_netif *x = &na.netif[i], *y = &nb.netif[i];

        assert_string_equal(x->name, y->name);
        assert_int_equal(x->index, y->index);
        assert_int_equal(x->flags, y->flags);
        assert_int_equal(x->type, y->type);
        assert_int_equal(x->functional_status, y->functional_status);
        assert_int_equal(x->functional_type, y->functional_type);
        assert_int_equal(x->mtu, y->mtu);
        assert_int_equal(x->baudrate, y->baudrate);
        assert_int_equal(x->ipackets, y->ipackets);
        assert_int_equal(x->oerrors, y->oerrors);
        assert_int_equal(x->ibytes, y->ibytes);
        assert_int_equal(x->obytes, y->obytes);
        assert_int_equal(x->iqdrops, y->iqdrops);
        assert_int_equal(x->snd_drops, y->snd_drops);
        assert_int_equal(x->mib_status, y->mib_status);
        assert_int_equal(x->mib_ibytes, y->mib_ibytes);
        assert_int_equal(x->mib_obytes, y->mib_obytes);
    }
}

static void
same_kernel(struct platform *a, struct platform *b)
{
    struct plat_sysctl_set sa, sb;
    struct plat_tasks ka, kb;
    struct plat_login_set la, lb;

    for (int f = 0; f < PLAT_SYSCTL_NGROUPS; f++) {
        memset(&sa, 0, sizeof(sa));
        memset(&sb, 0, sizeof(sb));
        assert_int_equal(a->sysctls(a->ctx, (enum plat_sysctl_group)f, &sa), 0);
        assert_int_equal(b->sysctls(b->ctx, (enum plat_sysctl_group)f, &sb), 0);
        assert_true(sa.n > 0);
        for (unsigned int i = 0; i < sa.n; i++)
            assert_int_equal(sa.status[i], 0);      /* the fixtures have every value */
        assert_memory_equal(&sa, &sb, sizeof(sa));
    }
    assert_int_equal(a->tasks(a->ctx, &ka), 0);
    assert_int_equal(b->tasks(b->ctx, &kb), 0);
    assert_memory_equal(&ka, &kb, sizeof(ka));
    {
        struct plat_tcp pa, pb;
        struct plat_tcpconn ca, cb;

        memset(&pa, 0, sizeof(pa));
        memset(&pb, 0, sizeof(pb));
        assert_int_equal(a->tcp(a->ctx, &pa), 0);
        assert_int_equal(b->tcp(b->ctx, &pb), 0);
        assert_int_equal(pa.access_status, 0);
        assert_memory_equal(&pa, &pb, sizeof(pa));
        assert_int_equal(a->tcpconn(a->ctx, &ca), 0);
        assert_int_equal(b->tcpconn(b->ctx, &cb), 0);
        assert_memory_equal(&ca, &cb, sizeof(ca));
        assert_true(ca.state[1] > 0);       /* something listens */
    }
    {
        struct plat_udp ua, ub;
        struct plat_icmp ia, ib;
        struct plat_ip6 xa, xb;

        assert_int_equal(a->udp(a->ctx, &ua), 0);
        assert_int_equal(b->udp(b->ctx, &ub), 0);
        assert_memory_equal(&ua, &ub, sizeof(ua));
        assert_int_equal(a->icmp(a->ctx, &ia), 0);
        assert_int_equal(b->icmp(b->ctx, &ib), 0);
        assert_memory_equal(&ia, &ib, sizeof(ia));
        assert_int_equal(a->ip6(a->ctx, &xa), 0);
        assert_int_equal(b->ip6(b->ctx, &xb), 0);
        assert_memory_equal(&xa, &xb, sizeof(xa));
    }
    same_interfaces(a, b);
    assert_int_equal(a->logins(a->ctx, &la), 0);
    assert_int_equal(b->logins(b->ctx, &lb), 0);
    assert_true(la.n > 0);
    assert_int_equal(la.n, lb.n);
    for (unsigned int i = 0; i < la.n; i++) {
        assert_int_equal(la.login[i].type, lb.login[i].type);
        assert_string_equal(la.login[i].user, lb.login[i].user);
    }
}

static void
same_topology(struct platform *a, struct platform *b)
{
    struct plat_topology ta, tb;

    memset(&ta, 0, sizeof(ta));
    memset(&tb, 0, sizeof(tb));
    assert_int_equal(a->topology(a->ctx, &ta), 0);
    assert_int_equal(b->topology(b->ctx, &tb), 0);
    assert_int_equal(ta.brand_status, 0);
    assert_string_equal(ta.brand, tb.brand);
    assert_memory_equal(&ta.counts, &tb.counts, sizeof(ta.counts));
    assert_true(ta.nlevels > 0);
    assert_int_equal(ta.nlevels, tb.nlevels);
    for (unsigned int l = 0; l < ta.nlevels; l++) {
        assert_int_equal(ta.level[l].name_status, 0);
        assert_string_equal(ta.level[l].name, tb.level[l].name);
        assert_memory_equal(ta.level[l].status, tb.level[l].status, sizeof(ta.level[l].status));
        assert_memory_equal(ta.level[l].value, tb.level[l].value, sizeof(ta.level[l].value));
    }
    assert_int_equal(ta.clusters_status, tb.clusters_status);
    assert_int_equal(ta.nclusters, tb.nclusters);
    for (unsigned int c = 0; c < ta.nclusters; c++) {
        assert_string_equal(ta.cluster[c].cpu, tb.cluster[c].cpu);
        assert_string_equal(ta.cluster[c].type, tb.cluster[c].type);
    }
}

static void
same_everything(struct platform *a, struct platform *b)
{
    struct plat_host ha, hb;
    struct plat_memory ma, mb;
    struct plat_uname ua, ub;
    struct plat_loadavg la, lb;
    struct plat_cpu_ticks ta, tb;
    struct plat_cpu_set ca, cb;
    struct plat_clock ka, kb;

    memset(&ha, 0, sizeof(ha)); memset(&hb, 0, sizeof(hb));
    memset(&ma, 0, sizeof(ma)); memset(&mb, 0, sizeof(mb));
    memset(&ua, 0, sizeof(ua)); memset(&ub, 0, sizeof(ub));
    memset(&la, 0, sizeof(la)); memset(&lb, 0, sizeof(lb));     /* struct padding is compared too */
    memset(&ta, 0, sizeof(ta)); memset(&tb, 0, sizeof(tb));
    assert_int_equal(a->host(a->ctx, &ha), 0);
    assert_int_equal(b->host(b->ctx, &hb), 0);
    assert_int_equal(ha.page_size, hb.page_size);
    assert_int_equal(ha.clock_hz, hb.clock_hz);
    assert_int_equal(ha.memsize, hb.memsize);
    assert_string_equal(ha.model, hb.model);
    assert_int_equal(a->memory(a->ctx, &ma), 0);
    assert_int_equal(b->memory(b->ctx, &mb), 0);
    assert_int_equal(ma.vm_status, 0);
    assert_int_equal(ma.swap_status, 0);
    assert_memory_equal(&ma, &mb, sizeof(ma));
    assert_int_equal(a->uname(a->ctx, &ua), 0);
    assert_int_equal(b->uname(b->ctx, &ub), 0);
    /* text fields compare as strings: snprintf leaves the bytes past the NUL unspecified */
    assert_string_equal(ua.sysname, ub.sysname);
    assert_string_equal(ua.nodename, ub.nodename);
    assert_string_equal(ua.release, ub.release);
    assert_string_equal(ua.version, ub.version);
    assert_string_equal(ua.machine, ub.machine);
    assert_int_equal(ua.product_status, ub.product_status);
    assert_string_equal(ua.product_version, ub.product_version);
    assert_int_equal(a->loadavg(a->ctx, &la), 0);
    assert_int_equal(b->loadavg(b->ctx, &lb), 0);
    assert_memory_equal(&la, &lb, sizeof(la));
    assert_int_equal(a->cpu_total(a->ctx, &ta), 0);
    assert_int_equal(b->cpu_total(b->ctx, &tb), 0);
    assert_memory_equal(&ta, &tb, sizeof(ta));
    assert_int_equal(a->cpus(a->ctx, &ca), 0);
    assert_int_equal(b->cpus(b->ctx, &cb), 0);
    assert_int_equal(ca.ncpu, cb.ncpu);
    for (unsigned int i = 0; i < ca.ncpu; i++) {
        assert_string_equal(ca.cpu[i].name, cb.cpu[i].name);
        assert_memory_equal(&ca.cpu[i].ticks, &cb.cpu[i].ticks, sizeof(ca.cpu[i].ticks));
    }
    assert_int_equal(a->clock(a->ctx, &ka), 0);
    assert_int_equal(b->clock(b->ctx, &kb), 0);
    assert_int_equal(ka.boot_sec, kb.boot_sec);
    assert_int_equal(ka.boot_usec, kb.boot_usec);
    same_kernel(a, b);
    same_topology(a, b);
}

static void
roundtrip(const char *fixture)
{
    char path[] = "/tmp/pmda-darwin-roundtrip-XXXXXX";
    int fd = mkstemp(path);
    FILE *fp = fdopen(fd, "w");
    struct platform src, copy;

    assert_non_null(fp);
    /* 7.5 s into the replay: between samples, so counters are interpolated */
    open_at(&src, fixture, 7500000);
    assert_int_equal(snapshot_write_header(fp, &src, "round-trip test"), 0);
    assert_int_equal(snapshot_write_sample(fp, &src), 0);
    fclose(fp);
    open_at(&copy, path, 7500000);    /* one sample: any position reads it; keeps the source at 7.5 s */
    same_everything(&src, &copy);
    src.close(src.ctx);
    copy.close(copy.ctx);
    unlink(path);
}

static void
apple_silicon_fixture_roundtrips(void **state)
{
    (void)state;
    roundtrip(FIXTURES "/apple-silicon.snapshot");
}

static void
intel_fixture_roundtrips(void **state)
{
    (void)state;
    roundtrip(FIXTURES "/intel.snapshot");
}

/* Level CPU counts add up to hw.logicalcpu, and each level's CPUs carry its type. */
static void
levels_are_consistent(struct platform *p)
{
    struct plat_topology t;
    uint64_t logical = 0;

    memset(&t, 0, sizeof(t));
    assert_int_equal(p->topology(p->ctx, &t), 0);
    for (unsigned int l = 0; l < t.nlevels; l++) {
        unsigned int typed = 0;

        logical += t.level[l].value[PLAT_PL_LOGICALCPU];
        for (unsigned int c = 0; c < t.nclusters; c++)
            typed += t.cluster[c].type[0] == t.level[l].name[0];
        if (t.nlevels > 1)
            assert_int_equal(typed, t.level[l].value[PLAT_PL_LOGICALCPU]);
    }
    assert_int_equal(logical, t.counts.value[PLAT_CPU_LOGICAL]);
}

static void
fixtures_are_internally_consistent(void **state)
{
    static const char *const files[] = { FIXTURES "/apple-silicon.snapshot", FIXTURES "/intel.snapshot" };

    (void)state;
    for (size_t f = 0; f < 2; f++)
        for (uint64_t at = 0; at < 20000000; at += 5000000) {
            struct platform p;
            struct plat_host h;
            struct plat_memory m;
            struct plat_cpu_ticks t;
            struct plat_cpu_set set;
            uint32_t sum[4] = { 0 };

            open_at(&p, files[f], at);      /* at sample boundaries, where values are exact */
            assert_int_equal(p.host(p.ctx, &h), 0);
            assert_int_equal(p.memory(p.ctx, &m), 0);
            assert_int_equal((uint64_t)m.vm.free_count + m.vm.active_count + m.vm.inactive_count +
                             m.vm.wire_count + m.vm.compressor_page_count, h.memsize / h.page_size);
            assert_int_equal(m.swap.used + m.swap.avail, m.swap.total);
            assert_true(m.vm.speculative_count <= m.vm.free_count);   /* free includes speculative */
            assert_true(m.vm.purgeable_count <= m.vm.internal_page_count);
            assert_int_equal((uint64_t)m.vm.internal_page_count + m.vm.external_page_count,
                             (uint64_t)m.vm.active_count + m.vm.inactive_count + m.vm.speculative_count);
            levels_are_consistent(&p);
            assert_int_equal(p.cpu_total(p.ctx, &t), 0);
            assert_int_equal(p.cpus(p.ctx, &set), 0);
            for (unsigned int i = 0; i < set.ncpu; i++) {
                sum[0] += set.cpu[i].ticks.user;
                sum[1] += set.cpu[i].ticks.sys;
                sum[2] += set.cpu[i].ticks.idle;
                sum[3] += set.cpu[i].ticks.nice;
            }
            assert_int_equal(sum[0], t.user);
            assert_int_equal(sum[1], t.sys);
            assert_int_equal(sum[2], t.idle);
            assert_int_equal(sum[3], t.nice);
            p.close(p.ctx);
        }
}

/* The Apple Silicon fixture with every line for key set to 0, in a file of its own. */
static void
zeroed_copy(const char *key, char *path, size_t len)
{
    FILE *in = fopen(FIXTURES "/apple-silicon.snapshot", "r"), *out;
    char line[4096];
    size_t keylen = strlen(key);
    int fd;

    snprintf(path, len, "/tmp/zero-divisor-XXXXXX");
    assert_true((fd = mkstemp(path)) >= 0);
    assert_non_null(in);
    assert_non_null(out = fdopen(fd, "w"));
    while (fgets(line, sizeof(line), in) != NULL)
        if (strncmp(line, key, keylen) == 0 && line[keylen] == ' ')
            fprintf(out, "%s 0\n", key);
        else
            fputs(line, out);
    fclose(in);
    fclose(out);
}

static void
a_zero_divisor_fails_its_record_alone(void **state)
{
    static const char *const divisors[] = { "host.clock_hz", "host.page_size", "load.fscale", "timebase.denom" };

    (void)state;
    for (size_t d = 0; d < sizeof(divisors) / sizeof(divisors[0]); d++) {
        struct platform p;
        struct plat_host h;
        struct plat_loadavg l;
        struct plat_timebase tb;
        struct plat_memory m;
        char path[64];
        int host_sts, load_sts, timebase_sts;

        zeroed_copy(divisors[d], path, sizeof(path));
        open_at(&p, path, 0);
        host_sts = p.host(p.ctx, &h);
        load_sts = p.loadavg(p.ctx, &l);
        timebase_sts = p.timebase(p.ctx, &tb);
        assert_int_equal(host_sts, 0);                      /* each host fact has its own status */
        assert_int_equal(h.clock_status, d == 0 ? -EINVAL : 0);
        assert_int_equal(h.page_status, d == 1 ? -EINVAL : 0);
        assert_int_equal(h.memsize_status, 0);
        assert_int_equal(load_sts, d == 2 ? -EINVAL : 0);
        assert_int_equal(timebase_sts, d == 3 ? -EINVAL : 0);
        assert_int_equal(p.memory(p.ctx, &m), 0);           /* the rest replays as before */
        /* the failing read again, last, so that the error text is its own */
        if (d < 2)
            assert_int_equal(p.host(p.ctx, &h) == 0 ? (d == 0 ? h.clock_status : h.page_status) : 0, -EINVAL);
        else
            assert_int_equal(d == 2 ? p.loadavg(p.ctx, &l) : p.timebase(p.ctx, &tb), -EINVAL);
        assert_non_null(strstr(p.error(p.ctx), divisors[d]));
        assert_non_null(strstr(p.error(p.ctx), "divides"));
        p.close(p.ctx);
        unlink(path);
    }
}

/* A snapshot with n interfaces, in a file whose path goes to path. */
static void
interfaces_file(unsigned int n, char *path, size_t len)
{
    FILE *fp;
    int fd;

    snprintf(path, len, "/tmp/many-interfaces-XXXXXX");
    assert_true((fd = mkstemp(path)) >= 0);
    assert_non_null(fp = fdopen(fd, "w"));
    fprintf(fp, "pmda-darwin-snapshot 1\nhost.clock_hz 100\nsample 1763760434.000000\n");
    for (unsigned int i = 0; i < n; i++)
        fprintf(fp, "netif[if%u].index %u\n", i, i + 1);
    fclose(fp);
}

/* More interfaces than the agent reads is no Mac's capture: the file is
 * refused at the line past the limit, with the reason, before the rest of
 * it costs memory; as many as the agent reads load. */
static void
more_instances_than_the_agent_reads_are_refused(void **state)
{
    struct platform p;
    char path[64], msg[512], expected[96];

    (void)state;
    interfaces_file(PLAT_MAX_NETIFS, path, sizeof(path));
    assert_int_equal(platform_snapshot_open(&p, path, msg, sizeof(msg)), 0);
    p.close(p.ctx);
    unlink(path);
    interfaces_file(PLAT_MAX_NETIFS + 1, path, sizeof(path));
    assert_true(platform_snapshot_open(&p, path, msg, sizeof(msg)) < 0);
    unlink(path);
    snprintf(expected, sizeof(expected), ":%u: more than %u netif instances", PLAT_MAX_NETIFS + 4, PLAT_MAX_NETIFS);
    assert_non_null(strstr(msg, expected));
}

/* The system agent's replay skips what only the per-process calls read:
 * no process or thread is kept, every other call answers as the full
 * replay's, and skipping is not a problem to note. */
static void
without_processes_the_capture_keeps_no_process(void **state)
{
    struct platform all, lean;
    struct plat_proc_set procs;
    struct plat_host h1, h2;
    char msg[512];

    (void)state;
    assert_int_equal(platform_snapshot_open(&all, FIXTURES "/apple-silicon.snapshot", msg, sizeof(msg)), 0);
    assert_int_equal(platform_snapshot_open_without_processes(&lean, FIXTURES "/apple-silicon.snapshot", msg,
                                                              sizeof(msg)), 0);
    assert_int_equal(all.procs(all.ctx, &procs), 0);
    assert_true(procs.n > 0);
    assert_int_equal(lean.procs(lean.ctx, &procs), 0);
    assert_int_equal(procs.n, 0);
    assert_int_equal(all.host(all.ctx, &h1), 0);
    assert_int_equal(lean.host(lean.ctx, &h2), 0);
    assert_true(h1.page_size == h2.page_size && h1.clock_hz == h2.clock_hz && h1.memsize == h2.memsize);
    assert_string_equal(h1.model, h2.model);
    assert_string_equal(platform_snapshot_notes(&lean), platform_snapshot_notes(&all));
    all.close(all.ctx);
    lean.close(lean.ctx);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(apple_silicon_fixture_roundtrips),
        cmocka_unit_test(intel_fixture_roundtrips),
        cmocka_unit_test(fixtures_are_internally_consistent),
        cmocka_unit_test(a_zero_divisor_fails_its_record_alone),
        cmocka_unit_test(more_instances_than_the_agent_reads_are_refused),
        cmocka_unit_test(without_processes_the_capture_keeps_no_process),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
