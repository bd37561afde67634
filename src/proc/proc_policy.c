#include "proc_policy.h"

#include <ctype.h>
#include <errno.h>
#include <pcp/pmapi.h>
#include <string.h>

int
proc_policy_allows(const struct proc_policy *p, const struct proc_client *c, uint32_t owner_uid,
                   enum proc_access_class cls)
{
    if (p->all_access || cls == PROC_PUBLIC)
        return 0;
    if (c != NULL && c->has_uid && (c->uid == 0 || c->allowed || c->uid == owner_uid))
        return 0;
    return PM_ERR_PERMISSION;
}

int
proc_policy_is_allowed(const struct proc_policy *p, const char *user)
{
    for (unsigned int i = 0; user != NULL && i < p->nallowed; i++)
        if (strcmp(p->allowed[i], user) == 0)
            return 1;
    return 0;
}

int
proc_policy_read(struct proc_policy *p, FILE *fp, const char *name, char *msg, size_t msglen)
{
    char line[1024];
    int lineno = 0;

    while (fgets(line, sizeof(line), fp)) {
        char *s = line, *tok, *save = NULL;

        lineno++;
        line[strcspn(line, "#\n")] = '\0';
        while (isspace((unsigned char)*s))
            s++;
        if (*s == '\0')
            continue;
        if (strncmp(s, "allowed:", 8) != 0) {
            snprintf(msg, msglen, "%s:%d: expected \"allowed: user, ...\"", name, lineno);
            return -EINVAL;
        }
        for (tok = strtok_r(s + 8, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save)) {
            if (p->nallowed == sizeof(p->allowed) / sizeof(p->allowed[0]) || strlen(tok) >= sizeof(p->allowed[0])) {
                snprintf(msg, msglen, "%s:%d: too many or too long user names", name, lineno);
                return -EINVAL;
            }
            snprintf(p->allowed[p->nallowed++], sizeof(p->allowed[0]), "%s", tok);
        }
    }
    return 0;
}
