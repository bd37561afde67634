#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
dbl_report(const char *text)
{
    fprintf(stderr, "double: %s\n", text);
    fflush(stderr);
}

void
live_setup(struct platform *p)
{
    char msg[256];

    dbl_reset();
    assert_int_equal(platform_live_open(p, msg, sizeof(msg)), 0);
}

void
live_setup_failing(struct platform *p, const char *fn, int err)
{
    char msg[256];

    dbl_reset();
    dbl_fail(fn, 1, err);
    assert_int_equal(platform_live_open(p, msg, sizeof(msg)), 0);
}

void
live_teardown(struct platform *p)
{
    struct dbl_held h;
    unsigned int made;

    dbl_nvme_hold_reads(0);         /* a test that failed holding a read: the close waits for it */
    p->close(p->ctx);
    assert_int_equal(dbl_nvme_sessions(&made), 0);     /* a plug-in kept blocks smartctl (netdata 23443) */
    h = dbl_held();
    /* What the test set up is not held by the source: only the double's
     * own tables hold CF objects; no port, region, descriptor or token. */
    assert_int_equal(h.ports, 0);
    assert_int_equal(h.vm, 0);
    assert_int_equal(h.fds, 0);
    assert_int_equal(h.tokens, 0);
}

int
live_test_setup(void **state)
{
    struct platform *p = calloc(1, sizeof(*p));

    live_setup(p);
    *state = p;
    return 0;
}

int
live_test_teardown(void **state)
{
    live_teardown(*state);
    free(*state);
    return 0;
}

void
assert_steady(struct platform *p, void (*fn)(struct platform *p), unsigned int rounds)
{
    struct dbl_held first, last;

    fn(p);
    first = dbl_held();
    for (unsigned int i = 0; i < rounds; i++)
        fn(p);
    last = dbl_held();
    assert_int_equal(last.cf, first.cf);
    assert_int_equal(last.io, first.io);
    assert_int_equal(last.ports, first.ports);
    assert_int_equal(last.vm, first.vm);
    assert_int_equal(last.fds, first.fds);
    assert_int_equal(last.tokens, first.tokens);
}

unsigned int
assert_backs_off(struct platform *p, int (*read)(struct platform *p), int expect, const char *fn,
                 uint64_t duration)
{
    uint64_t start = dbl_clock_ns(), last = start, gap = 0;
    unsigned int seen = dbl_calls(fn), tries = 0;

    for (uint64_t t = start; t - start <= duration; t += SECOND_NS) {
        assert_int_equal(read(p), expect);
        if (dbl_calls(fn) != seen) {
            uint64_t waited = t - last;

            if (tries > 0 && (waited < PLAT_RETRY_FIRST_NS || waited > PLAT_RETRY_CAP_NS ||
                              (waited <= gap && waited < PLAT_RETRY_CAP_NS)))
                fail_msg("%s called again after %llu s, the wait before %llu s", fn,
                         (unsigned long long)(waited / SECOND_NS), (unsigned long long)(gap / SECOND_NS));
            gap = tries > 0 ? waited : 0;
            last = t;
            seen = dbl_calls(fn);
            tries++;
        }
        dbl_clock_advance(SECOND_NS);
    }
    if (dbl_clock_ns() - last > PLAT_RETRY_CAP_NS + SECOND_NS)
        fail_msg("%s not called for %llu s", fn, (unsigned long long)((dbl_clock_ns() - last) / SECOND_NS));
    return tries;
}

void
assert_error_has(struct platform *p, const char *text)
{
    const char *error = p->error(p->ctx);

    if (strstr(error, text) == NULL)
        fail_msg("error text \"%s\" does not say \"%s\"", error, text);
}
