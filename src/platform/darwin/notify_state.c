/*
 * The state of a notify(3) name as one registry-shaped entry with a
 * "state" number: macOS publishes its thermal pressure level this way
 * (kOSThermalNotificationPressureLevelName, <libkern/OSThermalNotification.h>:
 * "com.apple.system.thermalpressurelevel"). Public API. The token is taken
 * once, at the first read, and cancelled at close; each read asks notifyd
 * for the current state, so it waits on notifyd as every notify client does.
 */
#include "live_source.h"

#include <errno.h>
#include <notify.h>
#include <string.h>

int
live_notify_state(struct live_source *src, const struct plat_reg_query *q, struct plat_reg_set *out)
{
    const char *name = strchr(q->match, ':') + 1;
    uint64_t state = 0;
    uint32_t sts;
    int err;

    if (src->notify_token < 0 && (sts = notify_register_check(name, &src->notify_token)) != NOTIFY_STATUS_OK) {
        src->notify_token = -1;
        return live_fail(src, -ENOENT, "notify_register_check(%s) failed: status %u", name, sts);
    }
    if ((sts = notify_get_state(src->notify_token, &state)) != NOTIFY_STATUS_OK)
        return live_fail(src, -EIO, "notify_get_state(%s) failed: status %u", name, sts);
    if ((err = reg_builder_entry(&src->registry, 1, 0, name, "notify")) < 0 ||
        (err = reg_builder_number(&src->registry, "state", state)) < 0)
        return live_fail(src, err, "%s: %s", name, strerror(-err));
    reg_builder_finish(&src->registry, out);
    return 0;
}

void
live_notify_close(struct live_source *src)
{
    if (src->notify_token >= 0)
        notify_cancel(src->notify_token);
    src->notify_token = -1;
}
