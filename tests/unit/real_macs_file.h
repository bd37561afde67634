/*
 * A file of the corpus of data recorded on real Macs, beside the project
 * (../shared/real-macs from the project's root, or the folder
 * $PMDA_DARWIN_REAL_MACS names; its README says where each file came from),
 * for the unit tests and the live layer's harness alike.
 */
#ifndef PMDA_DARWIN_REAL_MACS_FILE_H
#define PMDA_DARWIN_REAL_MACS_FILE_H

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

#endif
