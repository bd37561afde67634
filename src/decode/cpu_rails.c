#include "cpu_rails.h"
#include "entry_props.h"
#include "thermal_decode.h"

#include <errno.h>
#include <math.h>
#include <string.h>

/* The chips, by their brand string, and their CPU rails. */
static const struct {
    const char *brand;
    const char *const keys[6];
} chips[] = {
    { "Apple M3 Max", { CPU_RAILS_M3_MAX, NULL } },
};

#define NCHIPS (sizeof(chips) / sizeof(chips[0]))

static size_t
chip_of(const char *brand)
{
    size_t c = 0;

    while (c < NCHIPS && strcmp(brand, chips[c].brand) != 0)
        c++;
    return c;
}

int
cpu_rails_known(const char *brand)
{
    return chip_of(brand) < NCHIPS;
}

int
cpu_rails_watts(const char *brand, const struct plat_entry_set *set, double *watts)
{
    size_t c = chip_of(brand);

    if (c == NCHIPS)
        return -ENOENT;
    *watts = 0;
    for (const char *const *key = chips[c].keys; *key != NULL; key++) {
        const struct plat_entry *e = entry_named(set, *key);
        double w;
        int sts;

        if (e == NULL)
            return -ENOENT;
        if ((sts = smc_entry_value(e, &w)) < 0)
            return sts;
        if (!isfinite(w) || w < 0)
            return -ERANGE;
        *watts += w;
    }
    return 0;
}
