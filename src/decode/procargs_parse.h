/*
 * The KERN_PROCARGS2 buffer, decoded. XNU lays it out (bsd/kern/kern_sysctl.c
 * sysctl_procargsx, xnu-11417.121.6) as: int argc; the executable path and
 * its NUL; NUL padding; argc NUL-terminated arguments; then the environment,
 * which this decoder never reads. Portable and fuzzed: any buffer, however
 * short or hostile, gives a bounded result or an error.
 */
#ifndef PMDA_DARWIN_PROCARGS_PARSE_H
#define PMDA_DARWIN_PROCARGS_PARSE_H

#include <stddef.h>

/*
 * The arguments joined by single spaces into out (always NUL-terminated,
 * truncated to len); control characters become '?'; a last argument the
 * buffer ends inside is left out. Returns the number of arguments copied, 0 when the process has none (a kernel process, or one
 * that rewrote its stack), or -EINVAL for a buffer too short to hold argc.
 */
int procargs_command_line(const unsigned char *buf, size_t buflen, char *out, size_t len);

#endif
