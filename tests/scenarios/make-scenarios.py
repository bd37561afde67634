#!/usr/bin/env python3
"""Write the pmie rules' test scenarios: two variants of the (synthetic) Apple
Silicon fixture, one calm (no rule may fire) and one stressed (every rule must
fire), by rewriting the records each rule reads in each of its samples.

usage: make-scenarios.py FIXTURE OUTDIR   (writes OUTDIR/calm.snapshot and
OUTDIR/stressed.snapshot)

The replay interpolates counters between samples, so a counter set to grow
by N per sample reads as N/5 per second (samples are 5 s apart)."""
import re
import sys

MIB = 1 << 20
E_CPUS = {"cpu0", "cpu1", "cpu2", "cpu3"}      # cluster type E in the fixture
TICKS = 500                                     # ticks per CPU per sample (hz 100, 5 s)
DATA_MOUNT = "/System/Volumes/Data"
DISK_DRIVER = "IOBlockStorageDriver#0x1000005d0"
PROCESS = "731"                                 # python3.12, 675 MiB
NVME_PAGE = "ioreg[NVMe:health#0x1000005e0].prop.smart"
# The SSD's SMART / Health page under stress, by byte (NVMe Base Specification
# 2.0c 5.16.1.3): a critical warning (bit 0: spare below its threshold), 5 %
# spare left (its threshold is 10 %), 95 % of its rated life used.
NVME_STRESSED = {0: 0x01, 3: 5, 5: 95}

# Busy fraction of the P and E cores over each of the 4 intervals.
BUSY = {
    "calm": [(0.4, 0.3)] * 4,
    # P saturated with E idle for 10 s, then the reverse for 10 s
    "stressed": [(0.98, 0.05), (0.98, 0.05), (0.05, 0.98), (0.05, 0.98)],
}

# IOReport's CPU cluster residencies (24 MHz ticks): the share of each
# interval a cluster spends in each clock state, the rest IDLE; a cluster
# not named keeps the fixture's. States from the lowest clock up: ECPU
# V0P2 600, V1P1 1200, V2P0 1800 MHz; PCPU V0P3 1000, V1P2 2000, V2P1 3000,
# V3P0 3500 MHz. A cluster is active while any of its cores is, so it can
# be busier than its cores' mean ticks.
ECPU, PCPU = "IOReport:cpu-clusters#0x1", "IOReport:cpu-clusters#0x2"
RESIDENCY_TICKS = 24000000 * 5
P_SLOW = {"V0P3": 0.475, "V1P2": 0.475}         # 95% busy at 1500 MHz, 43% of its top clock
CLUSTERS = {
    # busy and slow but cool (thermal pressure nominal, the die at 56 C), as
    # Low Power Mode holds it: not throttled by heat
    "calm": [{PCPU: P_SLOW}] * 4,
    # throttled P (thermal pressure is moderate); E as BUSY has it, idle at
    # its lowest clock, then busy at its top clock: hot, but not throttled
    "stressed": [{PCPU: P_SLOW, ECPU: {"V0P2": 0.05}}] * 2 + [{PCPU: P_SLOW, ECPU: {"V2P0": 0.98}}] * 2,
}


def values(scenario, k):
    """The records a sample k (0..4) of a scenario sets, as {key: value}."""
    stressed = scenario == "stressed"
    v = {
        "sysctl.kern.memorystatus_vm_pressure_level": ([2, 2, 4, 4, 4][k] if stressed else 1),
        "compressor.thrashing_detected": 2 + (3 * k if stressed else 0),
        "compressor.swapouts_under_30s": 120 + (50 * k if stressed else 0),
        f"netif[en0].ierrors": 171 + (100 * k if stressed else 0),
        f"netif[en0].iqdrops": 343 + (100 * k if stressed else 0),
        f"ioreg[{DISK_DRIVER}].prop.Statistics.Errors%20(Read)": "number %d" % (2 * k if stressed else 0),
    }
    used = (1024 + 100 * k) * MIB if stressed else 512 * MIB
    v.update({"swap.total": 2048 * MIB, "swap.used": used, "swap.avail": 2048 * MIB - used})
    footprint = (675 + (50 * k if stressed else 0)) * MIB
    v[f"proc[{PROCESS}].rusage.phys_footprint"] = footprint
    v[f"proc[{PROCESS}].rusage.lifetime_max_phys_footprint"] = max(footprint, 900 * MIB)
    return v


def nvme_page(scenario, value):
    """The page record as the scenario has it: the fixture's, or worn out."""
    kind, _, hexbytes = value.partition(" ")
    if scenario != "stressed":
        return value
    page = bytearray.fromhex(hexbytes)
    for at, byte in NVME_STRESSED.items():
        page[at] = byte
    return f"{kind} {page.hex()}"


def cpu_ticks(scenario, cpu, k, start):
    """user and idle ticks of a CPU at sample k: its level's busy share of each interval."""
    user, idle = start
    for j in range(k):
        p_busy, e_busy = BUSY[scenario][j]
        busy = e_busy if cpu in E_CPUS else p_busy
        user += round(TICKS * busy)
        idle += TICKS - round(TICKS * busy)
    return user, idle


def residency(scenario, channel, state, k):
    """A cluster's ticks in a state at sample k, or None where the fixture's stay."""
    if channel not in CLUSTERS[scenario][0]:
        return None
    ticks = 0
    for shares in CLUSTERS[scenario][:k]:
        active = sum(round(RESIDENCY_TICKS * share) for share in shares[channel].values())
        ticks += RESIDENCY_TICKS - active if state == "IDLE" else round(RESIDENCY_TICKS * shares[channel].get(state, 0))
    return ticks


def rewrite(lines, scenario):
    out, k, data_mount, first_cpu = [], -1, None, {}
    fixed = {                       # the same in every sample
        # thermal pressure moderate (1): the lowest level the throttling rule counts as hot
        "stressed": {"CycleCount": "number 1100", "thermalpressurelevel#0x1].prop.state": "number 1"},
        "calm": {"thermalpressurelevel#0x1].prop.state": "number 0"},
    }[scenario]
    for line in lines:
        if line.startswith("sample "):
            k += 1
        key, _, value = line.rstrip("\n").partition(" ")
        if not value:
            out.append(line)
            continue
        for suffix, new in fixed.items():
            if key.endswith(suffix):
                value = new
        if k < 0:
            out.append(f"{key} {value}\n")
            continue
        if key == NVME_PAGE:
            value = nvme_page(scenario, value)
        m = re.match(r"mount\[(\d+)\]\.(\w+)$", key)
        if m:
            if m.group(2) == "on" and value == DATA_MOUNT:
                data_mount = m.group(1)
            if scenario == "stressed" and data_mount == m.group(1) and m.group(2) in ("bfree", "bavail"):
                bfree = 6000000 - 200000 * k      # ~95% full and filling
                # bavail stays the fixture's 4824988 blocks (its reserve) below bfree
                value = str(bfree if m.group(2) == "bfree" else bfree - 4824988)
        m = re.match(r"cpu\[(cpu\d+)\]\.(user|idle|sys|nice)$", key)
        if m:
            cpu, field = m.groups()
            first_cpu.setdefault((cpu, field), int(value))
            if field in ("user", "idle") and k > 0:     # sample 0's ticks are the start
                ticks = cpu_ticks(scenario, cpu, k, (first_cpu[(cpu, "user")], first_cpu[(cpu, "idle")]))
                value = str(ticks[field == "idle"])
            elif field in ("sys", "nice"):
                value = str(first_cpu[(cpu, field)])   # sys and nice stay flat
        m = re.match(r"ioreg\[(IOReport:cpu-clusters#0x[0-9a-f]+)\]\.prop\.state\.(\w+)$", key)
        ticks = m and residency(scenario, m.group(1), m.group(2), k)
        if ticks is not None:
            value = "number %d" % ticks
        new = values(scenario, k).get(key)
        if new is not None:
            value = str(new)
        out.append(f"{key} {value}\n")
    return fix_cpu_totals(out)


def fix_cpu_totals(lines):
    """cpu.* are the sums of the per-CPU ticks, sample by sample."""
    totals, result, pending = {}, [], []
    for line in lines + ["sample end\n"]:
        if line.startswith("sample "):
            result.extend(l if not l.startswith("cpu.") or l.split()[0][4:] not in totals
                          else "%s %d\n" % (l.split()[0], totals[l.split()[0][4:]]) for l in pending)
            pending, totals = [], {}
            if line != "sample end\n":
                result.append(line)
            continue
        m = re.match(r"cpu\[cpu\d+\]\.(\w+) (\d+)", line)
        if m:
            totals[m.group(1)] = totals.get(m.group(1), 0) + int(m.group(2))
        pending.append(line)
    return result


def main():
    fixture, outdir = sys.argv[1], sys.argv[2]
    with open(fixture) as f:
        lines = f.readlines()
    for scenario in ("calm", "stressed"):
        body = rewrite([l for l in lines if not l.startswith("#")], scenario)
        with open(f"{outdir}/{scenario}.snapshot", "w") as f:
            f.write(f"# SYNTHETIC: not recorded on a real Mac. The {scenario} scenario for the pmie rules,\n"
                    f"# made by tests/scenarios/make-scenarios.py from {fixture.split('/')[-1]}.\n")
            f.writelines(body)


if __name__ == "__main__":
    main()
