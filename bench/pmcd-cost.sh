#!/bin/bash
# What a fetched value costs pmcd with the agent in it, against PCP's own
# pmcd agent (pmda_pmcd, a DSO like this one) in the same pmcd: a private
# pmcd runs both, replaying the Apple Silicon fixture; a client fetches
# everything the agent serves under hinv, kernel, mem, swap, network, vfs,
# ipc and pmda many times, then every pmcd.* metric as many times, and
# pmcd's own CPU time (utime + stime from /proc) is divided by the values
# each fetch returned. Target: the agent's cost per value is at most half
# of pmda_pmcd's.
#
# usage: bench/pmcd-cost.sh [BUILD_DIR] [FETCHES]
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath "${1:-$src/build}")
fetches=${2:-4000}
module=$build/pmda_darwin.so
[ -e "$module" ] || module=$build/pmda_darwin.dylib
max_ratio=0.5

. "$src/scripts/private-pmcd.sh"
dir=$(mktemp -d)
trap 'stop_pmcd; rm -rf "$dir"' EXIT
start_pmcd "$dir/pmcd" "$module" "$src/tests/fixtures/apple-silicon.snapshot"

PMCD_PID=$pmcd_pid FETCHES=$fetches MAX_RATIO=$max_ratio /usr/bin/python3 - <<'PY'
import ctypes, os, sys
from pcp import pmapi
import cpmapi as c_api

pid, fetches, max_ratio = int(os.environ["PMCD_PID"]), int(os.environ["FETCHES"]), float(os.environ["MAX_RATIO"])
ctx = pmapi.pmContext(c_api.PM_CONTEXT_HOST, "127.0.0.1")

def names(roots, domain):
    found = []
    for root in roots:
        ctx.pmTraversePMNS(root, lambda n: found.append(n))
    mine = [p for p in ctx.pmLookupName(found) if ctx.pmID_domain(p) == domain]
    return (ctypes.c_uint * len(mine))(*mine)

def cpu():
    """pmcd's time on a CPU so far, in seconds (schedstat counts nanoseconds)."""
    return int(open("/proc/%d/schedstat" % pid).read().split()[0]) / 1e9

def count(pmids):
    result = ctx.pmFetch(pmids)
    values = sum(max(result.contents.get_numval(i), 0) for i in range(result.contents.numpmid))
    ctx.pmFreeResult(result)
    return values

def batch(pmids, values, n):
    start = cpu()
    for _ in range(n):
        ctx.pmFreeResult(ctx.pmFetch(pmids))
    return (cpu() - start) / (n * values) * 1e6

# The two alternate in rounds and each keeps its best round, so that other
# work on the machine in one round weighs on neither.
agent, pmcd_own = names(["hinv", "kernel", "mem", "swap", "network", "vfs", "ipc", "pmda"], 78), names(["pmcd"], 2)
dv, pv = count(agent), count(pmcd_own)
for _ in range(50):                         # warm: the agent's first refreshes
    ctx.pmFreeResult(ctx.pmFetch(agent))
rounds, darwin, pmcd = 10, float("inf"), float("inf")
for _ in range(rounds):
    darwin = min(darwin, batch(agent, dv, fetches // rounds))
    pmcd = min(pmcd, batch(pmcd_own, pv, fetches // rounds))
ratio = darwin / pmcd
print("pmcd CPU per value: the agent %.3f us (%d values a fetch), pmda_pmcd %.3f us (%d values): %.2f of it"
      " (target <= %.2f), %d fetches each" % (darwin, dv, pmcd, pv, ratio, max_ratio, fetches))
sys.exit(0 if ratio <= max_ratio else 1)
PY
