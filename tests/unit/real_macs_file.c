#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "real_macs_file.h"

static const char *
corpus_file(const char *relative, int required)
{
    static char path[4096];
    const char *root = getenv("PMDA_DARWIN_REAL_MACS");
    const char *slash = strrchr(__FILE__, '/');     /* this file is SRC/tests/unit/real_macs_file.c */
    struct stat st;

    if (root != NULL && root[0] != '\0')
        snprintf(path, sizeof(path), "%s/%s", root, relative);
    else
        snprintf(path, sizeof(path), "%.*s/../../../shared/real-macs/%s", (int)(slash ? slash - __FILE__ : 1),
                 slash ? __FILE__ : ".", relative);
    if (stat(path, &st) == 0)
        return path;
    if (required && getenv("PMDA_DARWIN_SHARED_REQUIRED") != NULL)
        fail_msg("%s: the corpus of real-Mac data is required and not there", path);
    print_message("%s: not there, %s: skipped\n", path,
                  required ? "the corpus of real-Mac data (PMDA_DARWIN_REAL_MACS names another folder)"
                           : "a file awaited in the corpus of real-Mac data (named in an issue's closing note)");
    skip();
    return NULL;
}

const char *
real_macs_file(const char *relative)
{
    return corpus_file(relative, 1);
}

const char *
real_macs_file_awaited(const char *relative)
{
    return corpus_file(relative, 0);
}

void
real_macs_line(const char *relative, int header, const char *needle, char *line, size_t len)
{
    FILE *f = fopen(real_macs_file(relative), "r");

    assert_non_null(f);
    while (fgets(line, (int)len, f) != NULL)
        if ((line[0] == '#') == header && strstr(line, needle) != NULL) {
            line[strcspn(line, "\r\n")] = '\0';
            fclose(f);
            return;
        }
    fclose(f);
    fail_msg("%s: no line with \"%s\"", relative, needle);
}
