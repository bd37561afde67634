/*
 * Synthetic, not recorded on a real Mac (the day runs without
 * /work/shared), in the layout of a real one's internal SSD (real-macs
 * storage/intel-t2-macbookpro15-2-macos10.15.3-apfs-usb.txt): the block
 * storage device with its characteristics, its IOBlockStorageDriver with
 * "Statistics" (keys as IOKit/storage/IOBlockStorageDriver.h names them),
 * and the whole disk's IOMedia below it. The rates are made up.
 */
#include "day_disk.h"
#include "dbl.h"

#include <stdint.h>

#define BLOCK 4096

/* What one second adds to each statistic. */
static const struct {
    const char *key;
    uint64_t per_second;
} rates[] = {
    { "Operations (Read)", 50 }, { "Operations (Write)", 30 },
    { "Bytes (Read)", 50 * 4 * BLOCK }, { "Bytes (Write)", 30 * 2 * BLOCK },
    { "Total Time (Read)", 50 * 120000 }, { "Total Time (Write)", 30 * 250000 },     /* ns */
    { "Latency Time (Read)", 0 }, { "Latency Time (Write)", 0 },
    { "Errors (Read)", 0 }, { "Errors (Write)", 0 },
    { "Retries (Read)", 0 }, { "Retries (Write)", 0 },
};

static void *statistics;            /* the driver's, which its properties own */

static void *
characteristics(const char *key1, const char *value1, const char *key2, const char *value2)
{
    void *d = dbl_cf_dict();

    dbl_cf_put(d, key1, dbl_cf_string(value1));
    if (key2 != NULL)
        dbl_cf_put(d, key2, dbl_cf_string(value2));
    return d;
}

void
disk_build(void)
{
    void *device = dbl_cf_dict(), *driver = dbl_cf_dict(), *media = dbl_cf_dict();
    unsigned int dev, drv;

    dbl_cf_put(device, "Device Characteristics", characteristics("Medium Type", "Solid State", NULL, NULL));
    dbl_cf_put(device, "Protocol Characteristics", characteristics("Physical Interconnect", "PCI-Express",
                                                                   "Physical Interconnect Location", "Internal"));
    statistics = dbl_cf_dict();
    dbl_cf_put(driver, "Statistics", statistics);
    dbl_cf_put(media, "BSD Name", dbl_cf_string("disk0"));
    dbl_cf_put(media, "Whole", dbl_cf_bool(1));
    dbl_cf_put(media, "Removable", dbl_cf_bool(0));
    dbl_cf_put(media, "Preferred Block Size", dbl_cf_number(BLOCK));
    dbl_cf_put(media, "Size", dbl_cf_number(500277790720));
    dev = dbl_reg_entry(0x100000600, "IONVMeBlockStorageDevice", NULL, "IONVMeBlockStorageDevice", device);
    dbl_reg_attach(dev, "IOService", DBL_REG_ROOT);
    drv = dbl_reg_entry(0x100000601, "IOBlockStorageDriver", NULL, "IOBlockStorageDriver", driver);
    dbl_reg_attach(drv, "IOService", dev);
    dbl_reg_attach(dbl_reg_entry(0x100000602, "APPLE SSD AP0512Z Media", NULL, "IOMedia", media), "IOService", drv);
    disk_tick(0);
}

void
disk_tick(unsigned int second)
{
    for (unsigned int i = 0; i < sizeof(rates) / sizeof(rates[0]); i++)
        dbl_cf_put(statistics, rates[i].key, dbl_cf_number((int64_t)(rates[i].per_second * second)));
}
