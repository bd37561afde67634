/*
 * Faults, call counts and the reset that starts each test afresh.
 */
#include "double.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FUNCTIONS 128

static struct function {
    char name[64];
    unsigned int calls;
    unsigned int fail_at;           /* the call that fails; 0: none */
    int every;                      /* every call from fail_at on */
    int err;
} functions[MAX_FUNCTIONS];
static unsigned int nfunctions;
static uint64_t clock_ns;           /* the virtual clock: ns since the reset */

static struct function *
function(const char *name)
{
    for (unsigned int i = 0; i < nfunctions; i++)
        if (strcmp(functions[i].name, name) == 0)
            return &functions[i];
    if (nfunctions == MAX_FUNCTIONS)
        dbl_violation("more than %d doubled functions", MAX_FUNCTIONS);
    snprintf(functions[nfunctions].name, sizeof(functions[nfunctions].name), "%s", name);
    return &functions[nfunctions++];
}

void
dbl_fail(const char *fn, unsigned int nth, int err)
{
    struct function *f = function(fn);

    f->every = nth == 0;
    f->fail_at = f->calls + (nth == 0 ? 1 : nth);
    f->err = err;
}

unsigned int
dbl_calls(const char *fn)
{
    return function(fn)->calls;
}

const char *
dbl_call_name(unsigned int i)
{
    return i < nfunctions ? functions[i].name : NULL;
}

int
dbl_failing(const char *fn)
{
    struct function *f = function(fn);

    f->calls++;
    if (f->fail_at != 0 && (f->calls == f->fail_at || (f->every && f->calls > f->fail_at)))
        return f->err;
    return 0;
}

void
dbl_clock_advance(uint64_t ns)
{
    clock_ns += ns;
}

uint64_t
dbl_clock_ns(void)
{
    return clock_ns;
}

void
dbl_violation(const char *fmt, ...)
{
    va_list ap;
    char text[512];

    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    /* Darwin's FILE is not glibc's: write(2) with the plain number. */
    dbl_report(text);
    abort();
}

void
dbl_reset(void)
{
    nfunctions = 0;
    memset(functions, 0, sizeof(functions));
    clock_ns = 0;
    dbl_private_reset();
    dbl_io_reset();
    dbl_cf_reset();
    dbl_mach_reset();
    dbl_host_stats_reset();
    dbl_sysctl_reset();
    dbl_netif_reset();
    dbl_procs_reset();
    dbl_libc_reset();
    dbl_notify_reset();
    dbl_nvme_reset();
}

struct dbl_held
dbl_held(void)
{
    struct dbl_held h = { .cf = dbl_cf_alive(), .io = dbl_io_held(), .fds = dbl_libc_fds(),
                          .tokens = dbl_notify_tokens() };

    dbl_mach_held(&h);
    return h;
}
