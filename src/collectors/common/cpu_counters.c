#include "cpu_counters.h"

int
cpu_counters_update(struct cpu_counters *c, const struct plat_cpu_ticks *t)
{
    int held = 0;

    wrap32_extend(&c->state[CPU_USER], t->user);
    wrap32_extend(&c->state[CPU_NICE], t->nice);
    wrap32_extend(&c->state[CPU_SYS], t->sys);
    wrap32_extend(&c->state[CPU_IDLE], t->idle);
    for (int i = 0; i < CPU_NSTATES; i++)
        held |= c->state[i].held;
    return held;
}

int
cpu_time_msec(const struct cpu_counters *c, const struct metric_row *row, const struct tick_rate *rate,
              pmAtomValue *atom)
{
    if (rate->status < 0)
        return rate->status;
    atom->ull = ticks_to_msec(c->state[row->index].total, rate->hz);
    return PMDA_FETCH_STATIC;
}
