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
cpu_counters_msec(const struct cpu_counters *c, enum cpu_state_index state, const struct tick_rate *rate,
                  uint64_t *out)
{
    if (rate->status < 0)
        return rate->status;
    *out = ticks_to_msec(c->state[state].total, rate->hz);
    return 0;
}
