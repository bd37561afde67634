#include "uses_pcp.h"

/* A call into libpcp, so that the file loads it. */
const char *
progname(void)
{
    return pmGetProgname();
}
