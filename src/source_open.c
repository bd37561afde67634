/*
 * Which source the agent reads (source_open.h).
 */
#include "source_open.h"
#include "replay.h"

#include <stdlib.h>

int
source_open(struct platform *out, char *msg, unsigned int msglen, const char **notes)
{
    const char *path = getenv("PMDA_DARWIN_SNAPSHOT");
    int sts;

    *notes = "";
    if (path == NULL || path[0] == '\0')
        return platform_live_open(out, msg, msglen);
    if ((sts = platform_snapshot_open(out, path, msg, msglen)) == 0)
        *notes = platform_snapshot_notes(out);
    return sts;
}
