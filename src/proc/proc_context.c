/*
 * Per-client state of the proc agent: credentials pmcd passes as
 * attributes, and each client's thread switch. Contexts come and go with
 * clients; the table grows to the highest context number seen.
 */
#include "proc_context.h"

#include <pcp/pmapi.h>
#include <pcp/pmda.h>
#include <stdlib.h>
#include <string.h>

static struct proc_policy policy = { .threads = 0 };
static struct proc_client *clients;
static int nclients;
static struct proc_client nobody = { 0, 0, 0, -1 };

struct proc_policy *
proc_access_policy(void)
{
    return &policy;
}

static struct proc_client *
client(int ctx)
{
    if (ctx < 0)
        return NULL;
    if (ctx >= nclients) {
        struct proc_client *grown = realloc(clients, (size_t)(ctx + 1) * sizeof(*clients));

        if (grown == NULL)
            return NULL;
        for (int i = nclients; i <= ctx; i++)
            grown[i] = nobody;
        clients = grown;
        nclients = ctx + 1;
    }
    return &clients[ctx];
}

struct proc_client *
proc_access_client(void)
{
    struct proc_client *c = client(pmdaGetContext());

    return c ? c : &nobody;
}

int
proc_access_check(uint32_t owner_uid, enum proc_access_class cls)
{
    return proc_policy_allows(&policy, proc_access_client(), owner_uid, cls);
}

int
proc_access_threads(void)
{
    const struct proc_client *c = proc_access_client();

    return c->threads >= 0 ? c->threads : policy.threads;
}

int
proc_context_attribute(int ctx, int attr, const char *value, int length, pmdaExt *pmda)
{
    struct proc_client *c = client(ctx);

    (void)length;
    if (c != NULL && value != NULL) {
        if (attr == PMDA_ATTR_USERID) {
            c->has_uid = 1;
            c->uid = (uint32_t)strtoul(value, NULL, 10);
        } else if (attr == PMDA_ATTR_USERNAME) {
            c->allowed = proc_policy_is_allowed(&policy, value);
        }
    }
    return pmdaAttribute(ctx, attr, value, length, pmda);
}

void
proc_context_end(int ctx)
{
    if (ctx >= 0 && ctx < nclients)
        clients[ctx] = nobody;
}

void
proc_access_reset(void)
{
    free(clients);
    clients = NULL;
    nclients = 0;
    memset(&policy, 0, sizeof(policy));
}
