/*
 * A file of the corpus of data recorded on real Macs, beside the project
 * (../shared/real-macs from the project's root, or the folder
 * $PMDA_DARWIN_REAL_MACS names; its README says where each file came from),
 * for the unit tests and the live layer's harness alike.
 */
#ifndef PMDA_DARWIN_REAL_MACS_FILE_H
#define PMDA_DARWIN_REAL_MACS_FILE_H

#include <stddef.h>

/* The path of a file or folder of the corpus (relative to its root);
 * without it the test is skipped, saying so (failed where
 * PMDA_DARWIN_SHARED_REQUIRED is set). Either leaves the test at once:
 * ask for the path before opening anything the test must close. */
const char *real_macs_file(const char *relative);

/* The same for a file found after the corpus was last given out: named in
 * an issue's closing note for the corpus's keepers to add, so that until it
 * is there the test is skipped, saying so, even where the corpus is
 * required. */
const char *real_macs_file_awaited(const char *relative);

/* The first line of a corpus file that contains needle, a data line or
 * (header set) one of the '#' lines that say what the data is, into line
 * (len bytes, its end of line cut); fails the test when there is none. */
void real_macs_line(const char *relative, int header, const char *needle, char *line, size_t len);

#endif
