/*
 * pmcd's log as the agent writes it: pmNotifyErr writes to stderr in a
 * DSO, so the stdio stream (not fd 2, where the sanitizers report) goes to
 * a file for the day.
 */
#ifndef PMDA_DARWIN_DAY_LOG_H
#define PMDA_DARWIN_DAY_LOG_H

#include <stdio.h>

int log_start(void);
void log_stop(void);

/* Where the log ends now (a mark for log_check). */
long log_mark(void);

/* The lines written since mark: printed (with what, the second and the
 * fault) and counted; with once, a line that repeats one since mark is a
 * problem (a condition logged again rather than once when it starts and
 * once when it ends); without, every line is one (nothing happened to log).
 * Returns how many problems; *lines (unless NULL) gets how many lines. */
unsigned int log_check(long mark, int once, unsigned int round, const char *fault, unsigned int *lines);

#endif
