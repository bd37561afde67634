/*
 * The double's port names (mach.c), shared by the files whose objects are
 * ports: IOKit's entries, iterators and connections. Compiled with
 * Apple's declarations.
 */
#ifndef PMDA_DARWIN_DBL_MACH_H
#define PMDA_DARWIN_DBL_MACH_H

#include <mach/mach.h>

enum dbl_port_kind {
    DBL_PORT_FREE, DBL_PORT_HOST, DBL_PORT_PSET, DBL_PORT_IO_ENTRY, DBL_PORT_IO_ITERATOR, DBL_PORT_IO_CONNECT,
};

/* A new name with one reference. */
mach_port_t dbl_port_new(enum dbl_port_kind kind, void *payload);
/* The payload of a name of that kind, or NULL (a stale name is a violation). */
void *dbl_port_get(mach_port_t name, enum dbl_port_kind kind, const char *caller);
/* Called with a port's kind and payload when its last reference goes. */
extern void (*dbl_port_freed)(enum dbl_port_kind kind, void *payload);

/* For host_stats.c, from mach.c: virtual time ns in mach_absolute_time's
 * ticks; the host's CPU ticks as HOST_CPU_LOAD_INFO adds them up at that
 * time; the integers of vm_statistics64 the kernel fills. */
uint64_t dbl_mach_abs(uint64_t ns);
void dbl_mach_cpu_load_at(uint64_t ns, natural_t ticks[CPU_STATE_MAX]);
mach_msg_type_number_t dbl_mach_vm_filled(void);

#endif
