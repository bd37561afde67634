/*
 * darwin-snapshot: record what pmda-darwin reads, in the snapshot format, for
 * bug reports and new test fixtures. On a Mac it reads the live system; with
 * -r FILE (any OS) it re-records a snapshot, which the tests use.
 */
#include "platform.h"
#include "replay.h"
#include "snapshot_write.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void
usage(FILE *fp)
{
    fprintf(fp,
            "Usage: darwin-snapshot [-n SAMPLES] [-i SECONDS] [-o FILE] [-r SNAPSHOT]\n"
            "       darwin-snapshot -q | -s\n"
            "Record SAMPLES samples (default 3), SECONDS apart (default 1), of the data\n"
            "pmda-darwin serves, to FILE (default standard output).\n"
            "  -r SNAPSHOT  read from a snapshot file instead of the live system\n"
            "  -q           list the queries the agent makes of the IORegistry and of the\n"
            "               sources that answer in its shape, one per line, tab-separated:\n"
            "               MATCH, descendants' depth, ancestors' levels, then the keys\n"
            "               it reads (none: every key); what tools/ioreg-import takes\n"
            "  -s           list the sysctls the agent reads by name, one per line\n"
            "               (what tools/sysctl-import --names takes)\n");
}

static void
list_sysctls(void)
{
    for (int f = 0; f < PLAT_SYSCTL_NGROUPS; f++) {
        unsigned int n;
        const struct plat_sysctl_def *defs = plat_sysctl_defs((enum plat_sysctl_group)f, &n);

        for (unsigned int i = 0; i < n; i++)
            printf("%s\n", defs[i].name);
    }
}

static void
list_queries(void)
{
    for (int q = 0; q < PLAT_QUERY_N; q++) {
        const struct plat_query *query = &plat_queries[q];

        printf("%s\t%u\t%u", query->match, query->depth, query->ancestors);
        for (const char *const *key = query->keys; key != NULL && *key != NULL; key++)
            printf("\t%s", *key);
        printf("\n");
    }
}

static int
parse_count(const char *text, long min, long max, long *out)
{
    char *end;
    long v;

    errno = 0;
    v = strtol(text, &end, 10);
    if (errno != 0 || *end != '\0' || end == text || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

int
main(int argc, char **argv)
{
    long samples = 3, interval = 1;
    const char *out_path = NULL, *replay = NULL;
    struct platform p;
    char msg[512], note[256];
    FILE *fp = stdout;
    int c, sts;

    while ((c = getopt(argc, argv, "n:i:o:r:qsh")) != -1) {
        switch (c) {
        case 'n':
            if (parse_count(optarg, 1, 100000, &samples) < 0) {
                fprintf(stderr, "darwin-snapshot: -n needs a count from 1 to 100000\n");
                return 2;
            }
            break;
        case 'i':
            if (parse_count(optarg, 1, 3600, &interval) < 0) {
                fprintf(stderr, "darwin-snapshot: -i needs whole seconds from 1 to 3600\n");
                return 2;
            }
            break;
        case 'o': out_path = optarg; break;
        case 'r': replay = optarg; break;
        case 'q': list_queries(); return 0;
        case 's': list_sysctls(); return 0;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    sts = replay ? platform_snapshot_open(&p, replay, msg, sizeof(msg))
                 : platform_live_open(&p, msg, sizeof(msg));
    if (sts < 0) {
        fprintf(stderr, "darwin-snapshot: %s\n", msg);
        return 1;
    }
    if (out_path != NULL && (fp = fopen(out_path, "w")) == NULL) {
        fprintf(stderr, "darwin-snapshot: %s: %s\n", out_path, strerror(errno));
        p.close(p.ctx);
        return 1;
    }
    snprintf(note, sizeof(note), "Recorded by darwin-snapshot from the %s source (%s).",
             p.name, replay ? replay : "this machine");
    sts = snapshot_write_header(fp, &p, note);
    for (long i = 0; sts == 0 && i < samples; i++) {
        if (i > 0) {
            struct timespec pause = { (time_t)interval, 0 };

            while (nanosleep(&pause, &pause) == -1 && errno == EINTR)
                ;
        }
        sts = snapshot_write_sample(fp, &p);
    }
    if (fp != stdout && fclose(fp) != 0 && sts == 0)
        sts = -errno;
    p.close(p.ctx);
    if (sts < 0) {
        fprintf(stderr, "darwin-snapshot: recording failed: %s\n", strerror(-sts));
        return 1;
    }
    return 0;
}
