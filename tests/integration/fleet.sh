#!/bin/bash
# integration.fleet: the agent's data along PCP's path for many Macs, all on
# 127.0.0.1 and stopped by pid: a private pmcd (pmcd, darwin and proc agents)
# replays the Apple Silicon fixture; pmlogger records it; pmseries --load puts
# the archive into a private key server (Valkey, or Redis); pmproxy serves
# /metrics from the pmcd and /series/* from the key server; a private
# Prometheus scrapes pmproxy with the alert rules of config/prometheus loaded.
# Expected values are the fixture's.
# Every label name the agents serve is checked against Prometheus' rules and
# parsed in a pmseries query. Every target of the Grafana boards in
# config/grafana is sent as Grafana would send it (dashboards.py).
#
# usage: fleet.sh MODULE PMDAPROC SRC_DIR WORK_DIR
set -u
export LC_ALL=C PMLOGGER_LOCAL=1       # sort as Python does; pmlogger's port on loopback only
module=$1 pmdaproc=$2 src=$3 work=$4
fixture=$src/tests/fixtures/apple-silicon.snapshot
rules=$src/config/prometheus/darwin-alerts.yml
. "$src/tests/integration/lib.sh"
rm -rf "$work"
mkdir -p "$work"

# The key server: Valkey, PCP 7's, where it is installed, else Redis, PCP 6's.
store=redis
command -v valkey-server >/dev/null && store=valkey
for tool in $store-server prometheus curl "$PCP_BINADM_DIR/pmproxy"; do
    command -v "$tool" >/dev/null || { not_ok "$tool is installed (scripts/deps.sh test installs it)"; finish; exit 1; }
done

servers=""
stop_servers() {
    for pid in $servers; do kill "$pid" 2>/dev/null; done
    for pid in $servers; do wait "$pid" 2>/dev/null; done
    stop_pmcd
}
trap stop_servers EXIT

start_pmcd "$work/pmcd" "$module" "$fixture" "$pmdaproc" || { not_ok "pmcd starts"; finish; exit 1; }
host=$(pminfo -h 127.0.0.1 -f pmcd.hostname | sed -n 's/^ *value "\(.*\)"$/\1/p')
check "the private pmcd runs PCP's pmcd agent: pmcd.hostname answers" [ -n "$host" ]

echo "# Label names"
pminfo -h 127.0.0.1 -l $("$METRIC_NAMES" darwin) proc > "$work/labels" 2>&1
python3 - "$work/labels" > "$work/label-names" <<'PY'
import json, re, sys
names = set()
for line in open(sys.argv[1]):
    m = re.search(r"labels (\{.*\})$", line)
    if m:
        names.update(json.loads(m.group(1)))
print("\n".join(sorted(names)))
PY
check "the agents serve instance labels (perflevel, interface_type, pid among them)" sh -c \
    "grep -qx perflevel '$work/label-names' && grep -qx interface_type '$work/label-names' && grep -qx pid '$work/label-names'"
# The fixture does not exercise every label (threads' tid, Intel sensors'
# description): the label sets the sources write are read too, and must
# hold every label the agents served (pmcd's own context labels aside).
grep -rhoE '\\"[^"\\ ]+\\":' "$src/src/core/pmda.c" "$src/src/collectors" "$src/src/proc" |
    sed 's/^\\"//; s/\\":$//' | sort -u > "$work/label-names.src"
served_only=$(comm -23 "$work/label-names" "$work/label-names.src" | grep -v -x -E 'hostname|domainname|machineid')
check "every label served is one the sources write${served_only:+ (not: $served_only)}" [ -z "$served_only" ]
sort -u "$work/label-names" "$work/label-names.src" -o "$work/label-names"
echo "# $(wc -l < "$work/label-names") label names: $(tr '\n' ' ' < "$work/label-names")"
check "every label name is a valid Prometheus label name, none reserved by it" sh -c \
    "! grep -v -E '^[a-zA-Z_][a-zA-Z0-9_]*\$' '$work/label-names' | grep . && ! grep -q '^__' '$work/label-names'"
pminfo -h 127.0.0.1 -l hinv.ncpu proc.nprocs > "$work/domain-labels" 2>&1
check "the system agent's domain labels: agent darwin, data_source snapshot" \
    grep -q '"agent":"darwin","data_source":"snapshot"' "$work/domain-labels"
check "the process agent's domain labels: agent proc, data_source snapshot" \
    grep -q '"agent":"proc","data_source":"snapshot"' "$work/domain-labels"

store_port=$(free_port)
$store-server --port "$store_port" --bind 127.0.0.1 --save "" --appendonly no --dir "$work" \
    > "$work/$store.log" 2>&1 &
servers="$servers $!"
wait_for 20 $store-cli -p "$store_port" ping || { not_ok "$store-server starts"; cat "$work/$store.log"; finish; exit 1; }

# A label name pmseries reserves is a syntax error in any query naming it;
# "type" (the interface label's old name) shows the check can fail.
parses() { ! pmseries -p "$store_port" "hinv.ncpu{$1==\"x\"}" 2>&1 | grep -q 'syntax error'; }
if parses type; then not_ok "pmseries refuses a query on a reserved word (type)"
else ok "pmseries refuses a query on a reserved word (type): the check below can fail"; fi
unparsed=""
while read -r name; do parses "$name" || unparsed="$unparsed $name"; done < "$work/label-names"
check "pmseries parses a query on every label name${unparsed:+ (not:$unparsed)}" [ -z "$unparsed" ]

echo "# pmlogger and pmseries"
# Also what the pmseries board draws, with the derived metrics Install puts
# in PCP's derived folder (the clusters' and the GPU's clocks).
dashboards=$src/tests/integration/dashboards.py
{
    echo "log mandatory on 1 sec {"
    printf '    %s\n' hinv.ncpu mem.physmem network.interface.mtu kernel.percpu.cpu.user hinv.perflevel.logical \
        $(python3 -B "$dashboards" names "$src")
    echo "}"
} > "$work/pmlogger.config"
# Six samples a second apart: the boards' rates are taken over 5 s, and a
# span that long keeps a late fetch under load within their 1 %.
samples=6
logged_from=$(date +%s)
PCP_DERIVED_CONFIG=$src/config/derived/darwin.conf \
    pmlogger -h 127.0.0.1 -c "$work/pmlogger.config" -s $samples -l "$work/pmlogger.log" "$work/archive"
logged_to=$(($(date +%s) + 1))
check "pmlogger names the archive's host as pmcd does ($host), not its address" \
    sh -c "pmdumplog -l '$work/archive' | grep -q 'from host $host\$'"
check "pmseries --load loads the archive" pmseries -p "$store_port" --load "$work/archive"
series() { pmseries -p "$store_port" "$@" 2>&1; }
# mem.physmem: the fixture's hw.memsize, 16 GiB, in KiB.
check "by metric: mem.physmem is 16777216 KiB" sh -c \
    "pmseries -p $store_port 'mem.physmem[samples:1]' | grep -q '\] 16777216\$'"
check "by hostname: hinv.ncpu{hostname==\"$host\"} is 8, and nothing for another host" sh -c \
    "pmseries -p $store_port 'hinv.ncpu{hostname==\"$host\"}[samples:1]' | grep -q '\] 8\$' &&
     [ -z \"\$(pmseries -p $store_port 'hinv.ncpu{hostname==\"elsewhere\"}')\" ]"
check "by domain label: mem.physmem{agent==\"darwin\"} is 16777216 KiB" sh -c \
    "pmseries -p $store_port 'mem.physmem{agent==\"darwin\",data_source==\"snapshot\"}[samples:1]' | grep -q '\] 16777216\$'"
# By instance: the query finds the metric's series; its instances' series
# name utun0, whose MTU the fixture gives as 1380.
mtu=$(series 'network.interface.mtu{instance.name=="utun0"}' | head -1)
utun0=$(series -i "$mtu" | sed -n 's/.*"utun0"\] series \([0-9a-f]*\)$/\1/p')
check "by instance name: utun0's MTU is 1380" sh -c \
    "[ -n '$utun0' ] && pmseries -p $store_port 'network.interface.mtu[samples:1]' | grep -q '\] 1380 $utun0\$'"
# By instance label. PCP drops instance labels when it loads an archive
# before 7.2 (performancecopilot/pcp issue 2418); there the instance names
# are the way, and a label query finds nothing.
perf=$(series 'kernel.percpu.cpu.user{perflevel=="performance"}' | head -1)
if pcp_at_least 7.2; then
    check "by instance label (PCP $pcp_version): perflevel==\"performance\" finds cpu4-7" sh -c \
        "[ -n '$perf' ] && [ \"\$(pmseries -p $store_port -i $perf | grep -c '\"cpu[4-7]\"')\" -eq 4 ]"
else
    cpus=$(series 'kernel.percpu.cpu.user{instance.name=="cpu4"}' | head -1)
    check "by instance label (PCP $pcp_version drops them on load): found by instance name instead" sh -c \
        "[ -z '$perf' ] && [ -n '$cpus' ] && [ \"\$(pmseries -p $store_port -i $cpus | grep -c '\"cpu[4-7]\"')\" -eq 4 ]"
fi

echo "# pmproxy"
proxy_port=$(free_port "$store_port")
mkdir -p "$work/pmproxy"
# The key server's section as the installed PCP's own pmproxy.conf names it:
# [keys] (and resp.enabled) in PCP 7, [redis] (and redis.enabled) in PCP 6.0.
keys=redis resp=redis
grep -q '^\[keys\]' "$(. "${PCP_CONF:-/etc/pcp.conf}"; echo "$PCP_SYSCONF_DIR")/pmproxy/pmproxy.conf" && keys=keys resp=resp
cat > "$work/pmproxy.conf" <<EOF
[pmproxy]
pcp.enabled = true
http.enabled = true
$resp.enabled = true
secure.enabled = false
[$keys]
enabled = true
servers = 127.0.0.1:$store_port
[discover]
enabled = false
[pmseries]
enabled = true
[pmsearch]
enabled = false
EOF
PCP_RUN_DIR="$work/pmproxy" "$PCP_BINADM_DIR/pmproxy" -f -A -i 127.0.0.1 -p "$proxy_port" \
    -s "$work/pmproxy/pmproxy.socket" -c "$work/pmproxy.conf" -l "$work/pmproxy.log" -U "$(id -un)" &
servers="$servers $!"
url=http://127.0.0.1:$proxy_port
wait_for 20 curl -sf -m 10 "$url/metrics?names=hinv.ncpu" || { not_ok "pmproxy starts"; cat "$work/pmproxy.log"; finish; exit 1; }
# Prometheus fails a scrape that takes longer than its interval and marks
# every series stale, which empties the queries below and drops points from
# a rate's window: the interval is the first whole second past twice the
# longest of three fetches of what it scrapes, pmproxy's /metrics (0.14 s
# alone, 0.5 to 1.4 s with builds or busy loops beside it), for the scrapes
# share the CPU with Prometheus too. A rate's window holds five scrapes.
cost=$(for _ in 1 2 3; do curl -s -m 60 -o "$work/metrics" -w '%{time_total}\n' "$url/metrics"; done | sort -n | tail -1)
scrape=$(awk -v cost="$cost" 'BEGIN { print int(2 * cost) + 1 }') window=$((5 * scrape))
echo "# pmproxy serves /metrics in $cost s at most: Prometheus scrapes every $scrape s, rates over $window s"
check "/metrics: hinv_ncpu is 8, with the hostname label" grep -q "^hinv_ncpu{.*hostname=\"$host\".*} 8\$" "$work/metrics"
check "/metrics: utun0's MTU (1380) carries interface_type tunnel" \
    sh -c "grep '^network_interface_mtu{.*instname=\"utun0\".*} 1380\$' '$work/metrics' | grep -q 'interface_type=\"tunnel\"'"
check "/metrics: cpu4 carries perflevel performance and perflevel_index 0" \
    sh -c "grep '^kernel_percpu_cpu_user{.*instname=\"cpu4\"' '$work/metrics' | grep 'perflevel=\"performance\"' | grep -q 'perflevel_index=\"0\"'"
# PCP 6.0.3's /metrics leaves the domain labels out; 7.2's has them.
if pcp_at_least 7.2; then
    check "/metrics (PCP $pcp_version): hinv_ncpu carries the domain labels, agent darwin and data_source snapshot" \
        sh -c "grep '^hinv_ncpu{' '$work/metrics' | grep 'agent=\"darwin\"' | grep -q 'data_source=\"snapshot\"'"
fi
check "pmproxy's log has no label error (it needs the pmcd agent)" sh -c "! grep -q -i 'failed to get context labels' '$work/pmproxy.log'"
physmem=$(curl -s -m 10 "$url/series/query?expr=mem.physmem" | python3 -c 'import json, sys; print(json.load(sys.stdin)[0])')
check "/series/values: mem.physmem is 16777216 KiB" sh -c \
    "curl -s -m 10 '$url/series/values?series=$physmem' | grep -q '\"value\":\"16777216\"'"
check "/series/labels: agent darwin and the hostname" sh -c \
    "curl -s -m 10 '$url/series/labels?series=$physmem' | grep '\"agent\":\"darwin\"' | grep -q '\"hostname\":\"$host\"'"
check "/series/query by hostname finds hinv.ncpu" sh -c \
    "curl -s -m 10 -G '$url/series/query' --data-urlencode 'expr=hinv.ncpu{hostname==\"$host\"}' | grep -q '[0-9a-f]\{40\}'"

echo "# Prometheus"
prom_port=$(free_port "$store_port" "$proxy_port")
cat > "$work/prometheus.yml" <<EOF
global:
  scrape_interval: ${scrape}s
  evaluation_interval: ${scrape}s
rule_files:
  - $rules
scrape_configs:
  - job_name: pcp
    static_configs:
      - targets: ['127.0.0.1:$proxy_port']
EOF
prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/prometheus" \
    --web.listen-address="127.0.0.1:$prom_port" > "$work/prometheus.log" 2>&1 &
servers="$servers $!"
api=http://127.0.0.1:$prom_port/api/v1
promql() { curl -s -m 10 -G "$api/query" --data-urlencode "query=$1"; }
scraped() { promql 'up{job="pcp"} == 1' | grep -q '"result":\[{'; }
wait_for 30 scraped || { not_ok "Prometheus scrapes pmproxy"; tail "$work/prometheus.log"; finish; exit 1; }
# The instances a query returns, sorted: "instname=value ...".
instances() { promql "$1" | python3 -c 'import json, sys
print(" ".join(sorted(r["metric"]["instname"] + "=" + r["value"][1] for r in json.load(sys.stdin)["data"]["result"])))'; }
got=$(instances 'kernel_percpu_cpu_user{perflevel="performance"}' | sed 's/=[0-9]*//g')
check "Prometheus: kernel_percpu_cpu_user{perflevel=\"performance\"} is cpu4-7 (got: $got)" [ "$got" = "cpu4 cpu5 cpu6 cpu7" ]
got=$(instances 'network_interface_mtu{interface_type="tunnel"}')
check "Prometheus: network_interface_mtu{interface_type=\"tunnel\"} is utun0's 1380 (got: $got)" [ "$got" = "utun0=1380" ]
got=$(instances 'filesys_full{apfs_container="disk3",instname="/System/Volumes/Data"} > 50' | sed 's/=.*//')
check "Prometheus: the Data volume of container disk3 is over half full (got: $got)" [ "$got" = "/System/Volumes/Data" ]
# The rules over real series: once a rate's window holds two scrapes, every
# rule has been evaluated without error, and the arithmetic the rules do
# across series (a level's idle time over its CPU count, P against E cores
# by host, read and write errors, errors and drops) matches the series
# pmproxy exports.
rated() { promql "sum_over_time(up{job=\"pcp\"}[${window}s]) >= 2" | grep -q '"result":\[{'; }
wait_for $((4 * window)) rated || not_ok "Prometheus scrapes pmproxy twice in $window s"
rules_evaluated() {
    curl -s -m 10 "$api/rules" | python3 -c 'import json, re, sys
rules = [r for g in json.load(sys.stdin)["data"]["groups"] for r in g["rules"]]
written = re.findall(r"^\s*- alert: (\S+)", open(sys.argv[1]).read(), re.M)
sys.exit(not (len(rules) == len(written) and
              all(r["health"] == "ok" and not r["lastEvaluation"].startswith("0001") for r in rules)))' "$rules"
}
check "Prometheus loads every alert rule and evaluates each without error" wait_for 20 rules_evaluated
count() { promql "$1" | python3 -c 'import json, sys; print(len(json.load(sys.stdin)["data"]["result"]))'; }
busy="100 * (1 - rate(kernel_perflevel_cpu_idle{perflevel=\"LEVEL\"}[${window}s]) / 1000 / hinv_perflevel_logical{perflevel=\"LEVEL\"})"
pbusy=${busy//LEVEL/performance} ebusy=${busy//LEVEL/efficiency}
check "the P/E rules' arithmetic: a level's busy share, and P against E by host, give a value each" sh -c \
    "[ '$(count "$pbusy")' = 1 ] && [ '$(count "$pbusy >= 0 and on (instance, hostname) $ebusy >= 0")' = 1 ]"
# The throttling rule's busy share and clock in percent of the top, in tenths,
# on pmproxy's units (ns, cycles, MHz): the fixture's PCPU is 50% busy at 2750
# of 3500 MHz, its ECPU 40% at 1500 of 1800 (all ratios of one fetch: exact).
rates="rate(kernel_cpucluster_active[${window}s]) + rate(kernel_cpucluster_idle[${window}s]) + rate(kernel_cpucluster_down[${window}s])"
got=$(instances "round(1000 * rate(kernel_cpucluster_active[${window}s]) / ($rates))")
check "the throttling rule's busy share of each cluster: PCPU 50%, ECPU 40% (got: $got)" [ "$got" = "ECPU=400 PCPU=500" ]
got=$(instances "round(10 * 100 * 1000 * rate(kernel_cpucluster_cycles[${window}s]) / rate(kernel_cpucluster_active[${window}s])
                       / kernel_cpucluster_clock_max)")
check "the throttling rule's clock of each cluster: PCPU 78.6%, ECPU 83.3% of its top (got: $got)" \
    [ "$got" = "ECPU=833 PCPU=786" ]
got=$(count "increase(disk_dev_read_errors[${window}s]) + increase(disk_dev_write_errors[${window}s])")
check "the disk rule's sum of read and write errors has a value for each disk (got $got)" [ "$got" -ge 1 ]
got=$(count "rate(network_interface_total_errors[${window}s]) + rate(network_interface_total_drops[${window}s])")
check "the interface rule's sum of errors and drops has a value for each interface (got $got)" [ "$got" -ge 6 ]
# The rules' tests name the series the rules read: each is one pmproxy exports.
sed -n "s/^ *- series: '\([a-z_0-9]*\){.*/\1/p" "$src/tests/prometheus/darwin-alerts.test.yml" | sort -u > "$work/rule-series"
missing=$(while read -r name; do grep -q "^# TYPE $name " "$work/metrics" || echo "$name"; done < "$work/rule-series")
check "every series the alert rules read is one pmproxy exports${missing:+ (not: $missing)}" [ -z "$missing" ]

echo "# Grafana boards (config/grafana), queried as Grafana would"
while IFS= read -r line; do
    case $line in
        "ok - "*) ok "${line#ok - }" ;;
        "not ok - "*) not_ok "${line#not ok - }" ;;
        *) echo "$line" ;;
    esac
done < <(PROMETHEUS_SCRAPE=$scrape PMLOGGER_SAMPLES=$samples python3 -B "$dashboards" check "$src" "$host" "$url" "$api" "$logged_from" "$logged_to" 2>&1 ||
         echo "not ok - dashboards.py ran to its end")

check "pmcd is still up" pmcd_alive
finish
