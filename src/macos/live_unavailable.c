/*
 * The live source on a machine that is not a Mac: there is nothing to read,
 * and the message says what to do instead.
 */
#include "platform.h"

#include <errno.h>
#include <stdio.h>

int
platform_live_open(struct platform *out, char *msg, unsigned int msglen)
{
    (void)out;
    snprintf(msg, msglen, "this machine is not a Mac, so there is no live macOS data; "
             "set PMDA_DARWIN_SNAPSHOT in pmcd's environment to a snapshot file "
             "(see the README) to replay one");
    return -ENOSYS;
}
