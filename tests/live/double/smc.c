/*
 * The AppleSMC user client, as the open SMC tools use it on real Macs
 * (smcFanControl smc-command/smc.h and smc.c @e1bd672; Stats SMC/smc.swift
 * @1ab6adb5; Apple publishes neither the call nor the struct):
 *  - IOServiceOpen on the AppleSMC service with type 0 (SMCOpen);
 *  - IOConnectCallStructMethod selector 2 (KERNEL_INDEX_SMC) with the
 *    80-byte SMCKeyData_t in and out: key (UInt32, the four characters
 *    first-is-highest) at 0, keyInfo.dataSize (UInt32) at 28,
 *    keyInfo.dataType (UInt32, four characters likewise) at 32, result at
 *    40, data8 (the command) at 42, bytes[32] at 48;
 *  - command 9 (SMC_CMD_READ_KEYINFO) answers the key's size and type;
 *    command 5 (SMC_CMD_READ_BYTES) its bytes, asked with keyInfo.dataSize
 *    set to that size (SMCReadKey2 does so);
 *  - result 0 is success; 0x84 (132) the key does not exist; 0x85 it
 *    cannot be read; 0x80 (collision), 0xb7 (timeout) and the like are the
 *    SMC's passing troubles (acidanthera/OpenCorePkg
 *    Include/Apple/IndustryStandard/AppleSmc.h @a9cbcd9a, SMC_STATUS).
 * Keys come from a test or from Intel SMC key dumps (tests/live/harness/
 * real_macs.c reads shared/real-macs/smc).
 * Around sleep and wake the SMC's answers fail for a while and then pass:
 * Apple's own SMC clients read again on failure (PowerManagement-1846.0.25
 * AppleSmartBatteryManager/AppleBatteryAuth.cpp:125-144, up to 5 more
 * tries 700 ms apart). What the user client returns then no source says;
 * the double answers opens and calls with kIOReturnBusy (xnu-11417.101.15
 * iokit/IOKit/IOReturn.h:168) for the window a test sets on the virtual
 * clock.
 */
#include "double.h"

#include <IOKit/IOKitLib.h>
#include <stdio.h>
#include <string.h>

enum { CALL_SIZE = 80, AT_KEY = 0, AT_SIZE = 28, AT_TYPE = 32, AT_RESULT = 40, AT_COMMAND = 42, AT_BYTES = 48 };
enum { SELECTOR = 2, READ_BYTES = 5, READ_KEYINFO = 9 };
enum { RESULT_OK = 0, RESULT_NO_KEY = 0x84 };

#define MAX_KEYS 4096

static struct key {
    char name[5], type[5];
    unsigned char bytes[32];
    size_t len;
    uint8_t unreadable;             /* the result of reading its bytes; 0: readable */
} keys[MAX_KEYS];
static unsigned int nkeys;
static uint64_t busy_until_ns;      /* the virtual clock's time the Mac is awake again */

static struct key *
find(const char *name)
{
    for (unsigned int i = 0; i < nkeys; i++)
        if (memcmp(keys[i].name, name, 4) == 0)
            return &keys[i];
    return NULL;
}

static struct key *
key_named(const char *name)
{
    struct key *k = find(name);

    if (k != NULL)
        return k;
    if (strlen(name) != 4 || nkeys == MAX_KEYS)
        dbl_violation("SMC key \"%s\": four characters, at most %d keys", name, MAX_KEYS);
    k = &keys[nkeys++];
    memset(k, 0, sizeof(*k));
    memcpy(k->name, name, 4);
    return k;
}

void
dbl_smc_key(const char *name, const char *type, const void *bytes, size_t len)
{
    struct key *k = key_named(name);

    if (strlen(type) != 4 || len == 0 || len > sizeof(k->bytes))
        dbl_violation("SMC key %s: type \"%s\" of %zu bytes", name, type, len);
    memcpy(k->type, type, 4);
    memcpy(k->bytes, bytes, len);
    k->len = len;
}

void
dbl_smc_unreadable(const char *name, uint8_t result)
{
    key_named(name)->unreadable = result;
}

/* A key's faults are control.c's, under the name "SMC key NAME". */
static const char *
fault_name(const char *key, char *buf, size_t len)
{
    snprintf(buf, len, "SMC key %.4s", key);
    return buf;
}

void
dbl_smc_fail(const char *name, unsigned int nth, uint8_t result)
{
    char fn[16];

    key_named(name);
    dbl_fail(fault_name(name, fn, sizeof(fn)), nth, result);
}

void
dbl_smc_sleep_wake(uint64_t ns)
{
    busy_until_ns = dbl_clock_ns() + ns;
}

static int
sleeping_or_waking(void)
{
    return dbl_clock_ns() < busy_until_ns;
}

/* Part of dbl_private_reset (private.c). */
void
dbl_smc_reset(void)
{
    nkeys = 0;
    busy_until_ns = 0;
}

int
dbl_service_open(const char *class_name, uint32_t type)
{
    int err;

    if (strcmp(class_name, "AppleSMC") != 0)
        dbl_violation("IOServiceOpen(%s): the double has no user client of that class", class_name);
    if (type != 0)
        dbl_violation("IOServiceOpen(AppleSMC, type %u): the SMC tools open type 0", type);
    if ((err = dbl_failing("IOServiceOpen")) != 0)
        return err;
    return sleeping_or_waking() ? kIOReturnBusy : KERN_SUCCESS;
}

static uint32_t
word(const unsigned char *at)
{
    uint32_t v;

    memcpy(&v, at, sizeof(v));
    return v;
}

static void
put_word(unsigned char *at, uint32_t v)
{
    memcpy(at, &v, sizeof(v));
}

/* The four characters of a key or type word, first-is-highest. */
static void
chars(uint32_t v, char out[5])
{
    snprintf(out, 5, "%c%c%c%c", (char)(v >> 24), (char)(v >> 16), (char)(v >> 8), (char)v);
}

static uint32_t
packed(const char *s)
{
    return (uint32_t)(uint8_t)s[0] << 24 | (uint32_t)(uint8_t)s[1] << 16 | (uint32_t)(uint8_t)s[2] << 8 |
           (uint32_t)(uint8_t)s[3];
}

/* The result a test made this call that names k fail with, or 0. */
static uint8_t
failing_now(const struct key *k)
{
    char fn[16];

    return (uint8_t)dbl_failing(fault_name(k->name, fn, sizeof(fn)));
}

static uint8_t
answer(const unsigned char *in, unsigned char *out)
{
    char name[5];
    struct key *k;
    uint8_t failed;

    chars(word(in + AT_KEY), name);
    if ((k = find(name)) == NULL)
        return RESULT_NO_KEY;
    if ((failed = failing_now(k)) != 0)
        return failed;
    if (k->len == 0)
        return RESULT_NO_KEY;
    switch (in[AT_COMMAND]) {
    case READ_KEYINFO:
        put_word(out + AT_SIZE, (uint32_t)k->len);
        put_word(out + AT_TYPE, packed(k->type));
        return RESULT_OK;
    case READ_BYTES:
        if (word(in + AT_SIZE) != k->len)
            dbl_violation("SMC read of %s with size %u, not its %zu", name, word(in + AT_SIZE), k->len);
        if (k->unreadable)
            return k->unreadable;
        memcpy(out + AT_BYTES, k->bytes, k->len);
        return RESULT_OK;
    default:
        dbl_violation("SMC command %u: not one the live code sends", in[AT_COMMAND]);
    }
}

int
dbl_service_call(const char *class_name, uint32_t selector, const void *in, size_t in_size, void *out,
                 size_t *out_size)
{
    int err;

    if (strcmp(class_name, "AppleSMC") != 0 || selector != SELECTOR)
        dbl_violation("IOConnectCallStructMethod(%s, %u): not the SMC's selector 2", class_name, selector);
    if (in_size != CALL_SIZE || out_size == NULL || *out_size != CALL_SIZE)
        dbl_violation("IOConnectCallStructMethod: %zu bytes in, not the 80-byte SMCKeyData_t", in_size);
    if ((err = dbl_failing("IOConnectCallStructMethod")) != 0)
        return err;
    if (sleeping_or_waking())
        return kIOReturnBusy;
    memset(out, 0, CALL_SIZE);
    ((unsigned char *)out)[AT_RESULT] = answer(in, out);
    return KERN_SUCCESS;
}
