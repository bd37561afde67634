/*
 * What the live-layer tests share: the live platform opened on the double,
 * Darwin's error numbers, and the check that a source holds nothing more
 * after many rounds than after the first.
 */
#ifndef PMDA_DARWIN_LIVE_HARNESS_H
#define PMDA_DARWIN_LIVE_HARNESS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "dbl.h"
#include "platform.h"

/* SMC results (acidanthera/OpenCorePkg AppleSmc.h): a collision and a
 * timeout pass; 0x85 is a key that cannot be read. */
#define SMC_COLLISION 0x80
#define SMC_TIMEOUT 0xb7
#define SMC_NOT_READABLE 0x85

/* Darwin's errno numbers where they are not Linux's (xnu-11417.101.15
 * bsd/sys/errno.h): the live code returns these, negated. 1 to 34 are
 * the same on both. */
#define D_EAGAIN 35
#define D_EMSGSIZE 40
#define D_ENOTSUP 45
#define D_ENOSYS 78
#define D_ENODATA 96
#define D_ETIMEDOUT 60

/* kern_return_t values (mach/kern_return.h, iokit/IOKit/IOReturn.h). */
#define D_KERN_FAILURE 5
#define D_KERN_INVALID_ARGUMENT 4
#define D_IO_NOT_PRIVILEGED ((int)0xe00002c1)
#define D_IO_NO_DEVICE ((int)0xe00002c0)
#define D_IO_NOT_PERMITTED ((int)0xe00002e2)
#define D_IO_UNSUPPORTED ((int)0xe00002c7)
#define D_IO_TIMEOUT ((int)0xe00002d6)

/* A fresh double and the live platform opened on it. */
void live_setup(struct platform *p);
void live_teardown(struct platform *p);

/* A fresh double, fn failing with err from its first call, and the live
 * platform opened on it (for what the source takes at open). */
void live_setup_failing(struct platform *p, const char *fn, int err);

/* cmocka's setup and teardown around a struct platform in *state. */
int live_test_setup(void **state);
int live_test_teardown(void **state);

/* Run fn(p) rounds times after one first round; fail when the double holds
 * more CF objects, IOKit references, ports, regions, descriptors or tokens
 * after them than after the first. */
void assert_steady(struct platform *p, void (*fn)(struct platform *p), unsigned int rounds);

/* How long a test reads to see the rate of a source's calls. */
#define WATCHED (10 * PLAT_RETRY_CAP_NS)

/* Calls read(p) once a second of the virtual clock for duration ns, each
 * answering expect; fails unless the calls of fn come in tries (reads
 * that call it) after waits that grow from PLAT_RETRY_FIRST_NS until
 * PLAT_RETRY_CAP_NS and then stay there, none between. Returns the tries. */
unsigned int assert_backs_off(struct platform *p, int (*read)(struct platform *p), int expect, const char *fn,
                              uint64_t duration);

/* Whether the platform's error text for the last call contains text. */
void assert_error_has(struct platform *p, const char *text);

#endif
