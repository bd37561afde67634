/*
 * Who may see what of a process. macOS shows every user the ids, names,
 * states, CPU time, memory, I/O counters and arguments of every process
 * (ps and top); it keeps the working directory, open files and sockets, and
 * the environment to the owner and root (xnu-11417.101.15
 * bsd/kern/proc_info.c proc_security_policy, CHECK_SAME_USER). This agent runs as root, so it
 * applies that policy itself, per client: a client authenticated as a user
 * sees owner-only data of that user's processes; root and the users that
 * access.conf allows see all; a client without credentials sees no
 * owner-only data. "-A" turns the checks off.
 */
#ifndef PMDA_DARWIN_PROC_POLICY_H
#define PMDA_DARWIN_PROC_POLICY_H

#include <stdint.h>
#include <stdio.h>

enum proc_access_class { PROC_PUBLIC, PROC_OWNER };

/* A client as pmcd describes it (PMDA_ATTR_USERID etc.). */
struct proc_client {
    int has_uid;
    uint32_t uid;
    int allowed;                    /* root-equivalent by access.conf */
    int threads;                    /* proc.control.perclient.threads: -1 unset, 0, 1 */
};

struct proc_policy {
    int all_access;                 /* -A */
    char allowed[16][64];           /* access.conf "allowed:" user names */
    unsigned int nallowed;
    int threads;                    /* proc.control.all.threads */
};

/* Portable decisions, unit-tested. */
int proc_policy_allows(const struct proc_policy *p, const struct proc_client *c, uint32_t owner_uid,
                       enum proc_access_class cls);
/* Read access.conf lines: "allowed: user, user". Returns 0, or -EINVAL with
 * msg naming the line. Comments (#) and blank lines are skipped. */
int proc_policy_read(struct proc_policy *p, FILE *fp, const char *name, char *msg, size_t msglen);
int proc_policy_is_allowed(const struct proc_policy *p, const char *user);

#endif
