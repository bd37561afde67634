#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>

#include "real_macs_file.h"
#include "real_macs_import.h"

void
real_macs_import(FILE *out, const struct plat_query *q, const char *relative, const char *subclass)
{
    const char *dump = real_macs_file(relative);
    char command[8192], line[4096];
    size_t at = (size_t)snprintf(command, sizeof(command), "python3 '%s/tools/ioreg-import' '%s' --depth %u "
                                 "--ancestors %u", SOURCE_DIR, q->match, q->depth, q->ancestors);
    FILE *in;

    if (subclass != NULL)
        at += (size_t)snprintf(command + at, sizeof(command) - at, " --subclass '%s'", subclass);

    for (const char *const *k = q->keys; k != NULL && *k != NULL; k++)
        at += (size_t)snprintf(command + at, sizeof(command) - at, " --key '%s'", *k);
    snprintf(command + at, sizeof(command) - at, " '%s' 2>/dev/null", dump);
    assert_non_null(in = popen(command, "r"));
    while (fgets(line, sizeof(line), in) != NULL)
        fputs(line, out);
    pclose(in);
}
