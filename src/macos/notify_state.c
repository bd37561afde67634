/*
 * The state of a notify(3) name as one registry-shaped entry with a
 * "state" number: macOS publishes its thermal pressure level this way
 * (kOSThermalNotificationPressureLevelName, <libkern/OSThermalNotification.h>:
 * "com.apple.system.thermalpressurelevel"). Public API. A token reads the
 * state of the name it was registered for (Libnotify-327.0.5,
 * notify_get_state), so each name gets its own, taken at the name's first
 * read and cancelled at close; a registration notifyd refused is asked
 * again at the next read. Each read asks notifyd for the current state, so
 * it waits on notifyd as every notify client does.
 */
#include "live_source.h"

#include <errno.h>
#include <notify.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOTIFY_MAX_NAMES 8

struct live_notify {
    unsigned int n;
    struct {
        char name[256];
        int token;
    } reg[NOTIFY_MAX_NAMES];
};

/* The name's token, registering it the first time. */
static int
token_of(struct live_source *src, const char *name, int *token)
{
    struct live_notify *nt = src->notify;
    uint32_t sts;

    if (nt == NULL && (nt = src->notify = calloc(1, sizeof(*nt))) == NULL)
        return live_fail(src, -ENOMEM, "notify: out of memory");
    for (unsigned int i = 0; i < nt->n; i++)
        if (strcmp(nt->reg[i].name, name) == 0) {
            *token = nt->reg[i].token;
            return 0;
        }
    if (strlen(name) >= sizeof(nt->reg[0].name))
        return live_fail(src, -ENAMETOOLONG, "notify(%.64s...): name too long", name);
    if (nt->n == NOTIFY_MAX_NAMES)
        return live_fail(src, -ENOSPC, "notify(%s): more than %d names", name, NOTIFY_MAX_NAMES);
    if ((sts = notify_register_check(name, token)) != NOTIFY_STATUS_OK)
        return live_fail(src, -ENOENT, "notify_register_check(%s) failed: status %u", name, sts);
    snprintf(nt->reg[nt->n].name, sizeof(nt->reg[0].name), "%s", name);
    nt->reg[nt->n++].token = *token;
    return 0;
}

int
live_notify_state(struct live_source *src, const struct plat_query *q, struct plat_entry_set *out)
{
    const char *name = strchr(q->match, ':') + 1;
    uint64_t state = 0;
    uint32_t sts;
    int token, err;

    if ((err = token_of(src, name, &token)) < 0)
        return err;
    if ((sts = notify_get_state(token, &state)) != NOTIFY_STATUS_OK)
        return live_fail(src, -EIO, "notify_get_state(%s) failed: status %u", name, sts);
    if ((err = entry_builder_entry(&src->entries, 1, 0, name, "notify")) < 0 ||
        (err = entry_builder_number(&src->entries, "state", state)) < 0)
        return live_fail(src, err, "%s: %s", name, strerror(-err));
    entry_builder_finish(&src->entries, out);
    return 0;
}

void
live_notify_close(struct live_source *src)
{
    if (src->notify != NULL)
        for (unsigned int i = 0; i < src->notify->n; i++)
            notify_cancel(src->notify->reg[i].token);
    free(src->notify);
    src->notify = NULL;
}
