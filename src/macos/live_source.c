/*
 * The live macOS platform source: opening, closing and error text. The
 * readers live in one file per kind of source beside this one.
 */
#include "live_source.h"
#include "error_text.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

int
live_fail(struct live_source *src, int err, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    error_text_append(src->error, sizeof(src->error), fmt, ap);
    va_end(ap);
    return err;
}

struct live_source *
live_begin(void *ctx)
{
    struct live_source *src = ctx;

    src->error[0] = '\0';
    return src;
}

uint64_t
live_clock_ns(void)
{
    return clock_gettime_nsec_np(CLOCK_MONOTONIC_RAW);
}

static const char *
live_error(void *ctx)
{
    return ((struct live_source *)ctx)->error;
}

static void
live_close(void *ctx)
{
    struct live_source *src = ctx;

    /* mach_host_self() and processor_set_default() each added a send right
     * at open; give them back once. */
    if (src->pset != MACH_PORT_NULL)
        mach_port_deallocate(mach_task_self(), src->pset);
    mach_port_deallocate(mach_task_self(), src->host);
    if (src->ioctl_fd >= 0)
        close(src->ioctl_fd);
    live_ioreport_close(src);
    live_hid_close(src);
    live_smc_close(src);
    live_notify_close(src);
    live_nvme_close(src);
    free(src->cpus);
    free(src->logins);
    free(src->iflist.data);
    free(src->netifs);
    free(src->stats);
    free(src->pcblist.data);
    free(src->fsstat.data);
    free(src->mounts);
    free(src->proclist.data);
    free(src->procs);
    free(src->args.data);
    free(src->fdlist.data);
    free(src->tids.data);
    free(src->threads);
    free(src->sock_counts);
    free(src->owners);
    entry_builder_free(&src->entries);
    free(src);
}

int
platform_live_open(struct platform *out, char *msg, unsigned int msglen)
{
    struct live_source *src = calloc(1, sizeof(*src));

    if (src == NULL) {
        snprintf(msg, msglen, "out of memory");
        return -ENOMEM;
    }
    src->host = mach_host_self();
    if ((src->pset_error = processor_set_default(src->host, &src->pset)) != KERN_SUCCESS)
        src->pset = MACH_PORT_NULL;
    src->ioctl_fd = socket(AF_INET, SOCK_DGRAM, 0);     /* -1: functional types unknown */
    *out = (struct platform) {
        .name = "live",
        .ctx = src,
        .host = live_host,
        .memory = live_memory,
        .uname = live_uname,
        .loadavg = live_loadavg,
        .cpu_total = live_cpu_total,
        .cpus = live_cpus,
        .clock = live_clock,
        .sysctls = live_sysctls,
        .tasks = live_tasks,
        .logins = live_logins,
        .topology = live_topology,
        .interfaces = live_interfaces,
        .udp = live_udp,
        .icmp = live_icmp,
        .ip6 = live_ip6,
        .tcp = live_tcp,
        .tcpconn = live_tcpconn,
        .query = live_query,
        .mounts = live_mounts,
        .nfs = live_nfs,
        .timebase = live_timebase,
        .procs = live_procs,
        .proc_task = live_proc_task,
        .proc_rusage = live_proc_rusage,
        .proc_args = live_proc_args,
        .proc_path = live_proc_path,
        .proc_cwd = live_proc_cwd,
        .proc_fds = live_proc_fds,
        .proc_threads = live_proc_threads,
        .sock_owners = live_sock_owners,
        .user_name = live_user_name,
        .group_name = live_group_name,
        .tty_name = live_tty_name,
        .error = live_error,
        .close = live_close,
    };
    snprintf(msg, msglen, "reading live macOS data");
    return 0;
}
