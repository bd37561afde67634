/*
 * What writes snapshots and their documentation, for darwin-snapshot, the
 * fixtures' writer and the tests; never linked into an agent.
 */
#ifndef PMDA_DARWIN_WRITER_H
#define PMDA_DARWIN_WRITER_H

#include <stdio.h>

#include "platform.h"
#include "snapshot_records.h"

/* Write a record's fields; a field whose group status is a failure is
 * written as a comment saying so, so that replay fails the same metrics. */
void rec_write(FILE *fp, const struct rec_desc *d, const char *instance, const void *in);

/* A registry property's value as the snapshot holds it ("number 5"). */
void reg_write_value(FILE *fp, const struct plat_prop *p);

/* The docs' key table (markdown rows), generated from the descriptions. */
void rec_doc_table(FILE *fp);

#endif
