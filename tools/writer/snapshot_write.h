/*
 * Writes what a platform source reports in the snapshot format, so that a
 * recording replays through the snapshot source exactly as it was read.
 */
#ifndef PMDA_DARWIN_SNAPSHOT_WRITE_H
#define PMDA_DARWIN_SNAPSHOT_WRITE_H

#include <stdio.h>

#include "platform.h"

/* The version line and the facts that do not change between samples
 * (host, uname, boot time). note goes into a comment line near the top. */
int snapshot_write_header(FILE *fp, const struct platform *p, const char *note);

/* One "sample" line and every per-sample key. A source call that fails is
 * written as a comment naming the error and its keys are left out, so the
 * replay fails those metrics just as the live agent did. */
int snapshot_write_sample(FILE *fp, const struct platform *p);

#endif
