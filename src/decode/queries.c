/*
 * Every IORegistry query the agent makes, in one list, so that
 * darwin-snapshot records each of them and a replay answers them.
 *
 * A key with '.' in it names a value inside a dictionary property
 * ("Device Characteristics.Medium Type"), so that only that value is read
 * and recorded (the rest of that dictionary holds serial numbers).
 */
#include "platform.h"
#include "ane_decode.h"
#include "battery_decode.h"
#include "cpu_rails.h"
#include "gpu_decode.h"
#include "gpu_clients_decode.h"
#include "registry_decode.h"
#include "thermal_decode.h"
#include "wifi_decode.h"

#include <stddef.h>

/* Apple Silicon's device tree: one child of /cpus per CPU (Intel Macs have
 * no such node). */
static const char *const cpu_keys[] = { "logical-cpu-id", "cluster-type", NULL };

/* Whole disks: each IOBlockStorageDriver, its IOMedia child (the whole
 * disk: partitions hang below it) and two ancestors, the block storage
 * device and its provider, one of which says how the disk is attached
 * (NVMe: the device; USB and SATA: the SCSI peripheral above it); the keys
 * as registry_decode.h lists them. */
static const char *const disk_keys[] = { DISK_STATISTICS_KEYS(REG_KEY_PATH) DISK_OTHER_KEYS, NULL };

/* APFS: each container, its volumes, and the chain above it down to the
 * physical store: AppleAPFSMedia (the container's synthesized disk, e.g.
 * disk3), AppleAPFSContainerScheme, the partition IOMedia (disk0s2), its
 * partition scheme, and the whole disk's IOMedia (disk0). */
static const char *const apfs_keys[] = { APFS_STATISTICS_KEYS(REG_KEY_PATH) APFS_OTHER_KEYS, NULL };

/* GPUs: each IOAccelerator (Apple Silicon's AGXAccelerator, AMD's and
 * Intel's accelerators) and its provider, the PCI device that names a
 * discrete GPU's model and VRAM (gpu_decode.h). */
static const char *const gpu_keys[] = { GPU_KEYS(REG_KEY_PATH, REG_KEY_PATH, REG_KEY_NONE) GPU_TEXT_KEYS, NULL };

/* The GPU's user clients on Apple Silicon, one per connection a process
 * opened to the GPU, naming that process and its GPU time
 * (gpu_clients_decode.h): the children of each AGXAccelerator (the
 * IOAccelerator subclass of Apple's GPUs). A user client is never
 * registered, so IOServiceGetMatchingServices does not find it by its own
 * class (xnu-11417.101.15 iokit/Kernel/IOService.cpp:6239-6247 and
 * 6066-6068 take only services in the matched state; the M1's dump shows
 * every AGXDeviceUserClient "!registered, !matched"); macmon reaches them
 * the same way, as the accelerators' children (vladkens/macmon
 * src/app/procs.rs read_gpu_clients). */
static const char *const gpu_client_keys[] = { GPU_CLIENT_KEYS, NULL };

/* Each network interface with its parent (the Wi-Fi controller of a
 * Wi-Fi interface), for the link the interface is associated on
 * (wifi_decode.h). Every interface: on the releases dumped the Wi-Fi
 * interfaces are of several classes (IO80211Interface, and the virtual
 * ones over the same radio), all of them IONetworkInterfaces. */
static const char *const wifi_keys[] = { WIFI_KEYS, NULL };

/* The internal battery, as the battery driver publishes it (key names:
 * xnu iokit/IOKit/pwr_mgt/IOPM.h kIOPMPS*, and PowerManagement's
 * AppleSmartBatteryKeys.h): the capacities at the top level up to macOS
 * 26, inside BatteryData from macOS 27, where the AppleSmartBatteryPack
 * entry has the temperature (battery_decode.c). Its serial numbers are not
 * read. */
static const char *const battery_keys[] = {
    BATTERY_KEYS(REG_KEY_PATH, REG_KEY_PATH, REG_KEY_NONE) BATTERY_TEXT_KEYS, NULL,
};
static const char *const battery_pack_keys[] = { BATTERY_KEYS(REG_KEY_NONE, REG_KEY_NONE, REG_KEY_PATH) NULL };

/* The SMC keys of Intel Macs' temperature sensors (their list and meaning:
 * thermal_decode.h), and of the fans on every Mac that has them. */
#define SMC_KEY_NAME(key, location, role, description) key,
const char *const plat_smc_temperature_keys[] = { SMC_TEMPERATURE_KEYS(SMC_KEY_NAME) NULL };
static const char *const smc_fan_keys[] = { FAN_COUNT_KEY, FAN_KEYS NULL };

/* Apple Silicon's power manager in the device tree: its DVFS tables
 * ("voltage-statesN" and "voltage-statesN-sram", pairs of little-endian
 * u32 frequency and voltage; N up to 31 on the chips peers have dumped)
 * and, from the M5 on, "acc-clusters", which says which table is which
 * cluster's (dvfs_decode.h). Read once: they do not change. */
#define VOLTAGE_STATES(n) "voltage-states" #n, "voltage-states" #n "-sram",
#define VOLTAGE_STATES_8(a, b, c, d, e, f, g, h)                                                        \
    VOLTAGE_STATES(a) VOLTAGE_STATES(b) VOLTAGE_STATES(c) VOLTAGE_STATES(d) VOLTAGE_STATES(e)           \
    VOLTAGE_STATES(f) VOLTAGE_STATES(g) VOLTAGE_STATES(h)
static const char *const pmgr_keys[] = {
    VOLTAGE_STATES_8(0, 1, 2, 3, 4, 5, 6, 7) VOLTAGE_STATES_8(8, 9, 10, 11, 12, 13, 14, 15)
    VOLTAGE_STATES_8(16, 17, 18, 19, 20, 21, 22, 23) VOLTAGE_STATES_8(24, 25, 26, 27, 28, 29, 30, 31)
    "acc-clusters", NULL,
};

/* The SMC's whole-system power (PSTR, watts; "flt" on Apple Silicon, sp96
 * on older Intel Macs), and the CPU die's hottest and average point, read
 * alone where the HID sensors name no CPU sensor (M1). */
static const char *const smc_power_keys[] = { "PSTR", NULL };
static const char *const smc_cpu_die_keys[] = { "TCMz", "TCMb", NULL };

/* The Neural Engine's driver, and its power state (ane_decode.h). */
static const char *const ane_keys[] = { ANE_STATE_KEY, ANE_STATE_MAX_KEY, NULL };

/* The CPU's power rails, on the chips whose rails are known (cpu_rails.h). */
static const char *const smc_cpu_rail_keys[] = { CPU_RAILS_M3_MAX, NULL };

const struct plat_query plat_queries[PLAT_QUERY_N] = {
    [PLAT_QUERY_CPUS] = { "IODeviceTree:/cpus", 0, cpu_keys, 0 },
    [PLAT_QUERY_DISKS] = { "IOBlockStorageDriver", 1, disk_keys, 2 },
    [PLAT_QUERY_APFS] = { "AppleAPFSContainer", 1, apfs_keys, 5 },
    [PLAT_QUERY_GPUS] = { "IOAccelerator", 0, gpu_keys, 1 },
    [PLAT_QUERY_GPU_CLIENTS] = { "AGXAccelerator", 1, gpu_client_keys, 0 },
    [PLAT_QUERY_BATTERY] = { "AppleSmartBattery", 0, battery_keys, 0 },
    [PLAT_QUERY_BATTERY_PACK] = { "AppleSmartBatteryPack", 0, battery_pack_keys, 0 },
    [PLAT_QUERY_ENERGY] = { "IOReport:energy", 0, NULL, 0 },
    [PLAT_QUERY_HID_TEMPERATURES] = { "HID:temperature", 0, NULL, 0 },
    [PLAT_QUERY_SMC_TEMPERATURES] = { "SMC:temperature", 0, plat_smc_temperature_keys, 0 },
    [PLAT_QUERY_SMC_FANS] = { "SMC:fans", 0, smc_fan_keys, 0 },
    [PLAT_QUERY_THERMAL_PRESSURE] = { "notify:com.apple.system.thermalpressurelevel", 0, NULL, 0 },
    [PLAT_QUERY_PMGR] = { "IODeviceTree:/arm-io/pmgr", 0, pmgr_keys, 0, .itself = 1 },
    [PLAT_QUERY_CPU_CLUSTERS] = { "IOReport:cpu-clusters", 0, NULL, 0 },
    [PLAT_QUERY_CPU_CORES] = { "IOReport:cpu-cores", 0, NULL, 0 },
    [PLAT_QUERY_GPU_STATES] = { "IOReport:gpu", 0, NULL, 0 },
    [PLAT_QUERY_SMC_POWER] = { "SMC:power", 0, smc_power_keys, 0 },
    [PLAT_QUERY_SMC_CPU_DIE] = { "SMC:cpu-die", 0, smc_cpu_die_keys, 0 },
    [PLAT_QUERY_WIFI] = { "IONetworkInterface", 0, wifi_keys, 1 },
    [PLAT_QUERY_BANDWIDTH] = { "IOReport:bandwidth", 0, NULL, 0 },
    [PLAT_QUERY_MEMORY_TRAFFIC] = { "IOReport:memory-traffic", 0, NULL, 0 },
    [PLAT_QUERY_NVME_HEALTH] = { "NVMe:health", 0, NULL, 0 },
    [PLAT_QUERY_SMC_CPU_RAILS] = { "SMC:cpu-rails", 0, smc_cpu_rail_keys, 0 },
    [PLAT_QUERY_ANE] = { "H11ANEIn", 0, ane_keys, 0 },
    [PLAT_QUERY_ANE_STATES] = { "IOReport:ane", 0, NULL, 0 },
};
