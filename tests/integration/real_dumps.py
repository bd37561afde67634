#!/usr/bin/env python3
"""The dumps recorded on real Macs, replayed through pmcd.

The dumps are other people's and live beside the project, in the corpus
(corpus() below: $PMDA_DARWIN_REAL_MACS, else ../shared/real-macs from the
project's root). The project keeps tests/real-macs/FAMILY/NAME.expect, which
says which dumps of the corpus's FAMILY folder to import and what pmcd must
serve from them, every value derived from the dump's own numbers (its note
says how):

  recorded MAC | RELEASE | ARCH          what the dumps were recorded on (docs/registry-keys.md groups by it)
  import MATCH FILE [importer options]   a dump (the corpus's FAMILY/FILE) as the query MATCH reads it
  sysctl FILE                            sysctl output, as tools/sysctl-import reads it
  hid FILE                               HID temperature sensors as tools print them ("NAME | VALUE", or iSMC's
                                         table rows of type hid): an entry per sensor, as the live reader records it
  smc FILE                               a dump of SMC keys ("[KEY] type [TYPE] ... -> HEX", VirtualSMC's
                                         smcread -s; or "KEY ui8 size=1 attr=0xA value=V", MacWake's helper
                                         diagnostics of a one-byte key): the keys the SMC queries read, as the
                                         live reader records them
  problems N                             the import before reports N problems (a sender's redaction)
  with KEY VALUE                         a snapshot key the dumps do not hold (the .expect says why: SYNTHETIC)
  covers PREFIX ...                      every metric below these that has a value is listed
  METRIC[INSTANCE] VALUE NOTE            VALUE: a number, "text", or - (no value)
  METRIC[INSTANCE] @LABEL VALUE NOTE     a label of the instance (a JSON value)

A folder's pass-through file names the metrics that serve one key of an
imported entry as it is, for every .expect that imports the query its rules
name (the folder's own, and whole/'s, which import every query), so a key
costs one line there rather than one in each .expect:

  when METRIC VALUE                      the rules below it in the file hold where the .expect lists METRIC as
                                         VALUE; elsewhere those metrics have no value
  METRIC MATCH KEY                       the value is KEY's number in the first entry the query MATCH
                                         imported from the dump, or none where the dump lacks the key
  instances MATCH HOW [ARG]              how an entry of MATCH names the instance of the rules below it:
                                         leaves PREFIX: PREFIX0, PREFIX1, ... for the entries that are no
                                         imported entry's parent, in id order (GPUs); name: its name, spaces
                                         made '_' (HID sensors); child KEY: KEY's text in
                                         its child entry (a disk's driver: the whole disk's IOMedia); above KEY:
                                         KEY's text in the nearest entry above it, for entries of the class MATCH (an APFS container)
  METRIC[] MATCH KEY                     for each entry of MATCH that has KEY, the instance it names has KEY's
                                         number; the .expect's covers check what the others serve, and a
                                         line of the .expect for an instance says what the rule cannot (a
                                         reading the decoder refuses)

KEY is a query key as the decoders' key lists write it: the rest of the
line, raw, '.' between a dictionary and a key inside it. For MATCH sysctl
(a metric without instances), KEY is a sysctl's name and the value is the
dump's own ("name: value", as macOS's sysctl prints it: a number, else
text).

  real_dumps.py snapshot EXPECT DARWIN_SNAPSHOT OUT   writes the snapshot the imports make
  real_dumps.py check EXPECT SNAPSHOT                 asks pmcd (PMCD_PORT on 127.0.0.1); prints ok/not ok lines
  real_dumps.py corpus TEST                           prints the corpus's folder; without it, says what TEST
                                                      skips and exits SKIPPED (77, ctest's skip), or 1 where
                                                      PMDA_DARWIN_SHARED_REQUIRED is set (CI)
"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
EXPECTS = os.path.normpath(os.path.join(HERE, "..", "real-macs"))
SKIPPED = 77
IMPORTER = os.path.join(HERE, "..", "..", "tools", "ioreg-import")
SYSCTL_IMPORTER = os.path.join(HERE, "..", "..", "tools", "sysctl-import")
LINE = re.compile(r'^(?P<metric>[a-z][\w.]*)(?:\[(?P<inst>[^\]]*)\])?\s+(?:@(?P<label>\w+)\s+)?'
                  r'(?P<value>"[^"]*"|\S+)(?:\s+(?P<note>.*))?$')


def corpus():
    """The folder of dumps recorded on real Macs."""
    return os.path.abspath(os.environ.get("PMDA_DARWIN_REAL_MACS") or
                           os.path.join(HERE, "..", "..", "..", "shared", "real-macs"))


def corpus_or_skip(test):
    """The corpus's folder; without it, one line that says what is skipped and why, then exit."""
    root = corpus()
    if os.path.isdir(root):
        return root
    required = bool(os.environ.get("PMDA_DARWIN_SHARED_REQUIRED"))
    print(f"{'not ok' if required else 'SKIPPED'}: {test} cannot run without the dumps recorded on real Macs: "
          f"{root} is not there (set PMDA_DARWIN_REAL_MACS to the corpus's folder)", file=sys.stderr)
    sys.exit(1 if required else SKIPPED)


class Expect:
    def __init__(self, path):
        self.path = path
        self.dir = os.path.join(corpus(), os.path.relpath(os.path.dirname(os.path.abspath(path)), EXPECTS))
        self.imports, self.covers, self.values, self.labels = [], [], [], []   # (metric, inst, [label,] value, note)
        self.extra, self.recorded = [], ["unknown", "unknown", "unknown"]
        with open(path) as f:
            for lineno, line in enumerate(f, 1):
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                word, _, rest = line.partition(" ")
                if word == "import":
                    match, dump, *options = rest.split()
                    self.imports.append([match, os.path.join(self.dir, dump), options, 0])
                elif word in ("sysctl", "smc", "hid"):
                    self.imports.append([word, os.path.join(self.dir, rest.split()[0]), [], 0])
                elif word == "problems":
                    self.imports[-1][3] = int(rest.split()[0])
                elif word == "recorded":
                    self.recorded = [part.strip() for part in rest.split("|")]
                elif word == "with":
                    self.extra.append(rest)
                elif word == "covers":
                    self.covers = rest.split()
                else:
                    m = LINE.match(line)
                    if not m:
                        raise SystemExit(f"{path}:{lineno}: not an expectation: {line}")
                    if m.group("label"):
                        self.labels.append((m.group("metric"), m.group("inst") or "", m.group("label"),
                                            m.group("value"), m.group("note") or ""))
                    else:
                        self.values.append((m.group("metric"), m.group("inst"), m.group("value"), m.group("note") or ""))


SMC_LINE = re.compile(r"^\[(?P<key>.{4})\] type \[(?P<type>.{4})\] [0-9A-Fa-f]{8} len \[ *\d+\] attr \[[0-9A-Fa-f]+\] -> "
                      r"(?P<bytes>[0-9A-Fa-f]+|NOT READABLE.*)$")
# MacWake prints a key's value decoded, not its bytes: only a one-byte ui8's bytes follow from it.
SMC_UI8_LINE = re.compile(r"^(?P<key>\S{4}) (?P<type>ui8)\s+size=1 attr=0x[0-9A-Fa-f]+ value=(?P<value>\d+)$")


def smc_records(dump, queries):
    """The records of the SMC keys each query reads (live: src/macos/smc.c): an
    entry per key the SMC has, id its four characters, props type and, where
    it could be read, its bytes."""
    found = {}
    with open(dump) as f:
        for line in f:
            m = SMC_LINE.match(line.rstrip("\n"))
            if m:
                found[m.group("key")] = m.group("type"), m.group("bytes")
            m = SMC_UI8_LINE.match(line.rstrip("\n"))
            if m:
                found[m.group("key")] = "ui8 ", int(m.group("value")).to_bytes(1, "big").hex()
    out = []
    for match, wanted in queries.items():
        for key in wanted:
            if key not in found:
                continue
            kind, raw = found[key]
            inst = f"ioreg[{match}#0x{int.from_bytes(key.encode(), 'big'):x}]"
            out += [f"{inst}.class AppleSMC", f"{inst}.name {key}", f"{inst}.prop.type string {kind}"]
            if not raw.startswith("NOT"):
                out.append(f"{inst}.prop.bytes data {raw.lower()}")
    return "".join(line + "\n" for line in out)


HID_MATCH = "HID:temperature"         # the query whose entries a listing's sensors are
HID_BAR = re.compile(r"^\s*(?P<name>\S.*?)\s*\|\s*(?P<celsius>-?[0-9.]+)\s*$")


def hid_records(dump):
    """The HID temperature services a listing names (live: src/macos/hid_sensors.c):
    an entry per sensor, named by its Product, prop celsius. iSMC's table
    is read by its header's columns: DESCRIPTION is the name."""
    sensors, columns = [], None
    with open(dump) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("#"):
                continue
            if "DESCRIPTION" in line and "KEY" in line and "VALUE" in line:
                columns = line.index("KEY"), line.index("VALUE")
                continue
            m = HID_BAR.match(line)
            if m:
                sensors.append((m.group("name"), m.group("celsius")))
            elif columns and line.rstrip().endswith(" hid"):
                value = re.search(r"(-?[0-9.]+) °C\s+hid$", line[columns[0]:].rstrip())
                if value:
                    sensors.append((line[:columns[0]].strip(), value.group(1)))
    out = []
    for n, (name, celsius) in enumerate(sensors, 1):
        inst = f"ioreg[{HID_MATCH}#0x{n:x}]"
        out += [f"{inst}.class IOHIDServiceClient", f"{inst}.name {name}", f"{inst}.prop.celsius float {celsius}"]
    return "".join(line + "\n" for line in out)


def importer_module():
    """tools/ioreg-import as a module, for its escaping of key paths."""
    import importlib.machinery
    import importlib.util
    loader = importlib.machinery.SourceFileLoader("ioreg_import", IMPORTER)
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader("ioreg_import", loader))
    loader.exec_module(module)
    return module


def snapshot(expect_path, darwin_snapshot, out):
    """The imports as a snapshot of two samples; 0, or 1 when an import went
    otherwise than its expect file says."""
    e = Expect(expect_path)
    queries, keys = {}, {}
    for line in subprocess.run([darwin_snapshot, "-q"], capture_output=True, text=True, check=True).stdout.splitlines():
        match, depth, ancestors, *wanted = line.split("\t")
        queries[match] = ["--depth", depth, "--ancestors", ancestors]
        keys[match] = wanted
    names = os.path.join(os.path.dirname(out), os.path.basename(out) + ".sysctls")
    with open(names, "w") as f:
        f.write(subprocess.run([darwin_snapshot, "-s"], capture_output=True, text=True, check=True).stdout)
    status = 0
    records = []
    for match, dump, options, problems in e.imports:
        if match == "smc":
            records.append(smc_records(dump, {m: k for m, k in keys.items() if m.startswith("SMC:")}))
            continue
        if match == "hid":
            records.append(hid_records(dump))
            continue
        command = [SYSCTL_IMPORTER, "--names", names, dump] if match == "sysctl" else \
            [IMPORTER, match, dump] + queries[match] + options
        r = subprocess.run([sys.executable] + command, capture_output=True, text=True)
        said = [l for l in r.stderr.splitlines() if re.search(r": line \d+: ", l)]
        if len(said) != problems or (r.returncode != 0) != (problems > 0):
            print(f"{expect_path}: importing {dump} as {match}: {len(said)} problems, {problems} expected:\n{r.stderr}")
            status = 1
        records.append(r.stdout)
    with open(out, "w") as f:
        f.write(f"# The dumps {os.path.basename(expect_path)} imports, recorded on real Macs (see each dump's first lines)\n")
        f.write("pmda-darwin-snapshot 1\n" + "".join(records) + "".join(k + "\n" for k in e.extra) +
                "sample 1000\nsample 1010\n")
    return status


def imported_entries(snapshot_path):
    """Each query's imported entries in the order imported: {match: {id: entry}}, an entry's
    "parent" an id or None, "class", "name", "props" {escaped key path: the text of a number, a flag
    or a float} and
    "texts" {escaped key path: a string}."""
    entries = {}
    line_re = re.compile(r"^ioreg\[(?P<match>[^#\]]+)#(?P<id>[^\]]+)\]\.(?P<what>prop\.(?P<key>\S+) (?P<kind>\S+) |parent |class |name |)"
                         r"(?P<value>.*)$")
    with open(snapshot_path) as f:
        for line in f:
            m = line_re.match(line.rstrip("\n"))
            if not m:
                continue
            entry = entries.setdefault(m.group("match"), {}).setdefault(int(m.group("id"), 16),
                                                                        {"parent": None, "class": None, "name": None,
                                                                         "props": {}, "texts": {}})
            if m.group("what") == "parent ":
                entry["parent"] = int(m.group("value"), 16)
            elif m.group("what") in ("class ", "name "):
                entry[m.group("what").strip()] = m.group("value")
            elif m.group("key") and m.group("kind") in ("number", "bool", "float"):
                entry["props"].setdefault(m.group("key"), m.group("value"))
            elif m.group("key") and m.group("kind") == "string":
                entry["texts"].setdefault(m.group("key"), m.group("value"))
    return entries


def key_path(key):
    """A query key (raw parts joined by '.') as a snapshot writes its path."""
    return ".".join(importer_module().escape(part) for part in key.split("."))


def instance_names(match, entries, how):
    """{entry id: instance name} as an instances line says (HOW and its ARG)."""
    kind, _, arg = how.partition(" ")
    if kind == "leaves":
        parents = {e["parent"] for e in entries.values()}
        return {i: f"{arg}{n}" for n, i in enumerate(sorted(i for i in entries if i not in parents))}
    if kind == "name":
        return {i: e["name"].replace(" ", "_") for i, e in entries.items() if e["name"]}
    if kind not in ("child", "above"):
        raise SystemExit(f"instances {match}: no way of naming instances called {kind}")
    text, names = key_path(arg), {}
    for i, e in entries.items():
        if kind == "child":
            name = next((c["texts"][text] for c in entries.values() if c["parent"] == i and text in c["texts"]), None)
        else:
            name, at, hops = None, e["parent"] if e["class"] == match else None, 0
            while name is None and at in entries and hops <= len(entries):     # a cycle in bad data ends
                name, at, hops = entries[at]["texts"].get(text), entries[at]["parent"], hops + 1
        if name:
            names[i] = name
    return names


SYSCTL_LINE = re.compile(r"^(?P<name>[A-Za-z_][\w.]*)(?:: | = )(?P<value>.*)$")


def sysctl_values(e):
    """The sysctls of the dumps the .expect imports as sysctl output: {name: number, or "text"}."""
    values = {}
    for match, dump, *_ in e.imports:
        if match != "sysctl":
            continue
        with open(dump) as f:
            for line in f:
                m = SYSCTL_LINE.match(line.rstrip("\n"))
                if m and not line.startswith("#"):
                    v = m.group("value").strip()
                    values.setdefault(m.group("name"), v if re.fullmatch(r"-?[0-9]+", v) else f'"{v}"')
    return values


def rules_for(e):
    """The lines of every folder's pass-through file whose rules name a query this .expect imports,
    each as (file, words)."""
    imported = {HID_MATCH if match == "hid" else match for match, *_ in e.imports}
    out = []
    for folder in sorted(os.listdir(EXPECTS)):
        rules = os.path.join(EXPECTS, folder, "pass-through")
        if not os.path.exists(rules):
            continue
        with open(rules) as f:
            for line in f:
                words = line.split(None, 3 if line.startswith("instances ") else 2)
                if words and not words[0].startswith("#") and (words[0] == "when" or words[1] in imported):
                    out.append((rules, [w.strip() for w in words]))
    return out


def pass_through(e, snapshot_path):
    """The pass-through rules as (metric, instance, value, note) for this .expect."""
    entries, sysctls, out = imported_entries(snapshot_path), sysctl_values(e), []
    listed = {(metric, inst or ""): value for metric, inst, value, _ in e.values}
    when, naming, file = True, {}, None
    for rules, words in rules_for(e):
        if rules != file:
            when, naming, file = True, {}, rules
        if words[0] == "when":
            when = listed.get((words[1], "")) == words[2].split()[0]
            continue
        if words[0] == "instances":
            naming[words[1]] = " ".join(words[2:])
            continue
        metric, match, key = words
        path = key_path(key)
        note = f"{match} {key}" + ("" if when else f" (pass-through: not where {rules})")
        found = entries.get(match, {})
        if match == "sysctl":
            out.append((metric, None, sysctls.get(key, "-") if when else "-", note))
            continue
        if not metric.endswith("[]"):
            first = found[next(iter(found))]["props"] if found else {}
            out.append((metric, None, first.get(path, "-") if when else "-", note))
            continue
        metric = metric[:-2]
        if match not in naming:
            raise SystemExit(f"{rules}: {metric}[] {match}: no instances line for {match} above it")
        for i, name in sorted(instance_names(match, found, naming[match]).items()):
            if path in found[i]["props"]:
                out.append((metric, name, found[i]["props"][path] if when else "-", note))
    return out


def pminfo(names):
    """Each metric's values by instance name ("" without instances), or an error text."""
    out = subprocess.run(["pminfo", "-h", "127.0.0.1", "-f"] + names, capture_output=True, text=True).stdout
    served = {}
    for block in out.split("\n\n"):
        lines = [l for l in block.splitlines() if l.strip()]
        if not lines:
            continue
        metric, values = lines[0].strip(), {}
        for l in lines[1:]:
            m = re.match(r'\s*(?:inst \[\d+ or "(?P<inst>[^"]*)"\] )?value (?P<value>.*)$', l)
            if m:
                values[m.group("inst") or ""] = m.group("value")
        served[metric] = values if values else (" ".join(l.strip() for l in lines[1:]) or "no value")
    return served


def labels(names):
    """Each metric's labels by instance name, as pminfo -l shows them."""
    out = subprocess.run(["pminfo", "-h", "127.0.0.1", "-l"] + sorted(set(names)), capture_output=True, text=True).stdout
    found, metric = {}, None
    for line in out.splitlines():
        if line and not line[0].isspace():
            metric = line.strip()
            continue
        m = re.match(r'\s*inst \[\d+ or "(?P<inst>[^"]*)"\] labels (?P<json>\{.*\})$', line)
        if m and metric:
            found.setdefault(metric, {})[m.group("inst")] = json.loads(m.group("json"))
    return found


def agrees(expected, got):
    if expected.startswith('"'):
        return got == expected
    try:
        value = float(got)
    except ValueError:
        return False
    # as far as the expected value's digits go, and as far as pminfo prints
    # a float (7 significant digits)
    digits = len(expected.partition(".")[2])
    return abs(value - float(expected)) <= max(0.5 * 10 ** -digits, 1e-6 * abs(float(expected))) * (1 + 1e-9)


def check(expect_path, snapshot_path):
    e = Expect(expect_path)
    listed = {(m, i or "") for m, i, *_ in e.values}
    ruled = [r for r in pass_through(e, snapshot_path) if (r[0], r[1] or "") not in listed]
    for metric, inst, _, _ in ruled:
        if sum(1 for m, i, *_ in ruled if (m, i) == (metric, inst)) > 1:
            print(f"not ok - {os.path.basename(expect_path)}: {metric}[{inst}] is named by two entries: list it")
            return 1
    e.values += ruled
    name = os.path.basename(expect_path)
    served = pminfo(e.covers) if e.covers else {}
    failed = 0
    listed = set()
    for metric, inst, expected, note in e.values:
        listed.add((metric, inst or ""))
        got = served.get(metric)
        values = got if isinstance(got, dict) else {}
        if expected == "-":
            ok = (inst or "") not in values
            shown = values.get(inst or "", got)
        else:
            shown = values.get(inst or "", got if not isinstance(got, dict) else "no such instance")
            ok = (inst or "") in values and agrees(expected, values[inst or ""])
        print(f"{'ok' if ok else 'not ok'} - {name}: {metric}{f'[{inst}]' if inst else ''} is {expected}"
              f"{'' if ok else f' (served: {shown})'} ({note})")
        failed += not ok
    shown = labels([l[0] for l in e.labels]) if e.labels else {}
    for metric, inst, label, expected, note in e.labels:
        have = shown.get(metric, {}).get(inst, {})
        ok = label in have and have[label] == json.loads(expected)
        print(f"{'ok' if ok else 'not ok'} - {name}: {metric}[{inst}] is labelled {label} {expected}"
              f"{'' if ok else f' (labels: {have})'} ({note})")
        failed += not ok
    for metric, values in sorted(served.items()):
        for inst in sorted(values) if isinstance(values, dict) else []:
            if (metric, inst) not in listed:
                print(f"not ok - {name}: {metric}{f'[{inst}]' if inst else ''} is served ({values[inst]}) "
                      f"but not checked: add it")
                failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "snapshot":
        sys.exit(snapshot(*sys.argv[2:]))
    if len(sys.argv) == 4 and sys.argv[1] == "check":
        sys.exit(check(sys.argv[2], sys.argv[3]))
    if len(sys.argv) == 3 and sys.argv[1] == "corpus":
        print(corpus_or_skip(sys.argv[2]))
        sys.exit(0)
    sys.exit(__doc__)
