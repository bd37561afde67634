/*
 * The double's threads, run by glibc (double.h declares these for the
 * double's pthread_create and pthread_join, and for the NVMe SMART reads a
 * test holds; dbl.h declares dbl_threads_wait for the tests).
 */
#include <pthread.h>
#include <stdlib.h>

#include "dbl.h"

struct thread {
    pthread_t t;
    void *(*fn)(void *);
    void *arg;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static unsigned int running;
static int gate_open = 1;
static unsigned int at_gate;        /* threads waiting at the gate */

static void *
run(void *arg)
{
    struct thread *t = arg;

    t->fn(t->arg);
    pthread_mutex_lock(&lock);
    running--;
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&lock);
    return NULL;
}

void *dbl_thread_start(void *(*fn)(void *), void *arg);
void dbl_thread_join(void *thread);
void dbl_gate_wait(void);
void dbl_gate_set(int open);
void dbl_gate_reached(void);

void *
dbl_thread_start(void *(*fn)(void *), void *arg)
{
    struct thread *t = malloc(sizeof(*t));

    if (t == NULL)
        return NULL;
    t->fn = fn;
    t->arg = arg;
    pthread_mutex_lock(&lock);
    running++;
    pthread_mutex_unlock(&lock);
    if (pthread_create(&t->t, NULL, run, t) != 0) {
        pthread_mutex_lock(&lock);
        running--;
        pthread_mutex_unlock(&lock);
        free(t);
        return NULL;
    }
    return t;
}

void
dbl_thread_join(void *thread)
{
    struct thread *t = thread;

    pthread_join(t->t, NULL);
    free(t);
}

void
dbl_threads_wait(void)
{
    pthread_mutex_lock(&lock);
    while (running > 0)
        pthread_cond_wait(&changed, &lock);
    pthread_mutex_unlock(&lock);
}

void
dbl_gate_wait(void)
{
    pthread_mutex_lock(&lock);
    at_gate++;
    pthread_cond_broadcast(&changed);
    while (!gate_open)
        pthread_cond_wait(&changed, &lock);
    at_gate--;
    pthread_mutex_unlock(&lock);
}

void
dbl_gate_reached(void)
{
    pthread_mutex_lock(&lock);
    while (at_gate == 0)
        pthread_cond_wait(&changed, &lock);
    pthread_mutex_unlock(&lock);
}

void
dbl_gate_set(int open)
{
    pthread_mutex_lock(&lock);
    gate_open = open;
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&lock);
}
