#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "real_macs_file.h"
#include "real_macs_import.h"
#include "replay.h"

void
real_macs_import(FILE *out, const struct plat_query *q, const char *relative, const char *subclass)
{
    const char *dump = real_macs_file(relative);
    char command[8192], line[4096];
    size_t at = (size_t)snprintf(command, sizeof(command), "python3 '%s/tools/ioreg-import' '%s' --depth %u "
                                 "--ancestors %u", SOURCE_DIR, q->match, q->depth, q->ancestors);
    FILE *in;

    if (subclass != NULL)
        at += (size_t)snprintf(command + at, sizeof(command) - at, " --subclass '%s'", subclass);

    for (const char *const *k = q->keys; k != NULL && *k != NULL; k++)
        at += (size_t)snprintf(command + at, sizeof(command) - at, " --key '%s'", *k);
    snprintf(command + at, sizeof(command) - at, " '%s' 2>/dev/null", dump);
    assert_non_null(in = popen(command, "r"));
    while (fgets(line, sizeof(line), in) != NULL)
        fputs(line, out);
    pclose(in);
}

void
replay_open(struct platform *replay, void (*records)(FILE *out, const void *arg), const void *arg)
{
    char path[] = "/tmp/pmda-darwin-replay-XXXXXX", msg[512];
    FILE *out;

    assert_non_null(out = fdopen(mkstemp(path), "w"));
    fputs("pmda-darwin-snapshot 1\n", out);
    records(out, arg);
    fputs("sample 1\n", out);                   /* the records above hold for it */
    fclose(out);
    if (platform_snapshot_open(replay, path, msg, sizeof(msg)) != 0)
        fail_msg("%s", msg);
    unlink(path);
}

struct import_args {
    const struct plat_query *q;
    const char *relative, *subclass;
};

static void
imported(FILE *out, const void *arg)
{
    const struct import_args *a = arg;

    real_macs_import(out, a->q, a->relative, a->subclass);
}

struct plat_entry_set
real_macs_replayed(const struct plat_query *q, const char *relative, const char *subclass, struct platform *replay)
{
    const struct import_args args = { q, relative, subclass };
    struct plat_entry_set set;

    replay_open(replay, imported, &args);
    assert_int_equal(replay->query(replay->ctx, q, &set), 0);
    return set;
}
