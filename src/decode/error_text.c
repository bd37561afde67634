#include "error_text.h"

#include <stdio.h>
#include <string.h>

void
error_text_append(char *buf, size_t size, const char *fmt, va_list ap)
{
    size_t used = strlen(buf);

    if (used > 0 && used + 3 < size) {
        memcpy(buf + used, "; ", 3);
        used += 2;
    }
    if (used + 1 < size)
        vsnprintf(buf + used, size - used, fmt, ap);
}
