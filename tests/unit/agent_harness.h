/*
 * Drives the real agent in-process through the pmdaInterface that pmcd
 * would use, over a fake platform. Header-only helpers for the tests.
 */
#ifndef PMDA_DARWIN_AGENT_HARNESS_H
#define PMDA_DARWIN_AGENT_HARNESS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "metric_by_name.h"
#include "fake_platform.h"

static pmdaInterface harness_dp;
static struct fake_platform fake;
/* The agent under test and its domain: the system metrics unless a test says otherwise. */
static const struct agent_desc *harness_agent = &darwin_agent;
static int harness_domain = 78;
/* The platform the agent reads: the fake machine unless a test gives another. */
static const struct platform *harness_source;

static inline int
harness_start(void)
{
    memset(&harness_dp, 0, sizeof(harness_dp));
    harness_dp.domain = harness_domain;
    pmdaDSO(&harness_dp, PMDA_INTERFACE_7, "agent test", NULL);
    return agent_setup(&harness_dp, harness_agent, harness_source ? harness_source : &fake.p);
}

static inline void
harness_stop(void)
{
    agent_teardown();
}

/* cmocka setup and teardown: a fresh fake machine and agent per test */
static inline int
harness_setup(void **state)
{
    (void)state;
    fake_platform_init(&fake);
    return harness_start();
}

static inline int
harness_teardown(void **state)
{
    (void)state;
    harness_stop();
    return 0;
}

/* A cmocka test case run against a fresh fake machine and agent. */
#define HARNESS_TEST(fn) cmocka_unit_test_setup_teardown(fn, harness_setup, harness_teardown)

static inline pmdaExt *
harness_ext(void)
{
    return harness_dp.version.seven.ext;
}

/* The row of the agent under test called name, and the collector that owns
 * it (unless owner is NULL); the test fails, naming it, when there is none. */
static inline const struct metric_row *
harness_row_of(const char *name, const struct collector **owner)
{
    const struct metric_row *row = metric_row_named(harness_agent, name, owner);

    if (row == NULL)
        fail_msg("the %s agent has no metric %s", harness_agent->name, name);
    return row;
}

static inline const struct metric_row *
harness_row(const char *name)
{
    return harness_row_of(name, NULL);
}

/* The PMID pmcd would send for the metric called name. */
static inline pmID
harness_pmid(const char *name)
{
    const struct metric_row *row = harness_row(name);

    return pmID_build(harness_domain, row->cluster, row->item);
}

/* Fetch one PMID; returns numval (or the error) and the first value(s) into atoms. */
static inline int
harness_fetch_pmid(pmID pmid, int type, pmAtomValue *atoms, int maxvals, int *insts)
{
    agent_result *res = NULL;
    int sts = harness_dp.version.seven.fetch(1, &pmid, (void *)&res, harness_ext());
    pmValueSet *vs;

    if (sts < 0)
        return sts;
    vs = res->vset[0];
    sts = vs->numval;
    for (int i = 0; i < vs->numval && i < maxvals; i++) {
        pmExtractValue(vs->valfmt, &vs->vlist[i], type, &atoms[i], type);
        if (insts)
            insts[i] = vs->vlist[i].inst;
        if (type == PM_TYPE_STRING) {
            static char copies[8][256];

            strncpy(copies[i % 8], atoms[i].cp, sizeof(copies[0]) - 1);
            free(atoms[i].cp);
            atoms[i].cp = copies[i % 8];
        }
    }
    harness_ext()->e_resultCallBack((void *)res);     /* as pmcd does after every fetch */
    return sts;
}

/* Fetch the metric called name, as harness_fetch_pmid. */
static inline int
harness_fetch(const char *name, int type, pmAtomValue *atoms, int maxvals, int *insts)
{
    return harness_fetch_pmid(harness_pmid(name), type, atoms, maxvals, insts);
}

/* The instance table pmcd answers from for an indom of the agent's domain,
 * as the last refresh left it; NULL for an indom the agent does not have. */
static inline const pmdaIndom *
harness_indom(unsigned int indom_serial)
{
    pmdaExt *ext = harness_ext();

    for (int i = 0; i < ext->e_nindoms; i++)
        if (ext->e_indoms[i].it_indom == pmInDom_build(harness_domain, indom_serial))
            return &ext->e_indoms[i];
    return NULL;
}

/* The id of the instance called name in that table, or -1. */
static inline int
harness_inst(unsigned int indom_serial, const char *name)
{
    const pmdaIndom *t = harness_indom(indom_serial);

    for (int i = 0; t != NULL && i < t->it_numinst; i++)
        if (strcmp(t->it_set[i].i_name, name) == 0)
            return t->it_set[i].i_inst;
    return -1;
}

/* The name of instance inst in that table, or NULL. */
static inline const char *
harness_inst_name(unsigned int indom_serial, int inst)
{
    const pmdaIndom *t = harness_indom(indom_serial);

    for (int i = 0; t != NULL && i < t->it_numinst; i++)
        if (t->it_set[i].i_inst == inst)
            return t->it_set[i].i_name;
    return NULL;
}

/* An integer metric's value for the instance called inst_name of its
 * instance domain (-1: no value for it). */
static inline int64_t
harness_inst_value(const char *name, int type, const char *inst_name)
{
    pmAtomValue v[64];
    int inst[64], n = harness_fetch(name, type, v, 64, inst);

    assert_true(n >= 0);
    for (int i = 0; i < n && i < 64; i++)
        if (inst[i] == harness_inst(harness_row(name)->indom, inst_name))
            return type == PM_TYPE_U64 ? (int64_t)v[i].ull : (int64_t)v[i].ul;
    return -1;
}

/* The one value of a singular metric, failing the test if there is not exactly one. */
static inline uint64_t
harness_u64(const char *name)
{
    pmAtomValue v[1];

    assert_int_equal(harness_fetch(name, PM_TYPE_U64, v, 1, NULL), 1);
    return v[0].ull;
}

static inline uint32_t
harness_u32(const char *name)
{
    pmAtomValue v[1];

    assert_int_equal(harness_fetch(name, PM_TYPE_U32, v, 1, NULL), 1);
    return v[0].ul;
}

/* pmcd's log, as the agent writes it (pmNotifyErr writes to stderr in a
 * DSO), kept in a file from harness_log_start to harness_log_stop. Only the
 * stdio stream is swapped, not fd 2: a sanitizer's report, written to fd 2,
 * still shows. cmocka reports failures on stderr too: assert after the stop. */
static FILE *harness_log;
static FILE *harness_saved_stderr;

static inline void
harness_log_start(void)
{
    fflush(stderr);
    assert_non_null(harness_log = tmpfile());
    harness_saved_stderr = stderr;
    stderr = harness_log;
}

/* Lines of the log so far that contain text ("" for all). */
static inline unsigned int
harness_log_lines(const char *text)
{
    char line[1024];
    unsigned int n = 0;

    fflush(stderr);
    rewind(harness_log);
    while (fgets(line, sizeof(line), harness_log) != NULL)
        n += strstr(line, text) != NULL;
    fseek(harness_log, 0, SEEK_END);
    return n;
}

/* Line n of the log (from 0) into line; 0 when there is no such line. */
static inline int
harness_log_line(unsigned int n, char *line, size_t len)
{
    int found = 0;

    fflush(stderr);
    rewind(harness_log);
    for (unsigned int i = 0; i <= n && (found = fgets(line, (int)len, harness_log) != NULL); i++)
        ;
    fseek(harness_log, 0, SEEK_END);
    return found;
}

static inline void
harness_log_stop(void)
{
    stderr = harness_saved_stderr;
    fclose(harness_log);
    harness_log = NULL;
}

#endif
