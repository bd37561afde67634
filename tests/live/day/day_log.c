#include "day_log.h"

#include <stdlib.h>
#include <string.h>

#define LINE_MAX_LEN 2048
#define WINDOW_LINES 256

static FILE *log_file;
static FILE *saved_stderr;

int
log_start(void)
{
    fflush(stderr);
    if ((log_file = tmpfile()) == NULL)
        return -1;
    saved_stderr = stderr;
    stderr = log_file;
    return 0;
}

void
log_stop(void)
{
    stderr = saved_stderr;
    fclose(log_file);
}

long
log_mark(void)
{
    fflush(log_file);
    return ftell(log_file);
}

/* A line without pmNotifyErr's time and process: "[date] pcp(pid) ". */
static const char *
message(const char *line)
{
    const char *p = strstr(line, ") ");

    return p != NULL ? p + 2 : line;
}

unsigned int
log_check(long mark, int once, unsigned int round, const char *fault, unsigned int *lines_seen)
{
    static char lines[WINDOW_LINES][LINE_MAX_LEN];
    char line[LINE_MAX_LEN];
    unsigned int n = 0, problems = 0;

    fflush(log_file);
    fseek(log_file, mark, SEEK_SET);
    while (fgets(line, sizeof(line), log_file) != NULL) {
        const char *m = message(line);
        int repeated = 0;

        for (unsigned int i = 0; i < n && i < WINDOW_LINES; i++)
            repeated |= strcmp(lines[i], m) == 0;
        if (!once || repeated || n == WINDOW_LINES) {
            printf("FAIL: second %u: pmcd.log %s (fault: %s): %s", round,
                   !once ? "line while nothing changed" : repeated ? "line again" : "too many lines", fault, m);
            problems++;
        }
        if (n < WINDOW_LINES)
            snprintf(lines[n++], LINE_MAX_LEN, "%s", m);
    }
    fseek(log_file, 0, SEEK_END);
    if (lines_seen != NULL)
        *lines_seen = n;
    return problems;
}
