/*
 * Each platform struct described once: the snapshot key of every field, its
 * kind, and where it lives in the struct. The replay (snapshot_source.c),
 * the writer (snapshot_write.c), the schema the parser checks keys against,
 * the key table in docs/snapshot-format.md and the round-trip test all
 * follow from these descriptions; no other code names a field's key.
 */
#ifndef PMDA_DARWIN_SNAPSHOT_RECORDS_H
#define PMDA_DARWIN_SNAPSHOT_RECORDS_H

#include <stddef.h>
#include <stdio.h>

#include "platform.h"
#include "hash_slots.h"
#include "snapshot_store.h"

#define REC_NO_STATUS ((size_t)-1)

/* One field, or an array of them. */
struct rec_field {
    const char *key;            /* "vm.free_count" (plain records) or "index" (after "record[NAME].") */
    enum snap_kind kind;        /* SNAP_TIME: an int64_t of seconds followed by an int32_t of microseconds */
    size_t offset;              /* where it lives in the struct */
    size_t size;                /* SNAP_TEXT: the char array's size */
    unsigned int count;         /* 0 or 1: one field; more: key_0 .. key_{count-1}, consecutive elements */
    size_t status;              /* offset of the int that holds this field's status (shared by a
                                 * group of fields: the first failure), or REC_NO_STATUS: a failure
                                 * fails the whole record */
    unsigned int flags;
    const char *source;         /* where macOS gives it, for the docs; NULL: as the field before */
};

#define REC_ABSENT_IS_EMPTY 1u  /* text: absent means "", and "" is not written */
#define REC_DIVISOR 2u          /* the agent divides by it: a snapshot's 0 is refused at its line */

enum rec_instancing { REC_PLAIN, REC_INSTANCED, REC_BOTH };

struct rec_desc {
    const char *record;         /* NULL: each field's key carries its record */
    enum rec_instancing instancing;
    const char *instance_doc;   /* the docs' name for the instance: "NAME", "N" */
    const struct rec_field *fields;
    unsigned int nfields;
    unsigned int most;          /* instances the platform reads at most (0: no limit of its own) */
};

/* Which per-process calls macOS refused the recording user (a snapshot
 * made without root): replay refuses them with -EPERM. */
enum { SNAP_REFUSED_TASK = 1u, SNAP_REFUSED_RUSAGE = 2u, SNAP_REFUSED_ARGS = 4u, SNAP_REFUSED_CWD = 8u,
       SNAP_REFUSED_FDS = 16u, SNAP_REFUSED_THREADS = 32u };

/* A process as a snapshot records it: the list entry, what was refused and
 * its descriptor count. */
struct snap_proc {
    struct plat_proc proc;
    uint32_t refused;
    int fds_status;
    uint32_t fds;
};

/* A process's strings. The argument buffer is kept as hex (it holds NULs),
 * the thread ids as a space-separated list. */
#define SNAP_PROC_ARGS_MAX 8192
#define SNAP_PROC_THREADS_MAX 16384
struct snap_proc_text {
    char path[PLAT_PATH_MAX];
    char cwd[PLAT_PATH_MAX];
    char args_hex[2 * SNAP_PROC_ARGS_MAX + 1];
    char threads[SNAP_PROC_THREADS_MAX];
};

/* A name from the user, group or terminal tables. */
struct snap_name {
    char name[PLAT_NAME_MAX];
};

/* Whether the index-th sysctl of group only ever increases (replayed as a counter). */
int rec_sysctl_is_counter(enum plat_sysctl_group group, unsigned int index);

/* Whether a group before this one lists the sysctl too (some do:
 * kern.maxfiles): its key is recorded once. */
int rec_sysctl_listed_before(enum plat_sysctl_group group, const char *name);

/* Whether a property at path of an answer to q only grows (replayed as a counter). */
int rec_registry_is_counter(const struct plat_query *q, const char *path);

/* The descriptions, in the order the docs list them. */
extern const struct rec_desc rec_host, rec_uname, rec_clock, rec_memory, rec_loadavg, rec_ticks, rec_tasks,
    rec_login, rec_topology, rec_perflevel, rec_netif, rec_udp, rec_icmp, rec_ip6, rec_tcp, rec_tcpconn,
    rec_mount, rec_nfs, rec_timebase, rec_proc, rec_proc_text, rec_proc_task, rec_proc_rusage, rec_thread, rec_sock_owner,
    rec_user, rec_group, rec_tty;
extern const struct rec_desc *const rec_all[];
extern const unsigned int rec_nall;

/* A field's elements (1, or its array's count) and the bytes each takes in its struct. */
unsigned int rec_elements(const struct rec_field *f);
size_t rec_element_size(const struct rec_field *f);

/*
 * Read a record at the replay position into out (instance: NULL for a plain
 * record). Group statuses get their group's first failure; the return value
 * is the first failure of a field without one, else 0.
 */
int rec_read(struct snap *s, const struct rec_desc *d, const char *instance, void *out);

/* Records read at every refresh: each key is found once, at the first
 * read, and kept until rec_cache_free (start from rec_cache_init). */
struct rec_cache {
    struct hash_slots table;            /* of struct rec_found */
};
int rec_read_found(struct rec_cache *c, struct snap *s, const struct rec_desc *d, const char *instance, void *out);
/* Whether the record is in the current sample: its first key has a usable value. */
int rec_present(struct rec_cache *c, struct snap *s, const struct rec_desc *d, const char *instance);
void rec_cache_init(struct rec_cache *c);
void rec_cache_free(struct rec_cache *c);

/* The prefix of a record's keys ("record.", "record[instance]." or
 * nothing) written into buf: its length. Then the key of element i of
 * field f after that prefix, in buf. */
size_t rec_key_prefix(char *buf, size_t size, const struct rec_desc *d, const char *instance);
const char *rec_field_key(char *buf, size_t size, size_t prefix, const struct rec_field *f, unsigned int i);

/* The parser's schema: an entry for every key of every description and of
 * every sysctl group (sysctl_defs.c), then the extra entries, then a
 * NULL-record terminator; without processes, the keys that only the
 * per-process calls read are marked unread. Free with rec_schema_free. */
struct snap_field *rec_schema(const struct snap_field *extra, size_t nextra, int processes);
void rec_schema_free(struct snap_field *schema);

#endif
