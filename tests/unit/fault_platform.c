#include "fault_platform.h"
#include "clock_ns.h"
#include "snapshot_records.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define F(ctx) ((struct fault_platform *)(ctx))
#define IN(ctx) (&F(ctx)->inner)

/* The fault for target, or 0: the call goes through. */
static int
fault(struct fault_platform *f, unsigned int target)
{
    f->calls[target]++;
    f->injected = (int)target == f->target;
    return f->injected ? f->sts : 0;
}

/* The calls whose answer the replay describes field by field
 * (snapshot_records.c): those a fault can give their largest values. */
static const struct rec_desc *const described[FAULT_NTARGETS] = {
    [FAULT_host] = &rec_host, [FAULT_memory] = &rec_memory, [FAULT_loadavg] = &rec_loadavg,
    [FAULT_cpu_total] = &rec_ticks, [FAULT_clock] = &rec_clock, [FAULT_tasks] = &rec_tasks,
    [FAULT_udp] = &rec_udp, [FAULT_icmp] = &rec_icmp, [FAULT_ip6] = &rec_ip6, [FAULT_tcp] = &rec_tcp,
    [FAULT_tcpconn] = &rec_tcpconn, [FAULT_nfs] = &rec_nfs, [FAULT_timebase] = &rec_timebase,
    [FAULT_proc_task] = &rec_proc_task, [FAULT_proc_rusage] = &rec_proc_rusage,
};

int
fault_applies(unsigned int target, int answer)
{
    int registry = target >= FAULT_QUERY && target < FAULT_NTARGETS;

    switch (answer) {
    case FAULT_LARGEST:
        return (target < FAULT_NTARGETS && described[target] != NULL) ||
               (target >= FAULT_SYSCTLS && target < FAULT_QUERY);
    case FAULT_RENAMED:
        return target == FAULT_cpus || target == FAULT_interfaces || target == FAULT_mounts || registry;
    case FAULT_WRONG_KINDS: case FAULT_CYCLES:
        return registry;
    default:
        return answer <= FAULT_ZERO;
    }
}

const char *
fault_kind_name(int sts)
{
    static const char *const names[] = {
        [FAULT_ZERO] = "all zero", [FAULT_LARGEST] = "largest values",
        [FAULT_RENAMED] = "renamed at every call", [FAULT_WRONG_KINDS] = "properties of the wrong kinds",
        [FAULT_CYCLES] = "parents in a cycle",
    };

    return sts < 0 ? strerror(-sts) : (size_t)sts < sizeof(names) / sizeof(names[0]) ? names[sts] : "?";
}

/* The fault's own copy of n elements of size at src, in *slot until the
 * target's next call; NULL when there is no memory. */
static void *
own(void **slot, const void *src, size_t n, size_t size)
{
    void *copy = realloc(*slot, n * size + 1);

    if (copy == NULL)
        return NULL;
    *slot = copy;
    if (n > 0 && src != NULL)
        memcpy(copy, src, n * size);
    return copy;
}

/* s, len bytes, with "~generation" after it, as far as it fits. */
static void
rename_text(char *s, size_t len, unsigned int generation)
{
    size_t n = strlen(s);

    snprintf(s + n, len - n, "~%u", generation);
}

/* A set's instances under new names (the next call, newer ones again). */
#define RENAME_SET(type, element, count, array, name)                                 \
    do {                                                                              \
        type *set = out;                                                              \
        element *copy = own(&f->copy[target], set->array, set->count, sizeof(*copy)); \
        if (copy == NULL) {                                                           \
            set->count = 0;                                                           \
            return;                                                                   \
        }                                                                             \
        for (unsigned int i = 0; i < set->count; i++)                                 \
            rename_text(copy[i].name, sizeof(copy[i].name), generation);              \
        set->array = copy;                                                            \
    } while (0)

static void
rename_set(struct fault_platform *f, unsigned int target, void *out)
{
    unsigned int generation = ++f->renames;

    switch (target) {
    case FAULT_cpus: RENAME_SET(struct plat_cpu_set, struct plat_cpu, ncpu, cpu, name); break;
    case FAULT_interfaces: RENAME_SET(struct plat_netif_set, struct plat_netif, n, netif, name); break;
    case FAULT_mounts: RENAME_SET(struct plat_mount_set, struct plat_mount, n, mount, on); break;
    default: break;
    }
}

/* Every described number of a record at its largest: all ones unsigned,
 * the greatest signed, the farthest time. */
static void
largest(const struct rec_desc *d, unsigned char *out)
{
    for (unsigned int j = 0; j < d->nfields; j++) {
        const struct rec_field *f = &d->fields[j];

        for (unsigned int i = 0; i < rec_elements(f); i++) {
            unsigned char *at = out + f->offset + i * rec_element_size(f);
            int64_t sec = INT64_MAX;
            int32_t usec = 999999, big = INT32_MAX;

            switch (f->kind) {
            case SNAP_COUNTER32: case SNAP_GAUGE32: case SNAP_COUNTER64: case SNAP_GAUGE64:
                memset(at, 0xff, rec_element_size(f));
                break;
            case SNAP_INT:
                memcpy(at, &big, sizeof(big));
                break;
            case SNAP_TIME:
                memcpy(at, &sec, sizeof(sec));
                memcpy(at + sizeof(sec), &usec, sizeof(usec));
                break;
            case SNAP_TEXT: case SNAP_REGISTRY:
                break;
            }
        }
    }
}

/* A fault's wrong answer: every field zero, the largest values, or its
 * instances renamed. */
static void
fill(struct fault_platform *f, unsigned int target, void *out, size_t size)
{
    if (f->sts == FAULT_LARGEST && described[target] != NULL)
        largest(described[target], out);
    else if (f->sts == FAULT_RENAMED)
        rename_set(f, target, out);
    else
        memset(out, 0, size);
}

/* The source's answer to a call, timed. */
#define ASK(x, call, args) (F(x)->source_ns -= now_ns(), sts = IN(x)->call args, F(x)->source_ns += now_ns(), sts)

/* w_call(params): the call, unless it is the target: then its fault's
 * errno, or its wrong answer (fill). */
#define WRAP_ANY(call, params, args, answer)                                               \
    static int w_##call params                                                             \
    {                                                                                      \
        int sts = fault(F(x), FAULT_##call);                                               \
        if (sts < 0 || ASK(x, call, args) < 0)                                             \
            return sts;                                                                    \
        if (FAULT_##call == FAULT_proc_threads)                                            \
            F(x)->threads_listed += ((struct plat_thread_set *)(void *)out)->n;            \
        if (F(x)->injected)                                                                \
            answer;                                                                        \
        return sts;                                                                        \
    }
#define WRAP(call, type)                                                                   \
    WRAP_ANY(call, (void *x, type *out), (IN(x)->ctx, out), fill(F(x), FAULT_##call, out, sizeof(*out)))
#define WRAP_PROCESS(call, type)                                                           \
    WRAP_ANY(call, (void *x, int32_t pid, type *out), (IN(x)->ctx, pid, out),                \
             fill(F(x), FAULT_##call, out, sizeof(*out)))
#define WRAP_PROCESS_TEXT(call)                                                            \
    WRAP_ANY(call, (void *x, int32_t pid, char *out, size_t len), (IN(x)->ctx, pid, out, len), out[0] = '\0')
#define WRAP_NAME(call)                                                                    \
    WRAP_ANY(call, (void *x, uint32_t id, char *out, size_t len), (IN(x)->ctx, id, out, len), out[0] = '\0')
PLATFORM_CALLS(WRAP)
PLATFORM_PROCESS_CALLS(WRAP_PROCESS)
PLATFORM_PROCESS_TEXT_CALLS(WRAP_PROCESS_TEXT)
PLATFORM_NAME_CALLS(WRAP_NAME)

static int
w_sysctls(void *x, enum plat_sysctl_group group, struct plat_sysctl_set *out)
{
    int sts = fault(F(x), FAULT_SYSCTLS + group);

    if (sts < 0 || ASK(x, sysctls, (IN(x)->ctx, group, out)) < 0)
        return sts;
    if (F(x)->injected && F(x)->sts == FAULT_LARGEST)
        memset(out->value, 0xff, sizeof(out->value));
    else if (F(x)->injected)
        memset(out, 0, sizeof(*out));
    return sts;
}

/* The agent asks with the entries of plat_queries; anything else is
 * the recorder's, and counts as the query whose match it has. */
static unsigned int
query_index(const struct plat_query *q)
{
    for (unsigned int i = 0; i < PLAT_QUERY_N; i++)
        if (q == &plat_queries[i] || strcmp(q->match, plat_queries[i].match) == 0)
            return i;
    return 0;
}

/* A property of another kind than it has, with a value that kind can
 * carry: text for a number, the largest number for text, NaN for a bool,
 * 2 for data, one byte for a float. */
static void
rotate_kind(struct plat_prop *p)
{
    static const unsigned char byte = 0x5a;

    switch (p->kind) {
    case PLAT_PROP_NUMBER: p->kind = PLAT_PROP_STRING; p->text = "12 is not a number"; break;
    case PLAT_PROP_STRING: p->kind = PLAT_PROP_NUMBER; p->number = UINT64_MAX; break;
    case PLAT_PROP_BOOL: p->kind = PLAT_PROP_FLOAT; p->real = NAN; break;
    case PLAT_PROP_DATA: p->kind = PLAT_PROP_BOOL; p->number = 2; break;
    case PLAT_PROP_FLOAT: p->kind = PLAT_PROP_DATA; p->data = &byte; p->len = 1; break;
    }
}

/* The registry's answer with its entries renamed, their properties of the
 * wrong kinds, or their parents in a cycle through every entry. */
static void
wrong_entries(struct fault_platform *f, unsigned int target, struct plat_entry_set *out)
{
    struct plat_entry *e = own(&f->copy[target], out->entry, out->n, sizeof(*e));
    struct plat_prop *props;
    unsigned int generation = f->sts == FAULT_RENAMED ? ++f->renames : 0, nprops = 0;

    if (e == NULL) {
        out->n = 0;
        return;
    }
    for (unsigned int i = 0; i < out->n; i++)
        nprops += e[i].nprops;
    if ((props = own(&f->props[target], NULL, nprops, sizeof(*props))) == NULL) {
        out->n = 0;
        return;
    }
    for (unsigned int i = 0; i < out->n; i++) {
        if (f->sts == FAULT_RENAMED) {
            e[i].id += (uint64_t)generation << 40;
            e[i].parent += e[i].parent != 0 ? (uint64_t)generation << 40 : 0;
            rename_text(e[i].name, sizeof(e[i].name), generation);
        } else if (f->sts == FAULT_CYCLES) {
            e[i].parent = e[(i + 1) % out->n].id;
        } else if (f->sts == FAULT_WRONG_KINDS && e[i].nprops > 0) {
            memcpy(props, e[i].prop, e[i].nprops * sizeof(*props));
            for (unsigned int k = 0; k < e[i].nprops; k++)
                rotate_kind(&props[k]);
            e[i].prop = props;
            props += e[i].nprops;
        }
    }
    out->entry = e;
}

static int
w_query(void *x, const struct plat_query *q, struct plat_entry_set *out)
{
    unsigned int target = FAULT_QUERY + query_index(q);
    int sts = fault(F(x), target);

    if (sts < 0 || ASK(x, query, (IN(x)->ctx, q, out)) < 0)
        return sts;
    if (F(x)->injected && F(x)->sts > FAULT_LARGEST)
        wrong_entries(F(x), target, out);
    else if (F(x)->injected)
        memset(out, 0, sizeof(*out));
    return sts;
}

static const char *
w_error(void *x)
{
    return F(x)->injected && F(x)->sts < 0 ? "injected fault" : IN(x)->error(IN(x)->ctx);
}

static void
w_close(void *x)
{
    for (unsigned int t = 0; t < FAULT_NTARGETS; t++) {
        free(F(x)->copy[t]);
        free(F(x)->props[t]);
    }
    IN(x)->close(IN(x)->ctx);
}

void
fault_platform_wrap(struct fault_platform *f, const struct platform *inner)
{
    memset(f, 0, sizeof(*f));
    f->inner = *inner;
    f->target = -1;
#define SET(call, ...) f->p.call = w_##call;
    PLATFORM_CALLS(SET)
    PLATFORM_PROCESS_CALLS(SET)
    PLATFORM_PROCESS_TEXT_CALLS(SET)
    PLATFORM_NAME_CALLS(SET)
#undef SET
    f->p.name = inner->name;
    f->p.ctx = f;
    f->p.sysctls = w_sysctls;
    f->p.query = w_query;
    f->p.error = w_error;
    f->p.close = w_close;
}

void
fault_platform_zero(struct fault_platform *f)
{
    memset(f->calls, 0, sizeof(f->calls));
    f->threads_listed = 0;
    f->source_ns = 0;
}

unsigned long
fault_platform_process_calls(const struct fault_platform *f)
{
#define COUNT(call, ...) +f->calls[FAULT_##call]
    return f->calls[FAULT_procs] + f->calls[FAULT_sock_owners] PLATFORM_PROCESS_CALLS(COUNT)
        PLATFORM_PROCESS_TEXT_CALLS(COUNT) PLATFORM_NAME_CALLS(COUNT);
#undef COUNT
}

const char *
fault_target_name(unsigned int target, char *buf, size_t len)
{
#define NAME(call, ...) #call,
    static const char *const calls[] = {
        PLATFORM_CALLS(NAME) PLATFORM_PROCESS_CALLS(NAME) PLATFORM_PROCESS_TEXT_CALLS(NAME) PLATFORM_NAME_CALLS(NAME)
    };
#undef NAME
    unsigned int n;

    if (target < FAULT_SYSCTLS)
        snprintf(buf, len, "%s", calls[target]);
    else if (target < FAULT_QUERY)
        snprintf(buf, len, "sysctls(%s)", plat_sysctl_defs(target - FAULT_SYSCTLS, &n)[0].name);
    else
        snprintf(buf, len, "query(%s)", plat_queries[target - FAULT_QUERY].match);
    return buf;
}
