/*
 * The DSO's entry point: pmcd loads pmda_darwin and calls darwin_init, which
 * sets the agent core up with the system metrics' description.
 */
#include "agent.h"

void __PMDA_INIT_CALL
darwin_init(pmdaInterface *dp)
{
    if (dp->status != 0)
        return;
    pmdaDSO(dp, PMDA_INTERFACE_7, "darwin DSO", NULL);
    if (dp->status != 0)
        return;
    if (agent_setup(dp, &darwin_agent, NULL) < 0 && dp->status == 0)
        dp->status = PM_ERR_GENERIC;
}
