/*
 * SMC keys through the AppleSMC user client: a private, reverse-engineered
 * interface (Apple publishes neither the call nor the struct). What it
 * relies on, as the long-standing open tools (smcFanControl's smc.c, Stats,
 * iStats) use it and as every Intel and Apple Silicon Mac answers it:
 *  - IOServiceOpen on the "AppleSMC" service, type 0; no root needed;
 *  - IOConnectCallStructMethod selector 2 with an 80-byte struct (below),
 *    command in data8: 9 reads a key's info (size, four-character type),
 *    5 reads its bytes; result 0 is success, 0x84 no such key, 0x85 a key
 *    that cannot be read; other results (0x80 collision, 0xb7 timeout,
 *    ...: acidanthera/OpenCorePkg AppleSmc.h's SMC_STATUS) are the SMC's
 *    passing troubles.
 * Upstream PCP used a 76-byte struct with the command in a leading byte and
 * took the size from the wrong half of a 16-bit field, so no read succeeded.
 *
 * Each key's info is asked until the SMC answers it, then kept (absent
 * keys too), so a refresh makes one call per key that exists. The
 * connection is opened at the first read and closed at the source's
 * close. A Mac without an SMC (a VM), a refused open (macOS 27 refuses
 * unprivileged ones with kIOReturnNotPermitted: crystalidea/
 * macs-fan-control 908) and a read of which no call reached the SMC (it
 * is busy around sleep and wake; a result from it, even a passing
 * error, is an answer, and fails only its key; Apple's own SMC clients
 * read again then, PowerManagement-1846.0.25 AppleSmartBatteryManager/
 * AppleBatteryAuth.cpp:125-144) are tried again at retry.c's bounded rate, and every read
 * between says why. The bytes are recorded raw; thermal_decode.c decodes
 * them by type.
 */
#include "live_source.h"

#include <IOKit/IOKitLib.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct smc_call {
    uint32_t key;
    struct { uint8_t major, minor, build, reserved; uint16_t release; } vers;
    struct { uint16_t version, length; uint32_t cpu_limit, gpu_limit, mem_limit; } limits;
    struct { uint32_t size; uint32_t type; uint8_t attributes; } info;
    uint8_t result;
    uint8_t status;
    uint8_t command;
    uint32_t data32;
    uint8_t bytes[32];
};
_Static_assert(offsetof(struct smc_call, info) == 28, "keyInfo at 28");
_Static_assert(offsetof(struct smc_call, result) == 40, "result at 40");
_Static_assert(offsetof(struct smc_call, command) == 42, "data8 at 42");
_Static_assert(offsetof(struct smc_call, bytes) == 48, "bytes at 48");
_Static_assert(sizeof(struct smc_call) == 80, "the 80-byte SMCKeyData_t");

enum { SMC_SELECTOR = 2, SMC_READ_BYTES = 5, SMC_READ_INFO = 9 };
enum { SMC_OK = 0, SMC_NO_KEY = 0x84, SMC_NOT_READABLE = 0x85 };
enum key_state { KEY_ABSENT = 1, KEY_PRESENT };

struct smc_key {
    uint32_t key;
    enum key_state state;
    uint32_t size, type;
};

#define SMC_MAX_KEYS 256            /* both queries' keys, and room to spare */

struct live_smc {
    char why[128];                  /* the last failure of an open or a call */
    struct live_retry retry;        /* after a failed open, or a read of which no call passed */
    unsigned int passed, failed;    /* the calls of this read that the SMC answered, and not */
    io_connect_t conn;
    unsigned int nkeys;
    struct smc_key keys[SMC_MAX_KEYS];
};

static uint32_t
fourcc(const char *s)
{
    return (uint32_t)(uint8_t)s[0] << 24 | (uint32_t)(uint8_t)s[1] << 16 | (uint32_t)(uint8_t)s[2] << 8 |
           (uint32_t)(uint8_t)s[3];
}

/* 0; -ENOENT for a key the SMC does not have, -EACCES for one it cannot
 * read; -EIO for any other result, which passes, and for a call that did
 * not reach the SMC (its text in smc->why). */
static int
smc_call(struct live_smc *smc, struct smc_call *in, struct smc_call *out)
{
    size_t len = sizeof(*out);
    kern_return_t kr;

    memset(out, 0, sizeof(*out));
    if ((kr = IOConnectCallStructMethod(smc->conn, SMC_SELECTOR, in, sizeof(*in), out, &len)) != KERN_SUCCESS) {
        snprintf(smc->why, sizeof(smc->why), "%s", mach_error_string(kr));
        smc->failed++;
        return -EIO;
    }
    smc->passed++;                  /* the SMC answered, whatever its result */
    return out->result == SMC_OK ? 0 : out->result == SMC_NO_KEY ? -ENOENT
           : out->result == SMC_NOT_READABLE ? -EACCES : -EIO;
}

static int
open_error(kern_return_t kr)
{
    return kr == kIOReturnNotPermitted || kr == kIOReturnNotPrivileged ? -EPERM : kr == kIOReturnBusy ? -EBUSY : -EACCES;
}

static int
smc_open(struct live_source *src, struct live_smc *smc)
{
    io_service_t service = IOServiceGetMatchingService(MACH_PORT_NULL, IOServiceMatching("AppleSMC"));
    kern_return_t kr;

    if (service == IO_OBJECT_NULL)
        return live_fail(src, -ENOENT, "SMC: no AppleSMC service");
    kr = IOServiceOpen(service, mach_task_self(), 0, &smc->conn);
    IOObjectRelease(service);
    if (kr != KERN_SUCCESS) {
        smc->conn = IO_OBJECT_NULL;
        return live_fail(src, open_error(kr), "SMC: IOServiceOpen(AppleSMC): %s", mach_error_string(kr));
    }
    return 0;
}

/* The key's cached info, asking the SMC the first time, and again after
 * a passing failure; NULL while it is not known. */
static const struct smc_key *
key_info(struct live_smc *smc, const char *name)
{
    uint32_t key = fourcc(name);
    struct smc_call in = { .key = key, .command = SMC_READ_INFO }, out;
    struct smc_key *k;
    int sts;

    for (unsigned int i = 0; i < smc->nkeys; i++)
        if (smc->keys[i].key == key)
            return &smc->keys[i];
    if (smc->nkeys == SMC_MAX_KEYS || (sts = smc_call(smc, &in, &out)) == -EIO)
        return NULL;
    k = &smc->keys[smc->nkeys++];
    k->key = key;
    k->state = KEY_ABSENT;
    if (sts == 0 && out.info.size > 0 && out.info.size <= sizeof(out.bytes)) {
        k->state = KEY_PRESENT;
        k->size = out.info.size;
        k->type = out.info.type;
    }
    return k;
}

int
live_smc(struct live_source *src, const struct plat_query *q, struct plat_entry_set *out)
{
    struct live_smc *smc = src->smc;
    int sts;

    if (smc == NULL && (smc = src->smc = calloc(1, sizeof(*smc))) == NULL)
        return live_fail(src, -ENOMEM, "SMC: out of memory");
    if (!live_retry_due(&smc->retry))
        return live_retry_repeat(src, &smc->retry);
    if (smc->conn == IO_OBJECT_NULL && (sts = smc_open(src, smc)) < 0)
        return live_retry_after(src, &smc->retry, sts);
    smc->passed = smc->failed = 0;
    for (const char *const *name = q->keys; *name != NULL; name++) {
        const struct smc_key *k = key_info(smc, *name);
        struct smc_call in = { 0 }, res;
        char type[5];

        if (k == NULL || k->state != KEY_PRESENT)
            continue;
        snprintf(type, sizeof(type), "%c%c%c%c", (char)(k->type >> 24), (char)(k->type >> 16),
                 (char)(k->type >> 8), (char)k->type);
        in.key = k->key;
        in.info.size = k->size;
        in.command = SMC_READ_BYTES;
        if ((sts = entry_builder_entry(&src->entries, k->key, 0, *name, "AppleSMC")) < 0 ||
            (sts = entry_builder_string(&src->entries, "type", type)) < 0)
            return live_fail(src, sts, "SMC %s: %s", *name, strerror(-sts));
        if (smc_call(smc, &in, &res) == 0 &&
            (sts = entry_builder_data(&src->entries, "bytes", res.bytes, k->size)) < 0)
            return live_fail(src, sts, "SMC %s: %s", *name, strerror(-sts));
    }
    if (smc->failed > 0 && smc->passed == 0) {      /* asleep or waking, or a connection gone bad */
        IOServiceClose(smc->conn);                  /* the retry opens a new one */
        smc->conn = IO_OBJECT_NULL;
        return live_retry_after(src, &smc->retry, live_fail(src, -EBUSY, "SMC: busy: %s", smc->why));
    }
    live_retry_after(src, &smc->retry, 0);
    entry_builder_finish(&src->entries, out);
    return out->n > 0 ? 0 : live_fail(src, -ENOENT, "SMC: none of the keys of %s", q->match);
}

void
live_smc_close(struct live_source *src)
{
    if (src->smc != NULL && src->smc->conn != IO_OBJECT_NULL)
        IOServiceClose(src->smc->conn);     /* a connection is closed, never IOObjectRelease'd */
    free(src->smc);
    src->smc = NULL;
}
