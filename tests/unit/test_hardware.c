/*
 * GPU, battery, thermal and energy: the decoders at their edges (SMC byte
 * formats, signed registry numbers, percent versus mAh, still-calculating
 * times, junk sensors) over entries built as the live readers build them,
 * and upstream's defects that must not come back. The fixtures' values
 * through a real pmcd are checked by tests/integration/run.sh.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <errno.h>

#include "agent_harness.h"
#include "battery_decode.h"
#include "energy_decode.h"
#include "gpu_decode.h"
#include "reg_entries.h"
#include "thermal_decode.h"

/* An SMC key's entry as the live reader records it: named by the key, its
 * type and its raw bytes. */
static void
smc_key(uint64_t id, const char *key, const char *type, const unsigned char *bytes, size_t len)
{
    entry(id, 0, key, "AppleSMC");
    text("type", type);
    assert_int_equal(entry_builder_data(&b, "bytes", bytes, len), 0);
}

static void
smc_formats_decode_at_their_edges(void **state)
{
    double v;

    (void)state;
    assert_int_equal(smc_decode("fpe2", (const unsigned char *)"\x21\xc0", 2, &v), 0);
    assert_true(v == 2160.0);                                   /* 0x21c0 / 4 */
    assert_int_equal(smc_decode("fpe2", (const unsigned char *)"\xff\xff", 2, &v), 0);
    assert_true(v == 16383.75);                                 /* unsigned: never negative */
    assert_int_equal(smc_decode("sp78", (const unsigned char *)"\x47\x40", 2, &v), 0);
    assert_true(v == 71.25);
    assert_int_equal(smc_decode("sp78", (const unsigned char *)"\xff\x00", 2, &v), 0);
    assert_true(v == -1.0);                                     /* signed */
    assert_int_equal(smc_decode("sp78", (const unsigned char *)"\x80\x00", 2, &v), 0);
    assert_true(v == -128.0);
    assert_int_equal(smc_decode("flt ", (const unsigned char *)"\x00\x00\x34\x42", 4, &v), 0);
    assert_true(v == 45.0);                                     /* little-endian IEEE single */
    assert_int_equal(smc_decode("ui8 ", (const unsigned char *)"\x02", 1, &v), 0);
    assert_true(v == 2.0);
    assert_int_equal(smc_decode("ui16", (const unsigned char *)"\x01\x00", 2, &v), 0);
    assert_true(v == 256.0);                                    /* big-endian */
    assert_int_equal(smc_decode("ui32", (const unsigned char *)"\xff\xff\xff\xff", 4, &v), 0);
    assert_true(v == 4294967295.0);
    assert_int_equal(smc_decode("si16", (const unsigned char *)"\xff\xfe", 2, &v), 0);
    assert_true(v == -2.0);
    assert_int_equal(smc_decode("fpe2", (const unsigned char *)"\x21", 1, &v), -EINVAL);
    assert_int_equal(smc_decode("flt ", (const unsigned char *)"\0\0", 2, &v), -EINVAL);
    assert_int_equal(smc_decode("ch8*", (const unsigned char *)"ab", 2, &v), -ENOTSUP);
}

/* The query reads exactly the keys the decoder knows the meaning of. */
static void
smc_temperature_keys_match_the_query(void **state)
{
    unsigned int n = 0;

    (void)state;
    for (; plat_smc_temperature_keys[n] != NULL; n++)
        assert_string_equal(plat_smc_temperature_keys[n], smc_temperature_keys[n].key);
    assert_int_equal(n, smc_ntemperature_keys);
}

static void
ambient_is_not_the_cpu_proximity_key(void **state)
{
    static const unsigned char c58[] = { 0x3a, 0x80 }, c31[] = { 0x1f, 0xc0 };
    struct sensor s[8];
    struct plat_entry_set set;
    unsigned int n;
    double v;

    (void)state;
    entry_builder_reset(&b);
    smc_key(1, "TC0P", "sp78", c58, 2);
    smc_key(2, "TA0P", "sp78", c31, 2);
    set = finish();
    sensors_from_smc(&set, s, 8, &n);
    assert_int_equal(n, 2);
    assert_int_equal(sensors_hottest_role(s, n, SMC_CPU_PROXIMITY, &v), 0);
    assert_true(v == 58.5);
    assert_int_equal(sensors_hottest_role(s, n, SMC_AMBIENT, &v), 0);
    assert_true(v == 31.75);
    assert_int_equal(sensors_hottest_role(s, n, SMC_CPU_DIE, &v), -ENODATA);
}

static void
hid_sensors_drop_junk_and_keep_names_apart(void **state)
{
    struct sensor s[8];
    struct plat_entry_set set;
    unsigned int n;
    double v;

    (void)state;
    entry_builder_reset(&b);
    entry(1, 0, "pACC MTR Temp Sensor0", "IOHIDServiceClient");
    assert_int_equal(entry_builder_float(&b, "celsius", 52.5), 0);
    entry(2, 0, "PMU tdie3", "IOHIDServiceClient");
    assert_int_equal(entry_builder_float(&b, "celsius", -9200.0), 0);     /* a sleeping block */
    entry(3, 0, "gas gauge battery", "IOHIDServiceClient");
    assert_int_equal(entry_builder_float(&b, "celsius", 30.5), 0);
    entry(4, 0, "gas gauge battery", "IOHIDServiceClient");
    assert_int_equal(entry_builder_float(&b, "celsius", 30.625), 0);
    entry(5, 0, "ISP MTR Temp Sensor5", "IOHIDServiceClient");         /* no reading */
    set = finish();
    sensors_from_hid(&set, s, 8, &n);
    assert_int_equal(n, 5);
    assert_int_equal(s[0].location, LOC_CPU);
    assert_int_equal(s[1].location, LOC_SOC);
    assert_false(s[1].valid);
    assert_string_equal(s[3].name, "gas gauge battery #2");
    assert_int_equal(s[3].location, LOC_BATTERY);
    assert_false(s[4].valid);
    assert_int_equal(sensors_hottest_at(s, n, LOC_SOC, &v), -ENODATA);  /* junk is no reading */
    assert_int_equal(sensors_hottest_at(s, n, LOC_CPU, &v), 0);
    assert_true(v == 52.5);
}

/* The M5's clusters are "M" and "S" (super) ones, not "E" and "P"
 * (SiliconScope BandwidthSampler.swift: "MACC*" requestors on the M5
 * Max): their sensors are CPU sensors too. */
static void
hid_sensors_of_m5_clusters_are_cpu_sensors(void **state)
{
    struct sensor s[4];
    struct plat_entry_set set;
    unsigned int n;

    (void)state;
    entry_builder_reset(&b);
    entry(1, 0, "sACC MTR Temp Sensor2", "IOHIDServiceClient");
    assert_int_equal(entry_builder_float(&b, "celsius", 61.5), 0);
    entry(2, 0, "mACC MTR Temp Sensor5", "IOHIDServiceClient");
    assert_int_equal(entry_builder_float(&b, "celsius", 58.0), 0);
    set = finish();
    sensors_from_hid(&set, s, 4, &n);
    assert_int_equal(n, 2);
    assert_int_equal(s[0].location, LOC_CPU);
    assert_int_equal(s[1].location, LOC_CPU);
}

static void
flt_key(uint64_t id, const char *key, float celsius)
{
    unsigned char bytes[4];
    uint32_t bits;

    memcpy(&bits, &celsius, sizeof(bits));
    for (int i = 0; i < 4; i++)
        bytes[i] = (unsigned char)(bits >> (8 * i));     /* little-endian, as Apple Silicon's SMC */
    smc_key(id, key, "flt ", bytes, 4);
}

/* Apple Silicon's SMC: the die aggregates TCMz and TCMb (oshi PR 3535,
 * SiliconScope issue 57) and the cores' keys (Stats values.swift) are
 * CPU die temperatures, its GPU keys GPU ones; an Intel Mac's key of the
 * same name is another sensor in another format (MacPro7,1's Tp0P, sp78:
 * shared/real-macs/smc), and no CPU die's. */
static void
apple_silicon_smc_keys_are_its_cpu_and_gpu(void **state)
{
    static const unsigned char psu[] = { 0x24, 0x80 };
    struct sensor s[8];
    struct plat_entry_set set;
    unsigned int n;
    double v;

    (void)state;
    entry_builder_reset(&b);
    flt_key(1, "TCMz", 64.4f);
    flt_key(2, "TCMb", 49.75f);
    flt_key(3, "Tp0X", 30.796875f);
    flt_key(4, "Tg0j", 30.6875f);
    set = finish();
    sensors_from_smc(&set, s, 8, &n);
    assert_int_equal(n, 4);
    assert_int_equal(sensors_hottest_role(s, n, SMC_CPU_DIE, &v), 0);
    assert_true(v > 64.39 && v < 64.41);
    assert_int_equal(sensors_hottest_role(s, n, SMC_GPU_DIE, &v), 0);
    assert_true(v == 30.6875);

    entry_builder_reset(&b);
    smc_key(1, "Tp0P", "sp78", psu, 2);
    set = finish();
    sensors_from_smc(&set, s, 8, &n);
    assert_int_equal(n, 0);
}

/* Readings of real Macs that are no temperatures (shared/real-macs/smc,
 * hid): an SMC key's -127 (sp78 0x8100), an iMac's TC0E of -54, an M1 Mac
 * mini's HID "PMU tdev4" at -21.5. */
static void
readings_at_or_below_zero_are_not_temperatures(void **state)
{
    static const unsigned char none[] = { 0x81, 0x00 }, offset[] = { 0xc9, 0xfd }, warm[] = { 0x26, 0x30 };
    struct sensor s[4];
    struct plat_entry_set set;
    unsigned int n;
    double v;

    (void)state;
    entry_builder_reset(&b);
    smc_key(1, "TC0E", "sp78", offset, 2);
    smc_key(2, "TC0F", "sp78", none, 2);
    smc_key(3, "TC0P", "sp78", warm, 2);
    set = finish();
    sensors_from_smc(&set, s, 4, &n);
    assert_int_equal(n, 3);
    assert_false(s[0].valid);
    assert_false(s[1].valid);
    assert_true(s[2].valid);
    assert_int_equal(sensors_hottest_role(s, n, SMC_CPU_DIE, &v), -ENODATA);   /* not -52.4 */
    entry_builder_reset(&b);
    entry(1, 0, "PMU tdev4", "IOHIDServiceClient");
    assert_int_equal(entry_builder_float(&b, "celsius", -21.5), 0);
    set = finish();
    sensors_from_hid(&set, s, 4, &n);
    assert_false(s[0].valid);
}

static void
fans_and_their_mode_are_read(void **state)
{
    static const unsigned char two = 2, forced = 1, automatic = 0, rpm[] = { 0x1f, 0x0e };
    struct plat_entry_set set;
    struct fans f;

    (void)state;
    entry_builder_reset(&b);
    smc_key(1, "FNum", "ui8 ", &two, 1);
    smc_key(2, "F1Ac", "fpe2", rpm, 2);
    smc_key(3, "F1Md", "ui8 ", &forced, 1);
    smc_key(4, "F1md", "ui8 ", &automatic, 1);                 /* the M5's key: read only without F1Md */
    set = finish();
    assert_int_equal(fans_decode(&set, &f), 0);
    assert_int_equal(f.count, 2);                              /* upstream's hinv.nfan was always 0 */
    assert_int_equal(f.have[0], 0);
    assert_true(f.value[1][FAN_SPEED] == 1987.5);
    assert_true(f.value[1][FAN_MODE] == 1.0);
    entry_builder_reset(&b);
    set = finish();
    assert_int_equal(fans_decode(&set, &f), -ENOENT);          /* no SMC: not a count of 0 */
}

static void
thermal_pressure_uses_macos_names(void **state)
{
    (void)state;
    assert_string_equal(thermal_pressure_name(0), "Nominal");
    assert_string_equal(thermal_pressure_name(1), "Moderate");
    assert_string_equal(thermal_pressure_name(4), "Sleeping");
    assert_null(thermal_pressure_name(5));
}

/* An Apple Silicon battery on battery power, as ioreg shows it. */
static struct battery
apple_silicon_battery(int64_t amperage, int64_t time_to_empty)
{
    struct battery batt;
    struct plat_entry_set set;

    entry_builder_reset(&b);
    entry(1, 0, "AppleSmartBattery", "AppleSmartBattery");
    flag("BatteryInstalled", 1);
    flag("ExternalConnected", 0);
    flag("IsCharging", 0);
    number("CurrentCapacity", 72);
    number("MaxCapacity", 100);                                 /* a percent on Apple Silicon */
    number("AppleRawMaxCapacity", 4101);
    number("DesignCapacity", 4382);
    number("NominalChargeCapacity", 4183);
    number("AvgTimeToEmpty", time_to_empty);
    number("AvgTimeToFull", 65535);
    number("Temperature", 3051);
    number("Voltage", 11982);
    number("Amperage", amperage);
    set = finish();
    assert_int_equal(battery_decode(&set, &batt), 0);
    return batt;
}

static void
battery_values_are_macos_own(void **state)
{
    struct battery batt = apple_silicon_battery(-812, 371);
    uint32_t u;
    int32_t i;
    float f;
    double w;

    (void)state;
    assert_int_equal(battery_amperage(&batt, &i), 0);
    assert_int_equal(i, -812);                                  /* two's complement read back signed */
    assert_int_equal(battery_charge_percent(&batt, &u), 0);
    assert_int_equal(u, 72);
    assert_int_equal(battery_health_percent(&batt, &u), 0);
    assert_int_equal(u, 96);                                    /* ceil(4183 * 100 / 4382), not 100 / 4382 */
    assert_int_equal(battery_full_charge_mah(&batt, &u), 0);
    assert_int_equal(u, 4101);                                  /* never the percent MaxCapacity */
    assert_int_equal(battery_time_remaining(&batt, &i), 0);
    assert_int_equal(i, 371);
    assert_int_equal(battery_temperature(&batt, &f), 0);
    assert_true(f > 30.50f && f < 30.52f);                      /* hundredths of a degree */
    assert_int_equal(battery_watts(&batt, &w), 0);
    assert_true(w < -9.729 && w > -9.730);
    assert_string_equal(battery_state(&batt), "discharging");
    assert_string_equal(battery_power_source(&batt), "Battery Power");  /* upstream: always "Unknown" */
    assert_string_equal(battery_condition(&batt), "Normal");

    batt = apple_silicon_battery(-812, 65535);
    assert_int_equal(battery_time_remaining(&batt, &i), -EAGAIN);       /* still calculating */
    batt = apple_silicon_battery(INT64_MIN, 371);
    assert_int_equal(battery_amperage(&batt, &i), -ENODATA);            /* does not fit 32 bits */
}

static void
intel_capacities_are_mah_and_charging_counts_to_full(void **state)
{
    struct battery batt;
    struct plat_entry_set set;
    uint32_t u;
    int32_t i;

    (void)state;
    entry_builder_reset(&b);
    entry(1, 0, "AppleSmartBattery", "AppleSmartBattery");
    flag("BatteryInstalled", 1);
    flag("ExternalConnected", 1);
    flag("IsCharging", 1);
    number("CurrentCapacity", 5023);
    number("MaxCapacity", 7315);
    number("DesignCapacity", 8790);
    number("AvgTimeToEmpty", 65535);
    number("AvgTimeToFull", 94);
    set = finish();
    assert_int_equal(battery_decode(&set, &batt), 0);
    assert_int_equal(battery_charge_percent(&batt, &u), 0);
    assert_int_equal(u, 69);                                    /* lround(68.67) */
    assert_int_equal(battery_full_charge_mah(&batt, &u), 0);
    assert_int_equal(u, 7315);                                  /* MaxCapacity is mAh without AppleRawMaxCapacity */
    assert_int_equal(battery_remaining_mah(&batt, &u), 0);
    assert_int_equal(u, 5023);                                  /* and CurrentCapacity too */
    assert_int_equal(battery_health_percent(&batt, &u), 0);
    assert_int_equal(u, 84);
    assert_int_equal(battery_time_remaining(&batt, &i), 0);
    assert_int_equal(i, 94);
    assert_string_equal(battery_state(&batt), "charging");
    assert_string_equal(battery_power_source(&batt), "AC Power");
}

/* macOS 27's layout, with the numbers of a MacBook Air (M2) charging on
 * macOS 27 (shared/real-macs/battery, Kyome22/SystemInfoKit): the
 * capacities inside BatteryData, the temperature in the pack's entry only. */
static void
macos_27_capacities_come_from_battery_data_and_the_pack(void **state)
{
    struct battery batt;
    struct plat_entry_set set;
    uint32_t u;
    float f;

    (void)state;
    entry_builder_reset(&b);
    entry(1, 0, "AppleSmartBattery", "AppleSmartBattery");
    number("BatteryInstalled", 1);                              /* numbers, as SystemInfoKit's dumps give them */
    number("CurrentCapacity", 34);
    number("MaxCapacity", 100);
    number("BatteryData.FullChargeCapacity", 4427);
    number("BatteryData.RemainingCapacity", 1461);
    number("BatteryData.NominalChargeCapacity", 4554);
    number("BatteryData.DesignCapacity", 4563);
    number("BatteryData.MaxCapacity", 100);
    set = finish();
    assert_int_equal(battery_decode(&set, &batt), 0);
    assert_int_equal(battery_full_charge_mah(&batt, &u), 0);
    assert_int_equal(u, 4427);                                  /* not MaxCapacity's 100 */
    assert_int_equal(batt.value[BATT_RAW_CURRENT], 1461);
    assert_int_equal(batt.value[BATT_DESIGN], 4563);
    assert_int_equal(battery_health_percent(&batt, &u), 0);
    assert_int_equal(u, 100);                                   /* ceil(4554 * 100 / 4563) */
    assert_int_equal(battery_charge_percent(&batt, &u), 0);
    assert_int_equal(u, 34);
    assert_int_equal(battery_temperature(&batt, &f), -ENODATA);
    assert_true(battery_wants_pack(&batt));

    entry_builder_reset(&b);
    entry(2, 0, "AppleSmartBatteryPack", "AppleSmartBatteryPack");
    number("BatteryData.Temperature", 3359);
    number("BatteryData.AppleRawMaxCapacity", 4427);
    number("BatteryData.DesignCapacity", 9999);                 /* the battery's own value wins */
    set = finish();
    battery_add_pack(&set, &batt);
    assert_int_equal(battery_temperature(&batt, &f), 0);
    assert_true(f > 33.58f && f < 33.60f);
    assert_int_equal(batt.value[BATT_DESIGN], 4563);
    assert_false(battery_wants_pack(&batt));
}

/* Only a full-charge capacity in mAh is served as one; "Maximum Capacity"
 * is at most 100, as System Settings shows it, and nothing outside the
 * 1-150 powerd believes. */
static void
capacities_are_never_percents_and_health_is_what_macos_shows(void **state)
{
    static const struct { int64_t nominal, design; int sts; uint32_t pct; } cases[] = {
        { 8988, 8579, 0, 100 },         /* Mac17,8 (PCP's dump): ceil(104.8) shown as 100 */
        { 5854, 6075, 0, 97 },          /* ceil(96.4) */
        { 4274, 4563, 0, 94 },          /* ceil(93.7) */
        { 30000, 8579, -ENODATA, 0 },   /* 350 %: powerd does not believe it */
        { 0, 8579, 0, 0 },              /* no nominal and no full charge: below */
    };
    struct battery batt;
    struct plat_entry_set set;
    uint32_t u;

    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        entry_builder_reset(&b);
        entry(1, 0, "AppleSmartBattery", "AppleSmartBattery");
        flag("BatteryInstalled", 1);
        number("MaxCapacity", 100);
        number("CurrentCapacity", 72);
        number("DesignCapacity", cases[i].design);
        if (cases[i].nominal > 0)
            number("NominalChargeCapacity", cases[i].nominal);
        set = finish();
        assert_int_equal(battery_decode(&set, &batt), 0);
        assert_int_equal(battery_full_charge_mah(&batt, &u), -ENODATA);   /* 100 is a percent */
        assert_int_equal(battery_remaining_mah(&batt, &u), -ENODATA);     /* so CurrentCapacity is too */
        if (cases[i].nominal == 0) {
            assert_int_equal(battery_health_percent(&batt, &u), -ENODATA);
            continue;
        }
        assert_int_equal(battery_health_percent(&batt, &u), cases[i].sts);
        if (cases[i].sts == 0)
            assert_int_equal(u, cases[i].pct);
    }
}

static void
unified_memory_has_no_free_memory(void **state)
{
    struct gpu g[4];
    struct plat_entry_set set;
    unsigned int n;

    (void)state;
    entry_builder_reset(&b);
    entry(0x10, 0, "gpu", "AppleARMIODevice");
    entry(0x11, 0x10, "AGXAcceleratorG14G", "AGXAcceleratorG14G");
    number("PerformanceStatistics.In%20use%20system%20memory", 612368384);    /* paths are escaped */
    entry(0x20, 0, "GFX0", "IOPCIDevice");
    number("VRAM,totalMB", 4096);
    entry(0x21, 0x20, "AMDRadeon", "AMDRadeon");
    number("PerformanceStatistics.vramUsedBytes", 5LL << 30);     /* more than the VRAM: clamped, no underflow */
    set = finish();
    gpu_decode(&set, g, 4, &n);
    assert_int_equal(n, 2);
    assert_true(g[0].unified);
    assert_true(gpu_has(&g[0], GPU_MEMORY_USED));
    assert_false(gpu_has(&g[0], GPU_MEMORY_FREE));              /* upstream underflowed here */
    assert_false(g[1].unified);
    assert_int_equal(g[1].value[GPU_MEMORY_TOTAL], 4096ull << 20);
    assert_int_equal(g[1].value[GPU_MEMORY_FREE], 0);
}

/* The PCI ids a driver matches say whose GPU it is (the ids of the Ice Lake
 * and Navi 14 drivers in shared/real-macs/gpu): Intel's graphics share the
 * Mac's memory whatever "VRAM,totalMB" says (the dynamic maximum), AMD's
 * have their own even where the dump lacks its size; ids of two vendors,
 * or none, decide nothing. */
static void
the_matched_vendor_says_whose_memory(void **state)
{
    static const struct {
        const char *key, *ids;
        int vram_mb, unified;
    } cases[] = {
        { "IOPCIPrimaryMatch", "0xff028086 0x8A508086 0x8A5c8086", 1536, 1 },
        { "IOPCIPrimaryMatch", " 0x3E9B8086&0xffffffff ", 1536, 1 },          /* masked, spaced */
        { "IOPCIMatch", "0x73401002 0x734F1002", 0, 0 },                       /* no size in the dump */
        { "IOPCIMatch", "0x73401002 0x734F1002", 4096, 0 },
        { "IOPCIMatch", "0x73401002 0x3E9B8086", 4096, 0 },                    /* two vendors: by the VRAM */
        { "IOPCIMatch", "0x73401002 junk", 0, 1 },                             /* unreadable: by the VRAM */
    };
    struct gpu g[2];
    struct plat_entry_set set;
    unsigned int n;

    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        entry_builder_reset(&b);
        entry(0x11, 0, "Accelerator", "Accelerator");
        assert_int_equal(entry_builder_string(&b, cases[i].key, cases[i].ids), 0);
        if (cases[i].vram_mb)
            number("VRAM,totalMB", cases[i].vram_mb);
        number("PerformanceStatistics.vramUsedBytes", 1LL << 30);
        set = finish();
        gpu_decode(&set, g, 2, &n);
        assert_int_equal(n, 1);
        assert_int_equal(g[0].unified, cases[i].unified);
        assert_int_equal(gpu_has(&g[0], GPU_MEMORY_TOTAL), !cases[i].unified && cases[i].vram_mb);
        assert_int_equal(gpu_has(&g[0], GPU_MEMORY_FREE), !cases[i].unified && cases[i].vram_mb);
        if (gpu_has(&g[0], GPU_MEMORY_TOTAL))
            assert_int_equal(g[0].value[GPU_MEMORY_FREE], ((uint64_t)cases[i].vram_mb << 20) - (1ULL << 30));
    }
}

static void
energy_counters_are_joules_whatever_the_unit(void **state)
{
    struct energy_channel ch[8];
    struct energy e;
    struct plat_entry_set set;

    (void)state;
    assert_true(energy_unit_joules("mJ") == 1e-3);
    assert_true(energy_unit_joules("nJ") == 1e-9);
    assert_true(energy_unit_joules("24Mticks") == 0.0);
    entry_builder_reset(&b);
    entry(1, 0, "CPU Energy", "IOReportChannel");
    assert_int_equal(entry_builder_string(&b, "unit", "mJ"), 0);
    number("value", 4200);
    entry(2, 0, "GPU", "IOReportChannel");                     /* M1's name for the GPU channel */
    assert_int_equal(entry_builder_string(&b, "unit", "nJ"), 0);
    number("value", 1500000000);
    entry(3, 0, "DRAM0", "IOReportChannel");
    assert_int_equal(entry_builder_string(&b, "unit", "uJ"), 0);
    number("value", 350000);
    entry(4, 0, "DRAM1", "IOReportChannel");
    assert_int_equal(entry_builder_string(&b, "unit", "uJ"), 0);
    number("value", 150000);
    entry(5, 0, "GPU Stats", "IOReportChannel");               /* not an energy unit: left out */
    assert_int_equal(entry_builder_string(&b, "unit", "24Mticks"), 0);
    number("value", 99);
    set = finish();
    energy_decode(&set, &e, ch, 8);
    assert_int_equal(e.n, 4);
    assert_true(e.unit[ENERGY_CPU] > 4.1999 && e.unit[ENERGY_CPU] < 4.2001);
    assert_true(e.unit[ENERGY_GPU] > 1.4999 && e.unit[ENERGY_GPU] < 1.5001);
    assert_true(e.unit[ENERGY_DRAM] > 0.4999 && e.unit[ENERGY_DRAM] < 0.5001);
    assert_false(e.have & (1u << ENERGY_ANE));
}

/* Labels padded with spaces: macmon (io_report.rs channel_unit), Stats
 * (GPU/reader.swift) and mactop (ioreport.m energyToWatts) trim them
 * before they compare. */
static void
energy_unit_labels_are_read_without_their_padding(void **state)
{
    (void)state;
    assert_true(energy_unit_joules("mJ  ") == 1e-3);
    assert_true(energy_unit_joules(" nJ") == 1e-9);
    assert_true(energy_unit_joules("\tuJ ") == 1e-6);
    assert_true(energy_unit_joules("  ") == 0.0);
    assert_true(energy_unit_joules("m J") == 0.0);
}

static void
energy_channel(uint64_t id, const char *name, const char *unit, int64_t value)
{
    entry(id, 0, name, "IOReportChannel");
    assert_int_equal(entry_builder_string(&b, "unit", unit), 0);
    number("value", value);
}

/* An Ultra (the M1 Ultra on macOS 27, shared/real-macs/ioreport): no
 * "CPU Energy" but one per die, which macmon, Stats and mactop add up; the
 * DTL channels twice under one name, once per die; "GPU Energy" after
 * more channels than the caller lists. */
static void
energy_of_an_ultra_is_the_sum_of_its_dies(void **state)
{
    struct energy_channel ch[8];
    struct energy e;
    struct plat_entry_set set;

    (void)state;
    entry_builder_reset(&b);
    energy_channel(1, "DIE_0_CPU Energy", "mJ", 1000);
    energy_channel(2, "ECPUDTL00", "mJ", 5);
    energy_channel(3, "DIE_1_CPU Energy", "mJ", 2000);
    energy_channel(4, "ECPUDTL00", "mJ", 7);
    energy_channel(5, "ANE0_0", "mJ", 300);
    energy_channel(6, "ANE0_1", "mJ", 400);
    energy_channel(7, "GPU Energy", "nJ", 3000000000);
    set = finish();
    energy_decode(&set, &e, ch, 3);
    assert_int_equal(e.n, 3);
    assert_true(e.unit[ENERGY_CPU] > 2.9999 && e.unit[ENERGY_CPU] < 3.0001);
    assert_true(e.unit[ENERGY_ANE] > 0.6999 && e.unit[ENERGY_ANE] < 0.7001);
    assert_true(e.unit[ENERGY_GPU] > 2.9999 && e.unit[ENERGY_GPU] < 3.0001);
    energy_decode(&set, &e, ch, 8);
    assert_int_equal(e.n, 7);
    assert_string_equal(ch[1].name, "ECPUDTL00");
    assert_string_equal(ch[3].name, "ECPUDTL00 #2");
    assert_true(ch[3].joules > 0.00699 && ch[3].joules < 0.00701);
}

/* The fake machine has no registry entries: a desktop without battery, GPU
 * or sensors, as a Mac mini in a VM. */
static void
a_mac_without_a_battery_has_no_battery_values(void **state)
{
    pmAtomValue v[1];

    (void)state;
    assert_int_equal(harness_u32("power.battery.present"), 0);
    assert_int_equal(harness_fetch("power.battery.charge", PM_TYPE_U32, v, 1, NULL), 0);    /* no value, not 0 */
    assert_int_equal(harness_fetch("power.battery.amperage", PM_TYPE_32, v, 1, NULL), 0);
    assert_int_equal(harness_fetch("power.battery.state", PM_TYPE_STRING, v, 1, NULL), 0);
    assert_int_equal(harness_u32("power.ac.connected"), 1);
    assert_int_equal(harness_fetch("power.source", PM_TYPE_STRING, v, 1, NULL), 1);
    assert_string_equal(v[0].cp, "AC Power");
    assert_int_equal(harness_u32("hinv.ngpu"), 0);
    assert_int_equal(harness_fetch("power.energy.cpu", PM_TYPE_DOUBLE, v, 1, NULL), PM_ERR_APPVERSION);
    assert_int_equal(harness_fetch("hinv.nfan", PM_TYPE_U32, v, 1, NULL), PM_ERR_APPVERSION);   /* no SMC */
}

/* A battery before macOS 27 that lacks a field the pack entry would hold
 * (an Intel one without NominalChargeCapacity): the pack is asked once,
 * not at every fetch, and the values are the battery's own. */
static void
the_battery_pack_is_asked_once_where_there_is_none(void **state)
{
    pmAtomValue v[1];

    (void)state;
    entry_builder_reset(&b);
    entry(1, 0, "AppleSmartBattery", "AppleSmartBattery");
    flag("BatteryInstalled", 1);
    flag("ExternalConnected", 0);
    number("CurrentCapacity", 4761);
    number("MaxCapacity", 5889);
    number("DesignCapacity", 6559);
    number("Temperature", 2991);
    fake.reg[PLAT_QUERY_BATTERY] = finish();
    for (int i = 0; i < 3; i++) {
        assert_int_equal(harness_fetch("power.battery.charge", PM_TYPE_U32, v, 1, NULL), 1);    /* 81 */
        assert_int_equal(v[0].ul, 81);
    }
    assert_int_equal(fake.calls.query[PLAT_QUERY_BATTERY], 3);
    assert_int_equal(fake.calls.query[PLAT_QUERY_BATTERY_PACK], 1);
}

/* An M1's HID sensors name no CPU cluster (PMU tdie, gas gauge, NAND:
 * shared/real-macs/hid, its iSMC and Stats listings): thermal.cpu.die is
 * the hotter of the SMC's CPU die aggregates, TCMz and TCMb (synthetic
 * readings here). Where HID names a CPU sensor, they are not read. */
static void
without_a_hid_cpu_sensor_the_cpu_die_is_the_smcs(void **state)
{
    static const unsigned char tcmz[] = { 0x00, 0x00, 0x75, 0x42 }, tcmb[] = { 0x00, 0x00, 0x42, 0x42 };  /* 61.25, 48.5 */
    struct entry_builder smc = { 0 };
    pmAtomValue v[1];

    (void)state;
    entry_builder_reset(&b);
    entry(1, 0, "PMU tdie1", "IOHIDServiceClient");
    assert_int_equal(entry_builder_float(&b, "celsius", 44.5), 0);
    entry(2, 0, "gas gauge battery", "IOHIDServiceClient");
    assert_int_equal(entry_builder_float(&b, "celsius", 30.0), 0);
    fake.reg[PLAT_QUERY_HID_TEMPERATURES] = finish();
    assert_int_equal(entry_builder_entry(&smc, 1, 0, "TCMz", "AppleSMC"), 0);
    assert_int_equal(entry_builder_string(&smc, "type", "flt "), 0);
    assert_int_equal(entry_builder_data(&smc, "bytes", tcmz, 4), 0);
    assert_int_equal(entry_builder_entry(&smc, 2, 0, "TCMb", "AppleSMC"), 0);
    assert_int_equal(entry_builder_string(&smc, "type", "flt "), 0);
    assert_int_equal(entry_builder_data(&smc, "bytes", tcmb, 4), 0);
    entry_builder_finish(&smc, &fake.reg[PLAT_QUERY_SMC_CPU_DIE]);
    assert_int_equal(harness_fetch("thermal.cpu.die", PM_TYPE_FLOAT, v, 1, NULL), 1);
    assert_true(v[0].f > 61.24 && v[0].f < 61.26);
    assert_int_equal(fake.calls.query[PLAT_QUERY_SMC_CPU_DIE], 1);
    entry_builder_reset(&b);
    entry(1, 0, "pACC MTR Temp Sensor0", "IOHIDServiceClient");
    assert_int_equal(entry_builder_float(&b, "celsius", 52.5), 0);
    fake.reg[PLAT_QUERY_HID_TEMPERATURES] = finish();
    assert_int_equal(harness_fetch("thermal.cpu.die", PM_TYPE_FLOAT, v, 1, NULL), 1);
    assert_true(v[0].f > 52.49 && v[0].f < 52.51);
    assert_int_equal(fake.calls.query[PLAT_QUERY_SMC_CPU_DIE], 1);          /* not read again */
    entry_builder_free(&smc);
}

/* Apple Silicon's temperatures come from HID. When hidd stops answering
 * (restarting: the client or the list refused, which the live source says
 * is no sensor), that is a failure of a source that was there, said in
 * pmcd.log when it starts and when it ends, not an Intel Mac: the SMC's
 * Intel keys are not read in its place. */
static void
hid_gone_after_it_gave_sensors_is_logged_not_an_intel_mac(void **state)
{
    pmAtomValue v[1];

    (void)state;
    entry_builder_reset(&b);
    entry(1, 0, "pACC MTR Temp Sensor0", "IOHIDServiceClient");
    assert_int_equal(entry_builder_float(&b, "celsius", 52.5), 0);
    fake.reg[PLAT_QUERY_HID_TEMPERATURES] = finish();
    harness_log_start();
    assert_int_equal(harness_fetch("thermal.cpu.die", PM_TYPE_FLOAT, v, 1, NULL), 1);
    fake.reg_sts[PLAT_QUERY_HID_TEMPERATURES] = -ENOENT;
    for (int i = 0; i < 5; i++)
        assert_int_equal(harness_fetch("thermal.cpu.die", PM_TYPE_FLOAT, v, 1, NULL), PM_ERR_AGAIN);
    assert_int_equal(fake.calls.query[PLAT_QUERY_SMC_TEMPERATURES], 0);
    fake.reg_sts[PLAT_QUERY_HID_TEMPERATURES] = 0;
    assert_int_equal(harness_fetch("thermal.cpu.die", PM_TYPE_FLOAT, v, 1, NULL), 1);
    assert_int_equal(harness_log_lines("thermal: some metrics unavailable"), 1);
    assert_int_equal(harness_log_lines("thermal: all metrics available again"), 1);
    harness_log_stop();
}

/* Every HID sensor listed without a reading (hid_sensors.c lists the
 * services so when none gives an event: hidd restarting, the services of
 * a client made again silent too) takes every temperature away: said in
 * pmcd.log when it starts and when it ends, as hidd refusing is. */
static void
hid_sensors_all_silent_are_logged(void **state)
{
    pmAtomValue v[1];
    unsigned int unavailable, available;

    (void)state;
    harness_log_start();
    for (int round = 0; round < 7; round++) {
        int silent = round > 0 && round < 6;

        entry_builder_reset(&b);
        entry(1, 0, "pACC MTR Temp Sensor0", "IOHIDServiceClient");
        if (!silent)
            assert_int_equal(entry_builder_float(&b, "celsius", 52.5), 0);
        fake.reg[PLAT_QUERY_HID_TEMPERATURES] = finish();
        assert_int_equal(harness_fetch("thermal.cpu.die", PM_TYPE_FLOAT, v, 1, NULL), silent ? 0 : 1);
    }
    unavailable = harness_log_lines("thermal: some metrics unavailable");
    available = harness_log_lines("thermal: all metrics available again");
    harness_log_stop();
    assert_int_equal(unavailable, 1);
    assert_int_equal(available, 1);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(smc_formats_decode_at_their_edges),
        cmocka_unit_test(smc_temperature_keys_match_the_query),
        cmocka_unit_test(ambient_is_not_the_cpu_proximity_key),
        cmocka_unit_test(hid_sensors_drop_junk_and_keep_names_apart),
        cmocka_unit_test(hid_sensors_of_m5_clusters_are_cpu_sensors),
        cmocka_unit_test(apple_silicon_smc_keys_are_its_cpu_and_gpu),
        cmocka_unit_test(readings_at_or_below_zero_are_not_temperatures),
        cmocka_unit_test(fans_and_their_mode_are_read),
        cmocka_unit_test(thermal_pressure_uses_macos_names),
        cmocka_unit_test(battery_values_are_macos_own),
        cmocka_unit_test(macos_27_capacities_come_from_battery_data_and_the_pack),
        cmocka_unit_test(capacities_are_never_percents_and_health_is_what_macos_shows),
        cmocka_unit_test(intel_capacities_are_mah_and_charging_counts_to_full),
        cmocka_unit_test(unified_memory_has_no_free_memory),
        cmocka_unit_test(the_matched_vendor_says_whose_memory),
        cmocka_unit_test(energy_counters_are_joules_whatever_the_unit),
        cmocka_unit_test(energy_unit_labels_are_read_without_their_padding),
        cmocka_unit_test(energy_of_an_ultra_is_the_sum_of_its_dies),
        HARNESS_TEST(a_mac_without_a_battery_has_no_battery_values),
        HARNESS_TEST(hid_gone_after_it_gave_sensors_is_logged_not_an_intel_mac),
        HARNESS_TEST(hid_sensors_all_silent_are_logged),
        HARNESS_TEST(the_battery_pack_is_asked_once_where_there_is_none),
        HARNESS_TEST(without_a_hid_cpu_sensor_the_cpu_die_is_the_smcs),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);

    entry_builder_free(&b);
    return failed;
}
