#include "counting_platform.h"
#include "clock_ns.h"

#include <string.h>

#define C(ctx) ((struct counting_platform *)(ctx))
#define IN(ctx) (&C(ctx)->inner)

/* Count a call of this kind and time the source's answer to it. */
#define PASS(ctx, kind, call) do { \
        uint64_t t0 = now_ns(); \
        int sts_ = (call); \
        C(ctx)->calls[kind]++; \
        C(ctx)->source_ns += now_ns() - t0; \
        return sts_; \
    } while (0)

static int
c_uname(void *x, struct plat_uname *o)
{
    PASS(x, CALL_OTHER, IN(x)->uname(IN(x)->ctx, o));
}

static int
c_clock(void *x, struct plat_clock *o)
{
    PASS(x, CALL_OTHER, IN(x)->clock(IN(x)->ctx, o));
}

static int
c_timebase(void *x, struct plat_timebase *o)
{
    PASS(x, CALL_OTHER, IN(x)->timebase(IN(x)->ctx, o));
}

static int
c_procs(void *x, struct plat_proc_set *o)
{
    PASS(x, CALL_PROCS, IN(x)->procs(IN(x)->ctx, o));
}

static int
c_task(void *x, int32_t pid, struct plat_proc_task *o)
{
    PASS(x, CALL_TASK, IN(x)->proc_task(IN(x)->ctx, pid, o));
}

static int
c_rusage(void *x, int32_t pid, struct plat_proc_rusage *o)
{
    PASS(x, CALL_RUSAGE, IN(x)->proc_rusage(IN(x)->ctx, pid, o));
}

static int
c_args(void *x, int32_t pid, struct plat_bytes *o)
{
    PASS(x, CALL_ARGS, IN(x)->proc_args(IN(x)->ctx, pid, o));
}

static int
c_path(void *x, int32_t pid, char *o, size_t len)
{
    PASS(x, CALL_PATH, IN(x)->proc_path(IN(x)->ctx, pid, o, len));
}

static int
c_cwd(void *x, int32_t pid, char *o, size_t len)
{
    PASS(x, CALL_CWD, IN(x)->proc_cwd(IN(x)->ctx, pid, o, len));
}

static int
c_fds(void *x, int32_t pid, struct plat_proc_fds *o)
{
    PASS(x, CALL_FDS, IN(x)->proc_fds(IN(x)->ctx, pid, o));
}

static int
c_threads(void *x, int32_t pid, struct plat_thread_set *o)
{
    uint64_t t0 = now_ns();
    int sts = IN(x)->proc_threads(IN(x)->ctx, pid, o);

    C(x)->source_ns += now_ns() - t0;
    C(x)->calls[CALL_THREADS]++;
    if (sts == 0)
        C(x)->threads_listed += o->n;
    return sts;
}

static int
c_sockets(void *x, struct plat_sock_owner_set *o)
{
    PASS(x, CALL_SOCKETS, IN(x)->sock_owners(IN(x)->ctx, o));
}

static int
c_user(void *x, uint32_t id, char *o, size_t len)
{
    PASS(x, CALL_NAMES, IN(x)->user_name(IN(x)->ctx, id, o, len));
}

static int
c_group(void *x, uint32_t id, char *o, size_t len)
{
    PASS(x, CALL_NAMES, IN(x)->group_name(IN(x)->ctx, id, o, len));
}

static int
c_tty(void *x, uint32_t id, char *o, size_t len)
{
    PASS(x, CALL_NAMES, IN(x)->tty_name(IN(x)->ctx, id, o, len));
}

static const char *
c_error(void *x)
{
    return IN(x)->error(IN(x)->ctx);
}

static void
c_close(void *x)
{
    IN(x)->close(IN(x)->ctx);
}

void
counting_platform_wrap(struct counting_platform *c, const struct platform *inner)
{
    memset(c, 0, sizeof(*c));
    c->inner = *inner;
    c->p = (struct platform){
        .name = inner->name, .ctx = c, .uname = c_uname, .clock = c_clock, .timebase = c_timebase,
        .procs = c_procs, .proc_task = c_task, .proc_rusage = c_rusage, .proc_args = c_args,
        .proc_path = c_path, .proc_cwd = c_cwd, .proc_fds = c_fds, .proc_threads = c_threads,
        .sock_owners = c_sockets, .user_name = c_user, .group_name = c_group, .tty_name = c_tty,
        .error = c_error, .close = c_close,
    };
}

unsigned long
counting_platform_total(const struct counting_platform *c)
{
    unsigned long n = 0;

    for (int i = 0; i < CALL_N; i++)
        n += c->calls[i];
    return n;
}

void
counting_platform_zero(struct counting_platform *c)
{
    memset(c->calls, 0, sizeof(c->calls));
    c->threads_listed = 0;
    c->source_ns = 0;
}
