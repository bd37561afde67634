#include "procargs_parse.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

int
procargs_command_line(const unsigned char *buf, size_t buflen, char *out, size_t len)
{
    int32_t argc;
    size_t at, used = 0;
    int copied = 0;

    if (len > 0)
        out[0] = '\0';
    if (buf == NULL || buflen < sizeof(argc) || len == 0)
        return -EINVAL;
    memcpy(&argc, buf, sizeof(argc));
    if (argc < 0)
        return -EINVAL;
    at = sizeof(argc);
    while (at < buflen && buf[at] != '\0')      /* the executable path */
        at++;
    while (at < buflen && buf[at] == '\0')      /* its NUL and the padding */
        at++;
    while (copied < argc && at < buflen) {
        const unsigned char *end = memchr(buf + at, '\0', buflen - at);

        if (end == NULL)                        /* cut short inside it: not whole */
            break;
        if (copied > 0 && used + 1 < len)
            out[used++] = ' ';
        for (; buf + at < end; at++)
            if (used + 1 < len)
                out[used++] = (buf[at] < 0x20 || buf[at] == 0x7f) ? '?' : (char)buf[at];
        at++;                                   /* the argument's NUL */
        copied++;
    }
    out[used] = '\0';
    return copied;
}
