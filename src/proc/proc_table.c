#include "proc_table.h"
#include "convert.h"
#include "gpu_clients_decode.h"
#include "procargs_parse.h"
#include "proc_context.h"
#include "id_index.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREAD_INST_BIT 0x40000000u     /* threads: this bit and the tid's low 30 bits; processes: the pid */
#define CMD_MAX 4096

void
proc_table_need(struct proc_table *t, unsigned int needs)
{
    t->needs |= needs;
}

uint64_t
proc_table_mach_to_ns(const struct proc_table *t, uint64_t mach)
{
    return mach_to_ns(mach, t->timebase.numer, t->timebase.denom);
}

int
proc_table_since_boot(const struct proc_table *t, const struct plat_proc *kp, uint64_t *ns)
{
    uint64_t usec;

    if (t->clock_sts < 0)
        return t->clock_sts;
    if (usec_between(t->clock.boot_sec, t->clock.boot_usec, kp->start_sec, kp->start_usec, &usec) < 0 ||
        usec > UINT64_MAX / 1000)
        return -ERANGE;
    *ns = usec * 1000;
    return 0;
}

int
proc_table_timebase_status(const struct proc_table *t)
{
    return t->timebase_sts;
}

int
proc_table_arm(const struct proc_table *t)
{
    return t->machine_sts < 0 ? t->machine_sts : t->arm;
}

/* A run state as ps names it, and the run-queue count it adds to. */
enum run_state { STATE_UNKNOWN, STATE_IDLE, STATE_RUNNING, STATE_SLEEPING, STATE_STOPPED, STATE_ZOMBIE, STATE_BLOCKED };
static const struct {
    char name[2];
    enum proc_runq runq;
} run_states[] = {
    [STATE_UNKNOWN] = { "?", PROC_RUNQ_UNKNOWN }, [STATE_IDLE] = { "I", PROC_RUNQ_SLEEPING },
    [STATE_RUNNING] = { "R", PROC_RUNQ_RUNNABLE }, [STATE_SLEEPING] = { "S", PROC_RUNQ_SLEEPING },
    [STATE_STOPPED] = { "T", PROC_RUNQ_STOPPED }, [STATE_ZOMBIE] = { "Z", PROC_RUNQ_DEFUNCT },
    [STATE_BLOCKED] = { "D", PROC_RUNQ_BLOCKED },
};

/* p_stat (xnu-11417.101.15 bsd/sys/proc.h:159-163 SIDL, SRUN, SSLEEP, SSTOP, SZOMB). */
enum { STAT_IDL = 1, STAT_RUN, STAT_SLEEP, STAT_STOP, STAT_ZOMB };
static const unsigned char state_of_stat[] = {
    [STAT_IDL] = STATE_IDLE, [STAT_RUN] = STATE_RUNNING, [STAT_SLEEP] = STATE_SLEEPING,
    [STAT_STOP] = STATE_STOPPED, [STAT_ZOMB] = STATE_ZOMBIE,
};
/* A thread's run_state (xnu-11417.101.15 osfmk/mach/thread_info.h:132-137 TH_STATE_RUNNING,
 * STOPPED, WAITING, UNINTERRUPTIBLE, HALTED). */
enum { TH_RUNNING = 1, TH_STOPPED, TH_WAITING, TH_UNINTERRUPTIBLE, TH_HALTED };
static const unsigned char state_of_thread[] = {
    [TH_RUNNING] = STATE_RUNNING, [TH_STOPPED] = STATE_STOPPED, [TH_WAITING] = STATE_SLEEPING,
    [TH_UNINTERRUPTIBLE] = STATE_BLOCKED, [TH_HALTED] = STATE_STOPPED,
};

/* The state at index i of a table of n, unknown outside it. */
static enum run_state
state_at(const unsigned char *table, size_t n, int32_t i)
{
    return i >= 0 && (size_t)i < n ? (enum run_state)table[i] : STATE_UNKNOWN;
}

/* The process's run state: p_stat, where a sleeping process with a running
 * thread runs. */
static enum run_state
process_state(const struct plat_proc *kp, const struct plat_proc_task *task, int task_sts)
{
    if (kp->stat == STAT_SLEEP && task_sts == 0 && task->numrunning > 0)
        return STATE_RUNNING;
    return state_at(state_of_stat, sizeof(state_of_stat), kp->stat);
}

/* Room for n entries in all, allocated to the size asked (processes, then
 * processes and threads): at 10,000 processes a doubling would waste more
 * than the entries' own size. */
static int
reserve_entries(struct proc_table *t, unsigned int n)
{
    void *grown;

    if (n <= t->cap)
        return 0;
    if ((grown = realloc(t->entries, n * sizeof(*t->entries))) == NULL)
        return -ENOMEM;
    t->entries = grown;
    t->cap = n;
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
slot_of(struct proc_table *t, const struct plat_proc *kp)
{
    uint32_t old = id_index_get(&t->old_by_pid, (uint32_t)kp->pid);
    struct proc_slot *s = &t->slots[t->nslots];   /* begin_slots made room for every listed pid */

    if (kp->pid < 0 || (uint32_t)kp->pid >= PLAT_PID_LIMIT)
        return NULL;
    if (id_index_get(&t->by_pid, (uint32_t)kp->pid) != ID_INDEX_NONE)
        return NULL;                /* listed twice: keep the first */
    if (old != ID_INDEX_NONE && t->old_slots[old].start_sec == kp->start_sec &&
        t->old_slots[old].start_usec == kp->start_usec) {
        *s = t->old_slots[old];
        t->old_slots[old].cmd = t->old_slots[old].exe = NULL;     /* moved */
        if (strcmp(s->comm, kp->comm) != 0) {
            free_strings(s);
            memcpy(s->comm, kp->comm, sizeof(s->comm));
        }
    } else {
        *s = (struct proc_slot){ .pid = kp->pid, .start_sec = kp->start_sec, .start_usec = kp->start_usec };
        memcpy(s->comm, kp->comm, sizeof(s->comm));
    }
    id_index_put(&t->by_pid, (uint32_t)kp->pid, t->nslots++);
    return s;
}

/* Make this refresh's slots from the last one's, room for n processes. */
static int
begin_slots(struct proc_table *t, unsigned int n)
{
    struct proc_slot *swap = t->old_slots;
    struct id_index swap_index = t->old_by_pid;
    unsigned int cap = t->old_slots_cap;

    t->old_slots = t->slots;
    t->nold_slots = t->nslots;
    t->old_slots_cap = t->slots_cap;
    t->old_by_pid = t->by_pid;
    t->slots = swap;
    t->slots_cap = cap;
    t->by_pid = swap_index;
    t->nslots = 0;
    if (t->slots_cap < n) {
        void *grown = realloc(t->slots, n * sizeof(*t->slots));

        if (grown == NULL)
            return -ENOMEM;
        t->slots = grown;
        t->slots_cap = n;
    }
    return id_index_reset(&t->by_pid, n);
}

/* The processes that have gone take their strings with them. */
static void
end_slots(struct proc_table *t)
{
    for (unsigned int i = 0; i < t->nold_slots; i++)
        free_strings(&t->old_slots[i]);
    t->nold_slots = 0;
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
add_threads(struct proc_table *t, const struct platform *p, unsigned int k)
{
    struct plat_thread_set set;

    if (p->proc_threads(p->ctx, t->entries[k].kp.pid, &set) < 0)
        return 0;                   /* refused or gone: the process stays, without threads */
    if (t->nthreads + set.n > t->threads_cap) {
        unsigned int cap = (t->nthreads + set.n) * 2;
        void *grown = realloc(t->threads, cap * sizeof(*t->threads));
        void *owners = grown ? realloc(t->thread_owner, cap * sizeof(*t->thread_owner)) : NULL;

        if (grown)
            t->threads = grown;
        if (owners == NULL)
            return -ENOMEM;
        t->thread_owner = owners;
        t->threads_cap = cap;
    }
    memcpy(t->threads + t->nthreads, set.thread, set.n * sizeof(*set.thread));
    for (unsigned int i = 0; i < set.n; i++)
        t->thread_owner[t->nthreads++] = k;
    return 0;
}

/* Per process, the calls the requested rows need; none for a zombie. */
static void
read_process(const struct platform *p, struct proc_entry *e, struct proc_slot *s, unsigned int needs)
{
    const struct plat_proc *kp = &e->kp;

    /* -EAGAIN: not asked for; a zombie has nothing more to ask for (-ENODATA) */
    e->task_sts = e->rusage_sts = e->cwd_sts = e->fds_sts = kp->stat == STAT_ZOMB ? -ENODATA : -EAGAIN;
    e->sockets_sts = e->gpu_sts = -EAGAIN;
    if (kp->stat != STAT_ZOMB) {
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
    if ((needs & PROC_NEED_ARGS) && s->cmd == NULL)
        snprintf(e->bracketed, sizeof(e->bracketed), "(%s)", kp->comm);
    e->exe = s->exe;
}

/* The names of a process's ids that the request's rows need, into the
 * caches the rows find them in: a look-up only for an id not seen before. */
static void
read_names(struct proc_table *t, const struct platform *p, const struct plat_proc *kp, unsigned int needs)
{
    if (needs & PROC_NEED_RUID_NAME)
        name_cache_get(&t->users, kp->ruid, t->round, p->user_name, p->ctx);
    if (needs & PROC_NEED_UID_NAME)
        name_cache_get(&t->users, kp->uid, t->round, p->user_name, p->ctx);
    if (needs & PROC_NEED_SVUID_NAME)
        name_cache_get(&t->users, kp->svuid, t->round, p->user_name, p->ctx);
    if (needs & PROC_NEED_RGID_NAME)
        name_cache_get(&t->groups, kp->rgid, t->round, p->group_name, p->ctx);
    if ((needs & PROC_NEED_TTY_NAME) && kp->tdev != PLAT_NODEV)
        name_cache_get(&t->ttys, kp->tdev, t->round, p->tty_name, p->ctx);
}

/* A process's state, counted in the run queue; threads are not counted. */
static void
set_process_state(struct proc_table *t, struct proc_entry *e)
{
    enum run_state state = process_state(&e->kp, &e->task, e->task_sts);

    memcpy(e->state, run_states[state].name, sizeof(e->state));
    t->runq[run_states[state].runq]++;
}

/* Sockets by owner: one read for all processes, whose status each process
 * entry carries. */
static void
read_sockets(struct proc_table *t, const struct platform *p)
{
    struct plat_sock_owner_set owners;
    int sts = p->sock_owners(p->ctx, &owners);

    for (unsigned int k = 0; k < t->nprocs; k++)
        t->entries[k].sockets_sts = sts;
    for (unsigned int i = 0; sts == 0 && i < owners.n; i++) {
        uint32_t k = id_index_get(&t->by_pid, (uint32_t)owners.owner[i].pid);

        if (k < t->nprocs) {     /* slots and process entries share their order */
            t->entries[k].tcp = owners.owner[i].tcp;
            t->entries[k].udp = owners.owner[i].udp;
        }
    }
}

/* GPU time by pid: one registry query for all processes, whose status each
 * process entry carries. Only Apple Silicon's GPU clients are read: an
 * Intel Mac's give no value, and so does a registry without an AGX GPU
 * (an Apple Silicon VM's GPU is another class), where no process's GPU
 * time can be known. */
static void
read_gpu_times(struct proc_table *t, const struct platform *p)
{
    struct plat_entry_set set = { 0 };
    struct gpu_times times = { 0 };
    int arm = proc_table_arm(t);
    int sts = arm < 0 ? arm : arm == 0 ? -EOPNOTSUPP : p->query(p->ctx, &plat_queries[PLAT_QUERY_GPU_CLIENTS], &set);

    if (sts == 0 && set.n == 0)
        sts = -ENOENT;
    if (sts == 0 && set.n > t->gpu_times_cap) {
        void *grown = realloc(t->gpu_times, set.n * sizeof(*t->gpu_times));

        if (grown == NULL)
            sts = -ENOMEM;
        else {
            t->gpu_times = grown;
            t->gpu_times_cap = set.n;
        }
    }
    if (sts == 0) {
        times.pid = t->gpu_times;
        gpu_clients_decode(&set, &times);
    }
    for (unsigned int k = 0; k < t->nprocs; k++) {
        t->entries[k].gpu_sts = sts;
        t->entries[k].gpu_ns = sts == 0 ? gpu_time_of(&times, t->entries[k].kp.pid) : 0;
    }
}

/* Each process's threads as entries after the processes. */
static void
read_threads(struct proc_table *t, const struct platform *p)
{
    for (unsigned int k = 0; k < t->nprocs; k++)
        if (t->entries[k].kp.stat != STAT_ZOMB && add_threads(t, p, k) < 0)
            break;
    if (reserve_entries(t, t->nprocs + t->nthreads) < 0)
        return;
    for (unsigned int i = 0; i < t->nthreads; i++) {
        struct proc_entry *e = &t->entries[t->nentries];
        const struct plat_thread *thread = &t->threads[i];

        *e = t->entries[t->thread_owner[i]];
        e->thread = thread;
        e->inst = THREAD_INST_BIT | (unsigned int)(thread->tid & (THREAD_INST_BIT - 1));
        memcpy(e->state, run_states[state_at(state_of_thread, sizeof(state_of_thread), thread->run_state)].name,
               sizeof(e->state));
        t->nentries++;
    }
}

int
proc_table_refresh(void *table, struct refresh_call *call)
{
    struct proc_table *t = table;
    const struct platform *p = call->p;
    struct plat_proc_set list;
    unsigned int needs = t->needs;
    int sts;

    t->needs = 0;
    t->round++;
    /* The host's timebase and machine, read until each has succeeded once. */
    if (t->timebase.denom == 0)
        t->timebase_sts = p->timebase(p->ctx, &t->timebase);
    if (t->round == 1 || t->machine_sts < 0) {
        struct plat_uname u;

        if ((t->machine_sts = p->uname(p->ctx, &u)) == 0)
            t->arm = strcmp(u.machine, "arm64") == 0;
    }
    if ((sts = p->procs(p->ctx, &list)) < 0)
        return sts;
    t->clock_sts = p->clock(p->ctx, &t->clock);
    for (unsigned int i = 0; i < t->nprocs; i++)
        free(t->entries[i].cwd);
    t->nentries = t->nprocs = t->nthreads = 0;
    memset(t->runq, 0, sizeof(t->runq));
    if ((sts = begin_slots(t, list.n)) < 0 || (sts = reserve_entries(t, list.n)) < 0)
        return sts;
    for (unsigned int i = 0; i < list.n; i++) {
        struct proc_slot *s;
        struct proc_entry *e;

        if ((s = slot_of(t, &list.proc[i])) == NULL)
            continue;
        e = &t->entries[t->nentries++];
        memset(e, 0, sizeof(*e));
        e->kp = list.proc[i];
        e->inst = (unsigned int)e->kp.pid;      /* as PCP's process tools take it (Linux's proc agent) */
        read_process(p, e, s, needs);
        read_names(t, p, &e->kp, needs);
        set_process_state(t, e);
    }
    end_slots(t);
    t->nprocs = t->nentries;
    if (needs & PROC_NEED_SOCKETS)
        read_sockets(t, p);
    if (needs & PROC_NEED_GPU)
        read_gpu_times(t, p);
    if (proc_access_threads())
        read_threads(t, p);
    if ((sts = id_index_reset(&t->by_inst, t->nentries)) < 0)
        return sts;
    for (unsigned int i = 0; i < t->nentries; i++)
        id_index_put(&t->by_inst, t->entries[i].inst, i);
    return 0;
}

const void *
proc_table_entry(const void *table, unsigned int inst)
{
    const struct proc_table *t = table;
    uint32_t i = id_index_get(&t->by_inst, inst);

    return i < t->nentries ? &t->entries[i] : NULL;
}

int
proc_table_instances(void *table, pmdaInstid **set)
{
    struct proc_table *t = table;

    if (t->nentries > t->set_cap) {
        void *grown = realloc(t->set, t->nentries * sizeof(*t->set));
        void *names = realloc(t->names, t->nentries * sizeof(*t->names));

        if (grown)
            t->set = grown;
        if (names)
            t->names = names;
        if (!grown || !names)
            return 0;
        t->set_cap = t->nentries;
    }
    for (unsigned int i = 0; i < t->nentries; i++) {
        const struct proc_entry *e = &t->entries[i];

        /* "PID comm" as upstream and Linux name them (pmdaInstance matches
         * a name up to its first space); threads "PID.TID comm" */
        if (e->thread)
            snprintf(t->names[i], sizeof(t->names[i]), "%06d.%llu %s", (int)e->kp.pid,
                     (unsigned long long)e->thread->tid, e->kp.comm);
        else
            snprintf(t->names[i], sizeof(t->names[i]), "%06d %s", (int)e->kp.pid, e->kp.comm);
        t->set[i].i_inst = (int)e->inst;
        t->set[i].i_name = t->names[i];
    }
    *set = t->set;
    return (int)t->nentries;
}

void
proc_table_teardown(void *table)
{
    struct proc_table *t = table;

    for (unsigned int i = 0; i < t->nprocs; i++)
        free(t->entries[i].cwd);
    for (unsigned int i = 0; i < t->nslots; i++)
        free_strings(&t->slots[i]);
    name_cache_free(&t->users);
    name_cache_free(&t->groups);
    name_cache_free(&t->ttys);
    id_index_free(&t->by_pid);
    id_index_free(&t->old_by_pid);
    id_index_free(&t->by_inst);
    free(t->slots);
    free(t->old_slots);
    free(t->entries);
    free(t->threads);
    free(t->thread_owner);
    free(t->gpu_times);
    free(t->set);
    free(t->names);
}
