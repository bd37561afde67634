/*
 * For the macOS build from Linux (cmake/zig-macos.cmake): the notify(3)
 * calls src/macos/ uses, declared as Apple's <notify.h> (libnotify, part of
 * libSystem) and its man page declare them; Zig's macOS headers do not
 * carry this one.
 */
#ifndef PMDA_DARWIN_CROSS_NOTIFY_H
#define PMDA_DARWIN_CROSS_NOTIFY_H

#include <stdint.h>

#define NOTIFY_STATUS_OK 0

uint32_t notify_register_check(const char *name, int *out_token);
uint32_t notify_get_state(int token, uint64_t *state64);
uint32_t notify_cancel(int token);

#endif
