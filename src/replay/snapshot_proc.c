#include "snapshot_proc.h"
#include "array_grow.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
snap_proc_free(struct snap_proc_state *st)
{
    free(st->procs);
    free(st->threads);
    free(st->owners);
    free(st->args);
    memset(st, 0, sizeof(*st));
}

/* Processes are the instances of "proc" (their pid); one a sample lacks has
 * not started or has exited by then. */
int
snap_procs(struct snap *s, struct snap_proc_state *st, struct plat_proc_set *out)
{
    unsigned int n = 0;
    const char *name;
    int sts;

    for (unsigned int i = 0; (name = snap_instance(s, "proc", i)) != NULL; i++) {
        struct snap_proc rec;
        char *end;
        long pid = strtol(name, &end, 10);

        if (*end != '\0' || pid < 0 || pid > INT32_MAX)
            continue;               /* not a pid: reported by no look-up, so skip it */
        memset(&rec, 0, sizeof(rec));
        if ((sts = rec_read(s, &rec_proc, name, &rec)) == -ENOENT)
            continue;
        if (sts < 0)
            return sts;
        if ((sts = array_grow((void **)&st->procs, &st->procs_cap, n, sizeof(*st->procs))) < 0)
            return sts;
        rec.proc.pid = (int32_t)pid;
        st->procs[n] = rec.proc;
        n++;
    }
    snap_clear_error(s);
    out->n = n;
    out->proc = st->procs;
    return 0;
}

/* 0 when the recording user could make this call for pid (rec gets the
 * process's record), else why not. */
static int
allowed(struct snap *s, int32_t pid, uint32_t call, char *instance, size_t len, struct snap_proc *rec)
{
    int sts;

    snprintf(instance, len, "%" PRId32, pid);
    memset(rec, 0, sizeof(*rec));
    if ((sts = rec_read(s, &rec_proc, instance, rec)) < 0)
        return sts == -ENOENT ? -ESRCH : sts;
    return (rec->refused & call) ? -EPERM : 0;
}

int
snap_proc_task(struct snap *s, struct snap_proc_state *st, int32_t pid, struct plat_proc_task *out)
{
    struct snap_proc rec;
    char inst[16];
    int sts = allowed(s, pid, SNAP_REFUSED_TASK, inst, sizeof(inst), &rec);

    (void)st;
    memset(out, 0, sizeof(*out));
    return sts < 0 ? sts : rec_read(s, &rec_proc_task, inst, out);
}

int
snap_proc_rusage(struct snap *s, struct snap_proc_state *st, int32_t pid, struct plat_proc_rusage *out)
{
    struct snap_proc rec;
    char inst[16];
    int sts = allowed(s, pid, SNAP_REFUSED_RUSAGE, inst, sizeof(inst), &rec);

    (void)st;
    memset(out, 0, sizeof(*out));
    if (sts < 0 || (sts = rec_read(s, &rec_proc_rusage, inst, out)) == 0)
        return sts;
    /* a flavor-4 recording has no flavor-6 fields: read what it has */
    snap_clear_error(s);
    return out->version != 0 && out->version < 6 ? 0 : sts;
}

static int
read_text(struct snap *s, struct snap_proc_state *st, int32_t pid, uint32_t call)
{
    struct snap_proc rec;
    char inst[16];
    int sts = allowed(s, pid, call, inst, sizeof(inst), &rec);

    memset(&st->text, 0, sizeof(st->text));
    return sts < 0 ? sts : rec_read(s, &rec_proc_text, inst, &st->text);
}

static int
hex_digit(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

int
snap_proc_args(struct snap *s, struct snap_proc_state *st, int32_t pid, struct plat_bytes *out)
{
    size_t n;
    int sts;

    if ((sts = read_text(s, st, pid, SNAP_REFUSED_ARGS)) < 0)
        return sts;
    n = strlen(st->text.args_hex);
    if (n == 0 || n % 2 != 0)
        return n == 0 ? -ENOENT : -EINVAL;
    if (st->args == NULL && (st->args = malloc(SNAP_PROC_ARGS_MAX)) == NULL)
        return -ENOMEM;
    for (size_t i = 0; i < n / 2; i++) {
        int hi = hex_digit(st->text.args_hex[2 * i]), lo = hex_digit(st->text.args_hex[2 * i + 1]);

        if (hi < 0 || lo < 0)
            return -EINVAL;
        st->args[i] = (unsigned char)(hi << 4 | lo);
    }
    out->len = n / 2;
    out->data = st->args;
    return 0;
}

static int
copy_text(const char *text, char *out, size_t len)
{
    if (text[0] == '\0')
        return -ENOENT;
    snprintf(out, len, "%s", text);
    return 0;
}

int
snap_proc_path(struct snap *s, struct snap_proc_state *st, int32_t pid, char *out, size_t len)
{
    int sts = read_text(s, st, pid, 0);

    return sts < 0 ? sts : copy_text(st->text.path, out, len);
}

int
snap_proc_cwd(struct snap *s, struct snap_proc_state *st, int32_t pid, char *out, size_t len)
{
    int sts = read_text(s, st, pid, SNAP_REFUSED_CWD);

    return sts < 0 ? sts : copy_text(st->text.cwd, out, len);
}

int
snap_proc_fds(struct snap *s, struct snap_proc_state *st, int32_t pid, struct plat_proc_fds *out)
{
    struct snap_proc rec;
    char inst[16];
    int sts = allowed(s, pid, SNAP_REFUSED_FDS, inst, sizeof(inst), &rec);

    (void)st;
    if (sts < 0)
        return sts;
    out->count = rec.fds;
    return rec.fds_status;
}

int
snap_proc_threads(struct snap *s, struct snap_proc_state *st, int32_t pid, struct plat_thread_set *out)
{
    unsigned int n = 0;
    char *cursor, *token, *save = NULL;
    int sts;

    if ((sts = read_text(s, st, pid, SNAP_REFUSED_THREADS)) < 0)
        return sts;
    cursor = st->text.threads;
    for (token = strtok_r(cursor, " ", &save); token; token = strtok_r(NULL, " ", &save)) {
        struct plat_thread *t;

        if ((sts = array_grow((void **)&st->threads, &st->threads_cap, n, sizeof(*st->threads))) < 0)
            return sts;
        t = &st->threads[n];
        memset(t, 0, sizeof(*t));
        t->tid = strtoull(token, NULL, 10);
        if ((sts = rec_read(s, &rec_thread, token, t)) == -ENOENT)
            continue;               /* exited between the list and its info */
        if (sts < 0)
            return sts;
        n++;
    }
    snap_clear_error(s);
    out->n = n;
    out->thread = st->threads;
    return 0;
}

int
snap_sock_owners(struct snap *s, struct snap_proc_state *st, struct plat_sock_owner_set *out)
{
    unsigned int n = 0;
    const char *name;
    int sts;

    for (unsigned int i = 0; (name = snap_instance(s, "sockets", i)) != NULL; i++) {
        struct plat_sock_owner o;

        memset(&o, 0, sizeof(o));
        if ((sts = rec_read(s, &rec_sock_owner, name, &o)) == -ENOENT)
            continue;
        if (sts < 0)
            return sts;
        o.pid = (int32_t)strtol(name, NULL, 10);
        if ((sts = array_grow((void **)&st->owners, &st->owners_cap, n, sizeof(*st->owners))) < 0)
            return sts;
        st->owners[n++] = o;
    }
    snap_clear_error(s);
    out->n = n;
    out->owner = st->owners;
    return 0;
}

int
snap_name(struct snap *s, const struct rec_desc *d, uint32_t id, char *out, size_t len)
{
    struct snap_name rec;
    char inst[16];
    int sts;

    snprintf(inst, sizeof(inst), "%" PRIu32, id);
    if ((sts = rec_read(s, d, inst, &rec)) < 0)
        return sts;
    snprintf(out, len, "%s", rec.name);
    return 0;
}
