/*
 * Shared between the double's files (compiled with Apple's declarations);
 * the tests use dbl.h.
 */
#ifndef PMDA_DARWIN_DOUBLE_H
#define PMDA_DARWIN_DOUBLE_H

#include "dbl.h"

/* Stop the test program: the live code broke a rule of Apple's API. */
void dbl_violation(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* Each file's part of dbl_reset and dbl_held. */
void dbl_cf_reset(void);
long dbl_cf_alive(void);
void dbl_io_reset(void);
long dbl_io_held(void);
void dbl_mach_reset(void);
void dbl_mach_held(struct dbl_held *h);
void dbl_host_stats_reset(void);
void dbl_sysctl_reset(void);
/* KERN_PROCARGS2's answer for a process (sysctl.c says how it is cut). */
void dbl_sysctl_procargs(const char *name, const int *mib, unsigned int miblen, const void *bytes, size_t len);
void dbl_procs_reset(void);
void dbl_libc_reset(void);
long dbl_libc_fds(void);
void dbl_notify_reset(void);
long dbl_notify_tokens(void);
void dbl_private_reset(void);

/* CF objects the double makes (cf.c): a reference, a deep copy (what an
 * unserialized property is), an object of no type the live code reads. */
void *dbl_cf_retain(void *o);
void *dbl_cf_copy(const void *o);
void *dbl_cf_opaque(void);
/* The value of a dictionary the double made at a string key, or NULL:
 * the double reading its own objects, without making a key to ask. */
void *dbl_cf_get(const void *dict, const char *key);

/* The port names of one kind held (mach.c; the kind is dbl_mach.h's). */
long dbl_ports_of(int kind);

/* A user client of a service class (IOServiceOpen, IOConnectCallStructMethod:
 * the SMC's, smc.c). Mach and IOKit return codes. */
int dbl_service_open(const char *class_name, uint32_t type);
int dbl_service_call(const char *class_name, uint32_t selector, const void *in, size_t in_size, void *out,
                     size_t *out_size);

/* The id and properties (the double's own) of the registry entry an
 * object names, or NULL (iokit.c, for the NVMe SMART plug-ins). */
const void *dbl_io_entry(unsigned int object, uint64_t *id, const char *caller);

/* Threads (harness/threads.c, built with glibc): start fn(arg) in a new
 * thread (NULL: none could be made), wait for it to return. Reads that
 * wait while dbl_nvme_hold_reads holds them wait here. */
void *dbl_thread_start(void *(*fn)(void *), void *arg);
void dbl_thread_join(void *thread);
void dbl_gate_wait(void);
void dbl_gate_set(int open);
void dbl_gate_reached(void);        /* returns once a thread waits at the gate */
void dbl_nvme_reset(void);

/* A vm_statistics64 as the kernel fills it at virtual time ns
 * (kernel_structs.c), from each field's value then (mach.c). */
void dbl_vm_fill(void *vs, uint64_t ns);
uint64_t dbl_vm_value_at(size_t offset, uint64_t ns);

/* Set errno as the live code reads it (Darwin's __error()). */
void dbl_set_errno(int err);

#endif
