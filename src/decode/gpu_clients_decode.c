#include "gpu_clients_decode.h"
#include "entry_props.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CREATOR_PREFIX "pid "
#define CREATOR_AFTER_PID ", "

/* The pid of a creator "pid N, NAME" (IOCopyLogNameForPID's form): 1 and
 * *pid, or 0 for any other text. */
static int
creator_pid(const char *text, int32_t *pid)
{
    const char *p = text + strlen(CREATOR_PREFIX);
    int64_t v = 0;

    if (strncmp(text, CREATOR_PREFIX, strlen(CREATOR_PREFIX)) != 0 || *p < '0' || *p > '9')
        return 0;
    for (; *p >= '0' && *p <= '9'; p++) {
        v = v * 10 + (*p - '0');
        if (v > INT32_MAX)
            return 0;
    }
    if (strncmp(p, CREATOR_AFTER_PID, strlen(CREATOR_AFTER_PID)) != 0)
        return 0;
    *pid = (int32_t)v;
    return 1;
}

/* Whether path is an AppUsage element's time: "AppUsage.K.accumulatedGPUTime". */
static int
is_usage_time(const char *path)
{
    size_t n = strlen(GPU_CLIENT_USAGE_KEY);
    const char *p = path + n + 1;

    if (strncmp(path, GPU_CLIENT_USAGE_KEY, n) != 0 || path[n] != '.' || *p < '0' || *p > '9')
        return 0;
    while (*p >= '0' && *p <= '9')
        p++;
    return *p == '.' && strcmp(p + 1, GPU_CLIENT_TIME_KEY) == 0;
}

/* a + b, never past UINT64_MAX. */
static uint64_t
add_ns(uint64_t a, uint64_t b)
{
    return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}

/* A client's GPU time: its API entries' times summed. */
static uint64_t
client_ns(const struct plat_entry *e)
{
    uint64_t sum = 0, v;

    for (unsigned int k = 0; k < e->nprops; k++)
        if (is_usage_time(e->prop[k].path) && entry_number(&e->prop[k], &v))
            sum = add_ns(sum, v);
    return sum;
}

static int
by_pid(const void *a, const void *b)
{
    int32_t x = ((const struct gpu_time *)a)->pid, y = ((const struct gpu_time *)b)->pid;

    return (x > y) - (x < y);
}

static const struct gpu_time *
find(const struct gpu_times *t, int32_t pid)
{
    struct gpu_time key = { .pid = pid };

    return t->n == 0 ? NULL : bsearch(&key, t->pid, t->n, sizeof(key), by_pid);
}

void
gpu_clients_decode(const struct plat_entry_set *set, struct gpu_times *out)
{
    unsigned int n = 0;

    out->unattributed = 0;
    out->unattributed_ns = 0;
    for (unsigned int i = 0; i < set->n; i++) {
        const struct plat_prop *creator = entry_prop_key(&set->entry[i], GPU_CLIENT_CREATOR_KEY);
        uint64_t ns = client_ns(&set->entry[i]);
        int32_t pid;

        if (entry_by_id(set, set->entry[i].parent) == NULL)
            continue;                   /* an accelerator */
        if (creator == NULL || creator->kind != PLAT_PROP_STRING || !creator_pid(creator->text, &pid)) {
            out->unattributed++;
            out->unattributed_ns = add_ns(out->unattributed_ns, ns);
            continue;
        }
        out->pid[n].pid = pid;
        out->pid[n].ns = ns;
        n++;
    }
    qsort(out->pid, n, sizeof(out->pid[0]), by_pid);
    out->n = 0;
    for (unsigned int i = 0; i < n; i++) {         /* one row per pid, its clients' times summed */
        struct gpu_time *last = out->n > 0 ? &out->pid[out->n - 1] : NULL;

        if (last != NULL && last->pid == out->pid[i].pid)
            last->ns = add_ns(last->ns, out->pid[i].ns);
        else
            out->pid[out->n++] = out->pid[i];
    }
}

uint64_t
gpu_time_of(const struct gpu_times *t, int32_t pid)
{
    const struct gpu_time *g = find(t, pid);

    return g == NULL ? 0 : g->ns;
}
