"""tools/ioreg-import over dumps written in ioreg's real syntax (tests/fixtures/ioreg/):
the text and XML forms of the same entries give the same records, and those
records are what the dumps say, value by value."""
import importlib.machinery
import importlib.util
import os
import subprocess
import sys
import tempfile
import unittest

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(SOURCE, "tools", "ioreg-import")
DUMPS = os.path.join(SOURCE, "tests", "fixtures", "ioreg")

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
    unittest.main()
