/*
 * Which source the agent reads: the replay of the snapshot file named by
 * PMDA_DARWIN_SNAPSHOT when it is set, else the live macOS source.
 */
#ifndef PMDA_DARWIN_SOURCE_OPEN_H
#define PMDA_DARWIN_SOURCE_OPEN_H

#include "platform.h"

/* Returns 0 and fills *out, with *notes the source's problems that failed
 * nothing ("" if none), or a negative errno; msg says which source was
 * opened or why none could be (always NUL-terminated). A replay keeps the
 * snapshot's processes only for a reader that asks for them (processes). */
int source_open(struct platform *out, char *msg, unsigned int msglen, const char **notes, int processes);

#endif
