/*
 * IOKit's NVMe SMART plug-in, which Apple declares only in its SDK
 * (IOKit/storage/nvme/NVMeSMARTLibExternal.h, not published as source):
 *  - the plug-in type is the one the NVMe block device lists in its
 *    "IOCFPlugInTypes" ("AA0FA6F9-C2D6-457F-B10B-59A13253292F" =
 *    "NVMeSMARTLib.plugin": shared/real-macs whole/macbookair10-1-m1-
 *    macos11.0.1.txt, the M1's IOEmbeddedNVMeBlockDevice, beside
 *    "NVMe SMART Capable" = Yes);
 *  - the interface id and the function table as smartmontools declares
 *    them from that header (smartmontools f1d0da9ce8 lib/os_darwin.h:
 *    22-75): IUnknown's table, a version and a revision, then
 *    SMARTReadData, which fills the 512-byte SMART / Health log page
 *    (02h). The entries after it are not called here and not declared.
 * Shared by the live file (nvme_health.c) and the harness's double.
 */
#ifndef PMDA_DARWIN_NVME_SMART_INTERFACE_H
#define PMDA_DARWIN_NVME_SMART_INTERFACE_H

#include <CoreFoundation/CoreFoundation.h>
#include <IOKit/IOCFPlugIn.h>

#define NVME_SMART_CAPABLE_KEY "NVMe SMART Capable"

/* AA0FA6F9-C2D6-457F-B10B-59A13253292F */
#define NVME_SMART_USER_CLIENT_TYPE                                                                          \
    CFUUIDGetConstantUUIDWithBytes(NULL, 0xAA, 0x0F, 0xA6, 0xF9, 0xC2, 0xD6, 0x45, 0x7F, 0xB1, 0x0B, 0x59, 0xA1, \
                                   0x32, 0x53, 0x29, 0x2F)
/* CCD1DB19-FD9A-4DAF-BF95-12454B230AB6 */
#define NVME_SMART_INTERFACE                                                                                 \
    CFUUIDGetConstantUUIDWithBytes(NULL, 0xCC, 0xD1, 0xDB, 0x19, 0xFD, 0x9A, 0x4D, 0xAF, 0xBF, 0x95, 0x12, 0x45, \
                                   0x4B, 0x23, 0x0A, 0xB6)

struct nvme_smart_interface {
    IUNKNOWN_C_GUTS;
    UInt16 version;
    UInt16 revision;
    IOReturn (*SMARTReadData)(void *interface, void *page);
};

#endif
