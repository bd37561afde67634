/*
 * The snapshot store: parses a snapshot file (docs/snapshot-format.md) into
 * keyed values per sample and answers look-ups at a replay position.
 *
 * Portable code with no PCP types. A malformed line poisons only its own key:
 * look-ups of that key fail with a message naming the file and line, and every
 * other key keeps working.
 */
#ifndef PMDA_DARWIN_SNAPSHOT_STORE_H
#define PMDA_DARWIN_SNAPSHOT_STORE_H

#include <stdint.h>
#include <stdio.h>

#include "platform.h"

#define SNAP_FORMAT_VERSION 1
#define SNAP_MSG_MAX 512
#define SNAP_KEY_MAX 256    /* a key is shorter: a longer one is noted and ignored */

enum snap_kind {
    SNAP_COUNTER32,     /* unsigned, wraps at 2^32, interpolated during replay */
    SNAP_COUNTER64,     /* unsigned, wraps at 2^64, interpolated during replay */
    SNAP_GAUGE32,       /* unsigned 32-bit instantaneous value */
    SNAP_GAUGE64,       /* unsigned 64-bit instantaneous value */
    SNAP_INT,           /* signed 32-bit value */
    SNAP_TEXT,          /* rest of the line */
    SNAP_TIME,          /* seconds[.fraction] since the epoch, kept in microseconds */
    SNAP_REGISTRY       /* an IORegistry property value, "number 42" etc. (entry_set.h); text */
};

/* One key the format knows: "record.field" or "record[instance].field".
 * A field ending in '*' stands for every field that starts with the rest
 * ("prop.*": IORegistry property paths, which may hold any printable
 * character but brackets). */
struct snap_field {
    const char *record;
    const char *field;
    int instanced;
    enum snap_kind kind;
    int divisor;                /* the agent divides by it: a 0 makes the key unusable, at its line */
    unsigned int most;          /* instances of its record the agent reads (0: SNAP_MAX_INSTANCES); a
                                 * file with more is refused at the line that goes past it */
    int unread;                 /* a key this reader never asks for: its lines are skipped, not kept */
};

/* The most instances of any one record a file may have. */
#define SNAP_MAX_INSTANCES (1u << 20)

struct snap;

/*
 * Parse the file at path against the schema (terminated by a NULL record).
 * Returns NULL only when the file cannot be used at all (unreadable, no
 * version line, unsupported version, no samples); msg then says why. Any
 * other problem is kept per key and reported by look-ups and snap_notes().
 */
struct snap *snap_open(const char *path, const struct snap_field *schema, char *msg, size_t msglen);

/* Same, over an open stream; name is what messages call it. */
struct snap *snap_read(FILE *fp, const char *name, const struct snap_field *schema, char *msg, size_t msglen);

void snap_close(struct snap *s);

/* Problems that failed nothing by themselves (unknown keys, stray lines), one per line; "" if none. */
const char *snap_notes(const struct snap *s);

/* Number of samples and the time the recording spans, in microseconds. */
unsigned int snap_nsamples(const struct snap *s);

/*
 * Replay position: microseconds since replay started. Samples are replayed at
 * the pace they were recorded; after the last one replay starts over, and
 * counters carry on from where they were so that they never go backwards
 * (except by their natural wrap). Counters are interpolated linearly between
 * samples so that rates over any interval match the recording.
 */
void snap_set_position(struct snap *s, uint64_t elapsed_usec);

/*
 * Values at the current position. A key is found once (snap_find: NULL
 * when the file lacks it) and then read at every position without a
 * look-up. The readers return 0, or a negative errno with snap_error()
 * describing it (file and line where there is one): -ENOENT missing from
 * the sample, -EINVAL malformed or of another kind, -ERANGE out of range.
 */
struct snap_entry;
const struct snap_entry *snap_find(const struct snap *s, const char *key);
/* Record that key is not in the file at all: returns -ENOENT. */
int snap_missing(struct snap *s, const char *key);
int snap_u64_of(struct snap *s, const struct snap_entry *e, uint64_t *out);
int snap_int_of(struct snap *s, const struct snap_entry *e, int32_t *out);
int snap_text_of(struct snap *s, const struct snap_entry *e, const char **out);
/* A SNAP_TIME key, in microseconds since the epoch. */
int snap_time_of(struct snap *s, const struct snap_entry *e, uint64_t *usec);
/* A SNAP_REGISTRY value, decoded when the file was loaded (out->path is
 * not set). With counter, a number that only grows is interpolated like
 * a 64-bit counter where the samples either side and both ends of the
 * recording have it, else given as recorded. */
int snap_registry_of(struct snap *s, const struct snap_entry *e, int counter, struct plat_prop *out);
/* Whether e (NULL: a key the file lacks) has a usable value now; records no failure. */
int snap_has_of(const struct snap *s, const struct snap_entry *e);
/* Whether e, well formed, has no value now (what its readers would fail
 * with -ENOENT); records no failure. */
int snap_absent_of(const struct snap *s, const struct snap_entry *e);

/* The same readers by key, for keys read once or seldom. */
int snap_u64(struct snap *s, const char *key, uint64_t *out);
int snap_int(struct snap *s, const char *key, int32_t *out);
int snap_text(struct snap *s, const char *key, const char **out);
int snap_time(struct snap *s, const char *key, uint64_t *usec);
int snap_has(const struct snap *s, const char *key);
/* The sample time at the current position (replay time for the "sample" line). */
int snap_now(struct snap *s, uint64_t *usec);

/* The keys that start with prefix, in order: pass *cursor = 0 first; NULL at the end. */
const char *snap_key_with_prefix(const struct snap *s, const char *prefix, size_t *cursor);

/* The line where the file first gives e: where the source that wrote it
 * put it among its neighbours (0: a key no line gave). */
int snap_first_line(const struct snap *s, const struct snap_entry *e);

/* The index-th instance name seen for a record, in order of first appearance; NULL past the end. */
const char *snap_instance(const struct snap *s, const char *record, unsigned int index);

/* Every failure since the last snap_clear_error, "; "-separated. */
const char *snap_error(const struct snap *s);
void snap_clear_error(struct snap *s);

#endif
