/*
 * The contract between the agent core (src/core/pmda.c) and a collector:
 * the code that serves a set of rows, with its refresh, its values and its
 * instance domains.
 * The core knows no metric; a collector knows no other collector except
 * through a function the other one exports.
 */
#ifndef PMDA_DARWIN_COLLECTOR_H
#define PMDA_DARWIN_COLLECTOR_H

#include <stddef.h>
#include <stdint.h>

#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include "platform.h"
#include "refresh_plan.h"

#define COLLECTOR_NO_INDOM 0xffffffffu

struct wrap32;

/* How a bound row's value follows from its field. */
enum field_kind {
    FIELD_NONE,                     /* not bound: the row's derive function computes the value */
    FIELD_PLAIN,                    /* the integer as the platform gives it */
    FIELD_SCALED_KB,                /* a count of units (pages, blocks) served in KiB: times
                                     * the unit's size, the field at scale in the same struct
                                     * (no value while that is 0: no size known) */
    FIELD_BYTES_KB,                 /* bytes, served in KiB */
    FIELD_NS_MS,                    /* nanoseconds, served in milliseconds */
    FIELD_FLAG,                     /* 1 when the bits in mask are set in the field, else 0 */
    FIELD_WRAP32,                   /* a 32-bit counter the kernel lets wrap, served as the 64-bit
                                     * total of a struct wrap32 (collector_extend advances it; U64
                                     * rows only) */
    FIELD_TEXT,                     /* a NUL-terminated char array (STRING rows only) */
    FIELD_STRING,                   /* a const char * (STRING rows only; NULL: no value) */
    FIELD_SIGNED,                   /* a signed integer (32 and 64 rows) */
    FIELD_DOUBLE,                   /* a double (DOUBLE and FLOAT rows) */
};

#define FIELD_NO_STATUS 0xffffffffu
#define FIELD_STATUS_INT 0xffu

/* A metric that is one field of a struct: where the field is in its
 * entry (the collector's state for a row with no indom or an indom without
 * an instance table; the instance's struct, which the core finds in the
 * table, for the others), its width, and what says whether it was read:
 * nothing (FIELD_NO_STATUS), the int status at status (a platform call's:
 * negative when it failed), or a decoder's presence bit `bit` in the
 * unsigned int at status (absent: no value). An array element is bound by
 * its offset (member[INDEX]): the binding carries the index. */
struct field {
    unsigned int offset;            /* a collector's state may hold large arrays before a bound member */
    unsigned int status;
    unsigned int arg;               /* FIELD_SCALED_KB: the offset of the unit's size;
                                     * FIELD_FLAG: the mask; FIELD_WRAP32: the offset of the
                                     * 32-bit counter in the platform's struct */
    unsigned char size;             /* 4 or 8 for an integer; 0 for text; FIELD_WRAP32: a
                                     * struct wrap32's */
    unsigned char kind;             /* enum field_kind */
    unsigned char bit;              /* FIELD_STATUS_INT, or the presence bit */
    unsigned char arg_size;         /* FIELD_SCALED_KB: the unit size's width, 4 or 8;
                                     * FIELD_WRAP32: 4 */
};

#define FIELD_SIZE(type, member) sizeof(((type *)0)->member)
/* The binding of type's member; its status is type's int member status. */
#define FIELD_OF(type, member, status, kind) \
    { offsetof(type, member), offsetof(type, status), 0, FIELD_SIZE(type, member), kind, FIELD_STATUS_INT, 0 }
#define FIELD_ALWAYS(type, member, kind) \
    { offsetof(type, member), FIELD_NO_STATUS, 0, FIELD_SIZE(type, member), kind, FIELD_STATUS_INT, 0 }
/* The binding of type's char array member, always read, or read when
 * type's int member status is not negative. */
#define FIELD_TEXT_ALWAYS(type, member) { offsetof(type, member), FIELD_NO_STATUS, 0, 0, FIELD_TEXT, FIELD_STATUS_INT, 0 }
#define FIELD_TEXT_OF(type, member, status) \
    { offsetof(type, member), offsetof(type, status), 0, 0, FIELD_TEXT, FIELD_STATUS_INT, 0 }
/* The binding of type's member, present when bit of type's unsigned int
 * member have is set. */
#define FIELD_PRESENT(type, member, have, bit, kind) \
    { offsetof(type, member), offsetof(type, have), 0, FIELD_SIZE(type, member), kind, bit, 0 }
/* The binding of type's count member in KiB at the unit size in type's
 * member unit, read when type's int member status is not negative (status
 * FIELD_NO_STATUS: always). */
#define FIELD_SCALED_OF(type, member, status, unit) \
    { offsetof(type, member), status, offsetof(type, unit), FIELD_SIZE(type, member), FIELD_SCALED_KB, \
      FIELD_STATUS_INT, FIELD_SIZE(type, unit) }
/* The 64-bit total of type's struct wrap32 member count, which
 * collector_extend advances from source's 32-bit member raw; read when
 * the int at offset status in type is not negative (status
 * FIELD_NO_STATUS: always): a refresh that cannot serve the counters
 * (tcp's, while macOS withholds them) sets that status to the error. */
#define FIELD_WRAP32_OF(type, count, status, source, raw) \
    { OFFSET_OF_TYPED(type, count, struct wrap32), status, OFFSET_OF_TYPED(source, raw, uint32_t), \
      FIELD_SIZE(type, count), FIELD_WRAP32, FIELD_STATUS_INT, FIELD_SIZE(source, raw) }
/* 1 when type's member has the bits of mask set, else 0. */
#define FIELD_FLAG_OF(type, member, mask) \
    { offsetof(type, member), FIELD_NO_STATUS, mask, FIELD_SIZE(type, member), FIELD_FLAG, FIELD_STATUS_INT, 0 }

struct metric_row;

/* A row's value computed from others (a sum, a ratio), given the collector's
 * state, the entry a bound field of the row would be read from (the
 * instance's struct, or the state) and the instance. */
typedef int row_derive(const void *state, const void *entry, const struct metric_row *row, unsigned int inst,
                       pmAtomValue *atom);

/* One metric: everything pmcd, the PMNS and the help file need to agree on. */
struct metric_row {
    const char *name;
    unsigned int cluster;
    unsigned int item;
    int type;
    unsigned int indom;             /* serial within the domain, or COLLECTOR_NO_INDOM */
    int sem;
    pmUnits units;
    struct field field;             /* zero (FIELD_NONE) unless the row is a plain field */
    row_derive *derive;             /* a row neither bound nor derived has no value */
    unsigned int index;             /* for derive: the element, counter or part the row reads */
};

/* The value of a bound row (row->field.kind != FIELD_NONE) from the struct
 * at entry: its status's error, or PMDA_FETCH_STATIC with the field in atom
 * at the row's type; a value too wide for a U32 row is PM_ERR_AGAIN, never
 * a cut number. Text points into entry, which must outlive the fetch. */
int collector_field(const struct metric_row *row, const void *entry, pmAtomValue *atom);

/* The derive function of a row that macOS has no source for (upstream
 * names it, or Linux tools read it): PM_ERR_APPVERSION, never a zero. */
row_derive collector_no_source;

/* Advance the struct wrap32 in entry of each FIELD_WRAP32 row of
 * rows[0..nrows) by its 32-bit counter in source, the platform's struct
 * the refresh read. The wrap32s are kept across refreshes (zero them to
 * start again); two rows may bind one wrap32 to one counter (the second
 * reading, equal to the first, adds nothing). */
void collector_extend(const struct metric_row *rows, unsigned int nrows, const void *source, void *entry);

/* Where an instance domain's instances are in its collector's state, for
 * the core to find an instance's struct: count entries of size bytes at
 * entries (the array itself, or a pointer to it), each holding its int
 * instance id at inst. size 0: the domain has no table. */
struct instance_table {
    unsigned int entries;
    unsigned int count;             /* the offset of the unsigned int count */
    unsigned int size;
    unsigned int inst;
    unsigned char pointer;          /* entries holds a pointer to the array */
};

/* A member's offset, when the member has the type expected (a compile
 * error otherwise). */
#define OFFSET_OF_TYPED(type, member, expected) \
    (offsetof(type, member) + 0 * sizeof(char[__builtin_types_compatible_p(__typeof__(((type *)0)->member), \
                                                                           expected) ? 1 : -1]))
#define INSTANCE_TABLE(state, member, count, entry, inst, pointer) \
    { offsetof(state, member), OFFSET_OF_TYPED(state, count, unsigned int), sizeof(entry), \
      OFFSET_OF_TYPED(entry, inst, int), pointer }
/* The table of state's entry array member (INSTANCES_IN) or of the array
 * state's member points to (INSTANCES_AT), with count entries. */
#define INSTANCES_IN(state, member, count, entry, inst) INSTANCE_TABLE(state, member, count, entry, inst, 0)
#define INSTANCES_AT(state, member, count, entry, inst) INSTANCE_TABLE(state, member, count, entry, inst, 1)

/* An instance domain a collector owns. A NULL set means its refresh names
 * its instances (instance_names.h), unless instances is given: then the
 * owner's refresh builds the set and instances hands it over (the instance
 * ids are the collector's own). With a table, the core finds an instance's
 * struct there (collector_entry); else with entry, by asking it. */
struct indom_def {
    unsigned int serial;
    const char *label_name;         /* the indom_name label */
    pmdaInstid *set;
    int nset;
    int (*instances)(void *state, pmdaInstid **set);    /* after a refresh: the count, and *set */
    struct instance_table table;
    const void *(*entry)(const void *state, unsigned int inst);     /* NULL: no such instance */
};

/* Whether the core can find an instance's struct of def's domain. */
static inline int
collector_has_entries(const struct indom_def *def)
{
    return def->table.size != 0 || def->entry != NULL;
}

/* The struct of instance inst of def's domain in state (NULL when the last
 * refresh gave no such instance), or state itself when the domain has
 * neither a table nor an entry function. */
const void *collector_entry(const struct indom_def *def, const void *state, unsigned int inst);

/* What a refresh is handed besides its collector's state. */
struct refresh_call {
    const struct platform *p;
    const char *collector;                      /* the collector's name, for collector_note_parts */
    pmInDom indom;                              /* the full id of the first owned indom (PM_INDOM_NULL if
                                                 * none); the others share its domain */
    /* the state of each collector in depends[], refreshed for this request;
     * an instance request refreshes no dependency, and hands their states
     * as the last refresh left them (zeroed before the first) */
    const void *depends[PLAN_MAX_DEPENDS];
    const char *reason;                         /* out: why a refresh refused, if it did */
};

/* A collector: its rows (in any of its clusters), its instance domains,
 * its state, one refresh for all of them, and the collectors whose state it
 * reads. The core owns the state: state_size zeroed bytes from setup to
 * teardown, handed to every function below (NULL when state_size is 0). */
struct collector {
    const char *name;
    unsigned int ndepends;                          /* collectors refreshed before this one */
    const struct collector *depends[PLAN_MAX_DEPENDS];
    const struct metric_row *rows;
    unsigned int nrows;
    const struct indom_def *indom;                  /* NULL when it owns none, else indom[0..nindoms) */
    unsigned int nindoms;                           /* 0 with indom set: one */
    size_t state_size;
    /* Read the platform once (none: the values need no read); 0 or a
     * negative error (PCP or errno). A refresh that refuses what the source gave (a 0 it would divide by)
     * sets call->reason and returns PM_ERR_AGAIN: the collector fails as a
     * source error fails it, and the agent's one line about the failure
     * gives that reason instead of the source's last error. */
    int (*refresh)(void *state, struct refresh_call *call);
    /* Optional: told each requested row before a fetch's refresh, so that a
     * refresh can skip the work that no requested row needs. */
    void (*want)(void *state, const struct metric_row *row);
    /* Optional: labels of one instance, as a JSON object written into json
     * (len bytes); 0, or -1 when the instance has none. */
    int (*instance_labels)(const void *state, pmInDom indom, unsigned int inst, char *json, size_t len);
    /* Optional: release what refresh allocated in the state (the core frees
     * the state itself, and forgets the instance names its refreshes gave). */
    void (*teardown)(void *state);
};

/* How many instance domains a collector owns. */
static inline unsigned int
collector_nindoms(const struct collector *c)
{
    return c->indom == NULL ? 0 : c->nindoms ? c->nindoms : 1;
}

/*
 * For a cluster whose refresh succeeds while some of its parts fail (each
 * with its own metrics): log once per change of the set of failed parts,
 * with the source's explanation, and once when all are back, under the
 * refreshing collector's name (and part's, when one source of several
 * is meant; NULL for the collector's).
 */
void collector_note_parts(const struct refresh_call *call, const char *part, unsigned int failed_mask,
                          unsigned int *logged_mask, const char *detail);

/* Text for a label value: what macOS gave, without the quotes, backslashes
 * and control characters a JSON string would need escaped. */
void collector_label_text(const char *s, char *out, size_t len);

/* An instance name from a name macOS gives: spaces become '_', since PCP
 * clients match instance names only up to the first space ("PMU tdie1" and
 * "PMU tdie2" would be one instance to them). */
void collector_instance_name(const char *s, char *out, size_t len);

/* Map an error (a negative errno, or a PCP code) to what a fetch returns:
 * an absent source is PM_ERR_APPVERSION ("not supported by this version"),
 * a refusal PM_ERR_PERMISSION, any other failure PM_ERR_AGAIN; those and
 * PM_ERR_INST pass as they are. pmdaFetch logs every other code for every
 * value on every fetch, so the detail goes to the log once, from the
 * agent, instead. */
int collector_error(int platform_status);

/* Whether a part's status is a failure to log (collector_note_parts): an
 * error other than the source's absence, which is no condition that ends. */
int collector_failing(int platform_status);


#endif
