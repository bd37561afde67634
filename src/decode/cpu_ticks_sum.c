#include "cpu_ticks_sum.h"

void
cpu_ticks_add(struct plat_cpu_ticks *sum, const struct plat_cpu_ticks *cpu)
{
    sum->user += cpu->user;
    sum->sys += cpu->sys;
    sum->idle += cpu->idle;
    sum->nice += cpu->nice;
}
