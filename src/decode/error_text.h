/*
 * Failure text shared by the platform sources: one call can meet several
 * failures, and the log should get all of them.
 */
#ifndef PMDA_DARWIN_ERROR_TEXT_H
#define PMDA_DARWIN_ERROR_TEXT_H

#include <stdarg.h>
#include <stddef.h>

/* Append a formatted failure to buf, "; "-separated from what is already
 * there; text that does not fit is cut, buf stays NUL-terminated. */
void error_text_append(char *buf, size_t size, const char *fmt, va_list ap);

#endif
