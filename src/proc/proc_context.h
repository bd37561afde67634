/* The PCP callbacks behind proc_access.h (the daemon registers them). */
#ifndef PMDA_DARWIN_PROC_CONTEXT_H
#define PMDA_DARWIN_PROC_CONTEXT_H

#include <pcp/pmapi.h>
#include <pcp/pmda.h>

int proc_context_attribute(int ctx, int attr, const char *value, int length, pmdaExt *pmda);
void proc_context_end(int ctx);

#endif
