/*
 * What every collector shares: logging a part's failure once, label and
 * instance text from what macOS gives, and the error a fetch returns.
 */
#include "collector.h"

#include <errno.h>

void
collector_note_parts(const char *collector, unsigned int failed_mask, unsigned int *logged_mask,
                      const char *detail)
{
    if (failed_mask == *logged_mask)
        return;
    if (failed_mask != 0)
        pmNotifyErr(LOG_WARNING, "darwin: %s: some metrics unavailable: %s", collector, detail);
    else
        pmNotifyErr(LOG_INFO, "darwin: %s: all metrics available again", collector);
    *logged_mask = failed_mask;
}

int
collector_error(int platform_status)
{
    if (platform_status >= 0)
        return platform_status;
    if (platform_status == -ENOENT || platform_status == -ENOTSUP || platform_status == -EOPNOTSUPP ||
        platform_status == -ENOSYS)
        return PM_ERR_APPVERSION;
    return PM_ERR_AGAIN;
}

void
collector_label_text(const char *s, char *out, size_t len)
{
    size_t n = 0;

    for (; *s != '\0' && n + 1 < len; s++)
        if (*s != '"' && *s != '\\' && (unsigned char)*s >= ' ')
            out[n++] = *s;
    out[n] = '\0';
}

void
collector_instance_name(const char *s, char *out, size_t len)
{
    size_t n = 0;

    for (; *s != '\0' && n + 1 < len; s++)
        out[n++] = *s == ' ' ? '_' : *s;
    out[n] = '\0';
}
