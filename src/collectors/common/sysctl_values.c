#include "sysctl_values.h"

#include <errno.h>
#include <stdio.h>

int
sysctl_values_refresh(const struct refresh_call *call, enum plat_sysctl_group group, struct sysctl_state *s)
{
    const struct platform *p = call->p;
    struct plat_sysctl_set *set = &s->values;
    unsigned int failed = 0, given, n;
    char missing[64];
    int sts;

    plat_sysctl_defs(group, &n);
    set->n = 0;
    if ((sts = p->sysctls(p->ctx, group, set)) < 0)
        return collector_error(sts);
    /* A source that gives fewer values than the group names leaves the
     * rest failed, as parts; more are not looked at. */
    given = set->n < n ? set->n : n;
    for (unsigned int i = given; i < n; i++)
        set->status[i] = -ENODATA;
    set->n = n;
    for (unsigned int i = 0; i < n; i++)
        failed |= (unsigned int)(set->status[i] < 0) << i;
    if (given < n)
        snprintf(missing, sizeof(missing), "the source gave %u of its %u values", given, n);
    collector_note_parts(call, NULL, failed, &s->logged, given < n ? missing : p->error(p->ctx));
    return 0;
}
