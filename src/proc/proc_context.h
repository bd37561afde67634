/*
 * The access policy applied per client (proc_policy.h): the agent's policy,
 * the client of each context as pmcd describes it, and the PCP callbacks
 * that keep them (the daemon registers them).
 */
#ifndef PMDA_DARWIN_PROC_CONTEXT_H
#define PMDA_DARWIN_PROC_CONTEXT_H

#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include "proc_policy.h"

/* The agent's policy. */
struct proc_policy *proc_access_policy(void);
/* The client of the request being served (pmdaGetContext), never NULL. */
struct proc_client *proc_access_client(void);
/* PM_ERR_PERMISSION or 0 for the current request. */
int proc_access_check(uint32_t owner_uid, enum proc_access_class cls);
/* Whether the current request includes threads as instances. */
int proc_access_threads(void);
void proc_access_reset(void);

int proc_context_attribute(int ctx, int attr, const char *value, int length, pmdaExt *pmda);
void proc_context_end(int ctx);

#endif
