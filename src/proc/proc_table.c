#include "proc_table.h"
#include "convert.h"
#include "procargs_parse.h"
#include "proc_access.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREAD_INST_BIT 0x40000000u     /* threads: this bit and the tid's low 30 bits */
#define GENERATION_SHIFT 17             /* processes: pid (< 2^17) and a reuse generation above it */
#define CMD_MAX 4096

/* What a process keeps between refreshes: its key, strings and generation. */
struct proc_slot {
    int32_t pid;
    int64_t start_sec;
    int32_t start_usec;
    unsigned int generation;
    char comm[PLAT_COMM_MAX];
    char *cmd, *exe;
    int seen;
    unsigned int entry;             /* its index in entries after the last refresh */
};

struct name_cache {
    uint32_t id;
    char *name;                     /* NULL: looked up and unknown */
};

static struct {
    const struct platform *p;
    unsigned int needs;
    struct plat_timebase timebase;
    struct plat_clock clock;
    int clock_sts;
    int timebase_sts;
    int arm;                        /* uname.machine is arm64 */
    struct proc_slot *slots;        /* by pid, PLAT_PID_LIMIT of them, allocated on first use */
    struct proc_entry *entries;
    unsigned int nentries, cap;
    struct plat_thread *threads;    /* copies: the source's buffer is reused per process */
    unsigned int nthreads, threads_cap;
    pmdaInstid *set;
    unsigned int set_cap;
    char (*names)[40];
    unsigned int last;              /* the entry found last: fetches walk the set in order */
    struct name_cache users[256], groups[256], ttys[64];
    unsigned int nusers, ngroups, nttys;
} table;

void
proc_table_need(unsigned int needs)
{
    table.needs |= needs;
}

uint64_t
proc_table_mach_to_ns(uint64_t mach)
{
    return mach_to_ns(mach, table.timebase.numer, table.timebase.denom);
}

int
proc_table_since_boot(const struct plat_proc *kp, uint64_t *ns)
{
    int64_t usec;

    if (table.clock_sts < 0)
        return table.clock_sts;
    usec = (kp->start_sec - table.clock.boot_sec) * 1000000 + (kp->start_usec - table.clock.boot_usec);
    if (usec < 0)
        return -ERANGE;
    *ns = (uint64_t)usec * 1000;
    return 0;
}

int
proc_table_timebase_status(void)
{
    return table.timebase_sts;
}

int
proc_table_is_arm(void)
{
    return table.arm;
}

static const char *
cached_name(struct name_cache *cache, unsigned int *n, unsigned int cap, uint32_t id,
            int (*lookup)(void *, uint32_t, char *, size_t))
{
    char buf[PLAT_NAME_MAX];

    for (unsigned int i = 0; i < *n; i++)
        if (cache[i].id == id)
            return cache[i].name;
    if (table.p == NULL || lookup == NULL || lookup(table.p->ctx, id, buf, sizeof(buf)) < 0)
        return NULL;                /* not cached: a failing directory service is asked again later */
    if (*n == cap)
        return NULL;
    cache[*n].id = id;
    cache[*n].name = strdup(buf);
    return cache[(*n)++].name;
}

const char *
proc_table_user(uint32_t uid)
{
    return cached_name(table.users, &table.nusers, 256, uid, table.p ? table.p->user_name : NULL);
}

const char *
proc_table_group(uint32_t gid)
{
    return cached_name(table.groups, &table.ngroups, 256, gid, table.p ? table.p->group_name : NULL);
}

const char *
proc_table_tty(uint32_t dev)
{
    return dev == PLAT_NODEV ? NULL : cached_name(table.ttys, &table.nttys, 64, dev, table.p ? table.p->tty_name : NULL);
}

/* The process's run state: p_stat, refined by the running-thread count. */
static char
state_of(const struct plat_proc *kp, const struct plat_proc_task *task, int task_sts)
{
    switch (kp->stat) {
    case 1: return 'I';             /* SIDL: being created */
    case 2: return 'R';
    case 3: return task_sts == 0 && task->numrunning > 0 ? 'R' : 'S';
    case 4: return 'T';
    case 5: return 'Z';
    default: return '?';
    }
}

static char
thread_state(int32_t run_state)
{
    switch (run_state) {
    case 1: return 'R';
    case 2: case 5: return 'T';
    case 3: return 'S';
    case 4: return 'D';
    default: return '?';
    }
}

static int
grow_entries(void)
{
    if (table.nentries < table.cap)
        return 0;
    unsigned int cap = table.cap ? 2 * table.cap : 1024;
    void *grown = realloc(table.entries, cap * sizeof(*table.entries));

    if (grown == NULL)
        return -ENOMEM;
    table.entries = grown;
    table.cap = cap;
    return 0;
}

/* The slot of a process: the same one while pid and start time agree; a
 * new start time at the same pid is a new process with a new generation. */
static struct proc_slot *
slot_of(const struct plat_proc *kp)
{
    struct proc_slot *s;

    if (kp->pid < 0 || (uint32_t)kp->pid >= PLAT_PID_LIMIT)
        return NULL;
    s = &table.slots[kp->pid];
    if (s->pid == kp->pid && s->start_sec == kp->start_sec && s->start_usec == kp->start_usec) {
        if (strcmp(s->comm, kp->comm) != 0) {       /* it exec'd another program */
            free(s->cmd);
            free(s->exe);
            s->cmd = s->exe = NULL;
            memcpy(s->comm, kp->comm, sizeof(s->comm));
        }
        return s;
    }
    if (s->pid == kp->pid && (s->start_sec || s->start_usec))
        s->generation = (s->generation + 1) & ((1u << (30 - GENERATION_SHIFT)) - 1);
    free(s->cmd);
    free(s->exe);
    *s = (struct proc_slot){ .pid = kp->pid, .start_sec = kp->start_sec, .start_usec = kp->start_usec,
                             .generation = s->generation };
    memcpy(s->comm, kp->comm, sizeof(s->comm));
    return s;
}

static void
read_strings(const struct platform *p, struct proc_slot *s, unsigned int needs)
{
    if ((needs & PROC_NEED_ARGS) && s->cmd == NULL) {
        struct plat_bytes args;
        char buf[CMD_MAX];

        if (p->proc_args(p->ctx, s->pid, &args) == 0 && procargs_command_line(args.data, args.len, buf, sizeof(buf)) > 0)
            s->cmd = strdup(buf);
    }
    if ((needs & PROC_NEED_PATH) && s->exe == NULL) {
        char path[PLAT_PATH_MAX];

        if (p->proc_path(p->ctx, s->pid, path, sizeof(path)) == 0)
            s->exe = strdup(path);
    }
}

static int
add_threads(const struct platform *p, const struct proc_entry *owner)
{
    struct plat_thread_set set;
    unsigned int first = table.nthreads;

    if (p->proc_threads(p->ctx, owner->kp.pid, &set) < 0)
        return 0;                   /* refused or gone: the process stays, without threads */
    if (table.nthreads + set.n > table.threads_cap) {
        unsigned int cap = (table.nthreads + set.n) * 2;
        void *grown = realloc(table.threads, cap * sizeof(*table.threads));

        if (grown == NULL)
            return -ENOMEM;
        table.threads = grown;
        table.threads_cap = cap;
    }
    memcpy(table.threads + first, set.thread, set.n * sizeof(*set.thread));
    table.nthreads += set.n;
    return 0;
}

int
proc_table_refresh(const struct platform *p, pmInDom indom)
{
    struct plat_proc_set list;
    unsigned int needs = table.needs;
    int with_threads = proc_access_threads(), sts;
    unsigned int nprocs;

    (void)indom;
    table.needs = 0;
    table.p = p;
    if (table.slots == NULL && (table.slots = calloc(PLAT_PID_LIMIT, sizeof(*table.slots))) == NULL)
        return -ENOMEM;
    if (table.timebase.denom == 0) {
        struct plat_uname u;

        table.timebase_sts = p->timebase(p->ctx, &table.timebase);
        if (p->uname(p->ctx, &u) == 0)
            table.arm = strcmp(u.machine, "arm64") == 0;
    }
    if ((sts = p->procs(p->ctx, &list)) < 0)
        return sts;
    table.clock_sts = p->clock(p->ctx, &table.clock);
    for (unsigned int i = 0; i < table.nentries; i++)
        free(table.entries[i].thread ? NULL : table.entries[i].cwd);
    table.nentries = table.nthreads = 0;
    for (unsigned int i = 0; i < list.n; i++) {
        const struct plat_proc *kp = &list.proc[i];
        struct proc_slot *s = slot_of(kp);
        struct proc_entry *e;

        if (s == NULL || (sts = grow_entries()) < 0)
            continue;
        e = &table.entries[table.nentries++];
        memset(e, 0, sizeof(*e));
        e->kp = *kp;
        e->inst = (unsigned int)kp->pid | s->generation << GENERATION_SHIFT;
        e->task_sts = e->rusage_sts = e->cwd_sts = e->fds_sts = -EAGAIN;
        if (kp->stat != 5) {        /* a zombie has nothing more to ask for */
            read_strings(p, s, needs);
            if (needs & PROC_NEED_TASK)
                e->task_sts = p->proc_task(p->ctx, kp->pid, &e->task);
            if (needs & PROC_NEED_RUSAGE)
                e->rusage_sts = p->proc_rusage(p->ctx, kp->pid, &e->ru);
            if (needs & PROC_NEED_CWD) {
                char cwd[PLAT_PATH_MAX];

                if ((e->cwd_sts = p->proc_cwd(p->ctx, kp->pid, cwd, sizeof(cwd))) == 0 &&
                    (e->cwd = strdup(cwd)) == NULL)
                    e->cwd_sts = -ENOMEM;
            }
            if (needs & PROC_NEED_FDS) {
                struct plat_proc_fds fds;

                if ((e->fds_sts = p->proc_fds(p->ctx, kp->pid, &fds)) == 0)
                    e->fds = fds.count;
            }
        }
        e->cmd = s->cmd;
        e->exe = s->exe;
        e->state = state_of(kp, &e->task, e->task_sts);
        s->seen = 1;
        s->entry = table.nentries - 1;
    }
    nprocs = table.nentries;
    /* a process that has gone leaves its key (for the next generation) but not its strings */
    for (unsigned int pid = 0; pid < PLAT_PID_LIMIT; pid++) {
        struct proc_slot *s = &table.slots[pid];

        if (!s->seen && (s->cmd || s->exe)) {
            free(s->cmd);
            free(s->exe);
            s->cmd = s->exe = NULL;
        }
        s->seen = 0;
    }
    if (needs & PROC_NEED_SOCKETS) {
        struct plat_sock_owner_set owners;

        if (p->sock_owners(p->ctx, &owners) == 0)
            for (unsigned int i = 0; i < owners.n; i++)
                if (owners.owner[i].pid >= 0 && (uint32_t)owners.owner[i].pid < PLAT_PID_LIMIT) {
                    unsigned int k = table.slots[owners.owner[i].pid].entry;

                    if (k < nprocs && table.entries[k].kp.pid == owners.owner[i].pid) {
                        table.entries[k].tcp = owners.owner[i].tcp;
                        table.entries[k].udp = owners.owner[i].udp;
                    }
                }
    }
    if (with_threads) {
        unsigned int *owner_of = NULL, n = 0;

        for (unsigned int k = 0; k < nprocs; k++) {
            unsigned int before = table.nthreads;

            if (table.entries[k].kp.stat == 5 || add_threads(p, &table.entries[k]) < 0)
                continue;
            unsigned int *grown = realloc(owner_of, (table.nthreads ? table.nthreads : 1) * sizeof(*owner_of));

            if (grown == NULL)
                break;
            owner_of = grown;
            for (unsigned int t = before; t < table.nthreads; t++)
                owner_of[n++] = k;
        }
        for (unsigned int t = 0; t < n && grow_entries() == 0; t++) {
            struct proc_entry *e = &table.entries[table.nentries];

            *e = table.entries[owner_of[t]];
            e->thread = &table.threads[t];
            e->inst = THREAD_INST_BIT | (unsigned int)(table.threads[t].tid & (THREAD_INST_BIT - 1));
            e->state = thread_state(table.threads[t].run_state);
            table.nentries++;
        }
        free(owner_of);
    }
    return 0;
}

const struct proc_entry *
proc_table_entry(unsigned int inst)
{
    /* pmdaFetch walks the instances in the set's order: try the next one first */
    for (unsigned int k = 0; k < 2; k++) {
        unsigned int i = table.last + k;

        if (i < table.nentries && table.entries[i].inst == inst)
            return &table.entries[table.last = i];
    }
    if (inst < THREAD_INST_BIT) {
        unsigned int pid = inst & ((1u << GENERATION_SHIFT) - 1), i;

        if (table.slots == NULL || pid >= PLAT_PID_LIMIT)
            return NULL;
        i = table.slots[pid].entry;
        return i < table.nentries && table.entries[i].inst == inst ? &table.entries[table.last = i] : NULL;
    }
    for (unsigned int i = 0; i < table.nentries; i++)
        if (table.entries[i].inst == inst)
            return &table.entries[table.last = i];
    return NULL;
}

unsigned int
proc_table_count(void)
{
    return table.nentries;
}

unsigned int
proc_table_count_state(char state)
{
    unsigned int n = 0;

    for (unsigned int i = 0; i < table.nentries; i++)
        n += table.entries[i].state == state;
    return n;
}

int
proc_table_instances(pmdaInstid **set)
{
    if (table.nentries > table.set_cap) {
        void *grown = realloc(table.set, table.nentries * sizeof(*table.set));
        void *names = realloc(table.names, table.nentries * sizeof(*table.names));

        if (grown)
            table.set = grown;
        if (names)
            table.names = names;
        if (!grown || !names)
            return 0;
        table.set_cap = table.nentries;
    }
    for (unsigned int i = 0; i < table.nentries; i++) {
        const struct proc_entry *e = &table.entries[i];

        /* "PID comm" as upstream and Linux name them (pmdaInstance matches
         * a name up to its first space); threads "PID.TID comm" */
        if (e->thread)
            snprintf(table.names[i], sizeof(table.names[i]), "%06d.%llu %s", (int)e->kp.pid,
                     (unsigned long long)e->thread->tid, e->kp.comm);
        else
            snprintf(table.names[i], sizeof(table.names[i]), "%06d %s", (int)e->kp.pid, e->kp.comm);
        table.set[i].i_inst = (int)e->inst;
        table.set[i].i_name = table.names[i];
    }
    *set = table.set;
    return (int)table.nentries;
}

void
proc_table_teardown(pmInDom indom)
{
    (void)indom;
    for (unsigned int i = 0; i < table.nentries; i++)
        free(table.entries[i].thread ? NULL : table.entries[i].cwd);
    for (unsigned int i = 0; table.slots && i < PLAT_PID_LIMIT; i++) {
        free(table.slots[i].cmd);
        free(table.slots[i].exe);
    }
    for (unsigned int i = 0; i < table.nusers; i++)
        free(table.users[i].name);
    for (unsigned int i = 0; i < table.ngroups; i++)
        free(table.groups[i].name);
    for (unsigned int i = 0; i < table.nttys; i++)
        free(table.ttys[i].name);
    free(table.slots);
    free(table.entries);
    free(table.threads);
    free(table.set);
    free(table.names);
    memset(&table, 0, sizeof(table));
}
