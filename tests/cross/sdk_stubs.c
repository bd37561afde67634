/*
 * Link-time stand-ins, for this cross-check only, for the live source's
 * functions whose files need the macOS SDK (needs-macos-sdk.txt), so that
 * darwin-snapshot still links as Mach-O with everything else checked. On a
 * Mac the real files are built and this one never is.
 */
#include "live_source.h"

#include <errno.h>

int
live_cpu_clusters(struct live_source *src, const struct plat_cpu_cluster **out, unsigned int *n)
{
    *out = NULL;
    *n = 0;
    return live_fail(src, -ENOTSUP, "built without the macOS SDK");
}
