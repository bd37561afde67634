/*
 * notify(3), as Libnotify-327.0.5 (notify.h, notify_client.c) behaves:
 *  - notify_register_check(name, &token): a NULL name is
 *    NOTIFY_STATUS_INVALID_NAME, a NULL token pointer
 *    NOTIFY_STATUS_NULL_INPUT; *token is set to -1 before anything else
 *    can fail; each registration gets a new token, the counter after its
 *    increment (1, 2, ...: never reused), also for a name registered
 *    already; a failure to reach notifyd is NOTIFY_STATUS_FAILED;
 *  - notify_get_state(token, &state): the name's state (0 for a name no
 *    one set); a token not registered, or cancelled, is
 *    NOTIFY_STATUS_INVALID_TOKEN (no place for the state: the double stops
 *    the test, notify_client.c would write through it);
 *  - notify_cancel(token): frees the token; NOTIFY_STATUS_INVALID_TOKEN
 *    for one not registered or cancelled already.
 * dbl_fail makes a call answer another status (NOTIFY_STATUS_FAILED,
 * NOTIFY_STATUS_SERVER_NOT_FOUND, ...).
 */
#include "double.h"

#include <notify.h>
#include <stdio.h>
#include <string.h>

/* Libnotify-327.0.5 notify.h; the cross-check's notify.h has only OK. */
enum {
    STATUS_INVALID_NAME = 1,
    STATUS_INVALID_TOKEN = 2,
    STATUS_NULL_INPUT = 10,
};

#define MAX_NAMES 16
#define MAX_TOKENS 4096                 /* token t is tokens[t - 1] */

static struct name {
    char text[128];
    uint64_t state;
} names[MAX_NAMES];
static unsigned int nnames;

static struct token {
    int live;
    unsigned int name;
} tokens[MAX_TOKENS];
static int ntokens;                 /* tokens given out: the last one given */

void
dbl_notify_reset(void)
{
    memset(names, 0, sizeof(names));
    memset(tokens, 0, sizeof(tokens));
    nnames = 0;
    ntokens = 0;
}

long
dbl_notify_tokens(void)
{
    long live = 0;

    for (int t = 0; t < ntokens; t++)
        live += tokens[t].live;
    return live;
}

static unsigned int
name_index(const char *text)
{
    for (unsigned int i = 0; i < nnames; i++)
        if (strcmp(names[i].text, text) == 0)
            return i;
    if (nnames == MAX_NAMES)
        dbl_violation("more than %d notify names", MAX_NAMES);
    snprintf(names[nnames].text, sizeof(names[0].text), "%s", text);
    return nnames++;
}

void
dbl_notify_state(const char *name, uint64_t state)
{
    names[name_index(name)].state = state;
}

uint32_t
notify_register_check(const char *name, int *token)
{
    int err;

    if (name == NULL)
        return STATUS_INVALID_NAME;
    if (token == NULL)
        return STATUS_NULL_INPUT;
    *token = -1;
    if ((err = dbl_failing("notify_register_check")) != 0)
        return (uint32_t)err;
    if (ntokens == MAX_TOKENS)
        dbl_violation("more than %d notify registrations: tokens are not reused", MAX_TOKENS);
    tokens[ntokens++] = (struct token){ .live = 1, .name = name_index(name) };
    *token = ntokens;
    return NOTIFY_STATUS_OK;
}

static struct token *
token_of(int token)
{
    return token >= 1 && token <= ntokens && tokens[token - 1].live ? &tokens[token - 1] : NULL;
}

uint32_t
notify_get_state(int token, uint64_t *state)
{
    struct token *t = token_of(token);
    int err;

    if (state == NULL)
        dbl_violation("notify_get_state without a place for the state");
    if (t == NULL)
        return STATUS_INVALID_TOKEN;
    if ((err = dbl_failing("notify_get_state")) != 0)
        return (uint32_t)err;
    *state = names[t->name].state;
    return NOTIFY_STATUS_OK;
}

uint32_t
notify_cancel(int token)
{
    struct token *t = token_of(token);

    if (t == NULL)
        return STATUS_INVALID_TOKEN;
    t->live = 0;
    return NOTIFY_STATUS_OK;
}
