#include "proc_table.h"
#include "array_grow.h"
#include "convert.h"
#include "procargs_parse.h"
#include "proc_context.h"
#include "id_index.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREAD_INST_BIT 0x40000000u     /* threads: this bit and the tid's low 30 bits; processes: the pid */
#define CMD_MAX 4096

/* What a process keeps between refreshes: its key and strings. */
struct proc_slot {
    int32_t pid;
    int64_t start_sec;
    int32_t start_usec;
    char comm[PLAT_COMM_MAX];
    char *cmd, *exe;
};

struct name_entry {
    uint32_t id;
    char *name;                     /* NULL: no name (yet) */
    int sts;                        /* the lookup's result: -ENOENT, there is none */
    unsigned int round;             /* the refresh of the last lookup */
};

/* Names by id, each looked up once, and a failed lookup again at the next
 * refresh, not at every value: the directory service behind getpwuid_r can
 * be slow, and pmcd waits for this agent's answer. That there is no such
 * name (-ENOENT) is known for good. */
struct name_cache {
    struct name_entry *entries;
    unsigned int n, cap;
};

static struct {
    const struct platform *p;
    unsigned int needs;
    struct plat_timebase timebase;
    struct plat_clock clock;
    int clock_sts;
    int timebase_sts;
    int sockets_sts;
    int machine_sts;                /* the last uname's result, until one succeeds */
    int arm;                        /* uname.machine is arm64 */
    unsigned int round;             /* refreshes so far */
    /* the live processes' slots, dense, and the previous refresh's (swapped each refresh) */
    struct proc_slot *slots, *old_slots;
    unsigned int nslots, nold_slots, slots_cap, old_slots_cap;
    struct id_index by_pid, old_by_pid;
    struct proc_entry *entries;
    unsigned int nentries, nprocs, cap;
    struct id_index by_inst;        /* instance id -> entry */
    struct plat_thread *threads;    /* copies: the source's buffer is reused per process */
    unsigned int *thread_owner;     /* each thread's process entry */
    unsigned int nthreads, threads_cap;
    pmdaInstid *set;
    unsigned int set_cap;
    char (*names)[40];
    struct name_cache users, groups, ttys;
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
    uint64_t usec;

    if (table.clock_sts < 0)
        return table.clock_sts;
    if (usec_between(table.clock.boot_sec, table.clock.boot_usec, kp->start_sec, kp->start_usec, &usec) < 0 ||
        usec > UINT64_MAX / 1000)
        return -ERANGE;
    *ns = usec * 1000;
    return 0;
}

int
proc_table_timebase_status(void)
{
    return table.timebase_sts;
}

int
proc_table_arm(void)
{
    return table.machine_sts < 0 ? table.machine_sts : table.arm;
}

static const char *
cached_name(struct name_cache *cache, uint32_t id, int (*lookup)(void *, uint32_t, char *, size_t))
{
    char buf[PLAT_NAME_MAX];
    struct name_entry *e;
    unsigned int i = 0;

    while (i < cache->n && cache->entries[i].id != id)
        i++;
    e = i < cache->n ? &cache->entries[i] : NULL;
    if (e != NULL && (e->name != NULL || e->sts == -ENOENT || e->round == table.round))
        return e->name;
    if (table.p == NULL || lookup == NULL)
        return NULL;
    if (e == NULL) {
        if (array_grow((void **)&cache->entries, &cache->cap, cache->n, sizeof(*cache->entries)) < 0)
            return NULL;
        e = &cache->entries[cache->n++];
        *e = (struct name_entry){ .id = id };
    }
    e->round = table.round;
    if ((e->sts = lookup(table.p->ctx, id, buf, sizeof(buf))) == 0 && (e->name = strdup(buf)) == NULL)
        e->sts = -ENOMEM;
    return e->name;
}

static void
free_names(struct name_cache *cache)
{
    for (unsigned int i = 0; i < cache->n; i++)
        free(cache->entries[i].name);
    free(cache->entries);
}

const char *
proc_table_user(uint32_t uid)
{
    return cached_name(&table.users, uid, table.p ? table.p->user_name : NULL);
}

const char *
proc_table_group(uint32_t gid)
{
    return cached_name(&table.groups, gid, table.p ? table.p->group_name : NULL);
}

const char *
proc_table_tty(uint32_t dev)
{
    return dev == PLAT_NODEV ? NULL : cached_name(&table.ttys, dev, table.p ? table.p->tty_name : NULL);
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

/* Room for n entries in all, allocated to the size asked (processes, then
 * processes and threads): at 10,000 processes a doubling would waste more
 * than the entries' own size. */
static int
reserve_entries(unsigned int n)
{
    void *grown;

    if (n <= table.cap)
        return 0;
    if ((grown = realloc(table.entries, n * sizeof(*table.entries))) == NULL)
        return -ENOMEM;
    table.entries = grown;
    table.cap = n;
    return 0;
}

static void
free_strings(struct proc_slot *s)
{
    free(s->cmd);
    free(s->exe);
    s->cmd = s->exe = NULL;
}

/* The slot of a process in this refresh: a pid seen last time with the same
 * start time is the same process (its strings kept, unless it exec'd another
 * program, seen as a new p_comm); anything else at the pid is a new process. */
static struct proc_slot *
slot_of(const struct plat_proc *kp)
{
    uint32_t old = id_index_get(&table.old_by_pid, (uint32_t)kp->pid);
    struct proc_slot *s = &table.slots[table.nslots];   /* begin_slots made room for every listed pid */

    if (kp->pid < 0 || (uint32_t)kp->pid >= PLAT_PID_LIMIT)
        return NULL;
    if (id_index_get(&table.by_pid, (uint32_t)kp->pid) != ID_INDEX_NONE)
        return NULL;                /* listed twice: keep the first */
    if (old != ID_INDEX_NONE && table.old_slots[old].start_sec == kp->start_sec &&
        table.old_slots[old].start_usec == kp->start_usec) {
        *s = table.old_slots[old];
        table.old_slots[old].cmd = table.old_slots[old].exe = NULL;     /* moved */
        if (strcmp(s->comm, kp->comm) != 0) {
            free_strings(s);
            memcpy(s->comm, kp->comm, sizeof(s->comm));
        }
    } else {
        *s = (struct proc_slot){ .pid = kp->pid, .start_sec = kp->start_sec, .start_usec = kp->start_usec };
        memcpy(s->comm, kp->comm, sizeof(s->comm));
    }
    id_index_put(&table.by_pid, (uint32_t)kp->pid, table.nslots++);
    return s;
}

/* Make this refresh's slots from the last one's, room for n processes. */
static int
begin_slots(unsigned int n)
{
    struct proc_slot *swap = table.old_slots;
    struct id_index swap_index = table.old_by_pid;
    unsigned int cap = table.old_slots_cap;

    table.old_slots = table.slots;
    table.nold_slots = table.nslots;
    table.old_slots_cap = table.slots_cap;
    table.old_by_pid = table.by_pid;
    table.slots = swap;
    table.slots_cap = cap;
    table.by_pid = swap_index;
    table.nslots = 0;
    if (table.slots_cap < n) {
        void *grown = realloc(table.slots, n * sizeof(*table.slots));

        if (grown == NULL)
            return -ENOMEM;
        table.slots = grown;
        table.slots_cap = n;
    }
    return id_index_reset(&table.by_pid, n);
}

/* The processes that have gone take their strings with them. */
static void
end_slots(void)
{
    for (unsigned int i = 0; i < table.nold_slots; i++)
        free_strings(&table.old_slots[i]);
    table.nold_slots = 0;
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

/* Append the threads of process entry k, remembering whose they are. */
static int
add_threads(const struct platform *p, unsigned int k)
{
    struct plat_thread_set set;

    if (p->proc_threads(p->ctx, table.entries[k].kp.pid, &set) < 0)
        return 0;                   /* refused or gone: the process stays, without threads */
    if (table.nthreads + set.n > table.threads_cap) {
        unsigned int cap = (table.nthreads + set.n) * 2;
        void *grown = realloc(table.threads, cap * sizeof(*table.threads));
        void *owners = grown ? realloc(table.thread_owner, cap * sizeof(*table.thread_owner)) : NULL;

        if (grown)
            table.threads = grown;
        if (owners == NULL)
            return -ENOMEM;
        table.thread_owner = owners;
        table.threads_cap = cap;
    }
    memcpy(table.threads + table.nthreads, set.thread, set.n * sizeof(*set.thread));
    for (unsigned int t = 0; t < set.n; t++)
        table.thread_owner[table.nthreads++] = k;
    return 0;
}

/* Per process, the calls the requested rows need; none for a zombie. */
static void
read_process(const struct platform *p, struct proc_entry *e, struct proc_slot *s, unsigned int needs)
{
    const struct plat_proc *kp = &e->kp;

    /* -EAGAIN: not asked for; a zombie has nothing more to ask for (-ENODATA) */
    e->task_sts = e->rusage_sts = e->cwd_sts = e->fds_sts = kp->stat == 5 ? -ENODATA : -EAGAIN;
    if (kp->stat != 5) {
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
}

/* Sockets by owner: one read for all processes. */
static void
read_sockets(const struct platform *p)
{
    struct plat_sock_owner_set owners;

    if ((table.sockets_sts = p->sock_owners(p->ctx, &owners)) < 0)
        return;
    for (unsigned int i = 0; i < owners.n; i++) {
        uint32_t k = id_index_get(&table.by_pid, (uint32_t)owners.owner[i].pid);

        if (k < table.nprocs) {     /* slots and process entries share their order */
            table.entries[k].tcp = owners.owner[i].tcp;
            table.entries[k].udp = owners.owner[i].udp;
        }
    }
}

/* Each process's threads as entries after the processes. */
static void
read_threads(const struct platform *p)
{
    for (unsigned int k = 0; k < table.nprocs; k++)
        if (table.entries[k].kp.stat != 5 && add_threads(p, k) < 0)
            break;
    if (reserve_entries(table.nprocs + table.nthreads) < 0)
        return;
    for (unsigned int t = 0; t < table.nthreads; t++) {
        struct proc_entry *e = &table.entries[table.nentries];

        *e = table.entries[table.thread_owner[t]];
        e->thread = &table.threads[t];
        e->inst = THREAD_INST_BIT | (unsigned int)(table.threads[t].tid & (THREAD_INST_BIT - 1));
        e->state = thread_state(table.threads[t].run_state);
        table.nentries++;
    }
}

int
proc_table_refresh(const struct platform *p, pmInDom indom, const char **reason)
{
    struct plat_proc_set list;
    unsigned int needs = table.needs;
    int sts;

    (void)reason;
    (void)indom;
    table.needs = 0;
    table.p = p;
    table.round++;
    /* The host's timebase and machine, read until each has succeeded once. */
    if (table.timebase.denom == 0)
        table.timebase_sts = p->timebase(p->ctx, &table.timebase);
    if (table.round == 1 || table.machine_sts < 0) {
        struct plat_uname u;

        if ((table.machine_sts = p->uname(p->ctx, &u)) == 0)
            table.arm = strcmp(u.machine, "arm64") == 0;
    }
    if ((sts = p->procs(p->ctx, &list)) < 0)
        return sts;
    table.clock_sts = p->clock(p->ctx, &table.clock);
    for (unsigned int i = 0; i < table.nprocs; i++)
        free(table.entries[i].cwd);
    table.nentries = table.nprocs = table.nthreads = 0;
    if ((sts = begin_slots(list.n)) < 0 || (sts = reserve_entries(list.n)) < 0)
        return sts;
    for (unsigned int i = 0; i < list.n; i++) {
        struct proc_slot *s;
        struct proc_entry *e;

        if ((s = slot_of(&list.proc[i])) == NULL)
            continue;
        e = &table.entries[table.nentries++];
        memset(e, 0, sizeof(*e));
        e->kp = list.proc[i];
        e->inst = (unsigned int)e->kp.pid;      /* as PCP's process tools take it (Linux's proc agent) */
        read_process(p, e, s, needs);
    }
    end_slots();
    table.nprocs = table.nentries;
    table.sockets_sts = -EAGAIN;
    if (needs & PROC_NEED_SOCKETS)
        read_sockets(p);
    if (proc_access_threads())
        read_threads(p);
    if ((sts = id_index_reset(&table.by_inst, table.nentries)) < 0)
        return sts;
    for (unsigned int i = 0; i < table.nentries; i++)
        id_index_put(&table.by_inst, table.entries[i].inst, i);
    return 0;
}

const struct proc_entry *
proc_table_entry(unsigned int inst)
{
    uint32_t i = id_index_get(&table.by_inst, inst);

    return i < table.nentries ? &table.entries[i] : NULL;
}

int
proc_table_sockets_status(void)
{
    return table.sockets_sts;
}

unsigned int
proc_table_count(void)
{
    return table.nprocs;
}

unsigned int
proc_table_count_state(char state)
{
    unsigned int n = 0;

    for (unsigned int i = 0; i < table.nprocs; i++)
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
    for (unsigned int i = 0; i < table.nprocs; i++)
        free(table.entries[i].cwd);
    for (unsigned int i = 0; i < table.nslots; i++)
        free_strings(&table.slots[i]);
    free_names(&table.users);
    free_names(&table.groups);
    free_names(&table.ttys);
    id_index_free(&table.by_pid);
    id_index_free(&table.old_by_pid);
    id_index_free(&table.by_inst);
    free(table.slots);
    free(table.old_slots);
    free(table.entries);
    free(table.threads);
    free(table.thread_owner);
    free(table.set);
    free(table.names);
    memset(&table, 0, sizeof(table));
}
