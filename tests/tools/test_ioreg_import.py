"""tools/ioreg-import over dumps written in ioreg's real syntax (tests/fixtures/ioreg/):
the text and XML forms of the same entries give the same records, and those
records are what the dumps say, value by value.

  python3 -m unittest test_ioreg_import     these tests, damage over the synthetic dumps
  python3 test_ioreg_import.py real         damage over the dumps recorded on real Macs that the
                                            expectations import (skipped, 77, without the corpus)"""
import glob
import importlib.machinery
import importlib.util
import os
import random
import subprocess
import sys
import tempfile
import unittest

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(SOURCE, "tools", "ioreg-import")
DUMPS = os.path.join(SOURCE, "tests", "fixtures", "ioreg")
sys.path.insert(0, os.path.join(SOURCE, "tests", "integration"))
import real_dumps  # noqa: E402

_loader = importlib.machinery.SourceFileLoader("ioreg_import", TOOL)
_spec = importlib.util.spec_from_loader("ioreg_import", _loader)
ioreg_import = importlib.util.module_from_spec(_spec)
_loader.exec_module(ioreg_import)


def imported(match, dump, depth=0):
    entries = ioreg_import.select(ioreg_import.load(os.path.join(DUMPS, dump)), match, depth)
    return ioreg_import.records(entries, match)


class TextAndXmlAgree(unittest.TestCase):
    def test_cpus(self):
        self.assertEqual(imported("IODeviceTree:/cpus", "m2-cpus.txt"), imported("IODeviceTree:/cpus", "m2-cpus.xml"))

    def test_disk_with_descendants(self):
        self.assertEqual(imported("IOBlockStorageDriver", "disk-and-battery.txt", 2),
                         imported("IOBlockStorageDriver", "disk-and-battery.xml", 2))

    def test_battery(self):
        self.assertEqual(imported("AppleSmartBattery", "disk-and-battery.txt"),
                         imported("AppleSmartBattery", "disk-and-battery.xml"))


class Values(unittest.TestCase):
    def test_cpu_entries_are_the_children_of_cpus_without_their_own(self):
        recs = imported("IODeviceTree:/cpus", "m2-cpus.txt")
        classes = [r for r in recs if r.endswith(".class IOPlatformDevice")]
        self.assertEqual(len(classes), 8)                         # cpus itself and AppleARMCPU left out
        self.assertNotIn("AppleARMCPU", "\n".join(recs))
        self.assertIn("ioreg[IODeviceTree:/cpus#0x100000111].name cpu0", recs)
        self.assertIn("ioreg[IODeviceTree:/cpus#0x100000111].parent 0x100000110", recs)
        # <"E"> is the text E and its NUL; the logical CPU number is a number (IOPlatformExpert sets it)
        self.assertIn("ioreg[IODeviceTree:/cpus#0x100000111].prop.cluster-type data 4500", recs)
        self.assertIn("ioreg[IODeviceTree:/cpus#0x100000118].prop.logical-cpu-id number 7", recs)
        self.assertIn("ioreg[IODeviceTree:/cpus#0x100000118].prop.compatible data "
                      + (b"apple,avalanche\0ARM,v8\0").hex(), recs)

    def test_the_power_manager_is_its_own_entry(self):
        roots = ioreg_import.load(os.path.join(DUMPS, "m1-pmgr.txt"))
        match = "IODeviceTree:/arm-io/pmgr"
        recs = ioreg_import.records(ioreg_import.select(roots, match, 0, itself=True), match)
        self.assertIn("ioreg[IODeviceTree:/arm-io/pmgr#0x100000120].name pmgr", recs)
        self.assertIn("ioreg[IODeviceTree:/arm-io/pmgr#0x100000120].parent 0x100000110", recs)
        self.assertIn("ioreg[IODeviceTree:/arm-io/pmgr#0x100000120].prop.voltage-states1-sram data "
                      "0046c323200300000087934720030000", recs)
        self.assertNotIn("AppleT8103PMGR", "\n".join(recs))        # its child is not the query's
        children = ioreg_import.records(ioreg_import.select(roots, match, 0), match)
        self.assertIn("ioreg[IODeviceTree:/arm-io/pmgr#0x100000121].name AppleT8103PMGR", children)

    def test_nested_dictionaries_quoted_keys_and_links(self):
        recs = imported("IOBlockStorageDriver", "disk-and-battery.txt", 1)
        self.assertIn("ioreg[IOBlockStorageDriver#0x1000004f2].prop.Statistics.Bytes%20(Read) number 451342999552", recs)
        self.assertIn("ioreg[IOBlockStorageDriver#0x1000004f2].prop.IOPropertyMatch.Removable bool 0", recs)
        self.assertIn("ioreg[IOBlockStorageDriver#0x1000004f4].parent 0x1000004f2", recs)     # the IOMedia child
        self.assertIn("ioreg[IOBlockStorageDriver#0x1000004f4].name APPLE SSD AP0512Q Media", recs)
        self.assertIn("ioreg[IOBlockStorageDriver#0x1000004f4].prop.BSD%20Name string disk0", recs)
        self.assertIn("ioreg[IOBlockStorageDriver#0x1000004f4].prop.Whole bool 1", recs)
        self.assertNotIn("IOMediaBSDClient", "\n".join(recs))    # depth 1 stops at the media

    def test_numbers_arrays_data_and_odd_keys(self):
        recs = imported("AppleSmartBattery", "disk-and-battery.txt")
        p = "ioreg[AppleSmartBattery#0x100000a21].prop."
        self.assertIn(p + "Amperage number 18446744073709550616", recs)         # as IOKit stores -1000
        self.assertIn(p + "InstantAmperage number 18446744073709550616", recs)  # printed signed: same bits
        self.assertIn(p + "Voltage number 12170", recs)                         # 0x2f8a
        self.assertIn(p + "CellVoltage.1 number 4015", recs)
        self.assertIn(p + "BatteryData.LifetimeData.MaximumTemperature number 4510", recs)
        self.assertIn(p + "BatteryData.Serial string F8Y2140 Z1", recs)
        self.assertIn(p + "com%2Eapple%2Epower%2Ekey string dotted key", recs)  # a dot inside a key
        self.assertIn(p + "Manufacturer%20Data data 000000000b00010002a0", recs)
        self.assertIn(p + "IsCharging bool 0", recs)
        self.assertIn(p + "ExternalConnected bool 1", recs)


def dump_records(text):
    """The battery's records and the problems of a dump given as text (any form)."""
    problems = ioreg_import.Problems("dump")
    roots = ioreg_import.parse(text.encode(), problems)
    return ioreg_import.records(ioreg_import.select(roots, "AppleSmartBattery", 0), "AppleSmartBattery"), problems.lines


BATTERY = "+-o AppleSmartBattery  <class AppleSmartBattery, id 0x10, registered, matched, active>\n    {\n"
P = "ioreg[AppleSmartBattery#0x10].prop."


class WhatIoregPrints(unittest.TestCase):
    """Values as ioreg's printer writes them (ioreg.tproj/ioreg.c, IOKitTools-125)."""

    def test_an_empty_value_is_a_fraction_ioreg_could_not_print_and_is_left_out(self):
        # cfnumbershow prints nothing when CFNumberGetValue to long long fails (a float)
        recs, problems = dump_records(BATTERY + '      "BatteryData" = {"Qstart"=0,"AdapterPower"=,"Flags"=3,'
                                      '"SystemPower"=}\n      "PackPower" = \n      "Voltage" = 12111\n    }\n')
        self.assertEqual(problems, [])
        self.assertIn(P + "BatteryData.Qstart number 0", recs)
        self.assertIn(P + "BatteryData.Flags number 3", recs)
        self.assertIn(P + "Voltage number 12111", recs)
        self.assertFalse([r for r in recs if "Power" in r])

    def test_sets_unknown_objects_empty_arrays_and_arrays_of_fractions(self):
        recs, problems = dump_records(BATTERY + '      "Set" = [1,2]\n      "Odd" = <unknown object>\n'
                                      '      "None" = ()\n      "Reals" = (,,)\n      "After" = Yes\n    }\n')
        self.assertEqual(problems, [])
        self.assertIn(P + "Set.0 number 1", recs)
        self.assertIn(P + "Set.1 number 2", recs)
        self.assertIn(P + "After bool 1", recs)
        self.assertFalse([r for r in recs if "Odd" in r or "None" in r or "Reals" in r])

    def test_text_data_and_strings_with_quotes(self):
        recs, problems = dump_records(BATTERY + '      "Name" = "the "best" pack"\n'
                                      '      "Dict" = {"A"="x, y","B"=<"a","b">}\n    }\n')
        self.assertEqual(problems, [])
        self.assertIn(P + 'Name string the "best" pack', recs)
        self.assertIn(P + "Dict.A string x, y", recs)
        self.assertIn(P + "Dict.B data " + b"a\0b\0".hex(), recs)

    def test_a_line_clipped_by_the_terminal_keeps_what_was_whole(self):
        # ioreg -w N (or a terminal's width) ends a clipped line with "$"
        recs, problems = dump_records(BATTERY + '      "BatteryData" = {"A"=1,"B"={"C"=2,"D"=3},"E"=12$\n'
                                      '      "Voltage" = 12111\n      "Serial" = "F5D$\n    }\n')
        self.assertIn(P + "BatteryData.A number 1", recs)
        self.assertIn(P + "BatteryData.B.C number 2", recs)
        self.assertIn(P + "BatteryData.B.D number 3", recs)
        self.assertFalse([r for r in recs if "BatteryData.E" in r or "Serial" in r])   # perhaps cut short
        self.assertIn(P + "Voltage number 12111", recs)                                  # lines after it too
        self.assertEqual(len(problems), 2)
        self.assertIn("line 3:", problems[0])
        self.assertIn("clipped", problems[0])
        self.assertIn("line 5:", problems[1])

    def test_a_cut_off_paste_keeps_everything_before_the_cut(self):
        recs, problems = dump_records(BATTERY + '      "CycleCount" = 5\n      "BatteryData" = {"A"=1,"B"=(4035,40')
        self.assertIn(P + "CycleCount number 5", recs)
        self.assertIn(P + "BatteryData.A number 1", recs)
        self.assertIn(P + "BatteryData.B.0 number 4035", recs)
        self.assertFalse([r for r in recs if "B.1" in r])
        self.assertEqual(len(problems), 1)
        self.assertIn("line 4:", problems[0])

    def test_prose_and_prompts_around_a_pasted_dump_are_ignored(self):
        recs, problems = dump_records("I ran this:\n```\n$ ioreg -rn AppleSmartBattery\n" + BATTERY +
                                      '      "CycleCount" = 5\n    }\n```\nThanks!\n')
        self.assertEqual(problems, [])
        self.assertIn(P + "CycleCount number 5", recs)


class Matching(unittest.TestCase):
    """Which entries a class match takes, as IOServiceGetMatchingServices does."""

    def test_an_unmatched_entry_is_no_match_of_its_class_but_is_a_child(self):
        # a user client is never registered: ioreg prints it "!registered, !matched", and only
        # services in the matched state match (xnu-11417.101.15 iokit/Kernel/IOService.cpp:6239-6247)
        text = ("+-o AGXAcceleratorG13G_B0  <class AGXAcceleratorG13G_B0, id 0x20, registered, matched, active>\n"
                "  +-o AGXDeviceUserClient  <class AGXDeviceUserClient, id 0x21, !registered, !matched, active>\n")
        roots = ioreg_import.parse(text.encode(), ioreg_import.Problems("dump"))
        self.assertEqual(ioreg_import.select(roots, "AGXDeviceUserClient", 0), [])
        found = ioreg_import.select(roots, "AGXAccelerator", 1, subclasses=("AGXAcceleratorG13G_B0",))
        self.assertEqual([e.id for e in found], [0x20, 0x21])


class OtherForms(unittest.TestCase):
    """ioreg -a's XML, and the JSON plutil -convert json makes of it."""

    XML = ('<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<array>\n<dict>\n'
           '<key>IOObjectClass</key><string>AppleSmartBattery</string>\n'
           '<key>IORegistryEntryID</key><integer>16</integer>\n'
           '<key>IORegistryEntryName</key><string>AppleSmartBattery</string>\n'
           '<key>CycleCount</key><integer>5</integer>\n<key>Amperage</key><integer>-812</integer>\n'
           '<key>BatteryData</key><dict><key>Qmax</key><array><integer>9391</integer><integer>9379</integer></array>'
           '<key>AdapterPower</key><real>0.5</real><key>Flags</key><integer>3</integer></dict>\n'
           '<key>IsCharging</key><false/>\n<key>Mfg</key><data>AAEC</data>\n</dict>\n</array>\n</plist>\n')

    def test_xml(self):
        recs, problems = dump_records(self.XML)
        self.assertEqual(problems, [])
        self.assertEqual(recs, ["ioreg[AppleSmartBattery#0x10].class AppleSmartBattery",
                                "ioreg[AppleSmartBattery#0x10].name AppleSmartBattery",
                                P + "CycleCount number 5", P + "Amperage number 18446744073709550804",
                                P + "BatteryData.Qmax.0 number 9391", P + "BatteryData.Qmax.1 number 9379",
                                P + "BatteryData.Flags number 3", P + "IsCharging bool 0", P + "Mfg data 000102"])

    def test_json_as_plutil_makes_it_from_the_xml(self):
        # plutil -convert json: a plist's dictionaries, arrays, numbers and
        # booleans as JSON; it refuses data, so this plist has none
        doc = ('[{"IOObjectClass":"AppleSmartBattery","IORegistryEntryID":16,"IORegistryEntryName":'
               '"AppleSmartBattery","CycleCount":5,"Amperage":-812,"BatteryData":{"Qmax":[9391,9379],'
               '"AdapterPower":0.5,"Flags":3},"IsCharging":false}]')
        recs, problems = dump_records(doc)
        self.assertEqual(problems, [])
        self.assertEqual(recs, dump_records(self.XML.replace("<key>Mfg</key><data>AAEC</data>\n", ""))[0])

    def test_cut_off_xml_and_json_keep_what_was_whole(self):
        cut = self.XML.index("<integer>9379")
        recs, problems = dump_records(self.XML[:cut])
        self.assertIn(P + "CycleCount number 5", recs)
        self.assertIn(P + "BatteryData.Qmax.0 number 9391", recs)
        self.assertEqual(len(problems), 1)
        self.assertIn("line 10:", problems[0])   # where the dump stops
        recs, problems = dump_records('[{"IOObjectClass":"AppleSmartBattery","IORegistryEntryID":16,\n'
                                   '"CycleCount":5,"BatteryData":{"Qmax":[9391,93')
        self.assertIn(P + "CycleCount number 5", recs)
        self.assertIn(P + "BatteryData.Qmax.0 number 9391", recs)
        self.assertFalse([r for r in recs if "Qmax.1" in r])
        self.assertIn("line 2:", problems[0])


def synthetic_dumps():
    return sorted(os.path.join(DUMPS, name) for name in os.listdir(DUMPS))


def recorded_dumps():
    """The corpus's ioreg dumps that an .expect imports as a registry query."""
    found = set()
    for expect in glob.glob(os.path.join(real_dumps.EXPECTS, "*", "*.expect")):
        e = real_dumps.Expect(expect)
        found |= {os.path.normpath(dump) for match, dump, _, _ in e.imports if match not in ("sysctl", "smc", "hid")}
    return sorted(found)


class NeverATraceback(unittest.TestCase):
    """Dumps damaged as pastes and hand edits damage them: cut anywhere,
    bytes changed, spans lost, ioreg's punctuation thrown in. Each is read as
    far as it can be, with its problems listed, and never raises."""
    dumps = staticmethod(synthetic_dumps)

    def test_damaged_dumps(self):
        rng = random.Random(21)
        noise = b'{}()[]<>"=,$\n 0x-Yes'
        paths = self.dumps()
        self.assertTrue(paths, "no dumps to damage")
        for path in paths:
            with open(path, "rb") as f:
                data = f.read()
            for _ in range(60):
                damaged = bytearray(data)
                for _ in range(rng.randint(1, 4)):
                    at = rng.randrange(len(damaged) + 1)
                    op = rng.randrange(4)
                    if op == 0:
                        del damaged[at:]
                    elif op == 1 and at < len(damaged):
                        damaged[at] = rng.randrange(256)
                    elif op == 2:
                        del damaged[at:at + rng.randint(1, 200)]
                    else:
                        damaged[at:at] = bytes(rng.choice(noise) for _ in range(rng.randint(1, 8)))
                problems = ioreg_import.Problems(path)
                roots = ioreg_import.parse(bytes(damaged), problems)
                for match in ("AppleSmartBattery", "IOBlockStorageDriver", "IODeviceTree:/cpus"):
                    ioreg_import.records(ioreg_import.select(roots, match, 2, 5), match)


class Errors(unittest.TestCase):
    def run_tool(self, text):
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write(text)
        try:
            return subprocess.run([sys.executable, TOOL, "AppleSmartBattery", f.name], capture_output=True, text=True)
        finally:
            os.unlink(f.name)

    def test_a_malformed_value_names_its_line(self):
        r = self.run_tool('+-o AppleSmartBattery  <class AppleSmartBattery, id 0x10, registered>\n'
                          '    {\n      "Amperage" = <12 34>\n    }\n')
        self.assertEqual(r.returncode, 1)
        self.assertIn("line 3", r.stderr)

    def test_unterminated_containers_are_refused(self):
        r = self.run_tool('+-o AppleSmartBattery  <class AppleSmartBattery, id 0x10, registered>\n'
                          '    {\n      "BatteryData" = {"CycleCount"=1\n    }\n')
        self.assertEqual(r.returncode, 1)
        self.assertIn("line 3", r.stderr)


if __name__ == "__main__":
    if sys.argv[1:] == ["real"]:
        real_dumps.corpus_or_skip("tools.ioreg_import_real_dumps")
        NeverATraceback.dumps = staticmethod(recorded_dumps)
        unittest.main(argv=[sys.argv[0], "-v", "NeverATraceback"])
    unittest.main()
