#include "proc_values.h"

#include <errno.h>
#include <string.h>

int
proc_fetch_error(int sts)
{
    if (sts == -ENODATA)
        return PM_ERR_VALUE;        /* a zombie: nothing left to read */
    return sts == -EPERM ? PM_ERR_PERMISSION : sts == -ESRCH ? PM_ERR_INST : collector_error(sts);
}

int
proc_status(const struct metric_row *row, const struct proc_entry *e)
{
    int sts = 0;

    if ((row->index & PROC_OWNER_CALLS) && (sts = proc_access_check(e->kp.ruid, PROC_OWNER)) < 0)
        return sts;
    if (row->field.status != FIELD_NO_STATUS)
        memcpy(&sts, (const char *)e + row->field.status, sizeof(sts));
    return sts < 0 ? proc_fetch_error(sts) : 0;
}

/* A string value: PM_ERR_VALUE when there is none. */
static int
string_value(const char *s, pmAtomValue *atom)
{
    if (s == NULL)
        return PM_ERR_VALUE;
    atom->cp = (char *)s;
    return PMDA_FETCH_STATIC;
}

int
proc_call_field(const void *table, const void *entry, const struct metric_row *row, unsigned int inst,
                pmAtomValue *atom)
{
    int sts = proc_status(row, entry);

    (void)table;
    (void)inst;
    return sts < 0 ? sts : collector_field(row, entry, atom);
}

int
proc_string(const void *table, const void *entry, const struct metric_row *row, unsigned int inst,
            pmAtomValue *atom)
{
    const char *s;
    int sts = proc_status(row, entry);

    (void)table;
    (void)inst;
    if (sts < 0)
        return sts;
    memcpy(&s, (const char *)entry + row->field.offset, sizeof(s));
    return string_value(s, atom);
}

int
proc_ns_of(const void *table, uint64_t ticks, pmAtomValue *atom)
{
    if (proc_table_timebase_status(table) < 0)
        return collector_error(proc_table_timebase_status(table));
    atom->ull = proc_table_mach_to_ns(table, ticks);
    return PMDA_FETCH_STATIC;
}

int
proc_mach_ns(const void *table, const void *entry, const struct metric_row *row, unsigned int inst,
             pmAtomValue *atom)
{
    int sts = proc_call_field(table, entry, row, inst, atom);

    return sts < 0 ? sts : proc_ns_of(table, atom->ull, atom);
}

/* The name cache's name of the id the row binds, or NULL. */
static const char *
name_of(const struct name_cache *cache, const void *entry, const struct metric_row *row)
{
    uint32_t id;

    memcpy(&id, (const char *)entry + row->field.offset, sizeof(id));
    return name_cache_find(cache, id);
}

int
proc_user_name(const void *table, const void *entry, const struct metric_row *row, unsigned int inst,
               pmAtomValue *atom)
{
    const struct proc_table *t = table;

    (void)inst;
    return string_value(name_of(&t->users, entry, row), atom);
}

int
proc_group_name(const void *table, const void *entry, const struct metric_row *row, unsigned int inst,
                pmAtomValue *atom)
{
    const struct proc_table *t = table;

    (void)inst;
    return string_value(name_of(&t->groups, entry, row), atom);
}

int
proc_tty_name(const void *table, const void *entry, const struct metric_row *row, unsigned int inst,
              pmAtomValue *atom)
{
    const struct proc_table *t = table;
    const char *name = name_of(&t->ttys, entry, row);

    (void)inst;
    return string_value(name ? name : "?", atom);
}

int
proc_thread_field(const void *table, const void *entry, const struct metric_row *row, unsigned int inst,
                  pmAtomValue *atom)
{
    const struct proc_entry *e = entry;

    (void)table;
    (void)inst;
    if (e->thread == NULL)
        return PM_ERR_VALUE;        /* a process instance: no thread */
    return collector_field(row, e->thread, atom);
}
