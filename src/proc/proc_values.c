#include "proc_values.h"

#include <errno.h>

const struct proc_entry *
proc_visible(const struct proc_table *t, unsigned int inst, enum proc_access_class cls, int *sts)
{
    const struct proc_entry *e = proc_table_entry(t, inst);

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
