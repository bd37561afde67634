/*
 * The agent core through the interface pmcd uses: refresh planning (proved
 * by counting platform calls), per-cluster failure, errors for unknown
 * PMIDs, instances and stores, help text and labels.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "agent_harness.h"

static void
assert_calls(unsigned int host, unsigned int memory, unsigned int uname, unsigned int load,
             unsigned int total, unsigned int cpus, unsigned int clock)
{
    assert_int_equal(fake.calls.host, host);
    assert_int_equal(fake.calls.memory, memory);
    assert_int_equal(fake.calls.uname, uname);
    assert_int_equal(fake.calls.loadavg, load);
    assert_int_equal(fake.calls.cpu_total, total);
    assert_int_equal(fake.calls.cpus, cpus);
    assert_int_equal(fake.calls.clock, clock);
}

static void
a_fetch_refreshes_only_what_it_names(void **state)
{
    pmAtomValue v[1];

    (void)state;
    assert_calls(0, 0, 0, 0, 0, 0, 0);          /* init reads nothing */
    assert_int_equal(harness_fetch("kernel.all.cpu.user", PM_TYPE_U64, v, 1, NULL), 1);
    assert_calls(1, 0, 0, 0, 1, 0, 0);          /* cluster 6 and its dependency 0 */
    assert_int_equal(harness_fetch("kernel.all.cpu.user", PM_TYPE_U64, v, 1, NULL), 1);
    assert_calls(1, 0, 0, 0, 2, 0, 0);          /* host facts are read once */
    assert_int_equal(harness_fetch("kernel.all.load", PM_TYPE_FLOAT, v, 1, NULL), 3);
    assert_calls(1, 0, 0, 1, 2, 0, 0);
}

static void
each_cluster_once_per_fetch(void **state)
{
    pmID pmids[] = {
        /* three of one cluster, three of another, one of a third */
        harness_pmid("mem.freemem"), harness_pmid("mem.util.used"), harness_pmid("swap.used"),
        harness_pmid("hinv.ncpu"), harness_pmid("kernel.percpu.cpu.user"), harness_pmid("kernel.percpu.cpu.idle"),
        harness_pmid("kernel.all.uptime"),
    };
    agent_result *res;

    (void)state;
    assert_int_equal(harness_dp.version.seven.fetch(7, pmids, (void *)&res, harness_ext()), 0);
    assert_int_equal(res->numpmid, 7);
    harness_ext()->e_resultCallBack((void *)res);
    assert_calls(1, 1, 0, 0, 0, 1, 1);
}

static void
an_instance_request_refreshes_only_the_owner(void **state)
{
    pmInResult *in = NULL;

    (void)state;
    assert_int_equal(harness_dp.version.seven.instance(pmInDom_build(78, 3), PM_IN_NULL, NULL, &in, harness_ext()), 0);
    assert_calls(0, 0, 0, 0, 0, 1, 0);
    assert_int_equal(in->numinst, 4);
    for (int i = 0; i < in->numinst; i++)
        free(in->namelist[i]);      /* pmdaInstance copies the names; pmcd frees them */
    free(in->instlist);
    free(in->namelist);
    free(in);
    in = NULL;
    assert_int_equal(harness_dp.version.seven.instance(pmInDom_build(78, 0), 5, NULL, &in, harness_ext()), 0);
    assert_int_equal(in->numinst, 1);
    assert_string_equal(in->namelist[0], "5 minute");
    assert_calls(0, 0, 0, 0, 0, 1, 0);          /* a static indom needs no refresh */
    free(in->namelist[0]);
    free(in->namelist);
    free(in);
    assert_int_equal(harness_dp.version.seven.instance(pmInDom_build(78, 3), 4242, NULL, &in, harness_ext()),
                     PM_ERR_INST);
}

static void
a_failing_source_fails_only_its_cluster(void **state)
{
    pmAtomValue v[3];

    (void)state;
    fake.memory_sts = -EIO;
    assert_int_equal(harness_fetch("mem.freemem", PM_TYPE_U64, v, 1, NULL), PM_ERR_AGAIN);
    assert_int_equal(harness_fetch("kernel.all.load", PM_TYPE_FLOAT, v, 3, NULL), 3);
    assert_int_equal(harness_fetch("kernel.all.cpu.user", PM_TYPE_U64, v, 1, NULL), 1);
    fake.memory_sts = 0;
    assert_int_equal(harness_fetch("mem.freemem", PM_TYPE_U64, v, 1, NULL), 1);
    assert_int_equal(v[0].ull, 1000 * 16);
}

static void
a_failing_dependency_fails_its_dependants(void **state)
{
    pmAtomValue v[3];

    (void)state;
    fake.host_sts = -EIO;
    assert_int_equal(harness_fetch("kernel.all.cpu.user", PM_TYPE_U64, v, 1, NULL), PM_ERR_AGAIN);
    assert_int_equal(harness_fetch("mem.freemem", PM_TYPE_U64, v, 1, NULL), PM_ERR_AGAIN);
    assert_int_equal(fake.calls.memory, 0);     /* no point reading what cannot be converted */
    assert_int_equal(harness_fetch("kernel.all.load", PM_TYPE_FLOAT, v, 3, NULL), 3);
    fake.host_sts = 0;
    assert_int_equal(harness_fetch("kernel.all.cpu.user", PM_TYPE_U64, v, 1, NULL), 1);
    fake.total_sts = -ENOTSUP;          /* a source this OS release does not have */
    assert_int_equal(harness_fetch("kernel.all.cpu.user", PM_TYPE_U64, v, 1, NULL), PM_ERR_APPVERSION);
}

/* While hinv fails, per-CPU values fail with it; an instance request for
 * the CPUs refreshes percpu without it and succeeds, which says nothing of
 * the values: the log has the failure once, not a flip per request. */
/* A source without kern.clockrate and hw.model (a capture of `sysctl hw` on
 * Apple Silicon) loses what needs them and keeps the page size and memory;
 * the missing facts are asked for again, the others kept. */
static void
a_missing_host_fact_fails_only_what_needs_it(void **state)
{
    pmAtomValue v[1];

    (void)state;
    fake.host.clock_status = -ENOENT;
    fake.host.model_status = -ENOENT;
    assert_int_equal(harness_fetch("kernel.all.hz", PM_TYPE_U32, v, 1, NULL), PM_ERR_APPVERSION);
    assert_int_equal(harness_fetch("hinv.machine", PM_TYPE_STRING, v, 1, NULL), PM_ERR_APPVERSION);
    assert_int_equal(harness_fetch("kernel.all.cpu.user", PM_TYPE_U64, v, 1, NULL), PM_ERR_APPVERSION);
    assert_int_equal(harness_u64("hinv.pagesize"), 16384);
    assert_int_equal(harness_u32("hinv.physmem"), 16384);       /* MB */
    assert_int_equal(harness_u64("mem.physmem"), 16ULL << 20);  /* KB */
    assert_int_equal(harness_u64("mem.freemem"), 1000 * 16);    /* KB */
    fake.host.clock_status = 0;
    assert_int_equal(harness_fetch("kernel.all.cpu.user", PM_TYPE_U64, v, 1, NULL), 1);
    fake.host.page_size = 0;            /* a source that says 0: no division by it */
    assert_int_equal(harness_fetch("hinv.pagesize", PM_TYPE_U64, v, 1, NULL), PM_ERR_AGAIN);
    assert_int_equal(harness_fetch("mem.freemem", PM_TYPE_U64, v, 1, NULL), PM_ERR_AGAIN);
    assert_int_equal(harness_u32("kernel.all.hz"), 100);
}

/* A source without hw.pagesize: every count of pages in KB fails with the
 * page size's own error, bound or derived alike, and the counts of pages
 * keep their values. */
static void
a_missing_page_size_fails_every_page_count_in_kb_alike(void **state)
{
    pmAtomValue v[1];
    int missing;

    (void)state;
    fake.host.page_status = -ENOENT;
    missing = harness_fetch("hinv.pagesize", PM_TYPE_U64, v, 1, NULL);
    assert_true(missing < 0);
    assert_int_equal(harness_fetch("mem.util.used", PM_TYPE_U64, v, 1, NULL), missing);
    assert_int_equal(harness_fetch("mem.freemem", PM_TYPE_U64, v, 1, NULL), missing);
    assert_int_equal(harness_fetch("mem.util.wired", PM_TYPE_U64, v, 1, NULL), missing);
    assert_int_equal(harness_fetch("mem.pages.freemem", PM_TYPE_U32, v, 1, NULL), 1);
}

static void
instance_requests_do_not_flip_a_failing_familys_log(void **state)
{
    pmAtomValue v[8];
    unsigned int flips;

    (void)state;
    fake.host_sts = -EIO;
    harness_log_start();
    for (int round = 0; round < 3; round++) {
        pmInResult *in = NULL;

        harness_fetch("kernel.percpu.cpu.user", PM_TYPE_U64, v, 8, NULL);
        if (harness_dp.version.seven.instance(pmInDom_build(78, 3), PM_IN_NULL, NULL, &in,
                                              harness_ext()) >= 0) {
            for (int i = 0; i < in->numinst; i++)
                free(in->namelist[i]);
            free(in->instlist);
            free(in->namelist);
            free(in);
        }
    }
    flips = harness_log_lines("percpu");
    harness_log_stop();
    assert_int_equal(flips, 1);
}

/* An item and a cluster that no row of the agent has. */
enum { NO_ROW_ITEM = 999, NO_COLLECTOR_CLUSTER = 55 };

/* A PMID in the cluster of the metric called name that no row has. */
static pmID
unknown_item_beside(const char *name)
{
    return pmID_build(harness_domain, pmID_cluster(harness_pmid(name)), NO_ROW_ITEM);
}

static void
unknown_pmids_and_stores_are_refused(void **state)
{
    pmAtomValue v[1];
    agent_result store = { 0 };

    (void)state;
    assert_int_equal(harness_fetch_pmid(unknown_item_beside("mem.freemem"), PM_TYPE_U64, v, 1, NULL), PM_ERR_PMID);
    assert_int_equal(harness_fetch_pmid(pmID_build(harness_domain, NO_COLLECTOR_CLUSTER, NO_ROW_ITEM), PM_TYPE_U64, v,
                                        1, NULL), PM_ERR_PMID);
    assert_int_equal(harness_dp.version.seven.store((void *)&store, harness_ext()), PM_ERR_PERMISSION);
    assert_calls(0, 0, 0, 0, 0, 0, 0);
}

static void
help_text_for_metrics_and_indoms(void **state)
{
    char *text = NULL;

    (void)state;
    assert_int_equal(harness_dp.version.seven.text((int)harness_pmid("kernel.all.cpu.user"),
                                                   PM_TEXT_PMID | PM_TEXT_ONELINE, &text, harness_ext()), 0);
    assert_string_equal(text, "time all processors spent in user mode");
    assert_int_equal(harness_dp.version.seven.text((int)harness_pmid("kernel.all.cpu.user"),
                                                   PM_TEXT_PMID | PM_TEXT_HELP, &text, harness_ext()), 0);
    assert_non_null(strstr(text, "HOST_CPU_LOAD_INFO"));
    assert_int_equal(harness_dp.version.seven.text((int)pmInDom_build(78, 3), PM_TEXT_INDOM | PM_TEXT_ONELINE,
                                                   &text, harness_ext()), 0);
    assert_string_equal(text, "set of processors");
    assert_int_equal(harness_dp.version.seven.text((int)unknown_item_beside("kernel.all.cpu.user"),
                                                   PM_TEXT_PMID | PM_TEXT_ONELINE, &text, harness_ext()), PM_ERR_TEXT);
}

static void
domain_and_indom_labels(void **state)
{
    pmLabelSet *ls = NULL;
    char buf[256];

    (void)state;
    for (int request = 0; request < 2; request++) {     /* the second is a copy of the set the first built */
        assert_true(harness_dp.version.seven.label(78, PM_LABEL_DOMAIN, &ls, harness_ext()) >= 0);
        assert_non_null(ls);
        assert_true(pmMergeLabelSets(&ls, 1, buf, sizeof(buf), NULL, NULL) > 0);
        assert_string_equal(buf, "{\"agent\":\"darwin\",\"data_source\":\"fake\"}");
        pmFreeLabelSets(ls, 1);
        ls = NULL;
    }
    assert_true(harness_dp.version.seven.label((int)pmInDom_build(78, 3), PM_LABEL_INDOM, &ls, harness_ext()) >= 0);
    assert_true(pmMergeLabelSets(&ls, 1, buf, sizeof(buf), NULL, NULL) > 0);
    assert_non_null(strstr(buf, "\"indom_name\":\"per cpu\""));
    pmFreeLabelSets(ls, 1);
}

/* An agent whose one collector keeps no state (state_size 0), with rows of
 * no indom, as the proc agent's proc.control.* switches are served: the
 * core hands it no state, and serves its rows all the same. (It owns an indom its rows do not use: pmdaInit refuses an
 * agent with none.) */
static int
served(const void *state, const void *entry, const struct metric_row *row, unsigned int inst, pmAtomValue *atom)
{
    (void)state;
    (void)entry;
    (void)inst;
    atom->ul = row->item;
    return PMDA_FETCH_STATIC;
}

static const struct metric_row stateless_rows[] = {
    { "stateless.derived", 0, 0, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, PMDA_PMUNITS(0, 0, 0, 0, 0, 0),
      .derive = served },
    { "stateless.also", 0, 1, PM_TYPE_U32, COLLECTOR_NO_INDOM, PM_SEM_INSTANT, PMDA_PMUNITS(0, 0, 0, 0, 0, 0),
      .derive = served },
};
static const struct indom_def unused_indom = { .serial = 0, .label_name = "unused" };
static const struct collector stateless_collector = {
    .name = "stateless", .rows = stateless_rows, .nrows = sizeof(stateless_rows) / sizeof(stateless_rows[0]),
    .indom = &unused_indom,
};
static const struct collector *const stateless_collectors[] = { &stateless_collector };
static const struct agent_desc stateless_agent = {
    .name = "stateless", .collectors = stateless_collectors, .ncollectors = 1, .help_source = "",
};

static int
stateless_setup(void **state)
{
    harness_agent = &stateless_agent;
    return harness_setup(state);
}

static int
stateless_teardown(void **state)
{
    harness_teardown(state);
    harness_agent = &darwin_agent;
    return 0;
}

static void
a_collector_without_state_serves_its_rows(void **state)
{
    (void)state;
    for (unsigned int r = 0; r < stateless_collector.nrows; r++)
        assert_int_equal(harness_u32(stateless_rows[r].name), stateless_rows[r].item);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        HARNESS_TEST(a_fetch_refreshes_only_what_it_names),
        HARNESS_TEST(each_cluster_once_per_fetch),
        HARNESS_TEST(an_instance_request_refreshes_only_the_owner),
        HARNESS_TEST(a_failing_source_fails_only_its_cluster),
        HARNESS_TEST(a_missing_page_size_fails_every_page_count_in_kb_alike),
        HARNESS_TEST(a_failing_dependency_fails_its_dependants),
        HARNESS_TEST(a_missing_host_fact_fails_only_what_needs_it),
        HARNESS_TEST(instance_requests_do_not_flip_a_failing_familys_log),
        HARNESS_TEST(unknown_pmids_and_stores_are_refused),
        HARNESS_TEST(help_text_for_metrics_and_indoms),
        HARNESS_TEST(domain_and_indom_labels),
        cmocka_unit_test_setup_teardown(a_collector_without_state_serves_its_rows, stateless_setup,
                                        stateless_teardown),
    };
    pmSetProgname("test_agent");
    return cmocka_run_group_tests(tests, NULL, NULL);
}
