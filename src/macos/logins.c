/*
 * Login records: every utmpx record's type and user.
 */
#include "array_grow.h"
#include "live_source.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <utmpx.h>

_Static_assert(USER_PROCESS == PLAT_UTMPX_USER_PROCESS, "utmpx USER_PROCESS differs from the platform's");

/* More records than any utmpx file holds; bounds the walk and the memory. */
#define MAX_LOGINS 65536

int
live_logins(void *ctx, struct plat_login_set *out)
{
    struct live_source *src = live_begin(ctx);
    struct utmpx *ut;
    unsigned int n = 0;

    /* getutxent() returns NULL both at the end and when the file cannot be
     * read: check that it can, so that no file does not read as no logins. */
    if (access(_PATH_UTMPX, R_OK) == -1)
        return live_fail(src, -errno, "%s: %s", _PATH_UTMPX, strerror(errno));
    setutxent();
    while (n < MAX_LOGINS && (ut = getutxent()) != NULL) {
        if (array_grow((void **)&src->logins, &src->logins_cap, n, sizeof(*src->logins)) < 0) {
            endutxent();
            return live_fail(src, -ENOMEM, "login records: out of memory");
        }
        src->logins[n].type = ut->ut_type;
        /* ut_user is a fixed array, not always NUL-terminated. */
        snprintf(src->logins[n].user, sizeof(src->logins[n].user), "%.*s", (int)sizeof(ut->ut_user), ut->ut_user);
        n++;
    }
    endutxent();
    out->n = n;
    out->login = src->logins;
    return 0;
}
