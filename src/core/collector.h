/*
 * The contract between the agent core (src/core/pmda.c) and a collector: one
 * metric family, its rows, its refresh, its values, its instance domain.
 * The core knows no metric; a collector knows no other collector except
 * through a function the other one exports.
 */
#ifndef PMDA_DARWIN_COLLECTOR_H
#define PMDA_DARWIN_COLLECTOR_H

#include <stddef.h>
#include <stdint.h>

#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include "metric_ids.h"
#include "platform.h"
#include "refresh_plan.h"

#define COLLECTOR_NO_INDOM 0xffffffffu

struct wrap32;

/* How a bound row's value follows from its field. */
enum field_kind {
    FIELD_NONE,                     /* not bound: the collector's fetch computes the value */
    FIELD_PLAIN,                    /* the integer as the platform gives it */
    FIELD_PAGES_KB,                 /* a page count, served in KiB at the host's page size */
    FIELD_BYTES_KB,                 /* bytes, served in KiB */
    FIELD_WRAP32,                   /* a 32-bit counter the kernel lets wrap, served as a 64-bit
                                     * count (collector_extend keeps it; U64 rows only) */
    FIELD_TEXT,                     /* a NUL-terminated char array (STRING rows only) */
};

#define FIELD_NO_STATUS 0xffffffffu
#define FIELD_STATUS_INT 0xffu

/* A metric that is one field of a struct: where the field is in the
 * struct its fetch names as base (the family's state for a row with no
 * indom; an instance's struct, as the fetch finds it, for an instanced
 * one; for FIELD_WRAP32, the struct the refresh hands collector_extend),
 * its width, and what says whether it was read:
 * nothing (FIELD_NO_STATUS), the int status at status (a platform call's:
 * negative when it failed), or a decoder's presence bit `bit` in the
 * unsigned int at status (absent: no value). */
struct field {
    unsigned int offset;            /* a family's state may hold large arrays before a bound member */
    unsigned int status;
    unsigned char size;             /* 4 or 8 for an integer; 0 for text */
    unsigned char kind;             /* enum field_kind */
    unsigned char bit;              /* FIELD_STATUS_INT, or the presence bit */
};

#define FIELD_SIZE(type, member) sizeof(((type *)0)->member)
/* The binding of type's member; its status is type's int member status. */
#define FIELD_OF(type, member, status, kind) \
    { offsetof(type, member), offsetof(type, status), FIELD_SIZE(type, member), kind, FIELD_STATUS_INT }
#define FIELD_ALWAYS(type, member, kind) \
    { offsetof(type, member), FIELD_NO_STATUS, FIELD_SIZE(type, member), kind, FIELD_STATUS_INT }
/* The binding of type's char array member, always read, or read when
 * type's int member status is not negative. */
#define FIELD_TEXT_ALWAYS(type, member) { offsetof(type, member), FIELD_NO_STATUS, 0, FIELD_TEXT, FIELD_STATUS_INT }
#define FIELD_TEXT_OF(type, member, status) \
    { offsetof(type, member), offsetof(type, status), 0, FIELD_TEXT, FIELD_STATUS_INT }
/* The binding of type's member, present when bit of type's unsigned int
 * member have is set. */
#define FIELD_PRESENT(type, member, have, bit, kind) \
    { offsetof(type, member), offsetof(type, have), FIELD_SIZE(type, member), kind, bit }

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
    /* Optional: the row's value computed from others (a sum, a ratio): the
     * core asks it instead of the collector's fetch, with the same state. */
    int (*derive)(const void *state, const struct metric_row *row, unsigned int inst, pmAtomValue *atom);
};

/* The value of a bound row (row->field.kind != FIELD_NONE) from the struct
 * at base: its status's error, or PMDA_FETCH_STATIC with the field in atom
 * at the row's type; a value too wide for a U32 row is PM_ERR_AGAIN, never
 * a cut number. Text points into base, which must outlive the fetch.
 * page_size serves FIELD_PAGES_KB only. */
int collector_field(const struct metric_row *row, const void *base, uint64_t page_size, pmAtomValue *atom);

/* The fetch of a family whose every row is derived or bound to an offset
 * into its state: collector_field from the state. */
int collector_fetch_state(const void *state, const struct metric_row *row, unsigned int inst, pmAtomValue *atom);

/* The derive function of a row that macOS has no source for (upstream
 * names it, or Linux tools read it): PM_ERR_APPVERSION, never a zero. */
int collector_no_source(const void *state, const struct metric_row *row, unsigned int inst, pmAtomValue *atom);

/* Advance the count of each FIELD_WRAP32 row of rows[0..nrows) from the
 * struct at base: wraps[i] is rows[i]'s, kept by the collector across
 * refreshes (zero it to start again). A row's value is then
 * wraps[row - rows].total. */
void collector_extend(const struct metric_row *rows, unsigned int nrows, const void *base, struct wrap32 *wraps);

/* An instance domain a collector owns. A NULL set means its refresh names
 * its instances (instance_names.h), unless instances is given: then the
 * owner's refresh builds the set and instances hands it over (the instance
 * ids are the collector's own). */
struct indom_def {
    unsigned int serial;
    const char *label_name;         /* the indom_name label */
    pmdaInstid *set;
    int nset;
    int (*instances)(void *state, pmdaInstid **set);    /* after a refresh: the count, and *set */
};

/* What a refresh is handed besides its family's state. */
struct refresh_call {
    const struct platform *p;
    pmInDom indom;                              /* the full id of the first owned indom (PM_INDOM_NULL if
                                                 * none); the others share its domain */
    /* the state of each family in depends[], refreshed for this request;
     * an instance request refreshes no dependency, and hands their states
     * as the last refresh left them (zeroed before the first) */
    const void *depends[PLAN_MAX_DEPENDS];
    const char *reason;                         /* out: why a refresh refused, if it did */
};

/* A metric family: its rows (in any of its clusters), its instance domains,
 * its state, one refresh for all of them, and the families whose state it
 * reads. The core owns the state: state_size zeroed bytes from setup to
 * teardown, handed to every function below (NULL when state_size is 0). */
struct collector {
    const char *name;
    unsigned int ndepends;                          /* families refreshed before this one */
    const struct collector *depends[PLAN_MAX_DEPENDS];
    const struct metric_row *rows;
    unsigned int nrows;
    const struct indom_def *indom;                  /* NULL when it owns none, else indom[0..nindoms) */
    unsigned int nindoms;                           /* 0 with indom set: one */
    size_t state_size;
    /* Read the platform once (none: the values need no read); 0 or a
     * negative error (PCP or errno). A refresh that refuses what the source gave (a 0 it would divide by)
     * sets call->reason and returns PM_ERR_AGAIN: the family fails as a
     * source error fails it, and the agent's one line about the failure
     * gives that reason instead of the source's last error. */
    int (*refresh)(void *state, struct refresh_call *call);
    /* Value of one row for one instance after a successful refresh:
     * PMDA_FETCH_STATIC, or a negative error for this value alone. */
    int (*fetch)(const void *state, const struct metric_row *row, unsigned int inst, pmAtomValue *atom);
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
 * with the source's explanation, and once when all are back.
 */
void collector_note_parts(const char *collector, unsigned int failed_mask, unsigned int *logged_mask,
                          const char *detail);

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
