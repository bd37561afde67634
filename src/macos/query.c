/*
 * The platform's query call: each source that answers in entries (the
 * IORegistry, IOReport, HID, the SMC, notify, NVMe SMART) is named by its match's
 * prefix (platform.h); a match without one is the IORegistry's.
 */
#include "live_source.h"
#include "entry_set.h"

#include <string.h>

/* The sources other than the IORegistry, by the prefix of their match. */
static const struct {
    const char *prefix;
    int (*read)(struct live_source *src, const struct plat_query *q, struct plat_entry_set *out);
} other_sources[] = {
    { "IOReport:", live_ioreport },
    { "HID:", live_hid_sensors },
    { "SMC:", live_smc },
    { "notify:", live_notify_state },
    { "NVMe:", live_nvme_health },
};

int
live_query(void *ctx, const struct plat_query *q, struct plat_entry_set *out)
{
    struct live_source *src = live_begin(ctx);

    for (size_t i = 0; i < sizeof(other_sources) / sizeof(other_sources[0]); i++)
        if (strncmp(q->match, other_sources[i].prefix, strlen(other_sources[i].prefix)) == 0) {
            entry_builder_reset(&src->entries);
            out->n = 0;
            return other_sources[i].read(src, q, out);
        }
    return live_read_registry(src, q, out);
}
