#include "day_requests.h"

#include <stdlib.h>
#include <string.h>

/* What each client asks for. A name that is not a leaf stands for every
 * metric below it, as in pmlogger's configuration. */
struct client_def {
    const char *name;
    unsigned int period;
    const char *const *names;
};

/* pmlogger's default configuration: the pmlogconf groups PCP 6.0.3
 * includes on every host and logs at each interval ("force include"
 * without "delta once", /var/lib/pcp/config/pmlogconf/: cpu/summary,
 * disk/summary, networking/interface-summary, tools/pmstat, tools/uptime,
 * zeroconf/filesystem), at pmlogger's default 60 s. */
static const char *const pmlogger_names[] = {
    "kernel.all.cpu", "disk.all.read", "disk.all.write", "disk.all.total", "disk.all.read_bytes",
    "disk.all.write_bytes", "disk.all.total_bytes", "disk.all.avactive", "network.interface.in.bytes",
    "network.interface.in.packets", "network.interface.in.errors", "network.interface.out.bytes",
    "network.interface.out.packets", "network.interface.out.errors", "network.interface.collisions",
    "kernel.all.load", "swap.used", "mem.util.free", "mem.util.bufmem", "mem.util.cached", "swap.in",
    "swap.pagesin", "swap.out", "swap.pagesout", "disk.all.blkread", "disk.all.blkwrite", "kernel.all.intr",
    "kernel.all.pswitch", "kernel.all.nusers", "kernel.all.uptime", "filesys.free", "filesys.used",
    "filesys.avail", "filesys.freefiles", "filesys.usedfiles", "filesys.maxfiles", NULL,
};

/* pmie's rules from pmieconf (/var/lib/pcp/config/pmieconf/: cpu/util,
 * cpu/load_average, cpu/context_switch, memory/swap_low, filesys/filling),
 * at pmie's default 10 s. */
static const char *const pmie_names[] = {
    "kernel.all.cpu.user", "kernel.all.cpu.sys", "kernel.all.cpu.intr", "hinv.ncpu", "kernel.all.load",
    "kernel.all.pswitch", "swap.free", "swap.length", "filesys.capacity", "filesys.used", NULL,
};

/* pmchart's stock Overview view (/var/lib/pcp/config/pmchart/Overview),
 * updated every second, with the temperature, fan and power charts a Mac
 * user adds. */
static const char *const pmchart_names[] = {
    "kernel.all.cpu.user", "kernel.all.cpu.sys", "kernel.all.cpu.nice", "kernel.all.cpu.intr",
    "kernel.all.cpu.wait.total", "kernel.all.cpu.steal", "kernel.all.cpu.idle", "kernel.all.load", "hinv.ncpu",
    "disk.all.read", "disk.all.write", "network.interface.in.bytes", "network.interface.out.bytes",
    "mem.util.cached", "mem.util.bufmem", "mem.util.other", "mem.util.free", "thermal.cpu.die",
    "thermal.sensor.temperature", "thermal.fan.speed", "power.system.watts", "power.energy", NULL,
};

static const struct client_def defs[] = {
    { "pmlogger", 60, pmlogger_names },
    { "pmie", 10, pmie_names },
    { "pmchart", 1, pmchart_names },
};

#define NDEFS (sizeof(defs) / sizeof(defs[0]))

static int
name_under(const char *pattern, const char *name)
{
    size_t n = strlen(pattern);

    return strncmp(pattern, name, n) == 0 && (name[n] == '\0' || name[n] == '.');
}

/* Each row whose name a pattern of names matches, once. */
static unsigned int
resolve(const char *const *names, pmID *out, unsigned int max)
{
    unsigned int n = 0;

    for (unsigned int c = 0; c < darwin_agent.ncollectors; c++)
        for (unsigned int r = 0; r < darwin_agent.collectors[c]->nrows; r++) {
            const struct metric_row *row = &darwin_agent.collectors[c]->rows[r];

            for (const char *const *p = names; *p != NULL && n < max; p++)
                if (name_under(*p, row->name)) {
                    out[n++] = pmID_build(DAY_DOMAIN, row->cluster, row->item);
                    break;
                }
        }
    return n;
}

unsigned int
day_clients(struct day_client **out)
{
    struct day_client *clients = calloc(NDEFS, sizeof(*clients));
    unsigned int max = day_all_metrics(NULL, 0, 0);

    if (clients == NULL)
        return 0;
    for (unsigned int i = 0; i < NDEFS; i++) {
        clients[i].name = defs[i].name;
        clients[i].period = defs[i].period;
        if ((clients[i].pmids = calloc(max, sizeof(pmID))) != NULL)
            clients[i].n = resolve(defs[i].names, clients[i].pmids, max);
    }
    *out = clients;
    return NDEFS;
}

void
day_clients_free(struct day_client *clients, unsigned int n)
{
    for (unsigned int i = 0; i < n; i++)
        free(clients[i].pmids);
    free(clients);
}

const struct metric_row *
day_row(pmID pmid)
{
    for (unsigned int c = 0; c < darwin_agent.ncollectors; c++)
        for (unsigned int r = 0; r < darwin_agent.collectors[c]->nrows; r++) {
            const struct metric_row *row = &darwin_agent.collectors[c]->rows[r];

            if (pmid == pmID_build(DAY_DOMAIN, row->cluster, row->item))
                return row;
        }
    return NULL;
}

/* With max 0 it counts. */
unsigned int
day_all_metrics(pmID *pmids, unsigned int max, int counters_only)
{
    unsigned int n = 0;

    for (unsigned int c = 0; c < darwin_agent.ncollectors; c++)
        for (unsigned int r = 0; r < darwin_agent.collectors[c]->nrows; r++) {
            const struct metric_row *row = &darwin_agent.collectors[c]->rows[r];

            if (counters_only && row->sem != PM_SEM_COUNTER)
                continue;
            if (n < max)
                pmids[n] = pmID_build(DAY_DOMAIN, row->cluster, row->item);
            n++;
        }
    return max == 0 ? n : n < max ? n : max;
}
