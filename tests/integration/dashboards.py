#!/usr/bin/env python3
"""The Grafana boards of config/grafana, checked without Grafana (for fleet.sh).

  dashboards.py names SRC
      the metrics the pmseries board draws, for pmlogger's configuration
  dashboards.py check SRC HOST PMPROXY_URL PROMETHEUS_API FROM TO
      every target of both boards, sent as Grafana would send it: the
      pmseries board's the way grafana-pcp's PCP Valkey data source does
      (pkg/datasources/valkey: /series/query, /series/metrics, /series/descs,
      /series/labels, /series/values, /series/instances, then its rate and
      time-utilisation conversions: PCP Redis's code, which grafana-pcp 5.2
      renamed, so both generations ask alike), the Prometheus board's to
      /api/v1/query_range for a graph, /api/v1/query for the others;
      FROM and TO (epoch seconds) bound the archive loaded into the key
      server (Valkey or Redis).

Prints "ok - ..." and "not ok - ..." lines for fleet.sh's tally; exits
non-zero only if it could not finish.
"""
import glob
import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import time
import urllib.parse
import urllib.request

PMSERIES, PROMETHEUS = "pmseries", "prometheus"
DATASOURCE = {PMSERIES: "performancecopilot-valkey-datasource", PROMETHEUS: "prometheus"}
# fleet.sh's Prometheus scrapes every PROMETHEUS_SCRAPE seconds (the data
# source's scrape interval, which fleet.sh derives from what a scrape costs:
# 1 on an idle machine); $__interval is 5 s, as for the board's hour on a
# panel some 700 pixels wide; Grafana's $__rate_interval is
# max($__interval + scrape interval, 4 scrape intervals).
SCRAPE, INTERVAL = int(os.environ.get("PROMETHEUS_SCRAPE", "1")), 5
RATE_WINDOW = max(INTERVAL + SCRAPE, 4 * SCRAPE)
GRAFANA_VARS = {"$__rate_interval": f"{RATE_WINDOW}s", "$__interval": f"{INTERVAL}s"}
# rate() extrapolates the increase it sees to its window's edges: over so
# few scrapes, a scrape's late or early answer moves it by up to one
# scrape in the window's span (pmseries rates, from pmlogger's own
# timestamps, stay within 1 %).
PROM_RATE = SCRAPE / (RATE_WINDOW - SCRAPE)
# Units grafana-pcp turns from time into a share of time (time utilisation).
TIME_UNITS = {"nanosec": 1e9, "microsec": 1e6, "millisec": 1e3}
# Targets with no series here, and why: they must stay empty (their names
# are still checked against the PMNS).
FANLESS = "the fixture is a fanless MacBook Air (SMC FNum 0)"
RAILLESS = "the fixture is an M2, whose CPU rails are not known, and its IOReport CPU counter moves"
ANELESS = "the fixture's registry and IOReport have no Neural Engine"
ABSENT = {(PMSERIES, "thermal.fan."): FANLESS, (PROMETHEUS, "thermal_fan_"): FANLESS,
          (PMSERIES, "power.cpu.watts"): RAILLESS, (PROMETHEUS, "power_cpu_watts"): RAILLESS,
          (PMSERIES, "kernel.ane."): ANELESS, (PROMETHEUS, "kernel_ane_"): ANELESS,
          (PMSERIES, "proc."): "pmseries --load skips proc.* (pmproxy.conf's [discover] exclude.metrics; "
                               "pmseries -c crashes in PCP 6.0.3)"}


def absent(kind, expr):
    return [why for (k, prefix), why in ABSENT.items()
            if k == kind and any(n.startswith(prefix) for n in metric_names(kind, expr))]


def near(x, rel):
    return (x * (1 - rel), x * (1 + rel))


MIB = 1024      # in KiB, the unit of mem.util and swap
# The fixture's figures (tests/fixtures/model/machines.c, model_kernel.c),
# at least one per row: (board, panel, series as its legend names it,
# lowest, highest, what the fixture says). pmseries rates are within 1 %
# of the fixture's, for the jitter of sampling a replay; ratios of rates
# of one fetch (the clocks) are exact but for rounding.
ECPU_MHZ, PCPU_MHZ, GPU_MHZ = 1500, 2750, 800
USED, SWAP = 10100 * MIB, 512 * MIB           # swap: 1 MiB more each sample
SAMPLES = int(os.environ.get("PMLOGGER_SAMPLES", "0"))  # fleet.sh's pmlogger
DISK0_READS, WIFI_RX, WIFI_WIDTH = 220, 2000000, 80
BATTERY, CPU_WATTS, SYSTEM_WATTS, CPU_DIE = 72, 4.2, 12.5, 55.875
FOOTPRINT = 900 * 2**20 * 3 // 4              # python3.12: 3/4 of its 900 MiB resident, bytes
AGX_BYTES, EACC0_READ = 2.4e9, 1.5e9          # memory bandwidth, bytes a second
NVME_USED = 2                                 # disk0's SMART / Health log: percentage used
VALUES = [
    (PMSERIES, "Cluster clock while active", "ECPU", *near(ECPU_MHZ, 0.001), "ECPU: 10 % at 600 MHz, 30 % at 1800"),
    (PMSERIES, "Cluster clock while active", "PCPU", *near(PCPU_MHZ, 0.001), "PCPU 25 % at 2000 MHz, 25 % at 3500"),
    (PROMETHEUS, "Cluster clock while active", "ECPU (efficiency)", *near(ECPU_MHZ, 0.001), "ECPU while active"),
    (PMSERIES, "Memory used", "used", *near(USED, 0.01), "memory used, as pcp dstat shows it"),
    (PROMETHEUS, "Memory used", "used", *near(USED, 0.01), "memory used"),
    (PMSERIES, "Swap", "used", SWAP, SWAP + SAMPLES * MIB, "swap used, growing a MiB a sample"),
    (PROMETHEUS, "Swap", "used", SWAP, SWAP + SAMPLES * MIB, "swap used, growing a MiB a sample"),
    (PMSERIES, "Disk operations", "disk0 read", *near(DISK0_READS, 0.01), "disk0 reads a second"),
    (PROMETHEUS, "Disk operations", "disk0 read", *near(DISK0_READS, PROM_RATE), "disk0 reads a second"),
    (PMSERIES, "Received by interface type", "en0", *near(WIFI_RX, 0.01), "en0 (Wi-Fi) receives, bytes a second"),
    (PROMETHEUS, "Received by interface type", "wifi", *near(WIFI_RX, PROM_RATE), "wifi: en0 alone"),
    (PMSERIES, "Wi-Fi channel width", "en0", WIFI_WIDTH, WIFI_WIDTH, "en0's channel (tests/fixtures/ioreg/wifi-en0.txt)"),
    (PROMETHEUS, "Wi-Fi channel width", "en0", WIFI_WIDTH, WIFI_WIDTH, "en0's channel"),
    (PMSERIES, "GPU clock while active", "MHz", *near(GPU_MHZ, 0.001), "the GPU while active"),
    (PROMETHEUS, "GPU clock while active", "MHz", *near(GPU_MHZ, 0.001), "the GPU while active"),
    (PMSERIES, "Memory bandwidth by requestor", "AGX", *near(AGX_BYTES, 0.001), "AGX: 20/30/40/10 % at 1-4 GB/s"),
    (PROMETHEUS, "Memory bandwidth by requestor", "AGX", *near(AGX_BYTES, 0.001), "AGX reads and writes"),
    (PMSERIES, "Memory bandwidth by requestor", "EACC0 read", *near(EACC0_READ, 0.001), "EACC0: half at 1, half at 2"),
    (PMSERIES, "Battery charge", "charge", BATTERY, BATTERY, "battery charge"),
    (PROMETHEUS, "Battery charge", "charge", BATTERY, BATTERY, "battery charge"),
    (PMSERIES, "Energy by unit", "CPU", *near(CPU_WATTS, 0.01), "CPU power from its energy counter"),
    (PROMETHEUS, "Energy by unit", "CPU", *near(CPU_WATTS, PROM_RATE), "CPU power from its energy counter"),
    (PMSERIES, "System, battery and CPU power", "system", SYSTEM_WATTS, SYSTEM_WATTS, "the whole Mac (SMC PSTR)"),
    (PROMETHEUS, "System, battery and CPU power", "system", SYSTEM_WATTS, SYSTEM_WATTS, "the whole Mac (SMC PSTR)"),
    (PMSERIES, "CPU and GPU die", "CPU", CPU_DIE, CPU_DIE, "pACC MTR Temp Sensor1, the hottest CPU sensor"),
    (PROMETHEUS, "CPU and GPU die", "CPU", CPU_DIE, CPU_DIE, "the hottest CPU sensor"),
    (PROMETHEUS, "Top processes by memory footprint", "000731 python3.12", FOOTPRINT, FOOTPRINT,
     "python3.12's footprint"),
    (PMSERIES, "NVMe wear and spare", "disk0 used", NVME_USED, NVME_USED, "the internal SSD's life used"),
    (PROMETHEUS, "NVMe wear and spare", "disk0 used", NVME_USED, NVME_USED, "the internal SSD's life used"),
]

def report(good, desc):
    print(f"{'ok' if good else 'not ok'} - {desc}", flush=True)


def board(src, kind):
    with open(f"{src}/config/grafana/macos-host-{kind}.json") as f:
        return json.load(f)


def targets(dash):
    for panel in dash["panels"]:
        for target in panel.get("targets", []):
            yield panel, target


def metric_names(kind, expr):
    if kind == PMSERIES:
        return set(re.findall(r"\b([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+)\s*\{", expr))
    return set(re.findall(r"\b([a-z][a-z0-9_]*)\s*\{", expr))


def get(url, path, params):
    # pmproxy 6.0.3 now and then ends a chunked reply early (IncompleteRead):
    # such a reply is asked for again, up to three times
    for attempt in range(3):
        try:
            with urllib.request.urlopen(url + path + "?" + urllib.parse.urlencode(params), timeout=20) as r:
                return json.load(r)
        except http.client.IncompleteRead:
            if attempt == 2:
                raise


def pmseries_frames(url, expr, start, finish):
    """What grafana-pcp's backend makes of a target: a list of fields, each
    ((metric, instance name, labels), [values])."""
    ids = get(url, "/series/query", {"expr": expr})
    if not ids:
        return []
    joined = ",".join(ids)
    names = {m["series"]: m["name"] for m in get(url, "/series/metrics", {"series": joined})}
    descs = {d["series"]: d for d in get(url, "/series/descs", {"series": joined})}
    no_indom = [s for s, d in descs.items() if d["indom"] == "none"]
    labels = {}
    if no_indom:
        labels = {l["series"]: l["labels"] for l in get(url, "/series/labels", {"series": ",".join(no_indom)})}
    # grafana-pcp widens the range by twice pmlogger's default interval
    # (or the panel's, if longer) before and once after, and asks at the
    # panel's interval.
    extra = max(INTERVAL, 60)
    values = get(url, "/series/values", {"series": joined, "start": start - 2 * extra,
                                         "finish": finish + extra, "interval": INTERVAL})
    instances = {}
    with_indom = [s for s in ids if s not in no_indom]
    if with_indom:
        for inst in get(url, "/series/instances", {"series": ",".join(with_indom)}):
            instances[inst["instance"]] = inst
        if instances:
            for l in get(url, "/series/labels", {"series": ",".join(instances)}):
                labels[l["series"]] = l["labels"]
    frames, meta = {}, {}
    for v in sorted(values, key=lambda v: v["timestamp"]):
        sid, inst = v["series"], v.get("instance", "")
        key = (sid, inst)
        desc = descs[sid]
        try:
            value = float(v["value"])
        except ValueError:
            value = v["value"]
        frames.setdefault(key, []).append((v["timestamp"] / 1000, value))
        meta[key] = (names[sid], desc, instances.get(inst, {}).get("name"), labels.get(inst or sid, {}))
    out = []
    for key, points in frames.items():
        name, desc, instname, lab = meta[key]
        vals = [p[1] for p in points]
        if desc["semantics"] == "counter":
            vals = [(b - a) / (tb - ta) if b >= a else None
                    for (ta, a), (tb, b) in zip(points, points[1:])]
            if desc["units"] in TIME_UNITS:
                vals = [x / TIME_UNITS[desc["units"]] if x is not None else None for x in vals]
        out.append(((name, instname, lab), vals))
    return out


def pcp_legend(target, field):
    """grafana-pcp's legend: $expr, $metric, $metric0, $instance and labels;
    a name it cannot resolve stays as written."""
    name, instname, labels = field
    def sub(m):
        var = m.group(0)[1:]
        if var == "expr":
            return target["expr"]
        if var == "metric":
            return name
        if var == "metric0":
            return name.split(".")[-1]
        if var == "instance":
            return instname if instname is not None else m.group(0)
        return str(labels[var]) if var in labels else m.group(0)
    return re.sub(r"\$\w+", sub, target.get("legendFormat", ""))


def check_pmseries(dash, host, url, start, finish):
    series = {}
    for panel, target in targets(dash):
        expr = target["expr"].replace("$hostname", host)
        what = f"pmseries board, {panel['title']} {target['refId']}: {expr}"
        frames = pmseries_frames(url, expr, start, finish)
        why = absent(PMSERIES, expr)
        if why:
            report(not frames, f"{what}: no series ({why[0]})")
            continue
        legends = {pcp_legend(target, f): [v for v in vals if v is not None] for f, vals in frames}
        valued = frames and all(legends.values())
        unresolved = sorted({l for l in legends if "$" in l})
        report(valued and not unresolved,
               f"{what}: {len(frames)} series with values" +
               (f" (legend unresolved: {unresolved[0]})" if unresolved else ""))
        series[panel["title"]] = {**series.get(panel["title"], {}), **legends}
    return series


def first_scrape(api, cache={}):
    """When Prometheus scraped pmproxy first (the oldest sample of up)."""
    if "at" not in cache:
        now = time.time()
        got = get(api, "/query_range", {"query": "up", "start": now - 300, "end": now, "step": 1})
        cache["at"] = min(float(v[0]) for r in got["data"]["result"] for v in r["values"])
    return cache["at"]


def scraped_at_or_after(api, at):
    """Whether Prometheus holds a scrape of pmproxy taken at or after at."""
    got = get(api, "/query", {"query": "timestamp(up)"})
    return any(float(r["value"][1]) >= at for r in got["data"]["result"])


def promql(api, target, query):
    """A time series panel's query_range over the last half minute at
    $__interval steps, as Grafana asks for a graph; else an instant query.
    The range starts no earlier than a whole rate window after the first
    scrape: a point whose window starts before it has fewer samples, and
    rate() extrapolates it low by as much as the window is empty. Until
    Prometheus has scraped that far (a quick run gets here sooner), there
    is no such range: wait for the scrape."""
    if target.get("range"):
        earliest = first_scrape(api) + RATE_WINDOW + SCRAPE
        for _ in range(int(10 * RATE_WINDOW / SCRAPE)):
            if scraped_at_or_after(api, earliest):
                break
            time.sleep(SCRAPE / 2)
        now = time.time()
        return get(api, "/query_range", {"query": query, "start": max(now - 30, earliest), "end": now,
                                         "step": INTERVAL})
    return get(api, "/query", {"query": query})


def check_prometheus(dash, host, api):
    series = {}
    for panel, target in targets(dash):
        expr = target["expr"].replace("$hostname", host)
        for var, value in GRAFANA_VARS.items():
            expr = expr.replace(var, value)
        what = f"Prometheus board, {panel['title']} {target['refId']}: {expr}"
        # A rate needs two scrapes in its window: wait a window for them.
        for _ in range(2 * RATE_WINDOW):
            answer = promql(api, target, expr)
            result = answer.get("data", {}).get("result", [])
            if result or answer.get("status") != "success":
                break
            time.sleep(0.5)
        why = absent(PROMETHEUS, expr)
        if why:
            report(answer.get("status") == "success" and not result, f"{what}: no series ({why[0]})")
            continue
        legend = target.get("legendFormat", "")
        wanted = re.findall(r"\{\{\s*(\w+)\s*\}\}", legend)
        missing = [l for l in wanted if not any(l in r["metric"] for r in result)]
        report(answer.get("status") == "success" and result and not missing,
               f"{what}: {len(result)} series" + (f" (no series has label {missing[0]})" if missing else ""))
        for r in result:
            name = re.sub(r"\{\{\s*(\w+)\s*\}\}", lambda m: r["metric"].get(m.group(1), ""), legend)
            points = r["values"] if "values" in r else [r["value"]]
            series.setdefault(panel["title"], {})[name] = [float(v) for _, v in points]
    return series


def pmns_names(src):
    names = set()
    for root in ("pmns/root", "pmns/proc/root"):
        out = subprocess.run(["pminfo", "-n", f"{src}/{root}"], capture_output=True, text=True).stdout
        names.update(out.split())
    # The derived metrics Install puts in PCP's derived folder: pmlogger
    # records them with the agent's.
    with open(f"{src}/config/derived/darwin.conf") as f:
        names.update(re.findall(r"^([a-z][a-z0-9_.]*) =", f.read(), re.M))
    return names


def logged_groups(src):
    """The subtrees config/pmlogconf/darwin records."""
    groups = set()
    for path in glob.glob(f"{src}/config/pmlogconf/darwin/*"):
        with open(path) as f:
            groups.update(l.strip() for l in f if l.startswith("\t") and l.strip())
    return groups


def check_form(src, kind, dash, names):
    ds = DATASOURCE[kind]
    ids = [p["id"] for p in dash["panels"]]
    report(len(ids) == len(set(ids)), f"{kind} board: {len(ids)} panels, each id once")
    wrong = [p["title"] for p in dash["panels"] if p["type"] != "row" and
             (p.get("datasource", {}).get("type") != ds or
              any(t.get("datasource", {}).get("type") != ds for t in p.get("targets", [])))]
    report(not wrong, f"{kind} board: every panel and target uses a {ds} data source" +
           (f" (not: {', '.join(wrong)})" if wrong else ""))
    variables = {v["name"]: v for v in dash["templating"]["list"]}
    report(variables.get("datasource", {}).get("query") == ds and "hostname" in variables,
           f"{kind} board: a data source variable of type {ds} and a hostname variable")
    report(dash.get("schemaVersion", 0) >= 36, f"{kind} board: schemaVersion {dash.get('schemaVersion')} (Grafana 10 or 11)")
    used = set().union(*(metric_names(kind, t["expr"]) for _, t in targets(dash)))
    known = names if kind == PMSERIES else {n.replace(".", "_") for n in names}
    unknown = sorted(used - known)
    report(used and not unknown, f"{kind} board: its {len(used)} metrics are the agents' (PMNS or derived)" +
           (f" (not: {', '.join(unknown)})" if unknown else ""))
    if kind == PMSERIES:
        groups = logged_groups(src)
        unlogged = sorted(n for n in used if not any(n == g or n.startswith(g + ".") for g in groups))
        report(not unlogged, "pmseries board: config/pmlogconf/darwin records every metric it draws" +
               (f" (not: {', '.join(unlogged)})" if unlogged else ""))


def check_values(series):
    """The median of a panel's points."""
    for kind, panel, legend, lo, hi, why in VALUES:
        got = series[kind].get(panel, {}).get(legend)
        good = bool(got) and lo <= statistics.median(got) <= hi
        shown = f"median {statistics.median(got):g} of {len(got)}" if got else "nothing"
        report(good, f"{kind} board, {panel}, {legend}: {why} [{lo:g}, {hi:g}] (got {shown})")


def main():
    src = sys.argv[2]
    if sys.argv[1] == "names":
        dash = board(src, PMSERIES)
        print("\n".join(sorted(set().union(*(metric_names(PMSERIES, t["expr"]) for _, t in targets(dash))))))
        return 0
    host, url, api, start, finish = sys.argv[3], sys.argv[4], sys.argv[5], int(sys.argv[6]), int(sys.argv[7])
    names = pmns_names(src)
    dashes = {kind: board(src, kind) for kind in (PMSERIES, PROMETHEUS)}
    for kind, dash in dashes.items():
        check_form(src, kind, dash, names)
    hosts = get(url, "/series/labels", {"names": "hostname"}).get("hostname", [])
    report(host in hosts, f"pmseries board's hostname variable (label_values(hostname)) offers {host}")
    hosts = get(api, "/label/hostname/values", {"match[]": "hinv_ncpu"}).get("data", [])
    report(host in hosts, f"Prometheus board's hostname variable (label_values(hinv_ncpu, hostname)) offers {host}")
    series = {PMSERIES: check_pmseries(dashes[PMSERIES], host, url, start, finish),
              PROMETHEUS: check_prometheus(dashes[PROMETHEUS], host, api)}
    check_values(series)
    return 0


if __name__ == "__main__":
    sys.exit(main())
