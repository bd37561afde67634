/*
 * POSIX threads for the live code (nvme_health.c's reading thread), run
 * for real by glibc's (harness/threads.c). As libpthread-539 has them:
 * pthread_create gives 0, or EAGAIN where no thread can be made
 * (src/pthread.c:1525-1593); pthread_join waits for the thread and frees
 * it, so a second join of it is the caller's fault (ESRCH,
 * src/pthread_cancelable.c:341-424).
 */
#include "double.h"

#include <errno.h>
#include <pthread.h>

int
pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*start)(void *), void *arg)
{
    void *t;
    int err;

    if (attr != NULL)
        dbl_violation("pthread_create with attributes: not what the live code makes");
    if ((err = dbl_failing("pthread_create")) != 0)
        return err;
    if ((t = dbl_thread_start(start, arg)) == NULL)
        return EAGAIN;
    *thread = (pthread_t)t;
    return 0;
}

int
pthread_join(pthread_t thread, void **value)
{
    if (thread == NULL)
        dbl_violation("pthread_join of no thread");
    dbl_thread_join(thread);
    if (value != NULL)
        *value = NULL;              /* the live code's threads return NULL */
    return 0;
}
