#include "proc_values.h"

#include <errno.h>

const struct proc_entry *
proc_visible(unsigned int inst, enum proc_access_class cls, int *sts)
{
    const struct proc_entry *e = proc_table_entry(inst);

    if (e == NULL) {
        *sts = PM_ERR_INST;
        return NULL;
    }
    if ((*sts = proc_access_check(e->kp.ruid, cls)) < 0)
        return NULL;
    return e;
}

int
proc_fetch_error(int sts)
{
    if (sts == -ENODATA)
        return PM_ERR_VALUE;        /* a zombie: nothing left to read */
    return sts == -EPERM ? PM_ERR_PERMISSION : sts == -ESRCH ? PM_ERR_INST : collector_error(sts);
}

int
proc_fetch_string(pmAtomValue *atom, const char *s)
{
    if (s == NULL)
        return PM_ERR_VALUE;
    atom->cp = (char *)s;
    return PMDA_FETCH_STATIC;
}

int
proc_no_refresh(const struct platform *p, pmInDom indom, const char **reason)
{
    (void)p;
    (void)reason;
    (void)indom;
    return 0;                       /* cluster 1, a dependency, refreshed the table */
}
