/*
 * CoreFoundation objects with retain counts, as CF keeps them:
 *  - an object made by a function with Create or Copy in its name comes
 *    with one reference the caller owns and gives back with CFRelease; a
 *    Get hands out a reference it does not (CF-1153.18, CFBase.h, "The
 *    Create Rule", "The Get Rule" of Apple's Memory Management Programming
 *    Guide for Core Foundation);
 *  - CFRelease(NULL) is a crash (CFBase.h: "If cf is NULL, this will cause
 *    a runtime error"), and so is releasing an object whose count is 0;
 *  - a dictionary made with kCFTypeDictionaryKeyCallBacks and
 *    ...ValueCallBacks retains its keys and values and releases them with
 *    itself; an array likewise (CFDictionary.h, CFArray.h); keys are
 *    compared with CFEqual (strings by content);
 *  - kCFBooleanTrue and kCFBooleanFalse are constants never freed.
 * The count of objects alive includes the double's own tables (the
 * IORegistry's properties, IOReport's channels): a test compares counts,
 * never one count with a number.
 */
#include "double.h"

#include <CoreFoundation/CoreFoundation.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum type { T_NUMBER = 1, T_BOOLEAN, T_STRING, T_DATA, T_DICTIONARY, T_ARRAY, T_OPAQUE };

#define MAGIC 0x43464f42u          /* "CFOB" */
#define FREED 0x66726565u          /* "free" */

struct cfobj {
    struct cfobj *freed_next;       /* the next released after it (FREED_KEPT) */
    uint32_t magic;
    enum type type;
    long refs;
    int fixed;                      /* a constant: never freed */
    union {
        struct { int64_t i; double f; int is_float; } number;
        int boolean;
        char *string;
        struct { unsigned char *bytes; size_t len; } data;
        struct { struct cfobj **keys, **values; size_t n, cap; } dict;
        struct { struct cfobj **values; size_t n, cap; } array;
    } u;
};

static long alive;                  /* objects made and not freed */

/* Released objects, oldest first: a use of one is caught by name. Only the
 * newest FREED_KEPT are kept, so that a long run's heap stays flat; an
 * older one is freed, and the sanitizer the harness runs under catches a
 * use of it. */
#define FREED_KEPT 4096
static struct cfobj *freed, *freed_newest;
static long nfreed;

static struct cfobj true_obj = { NULL, MAGIC, T_BOOLEAN, 1, 1, { .boolean = 1 } };
static struct cfobj false_obj = { NULL, MAGIC, T_BOOLEAN, 1, 1, { .boolean = 0 } };
const CFAllocatorRef kCFAllocatorDefault = NULL;    /* CFBase.h: the default allocator is NULL */
const CFDictionaryKeyCallBacks kCFTypeDictionaryKeyCallBacks = { 0, NULL, NULL, NULL, NULL, NULL };
const CFDictionaryValueCallBacks kCFTypeDictionaryValueCallBacks = { 0, NULL, NULL, NULL, NULL };

void
dbl_cf_reset(void)
{
    while (freed != NULL) {
        struct cfobj *next = freed->freed_next;

        free(freed);
        freed = next;
    }
    freed_newest = NULL;
    nfreed = 0;
    alive = 0;
}

long
dbl_cf_alive(void)
{
    return alive;
}

static struct cfobj *
obj(CFTypeRef cf, const char *caller)
{
    struct cfobj *o = (struct cfobj *)cf;

    if (o == NULL)
        dbl_violation("%s(NULL)", caller);
    if (o->magic == FREED)
        dbl_violation("%s on an object already freed (released once too often)", caller);
    if (o->magic != MAGIC)
        dbl_violation("%s on something that is not a CF object", caller);
    return o;
}

static struct cfobj *
typed(CFTypeRef cf, enum type type, const char *caller)
{
    struct cfobj *o = obj(cf, caller);

    if (o->type != type)
        dbl_violation("%s on a CF object of another type (%d, not %d)", caller, (int)o->type, (int)type);
    return o;
}

static struct cfobj *
make(enum type type)
{
    struct cfobj *o = calloc(1, sizeof(*o));

    if (o == NULL)
        dbl_violation("out of memory");
    o->magic = MAGIC;
    o->type = type;
    o->refs = 1;
    alive++;
    return o;
}

static struct cfobj *
retain(struct cfobj *o)
{
    if (!o->fixed)
        o->refs++;
    return o;
}

void
CFRelease(CFTypeRef cf)
{
    struct cfobj *o = obj(cf, "CFRelease");

    if (o->fixed || --o->refs > 0)
        return;
    switch (o->type) {
    case T_STRING:
        free(o->u.string);
        break;
    case T_DATA:
        free(o->u.data.bytes);
        break;
    case T_DICTIONARY:
        for (size_t i = 0; i < o->u.dict.n; i++) {
            CFRelease(o->u.dict.keys[i]);
            CFRelease(o->u.dict.values[i]);
        }
        free(o->u.dict.keys);
        free(o->u.dict.values);
        break;
    case T_ARRAY:
        for (size_t i = 0; i < o->u.array.n; i++)
            CFRelease(o->u.array.values[i]);
        free(o->u.array.values);
        break;
    default:
        break;
    }
    o->magic = FREED;               /* a later use is caught above */
    o->freed_next = NULL;
    if (freed_newest != NULL)
        freed_newest->freed_next = o;
    else
        freed = o;
    freed_newest = o;
    if (++nfreed > FREED_KEPT) {
        struct cfobj *oldest = freed;

        freed = oldest->freed_next;
        free(oldest);
        nfreed--;
    }
    alive--;
}

CFTypeID
CFGetTypeID(CFTypeRef cf)
{
    return (CFTypeID)obj(cf, "CFGetTypeID")->type;
}

CFTypeID CFNumberGetTypeID(void) { return T_NUMBER; }
CFTypeID CFBooleanGetTypeID(void) { return T_BOOLEAN; }
CFTypeID CFStringGetTypeID(void) { return T_STRING; }
CFTypeID CFDataGetTypeID(void) { return T_DATA; }
CFTypeID CFDictionaryGetTypeID(void) { return T_DICTIONARY; }
CFTypeID CFArrayGetTypeID(void) { return T_ARRAY; }

/* CFNumber.h: kCFNumberSInt64Type is 4, kCFNumberIntType 9; the others
 * this double does not make. */
CFNumberRef
CFNumberCreate(CFAllocatorRef allocator, CFNumberType type, const void *value)
{
    struct cfobj *o;

    (void)allocator;
    if (type != kCFNumberSInt64Type && type != kCFNumberIntType)
        dbl_violation("CFNumberCreate of type %ld: not one the live code uses", (long)type);
    o = make(T_NUMBER);
    o->u.number.i = type == kCFNumberIntType ? *(const int *)value : *(const int64_t *)value;
    return (CFNumberRef)o;
}

Boolean
CFNumberIsFloatType(CFNumberRef number)
{
    return (Boolean)typed(number, T_NUMBER, "CFNumberIsFloatType")->u.number.is_float;
}

/* Converting a float to an integer type succeeds with the value truncated
 * but returns false (CFNumber.h: "if the conversion is lossy"). */
Boolean
CFNumberGetValue(CFNumberRef number, CFNumberType type, void *value)
{
    struct cfobj *o = typed(number, T_NUMBER, "CFNumberGetValue");
    int64_t v = o->u.number.is_float ? (int64_t)o->u.number.f : o->u.number.i;

    if (type == kCFNumberSInt64Type)
        *(int64_t *)value = v;
    else if (type == kCFNumberIntType)
        *(int *)value = (int)v;
    else
        dbl_violation("CFNumberGetValue to type %ld: not one the live code uses", (long)type);
    return !o->u.number.is_float;
}

Boolean
CFBooleanGetValue(CFBooleanRef boolean)
{
    return (Boolean)typed(boolean, T_BOOLEAN, "CFBooleanGetValue")->u.boolean;
}

CFStringRef
CFStringCreateWithCString(CFAllocatorRef allocator, const char *text, CFStringEncoding encoding)
{
    int err = dbl_failing("CFStringCreateWithCString");

    (void)allocator;
    if (encoding != kCFStringEncodingUTF8)
        dbl_violation("CFStringCreateWithCString in encoding %#x", (unsigned int)encoding);
    if (err)
        return NULL;                /* CFString.h: NULL when it cannot be made */
    return (CFStringRef)dbl_cf_string(text);
}

/* False when the buffer cannot hold the text and its NUL (CFString.h);
 * the buffer is then left as it is. */
Boolean
CFStringGetCString(CFStringRef string, char *buffer, CFIndex size, CFStringEncoding encoding)
{
    struct cfobj *o = typed(string, T_STRING, "CFStringGetCString");
    size_t len = strlen(o->u.string);

    if (encoding != kCFStringEncodingUTF8)
        dbl_violation("CFStringGetCString in encoding %#x", (unsigned int)encoding);
    if (size <= 0 || len + 1 > (size_t)size)
        return 0;
    memcpy(buffer, o->u.string, len + 1);
    return 1;
}

CFIndex
CFDataGetLength(CFDataRef data)
{
    return (CFIndex)typed(data, T_DATA, "CFDataGetLength")->u.data.len;
}

const UInt8 *
CFDataGetBytePtr(CFDataRef data)
{
    return typed(data, T_DATA, "CFDataGetBytePtr")->u.data.bytes;
}

static int
equal(struct cfobj *a, struct cfobj *b)
{
    if (a == b)
        return 1;
    if (a->type != b->type)
        return 0;
    switch (a->type) {
    case T_STRING:
        return strcmp(a->u.string, b->u.string) == 0;
    case T_NUMBER:
        return a->u.number.i == b->u.number.i && a->u.number.f == b->u.number.f;
    default:
        return 0;
    }
}

static void
dict_put(struct cfobj *d, struct cfobj *key, struct cfobj *value)
{
    for (size_t i = 0; i < d->u.dict.n; i++)
        if (equal(d->u.dict.keys[i], key)) {
            CFRelease(d->u.dict.values[i]);
            d->u.dict.values[i] = retain(value);
            return;
        }
    if (d->u.dict.n == d->u.dict.cap) {
        size_t cap = d->u.dict.cap ? 2 * d->u.dict.cap : 8;

        d->u.dict.keys = realloc(d->u.dict.keys, cap * sizeof(*d->u.dict.keys));
        d->u.dict.values = realloc(d->u.dict.values, cap * sizeof(*d->u.dict.values));
        if (d->u.dict.keys == NULL || d->u.dict.values == NULL)
            dbl_violation("out of memory");
        d->u.dict.cap = cap;
    }
    d->u.dict.keys[d->u.dict.n] = retain(key);
    d->u.dict.values[d->u.dict.n++] = retain(value);
}

CFDictionaryRef
CFDictionaryCreate(CFAllocatorRef allocator, const void **keys, const void **values, CFIndex n,
                   const CFDictionaryKeyCallBacks *key_callbacks, const CFDictionaryValueCallBacks *value_callbacks)
{
    struct cfobj *d;

    (void)allocator;
    if (key_callbacks != &kCFTypeDictionaryKeyCallBacks || value_callbacks != &kCFTypeDictionaryValueCallBacks)
        dbl_violation("CFDictionaryCreate without the CFType callbacks: it would not retain its contents");
    if (dbl_failing("CFDictionaryCreate"))
        return NULL;
    d = make(T_DICTIONARY);
    for (CFIndex i = 0; i < n; i++)
        dict_put(d, obj(keys[i], "CFDictionaryCreate key"), obj(values[i], "CFDictionaryCreate value"));
    return (CFDictionaryRef)d;
}

const void *
CFDictionaryGetValue(CFDictionaryRef dict, const void *key)
{
    struct cfobj *d = typed(dict, T_DICTIONARY, "CFDictionaryGetValue"), *k = obj(key, "CFDictionaryGetValue key");

    for (size_t i = 0; i < d->u.dict.n; i++)
        if (equal(d->u.dict.keys[i], k))
            return d->u.dict.values[i];
    return NULL;
}

void *
dbl_cf_get(const void *dict, const char *key)
{
    struct cfobj *d = typed(dict, T_DICTIONARY, "dbl_cf_get");

    for (size_t i = 0; i < d->u.dict.n; i++)
        if (d->u.dict.keys[i]->type == T_STRING && strcmp(d->u.dict.keys[i]->u.string, key) == 0)
            return d->u.dict.values[i];
    return NULL;
}

void
CFDictionaryApplyFunction(CFDictionaryRef dict, CFDictionaryApplierFunction applier, void *context)
{
    struct cfobj *d = typed(dict, T_DICTIONARY, "CFDictionaryApplyFunction");

    for (size_t i = 0; i < d->u.dict.n; i++)
        applier(d->u.dict.keys[i], d->u.dict.values[i], context);
}

CFIndex
CFArrayGetCount(CFArrayRef array)
{
    return (CFIndex)typed(array, T_ARRAY, "CFArrayGetCount")->u.array.n;
}

/* An index out of range is a crash (CFArray.h: "must be ... in the range"). */
const void *
CFArrayGetValueAtIndex(CFArrayRef array, CFIndex i)
{
    struct cfobj *a = typed(array, T_ARRAY, "CFArrayGetValueAtIndex");

    if (i < 0 || (size_t)i >= a->u.array.n)
        dbl_violation("CFArrayGetValueAtIndex(%ld) of an array of %zu", (long)i, a->u.array.n);
    return a->u.array.values[i];
}

/* The tests' constructors. */
void *dbl_cf_dict(void) { return make(T_DICTIONARY); }
void *dbl_cf_array(void) { return make(T_ARRAY); }
void *dbl_cf_bool(int v) { return v ? &true_obj : &false_obj; }
void dbl_cf_release(void *o) { CFRelease(o); }

void *
dbl_cf_string(const char *s)
{
    struct cfobj *o = make(T_STRING);

    if ((o->u.string = strdup(s)) == NULL)
        dbl_violation("out of memory");
    return o;
}

void *
dbl_cf_number(int64_t v)
{
    struct cfobj *o = make(T_NUMBER);

    o->u.number.i = v;
    return o;
}

void *
dbl_cf_float(double v)
{
    struct cfobj *o = make(T_NUMBER);

    o->u.number.f = v;
    o->u.number.is_float = 1;
    return o;
}

void *
dbl_cf_data(const void *bytes, size_t len)
{
    struct cfobj *o = make(T_DATA);

    if ((o->u.data.bytes = malloc(len ? len : 1)) == NULL)
        dbl_violation("out of memory");
    memcpy(o->u.data.bytes, bytes, len);
    o->u.data.len = len;
    return o;
}

void *
dbl_cf_opaque(void)
{
    return make(T_OPAQUE);
}

/* The keys the double's own dictionaries are given by name, each made
 * once and kept as a constant (never freed, not counted alive), as a
 * CFSTR is: a day's samples put thousands a second. Half the table at
 * most; past that a key is made each time. */
#define KEYS 2048
static struct cfobj key_objs[KEYS];
static unsigned int nkeys;

static struct cfobj *
key_named(const char *key)
{
    uint32_t h = 2166136261u;           /* FNV-1a */
    unsigned int at;

    for (const char *c = key; *c != '\0'; c++)
        h = (h ^ (unsigned char)*c) * 16777619u;
    for (at = h % KEYS; key_objs[at].magic == MAGIC; at = (at + 1) % KEYS)
        if (strcmp(key_objs[at].u.string, key) == 0)
            return &key_objs[at];
    if (nkeys == KEYS / 2)
        return dbl_cf_string(key);
    key_objs[at] = (struct cfobj){ NULL, MAGIC, T_STRING, 1, 1, { .string = strdup(key) } };
    if (key_objs[at].u.string == NULL)
        dbl_violation("out of memory");
    nkeys++;
    return &key_objs[at];
}

void
dbl_cf_put(void *dict, const char *key, void *value)
{
    struct cfobj *k = key_named(key);

    dict_put(typed(dict, T_DICTIONARY, "dbl_cf_put"), k, obj(value, "dbl_cf_put"));
    CFRelease(k);
    CFRelease(value);
}

void
dbl_cf_append(void *array, void *value)
{
    struct cfobj *a = typed(array, T_ARRAY, "dbl_cf_append");

    if (a->u.array.n == a->u.array.cap) {
        a->u.array.cap = a->u.array.cap ? 2 * a->u.array.cap : 8;
        if ((a->u.array.values = realloc(a->u.array.values, a->u.array.cap * sizeof(*a->u.array.values))) == NULL)
            dbl_violation("out of memory");
    }
    a->u.array.values[a->u.array.n++] = obj(value, "dbl_cf_append");   /* consumes the caller's reference */
}

/* A reference the double gives out of an object it keeps (a Copy). */
void *
dbl_cf_retain(void *o)
{
    return retain(obj(o, "retain"));
}

/* A fresh copy, as IOKit unserializes a property for each call. */
void *
dbl_cf_copy(const void *from)
{
    struct cfobj *o = obj(from, "copy"), *c;

    switch (o->type) {
    case T_BOOLEAN:
        return o;
    case T_STRING:
        return dbl_cf_string(o->u.string);
    case T_DATA:
        return dbl_cf_data(o->u.data.bytes, o->u.data.len);
    case T_NUMBER:
        c = make(T_NUMBER);
        c->u.number = o->u.number;
        return c;
    case T_DICTIONARY:
        c = make(T_DICTIONARY);
        for (size_t i = 0; i < o->u.dict.n; i++) {
            struct cfobj *v = dbl_cf_copy(o->u.dict.values[i]);

            dict_put(c, o->u.dict.keys[i], v);
            CFRelease(v);
        }
        return c;
    case T_ARRAY:
        c = make(T_ARRAY);
        for (size_t i = 0; i < o->u.array.n; i++)
            dbl_cf_append(c, dbl_cf_copy(o->u.array.values[i]));
        return c;
    default:
        return retain(o);
    }
}
