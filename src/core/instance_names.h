/*
 * The instances of a dynamic instance domain, by name. A collector names
 * the instances it sees at each refresh; a name keeps its instance id while
 * it is seen and after (a USB disk that comes back is the same instance),
 * and an id is never given to another name. Names no longer seen are
 * remembered up to NAMES_KEPT, the longest unseen forgotten first, so that
 * a source that keeps inventing names costs bounded memory and time: PCP's
 * pmdaCache, which its agents use for this, keeps every name for the
 * agent's life and finds one by a linear scan, and in PCP 6.0.3 cannot free
 * one safely (a PMDA_CACHE_REORG after a cull can leave it pointing at
 * freed memory).
 */
#ifndef PMDA_DARWIN_INSTANCE_NAMES_H
#define PMDA_DARWIN_INSTANCE_NAMES_H

#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#define NAMES_KEPT 1024

/* A refresh of indom begins: no instance is seen yet. */
void names_begin(pmInDom indom);

/* name is seen: its instance id (a new one for a new name); -EEXIST when it
 * is a new name that another one remembered matches up to its first space
 * (PCP tells instances apart by that part: "/Volumes/Untitled 1" would be
 * taken for "/Volumes/Untitled"); -EINVAL before names_begin (or when it
 * had no memory for the table); -ENOMEM; or
 * -ENOSPC when INT_MAX names have been given ids. */
int names_add(pmInDom indom, const char *name);

/* The instances seen since names_begin, for pmcd's instance table: their
 * count, with *set valid until the next names_begin or names_forget. 0
 * (and *set NULL) for an indom never begun. */
int names_instances(pmInDom indom, pmdaInstid **set);

/* Every name of indom, for the agent's teardown. */
void names_forget(pmInDom indom);

#endif
