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

#endif
