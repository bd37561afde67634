/*
 * Which source the agent reads (source_open.h).
 */
#include "source_open.h"
#include "replay.h"

#include <stdlib.h>

int
source_open(struct platform *out, char *msg, unsigned int msglen, const char **notes, int processes)
{
    const char *path = getenv("PMDA_DARWIN_SNAPSHOT");
    int sts;

    *notes = "";
    if (path == NULL || path[0] == '\0')
        return platform_live_open(out, msg, msglen);
    if ((sts = (processes ? platform_snapshot_open : platform_snapshot_open_without_processes)(out, path, msg,
                                                                                              msglen)) == 0)
        *notes = platform_snapshot_notes(out);
    return sts;
}
