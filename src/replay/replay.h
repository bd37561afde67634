/*
 * The replay: a platform source that answers every call from a snapshot
 * file (docs/snapshot-format.md) at the position the elapsed time selects.
 * The platform interface knows nothing of it; the agent chooses it when
 * PMDA_DARWIN_SNAPSHOT names a file (src/core/source_open.c), tests and tools
 * open it directly.
 */
#ifndef PMDA_DARWIN_REPLAY_H
#define PMDA_DARWIN_REPLAY_H

#include <stdint.h>

#include "platform.h"

/* The replay of the file at path: 0, or a negative errno with msg saying why. */
int platform_snapshot_open(struct platform *out, const char *path, char *msg, unsigned int msglen);

/* The same for a reader that makes no per-process call (the system agent):
 * the snapshot's processes, threads, sockets by process and user, group and
 * tty names are skipped as the file is read, not kept; those calls answer
 * as if the snapshot had none. */
int platform_snapshot_open_without_processes(struct platform *out, const char *path, char *msg,
                                             unsigned int msglen);

/* Problems the file had that failed nothing by themselves (unknown keys,
 * stray lines), one a line; "" if none. p is an open replay. */
const char *platform_snapshot_notes(const struct platform *p);

/*
 * Replace the replay's clock (microseconds, any origin) so that a test
 * chooses the replay position. Replay time starts at the clock's first
 * reading after this call.
 */
void platform_snapshot_set_clock(struct platform *p, uint64_t (*now_usec)(void));

#endif
