/*
 * Choose the data source: a snapshot file when PMDA_DARWIN_SNAPSHOT names
 * one, otherwise the live system.
 */
#include "platform.h"

#include <stdlib.h>

int
platform_open(struct platform *out, char *msg, unsigned int msglen)
{
    const char *path = getenv("PMDA_DARWIN_SNAPSHOT");

    if (path != NULL && path[0] != '\0')
        return platform_snapshot_open(out, path, msg, msglen);
    return platform_live_open(out, msg, msglen);
}
