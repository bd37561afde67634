/*
 * Data recorded on real Macs, loaded into the double: IOReport channel
 * lists, SMC key dumps and HID sensor listings from the corpus beside the
 * project (real_macs_file.h).
 */
#ifndef PMDA_DARWIN_LIVE_REAL_MACS_H
#define PMDA_DARWIN_LIVE_REAL_MACS_H

#include <stdint.h>

#include "real_macs_file.h"

/* An IOReport channel list (lines "name<TAB>unit"): each line a simple
 * channel of the "Energy Model" group without a subgroup, of value
 * value(i) for the ith (0 first). Returns how many. */
unsigned int real_ioreport_channels(const char *path, int64_t (*value)(unsigned int i));

/* An SMC key dump (VirtualSMC's smcread -s lines "[KEY] type [TYPE] ... len
 * [N] ... -> HEX" or "-> NOT READABLE, code RESULT"): each key with its
 * type and bytes, or refused with that result. Returns how many keys. */
unsigned int real_smc_keys(const char *path);
/* A key the last dump loaded: 1 with its type and bytes (len 0: not
 * readable), or 0 when the dump has no such key. */
int real_smc_key(const char *key, char type[5], unsigned char bytes[32], unsigned int *len);

/* iSMC's table of an Apple Silicon Mac ("DESCRIPTION KEY VALUE TYPE"):
 * each key of type flt, its value as the SMC gives it (a float,
 * little-endian). Returns how many; real_ismc_flt_key gives the ith (0
 * first) key, with its description and value. */
unsigned int real_ismc_flt_keys(const char *path);
const char *real_ismc_flt_key(unsigned int i, const char **description, double *celsius);

/* A HID sensor listing ("Product | celsius" lines, or iSMC's table rows of
 * type hid): each a sensor. Returns how many. */
unsigned int real_hid_sensors(const char *path);
/* The ith sensor (0 first) the last listing loaded: its Product and reading. */
const char *real_hid_sensor(unsigned int i, double *celsius);

#endif
