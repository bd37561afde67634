/*
 * For the macOS build from Linux (cmake/zig-macos.cmake): the part of
 * IOKitLib.h (IOKitUser's IOKitLib.h, IOTypes.h, IOKitKeys.h, IOReturn.h)
 * that src/macos/ uses, declared as Apple documents it, because the Zig
 * toolchain carries no framework headers. Written here, not copied; on a
 * Mac the real SDK is used instead. packaging/macos/sdk/IOKit.tbd lets the
 * linker resolve the symbols against the framework's install name.
 */
#ifndef PMDA_DARWIN_CROSS_IOKITLIB_H
#define PMDA_DARWIN_CROSS_IOKITLIB_H

#include <CoreFoundation/CoreFoundation.h>
#include <mach/mach.h>
#include <stdint.h>

typedef mach_port_t io_object_t;
typedef io_object_t io_iterator_t;
typedef io_object_t io_registry_entry_t;
typedef io_object_t io_service_t;
typedef io_object_t io_connect_t;
typedef mach_port_t task_port_t;
typedef char io_name_t[128];
typedef char io_string_t[512];
typedef UInt32 IOOptionBits;
typedef kern_return_t IOReturn;            /* xnu-11417.101.15 iokit/IOKit/IOReturn.h:86 */

#define IO_OBJECT_NULL ((io_object_t)0)

/* IOReturn.h (xnu-11417.101.15 iokit/IOKit/IOReturn.h:143, :146, :154, :168,
 * :169, :183): iokit_common_err(0x2be), (0x2c1), (0x2c7), (0x2d5), (0x2d6), (0x2e2). */
#define kIOReturnSuccess ((kern_return_t)0)
#define kIOReturnNoResources ((kern_return_t)0xe00002be)
#define kIOReturnNotPrivileged ((kern_return_t)0xe00002c1)
#define kIOReturnUnsupported ((kern_return_t)0xe00002c7)
#define kIOReturnBusy ((kern_return_t)0xe00002d5)
#define kIOReturnTimeout ((kern_return_t)0xe00002d6)
#define kIOReturnNotPermitted ((kern_return_t)0xe00002e2)
#define kIOServicePlane "IOService"
#define kIODeviceTreePlane "IODeviceTree"

kern_return_t IOObjectRelease(io_object_t object);
kern_return_t IOObjectGetClass(io_object_t object, io_name_t className);
io_object_t IOIteratorNext(io_iterator_t iterator);
void IOIteratorReset(io_iterator_t iterator);
boolean_t IOIteratorIsValid(io_iterator_t iterator);

CFMutableDictionaryRef IOServiceMatching(const char *name);
kern_return_t IOServiceGetMatchingServices(mach_port_t mainPort, CFDictionaryRef matching, io_iterator_t *existing);

io_service_t IOServiceGetMatchingService(mach_port_t mainPort, CFDictionaryRef matching);
kern_return_t IOServiceOpen(io_service_t service, task_port_t owningTask, uint32_t type, io_connect_t *connect);
kern_return_t IOServiceClose(io_connect_t connect);
kern_return_t IOConnectCallStructMethod(mach_port_t connection, uint32_t selector, const void *inputStruct,
                                        size_t inputStructCnt, void *outputStruct, size_t *outputStructCnt);

io_registry_entry_t IORegistryEntryFromPath(mach_port_t mainPort, const io_string_t path);
kern_return_t IORegistryEntryGetName(io_registry_entry_t entry, io_name_t name);
kern_return_t IORegistryEntryGetRegistryEntryID(io_registry_entry_t entry, uint64_t *entryID);
kern_return_t IORegistryEntryGetChildIterator(io_registry_entry_t entry, const io_name_t plane, io_iterator_t *iterator);
kern_return_t IORegistryEntryGetParentEntry(io_registry_entry_t entry, const io_name_t plane,
                                            io_registry_entry_t *parent);
CFTypeRef IORegistryEntryCreateCFProperty(io_registry_entry_t entry, CFStringRef key, CFAllocatorRef allocator,
                                          IOOptionBits options);
kern_return_t IORegistryEntryCreateCFProperties(io_registry_entry_t entry, CFMutableDictionaryRef *properties,
                                                CFAllocatorRef allocator, IOOptionBits options);

#endif
