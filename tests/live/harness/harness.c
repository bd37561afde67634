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

    p->close(p->ctx);
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

void
assert_error_has(struct platform *p, const char *text)
{
    const char *error = p->error(p->ctx);

    if (strstr(error, text) == NULL)
        fail_msg("error text \"%s\" does not say \"%s\"", error, text);
}
