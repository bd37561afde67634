/*
 * Replay of the process records (the proc agent's platform calls) from a
 * snapshot at its current position. Kept apart from snapshot_source.c,
 * which positions the snapshot and hands over.
 */
#ifndef PMDA_DARWIN_SNAPSHOT_PROC_H
#define PMDA_DARWIN_SNAPSHOT_PROC_H

#include "platform.h"
#include "snapshot_records.h"
#include "snapshot_store.h"

/* What the replay keeps between calls: the arrays it hands out and a
 * scratch record for the strings. */
struct snap_proc_state {
    struct plat_proc *procs;
    unsigned int procs_cap;
    struct plat_thread *threads;
    unsigned int threads_cap;
    struct plat_sock_owner *owners;
    unsigned int owners_cap;
    unsigned char *args;
    struct snap_proc_text text;
};

void snap_proc_free(struct snap_proc_state *st);

int snap_procs(struct snap *s, struct snap_proc_state *st, struct plat_proc_set *out);
int snap_proc_task(struct snap *s, struct snap_proc_state *st, int32_t pid, struct plat_proc_task *out);
int snap_proc_rusage(struct snap *s, struct snap_proc_state *st, int32_t pid, struct plat_proc_rusage *out);
int snap_proc_args(struct snap *s, struct snap_proc_state *st, int32_t pid, struct plat_bytes *out);
int snap_proc_path(struct snap *s, struct snap_proc_state *st, int32_t pid, char *out, size_t len);
int snap_proc_cwd(struct snap *s, struct snap_proc_state *st, int32_t pid, char *out, size_t len);
int snap_proc_fds(struct snap *s, struct snap_proc_state *st, int32_t pid, struct plat_proc_fds *out);
int snap_proc_threads(struct snap *s, struct snap_proc_state *st, int32_t pid, struct plat_thread_set *out);
int snap_sock_owners(struct snap *s, struct snap_proc_state *st, struct plat_sock_owner_set *out);
int snap_name(struct snap *s, const struct rec_desc *d, uint32_t id, char *out, size_t len);

#endif
