#!/usr/bin/env python3
"""What the rates of the process and power views must read, from a
snapshot's own numbers, over the span from its first sample to its last
(the fixtures' counters grow steadily): each process's CPU use (percent of
one CPU), GPU use (percent of the GPU), power (W) and share of CPU time on
performance cores (percent), for the processes in both samples; the SoC's
power by IOReport energy channel (W) and the GPU's active residency
(percent).

usage: expected_rates.py SNAPSHOT table
         one line per process: "NNNNNN comm" cpu gpu watts pcore (tab-separated)
       expected_rates.py SNAPSHOT soc
         one line per energy channel: name watts, then "GPU busy" percent
       expected_rates.py SNAPSHOT pmrep N PMREP_OUTPUT
         exit 0 when the output of pmrep :darwin-top (rank N, dynamic headers)
         names, for each of its metrics, the N processes that rank first, and
         its last row has their values to 1 %
"""
import re
import sys

NS = 1e9
# pmrep :darwin-top's columns, by label, and the rate each shows
COLUMNS = {"cpu%": "cpu", "gpu%": "gpu", "W": "watts"}
TOLERANCE = 0.01
GPU_TIME = re.compile(r"^ioreg\[AGXAccelerator#(\w+)\]\.prop\.AppUsage\.\d+\.accumulatedGPUTime$")
GPU_CREATOR = re.compile(r"^ioreg\[AGXAccelerator#(\w+)\]\.prop\.IOUserClientCreator$")
PROC_KEY = re.compile(r"^proc\[(\d+)\]\.(comm|task\.total_user|task\.total_system|rusage\.energy_nj|"
                      r"rusage\.user_ptime|rusage\.system_ptime)$")


def samples(path):
    """Each sample's time and its records: {key: text}."""
    out = []
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("sample "):
                out.append((float(line.split()[1]), {}))
            elif out and line and not line.startswith("#"):
                key, _, value = line.partition(" ")
                out[-1][1][key] = value
    return out


def processes(records):
    """{pid: {comm, cpu (mach units), energy, ptime, gpu (ns)}} of one sample."""
    procs, client_pid, client_ns = {}, {}, {}
    for key, value in records.items():
        m = PROC_KEY.match(key)
        if m:
            p = procs.setdefault(int(m.group(1)), {"cpu": 0, "ptime": 0, "gpu": 0})
            field = m.group(2)
            if field == "comm":
                p["comm"] = value
            elif field.startswith("task."):
                p["cpu"] += int(value)
            elif field == "rusage.energy_nj":
                p["energy"] = int(value)
            else:
                p["ptime"] += int(value)
        m = GPU_CREATOR.match(key)
        if m:       # "string pid N, name"
            client_pid[m.group(1)] = int(value.split()[2].rstrip(","))
        m = GPU_TIME.match(key)
        if m:       # "number N"
            client_ns[m.group(1)] = client_ns.get(m.group(1), 0) + int(value.split()[1])
    for client, ns in client_ns.items():
        if client_pid.get(client) in procs:
            procs[client_pid[client]]["gpu"] += ns
    return procs


def rates(path):
    """{instance name: {cpu, gpu, watts, pcore}} from the first sample to the last."""
    recorded = samples(path)
    (t0, first), (t1, last) = recorded[0], recorded[-1]
    numer, denom = int(first["timebase.numer"]), int(first["timebase.denom"])
    span = t1 - t0
    a, b = processes(first), processes(last)
    out = {}
    for pid in sorted(set(a) & set(b)):
        if "energy" not in a[pid] or "energy" not in b[pid]:
            continue                # no task: a zombie
        cpu = b[pid]["cpu"] - a[pid]["cpu"]
        ptime = b[pid]["ptime"] - a[pid]["ptime"]
        out["%06d %s" % (pid, b[pid]["comm"])] = {
            "cpu": 100 * cpu * numer / denom / NS / span,
            "gpu": 100 * (b[pid]["gpu"] - a[pid]["gpu"]) / NS / span,
            "watts": (b[pid]["energy"] - a[pid]["energy"]) / NS / span,
            "pcore": 100 * ptime / cpu if cpu else 0,
        }
    return out


# the units of an IOReport energy channel, in joules
JOULES = {"mJ": 1e-3, "uJ": 1e-6, "nJ": 1e-9}
CHANNEL = re.compile(r"^ioreg\[IOReport:(energy|gpu)#(\w+)\]\.(name|prop\.unit|prop\.value|prop\.state\.(\w+))$")


def channels(records):
    """{(group, id): {name, unit, value, states: {state: residency}}} of one sample."""
    out = {}
    for key, value in records.items():
        m = CHANNEL.match(key)
        if not m:
            continue
        ch = out.setdefault((m.group(1), m.group(2)), {"states": {}})
        if m.group(3) == "name":
            ch["name"] = value
        elif m.group(3) == "prop.unit":
            ch["unit"] = value.split()[1]
        elif m.group(3) == "prop.value":
            ch["value"] = int(value.split()[1])
        else:
            ch["states"][m.group(4)] = int(value.split()[1])
    return out


def soc(path):
    """[(energy channel, watts)...] and the GPU's active residency, percent."""
    recorded = samples(path)
    (t0, first), (t1, last) = recorded[0], recorded[-1]
    a, b = channels(first), channels(last)
    watts = [(b[k]["name"], (b[k]["value"] - a[k]["value"]) * JOULES[b[k]["unit"]] / (t1 - t0))
             for k in sorted(b) if k[0] == "energy"]
    gpu = next(k for k in b if k[0] == "gpu")
    residency = {s: b[gpu]["states"][s] - a[gpu]["states"][s] for s in b[gpu]["states"]}
    busy = 100 * sum(v for s, v in residency.items() if s != "OFF") / sum(residency.values())
    return watts, busy


def near(value, want):
    return abs(value - want) <= TOLERANCE * abs(want) + 0.05


def check_pmrep(expected, rank, output):
    """The pmrep output's headers (label line, instance line) and last row."""
    lines = [l for l in open(output).read().splitlines() if l.strip()]
    labels = next((l.split() for l in lines if l.split()[0] in COLUMNS), None)
    names = next((l.strip() for l in lines if re.match(r"^ +\d{6} ", l)), None)
    if labels is None or names is None:
        print("no header of labels and processes in %s" % output)
        return False
    instances = re.findall(r"\d{6} .*?(?= {2,}|$)", names)
    row = lines[-1].split()[1:]
    good = len(labels) == len(instances) == len(row) == rank * len(COLUMNS)
    for column, metric in COLUMNS.items():
        top = sorted(expected, key=lambda name: -expected[name][metric])[:rank]
        shown = {instances[i]: float(row[i]) for i in range(len(labels)) if labels[i] == column}
        ok = set(shown) == set(top) and all(near(shown[n], expected[n][metric]) for n in top)
        print("%s %s: top %d %s, shown %s" % ("ok" if ok else "WRONG", column, rank,
              ["%s %.2f" % (n, expected[n][metric]) for n in top], shown))
        good = good and ok
    return good


def main():
    if sys.argv[2] == "soc":
        watts, busy = soc(sys.argv[1])
        for name, w in watts:
            print("%s\t%.3f" % (name, w))
        print("GPU busy\t%.3f" % busy)
        return 0
    if sys.argv[2] == "table":
        for name, r in rates(sys.argv[1]).items():
            print("%s\t%.3f\t%.3f\t%.3f\t%.3f" % (name, r["cpu"], r["gpu"], r["watts"], r["pcore"]))
        return 0
    return 0 if check_pmrep(rates(sys.argv[1]), int(sys.argv[3]), sys.argv[4]) else 1


if __name__ == "__main__":
    sys.exit(main())
