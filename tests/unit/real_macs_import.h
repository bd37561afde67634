/*
 * An IORegistry dump of the corpus (real_macs_file.h) as snapshot records,
 * for the unit tests that replay it.
 */
#ifndef PMDA_DARWIN_REAL_MACS_IMPORT_H
#define PMDA_DARWIN_REAL_MACS_IMPORT_H

#include <stdio.h>

#include "platform.h"

/* The records tools/ioreg-import makes of the corpus's dump relative as
 * the query q reads it (its match, depth, ancestors and keys; subclass: the
 * class in the dump that descends from q's, or NULL), appended to out (the test is
 * skipped, as real_macs_file says, without the corpus). The importer's
 * complaints about lines a dump's curator cut are left out: the test
 * checks the entries it reads. */
void real_macs_import(FILE *out, const struct plat_query *q, const char *relative, const char *subclass);

/* A replay (opened into *replay, for the caller to close) of a snapshot of
 * one sample whose records records(out, arg) writes. */
void replay_open(struct platform *replay, void (*records)(FILE *out, const void *arg), const void *arg);

/* The query q's answer from a replay (opened into *replay, for the caller
 * to close) of the corpus's dump relative imported as above: valid until
 * *replay is closed. */
struct plat_entry_set real_macs_replayed(const struct plat_query *q, const char *relative, const char *subclass,
                                         struct platform *replay);

#endif
