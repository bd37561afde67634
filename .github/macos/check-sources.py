#!/usr/bin/env python3
"""Check that a snapshot recorded on a GitHub macOS runner has every source a
virtual Mac must answer.

usage: check-sources.py SNAPSHOT

darwin-snapshot (tools/writer/snapshot_write.c) writes, in place of a source's
keys, one of three comment lines:

  # WHAT failed (STRERROR): MESSAGE   a whole source failed; WHAT is the name
                                      the writer gives it ("mounts", "tcp
                                      statistics", ...) or a registry query's
                                      MATCH ("IOBlockStorageDriver")
  # ioreg MATCH absent                a registry query found nothing (ENOENT):
                                      hardware the machine does not have
  # KEY failed (STRERROR)             one key failed alone (snapshot_records.c
                                      rec_write: a field with its own status)

A Mac without the NFS client, a battery, an SMC or HID sensors always writes
some of these, and so do the fixtures, so "no such line" cannot be the test.
Instead every source is named below: REQUIRED must answer on any Mac, a
virtual one included; MAY_BE_ABSENT is hardware a VM does not have. A source
that fails and is in neither list fails the check, so that a new source gets
classified here. Besides the comment lines, each REQUIRED source must have
its keys in every sample (keys before the first sample count for all), which
catches a source that answered with nothing (a registry query with no
entries writes no line at all).

Exit status: 0 when every required source answered, 1 when one did not (each
is named), 2 when the file is not a snapshot.
"""
import re
import sys

# name the writer gives the source -> (what it is, keys that must be in every
# sample, key prefixes whose own failure lines are fatal). "[*]" in a key is
# any instance: at least one must be there.
REQUIRED = {
    "host": ("host facts (page size, clock rate, memory size, model)",
             ["host.page_size", "host.clock_hz", "host.memsize", "host.model"], ["host."]),
    "uname": ("uname(3) and the product version",
              ["uname.sysname", "uname.release", "uname.version", "uname.machine"], ["uname."]),
    "boot time": ("kern.boottime", ["clock.boot"], ["clock."]),
    "clock": ("the time of each sample", [], []),
    "topology": ("CPU topology (hw.perflevelN, brand string)", [], []),
    "memory": ("memory (host_statistics64, vm.swapusage)",
               ["vm.free_count", "vm.active_count", "vm.inactive_count", "vm.wire_count", "swap.total"],
               ["vm.", "swap."]),
    "load average": ("load average (vm.loadavg)", ["load.avg1", "load.fscale"], []),
    "cpu totals": ("CPU ticks, host totals", ["cpu.user", "cpu.sys", "cpu.idle"], []),
    "per-cpu ticks": ("per-CPU ticks", ["cpu[*].user"], []),
    "sysctls": ("kernel sysctl groups", [], []),
    "task counts": ("task and thread totals", ["tasks.count"], []),
    "login records": ("utmpx login records", [], []),
    "interfaces": ("network interfaces (NET_RT_IFLIST2)", ["netif[lo0].ipackets"], []),
    "udp statistics": ("UDP statistics", ["udp.ipackets"], []),
    "icmp statistics": ("ICMP statistics", ["icmp.error"], []),
    "tcp statistics": ("TCP statistics", ["tcp.connattempt"], []),
    "tcp connections": ("TCP connections by state", ["tcpconn.established"], []),
    "ipv6 statistics": ("IPv6 statistics", ["ip6.total"], []),
    "mounts": ("mounted filesystems (getfsstat)", ["mount[*].on"], []),
    "IOBlockStorageDriver": ("disks in the IORegistry", ["ioreg[IOBlockStorageDriver#*].class"], []),
    "AppleAPFSContainer": ("APFS containers in the IORegistry",
                           ["ioreg[AppleAPFSContainer#*].class"], []),
    "timebase": ("mach_timebase_info", ["timebase.numer", "timebase.denom"], []),
    "process list": ("processes (KERN_PROC_ALL)", ["proc[*].comm"], []),
    "socket owners": ("sockets by owning process (pcblist_n)", [], []),
}

# What a GitHub-hosted Mac, a virtual machine, does not have.
MAY_BE_ABSENT = {
    "IODeviceTree:/cpus": "CPU cluster types: none on Intel, a VM's device tree may have none",
    "IOAccelerator": "a VM has no real GPU",
    "AppleSmartBattery": "no battery",
    "AppleSmartBatteryPack": "no battery; macOS 27's battery pack entry",
    "IOReport:energy": "no energy model channels in a VM",
    "HID:temperature": "no HID temperature sensors in a VM",
    "SMC:temperature": "no SMC temperature keys in a VM",
    "SMC:fans": "no fans in a VM",
    "notify:com.apple.system.thermalpressurelevel": "thermal pressure: hardware-driven, not required of a VM",
    "NFS statistics": "the NFS client is loaded only when NFS is used",
}
# key prefixes of the optional sources' own per-key failure lines
MAY_BE_ABSENT_KEYS = ("nfs.",)

WHOLE = re.compile(r"^# (.+?) failed \(([^)]*)\): ?(.*)$")
ABSENT = re.compile(r"^# ioreg (.+) absent$")
ONE_KEY = re.compile(r"^# (\S+) failed \(([^)]*)\)$")


def family(key):
    """netif[en0].mib_ibytes -> netif[].mib_ibytes, nfs.client.rpccnt_3 -> nfs.client.rpccnt_N"""
    return re.sub(r"_\d+$", "_N", re.sub(r"\[[^]]*\]", "[]", key))


def read(path):
    """The header's keys, each sample's keys, and the comment lines that
    stand for a source (sample 0 is the header)."""
    header, samples, comments = set(), [], []
    version = None
    with open(path, encoding="utf-8", errors="replace") as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line.startswith("#"):
                comments.append((lineno, len(samples), line))
                continue
            parts = line.split(None, 1)
            if not parts:
                continue
            if version is None:
                version = line
                continue
            if parts[0] == "sample":
                samples.append(set())
            elif samples:
                samples[-1].add(parts[0])
            else:
                header.add(parts[0])
    return version, header, samples, comments


def has(keys, want):
    if "*" not in want:
        return want in keys
    pattern = re.compile(re.escape(want).replace(r"\*", r"[^]]+") + "$")
    return any(pattern.match(k) for k in keys)


def main(argv):
    if len(argv) != 2:
        print("usage: check-sources.py SNAPSHOT", file=sys.stderr)
        return 2
    path = argv[1]
    try:
        version, header, samples, comments = read(path)
    except OSError as e:
        print(f"check-sources: {path}: {e.strerror}", file=sys.stderr)
        return 2
    if version is None or not re.match(r"pmda-darwin-snapshot \d+$", version):
        print(f"check-sources: {path}: no 'pmda-darwin-snapshot' version line", file=sys.stderr)
        return 2
    if not samples:
        print(f"check-sources: {path}: no sample", file=sys.stderr)
        return 2

    failed = {}             # required source -> why (first occurrence)
    unclassified = {}       # a source in neither list -> why
    optional = {}           # optional source -> "absent" or the failure
    notes = {}              # key family -> count of per-key failures

    def where(lineno, sample):
        return f"line {lineno}, " + (f"sample {sample}" if sample else "before the first sample")

    fatal_prefixes = [(p, name) for name, (_, _, prefixes) in REQUIRED.items() for p in prefixes]
    for lineno, sample, line in comments:
        m = WHOLE.match(line)
        if m:
            what = m.group(1)
            if what in REQUIRED:
                failed.setdefault(what, f"{where(lineno, sample)}: {line}")
            elif what in MAY_BE_ABSENT:
                optional.setdefault(what, f"failed ({m.group(2)})")
            else:
                unclassified.setdefault(what, f"{where(lineno, sample)}: {line}")
            continue
        m = ABSENT.match(line)
        if m:
            what = m.group(1)
            if what in REQUIRED:
                failed.setdefault(what, f"{where(lineno, sample)}: {line}")
            elif what in MAY_BE_ABSENT:
                optional.setdefault(what, "absent")
            else:
                unclassified.setdefault(what, f"{where(lineno, sample)}: {line}")
            continue
        m = ONE_KEY.match(line)
        if m:
            key = m.group(1)
            owner = next((name for p, name in fatal_prefixes if key.startswith(p)), None)
            if owner is not None:
                failed.setdefault(owner, f"{where(lineno, sample)}: {line}")
            elif key.startswith(MAY_BE_ABSENT_KEYS):
                optional.setdefault("NFS statistics", "absent (keys failed alone)")
            else:
                notes[family(key)] = notes.get(family(key), 0) + 1
        # any other comment is a note of the writer or a fixture's description

    for name, (_, anchors, _) in REQUIRED.items():
        if name in failed:
            continue
        for i, keys in enumerate(samples, 1):
            missing = [a for a in anchors if not has(keys | header, a)]
            if missing:
                failed[name] = f"sample {i} has no {', '.join(missing)}"
                break

    print(f"{path}: {version}, {len(samples)} samples")
    print("sources every Mac answers, a VM included:")
    for name, (what, _, _) in REQUIRED.items():
        print(f"  {'FAILED' if name in failed else 'ok':7} {name:22} {what}")
        if name in failed:
            print(f"          {failed[name]}")
    print("sources a VM may lack (not checked):")
    everything = header.union(*samples)
    for name, why in MAY_BE_ABSENT.items():
        prefix = "nfs." if name == "NFS statistics" else f"ioreg[{name}#"
        status = optional.get(name) or (
            "answered" if any(k.startswith(prefix) for k in everything) else "no entries")
        print(f"  {status:26} {name} ({why})")
    if notes:
        print("keys that failed alone (a value each; not checked):")
        for fam, n in sorted(notes.items()):
            print(f"  {n:5} x {fam}")
    for name, why in unclassified.items():
        print(f"UNCLASSIFIED source {name!r} failed: {why}")
        print("  add it to REQUIRED or MAY_BE_ABSENT in .github/macos/check-sources.py")

    if failed:
        print(f"FAILED: {', '.join(failed)}: must answer on every Mac, virtual or not")
    if unclassified:
        print(f"FAILED: {', '.join(unclassified)}: failed and not classified")
    if failed or unclassified:
        return 1
    print("every required source answered")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
