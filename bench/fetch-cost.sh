#!/bin/bash
# What one round of requests costs the agent inside pmcd: a fetch of every
# metric, instance and label requests for each dynamic instance domain, and
# the help text of every metric, driven through the module as pmcd drives
# it (tests/leak/fetch_loop.c), replaying the Apple Silicon fixture. Reports instructions per round (callgrind counts instructions,
# so the figure repeats run to run on the same build) and peak RSS after
# many rounds, and checks them against the targets below.
#
# usage: bench/fetch-cost.sh [BUILD_DIR]      (after a build with tests)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build}
loop=$build/tests/fetch_loop
module=$build/pmda_darwin.so
[ -e "$module" ] || module=$build/pmda_darwin.dylib
export PCP_DERIVED_CONFIG= PMDA_DARWIN_SNAPSHOT=$src/tests/fixtures/apple-silicon.snapshot

# Targets: a round (every metric, 8 CPUs, 2 performance levels) stays under this many instructions,
# and 20000 rounds do not grow the process past this RSS.
max_instructions_per_round=1500000
max_rss_kb=20000

# The families whose share of a round is given: the round's cost less that
# of a round without them (PMNS subtrees).
families="kernel.cpucluster kernel.cpucore gpu.pstate power.energy power.system mem.bandwidth kernel.ane"

# instructions ROUNDS [PMNS]: the whole run's, and the replay's share (every
# call into the replay's platform entry points, snapshot_*: a platform
# serving the same values from memory would cost next to nothing there).
instructions() {
    local out=$work/callgrind.$1
    valgrind --tool=callgrind --callgrind-out-file="$out" "$loop" "$module" "${2:-$src/pmns/root}" "$1" >/dev/null 2>&1
    # (callgrind_annotate may list a function under two spellings of its file: counted once)
    callgrind_annotate --inclusive=yes --threshold=100 "$out" 2>/dev/null | awk '
        /PROGRAM TOTALS/ {gsub(",", "", $1); total = $1}
        match($0, /snapshot_source\.c:snapshot_[a-z0-9_]+ /) {
            name = substr($0, RSTART, RLENGTH); gsub(",", "", $1)
            if (!(name in cost)) { cost[name] = $1; replay += $1 }
        }
        END {print total, replay + 0}'
}
# subtree_pmns FILE NAME...: an ASCII PMNS of those subtrees alone, from the agent's.
subtree_pmns() {
    local file=$1; shift
    pminfo -n "$src/pmns/root" -m "$@" | python3 -c '
import sys
children, leaves = {"root": []}, {}
for line in sys.stdin:
    name, pmid = line.split(" PMID: ")
    parts = name.split(".")
    for i in range(len(parts)):
        parent, node = ".".join(parts[:i]) or "root", ".".join(parts[:i + 1])
        children.setdefault(parent, [])
        if node not in children[parent]:
            children[parent].append(node)
        if i < len(parts) - 1:
            children.setdefault(node, [])
    leaves[name] = "DARWIN:" + ":".join(pmid.split(".")[1:]).strip()
print("#define DARWIN 78")
for node, kids in children.items():
    if kids:
        print(node + " {")
        for k in kids:
            print("    " + k.split(".")[-1] + ("    " + leaves[k] if k in leaves else ""))
        print("}")' > "$file"
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
read -r small small_replay < <(instructions 100)
read -r large large_replay < <(instructions 300)
per_round=$(( (large - small) / 200 ))
replay_per_round=$(( (large_replay - small_replay) / 200 ))
subtree_pmns "$work/others.pmns" $(pminfo -n "$src/pmns/root" | grep -v -E "^($(echo $families | sed 's/ /|/g; s/\./\\./g'))\.")
read -r osmall _ < <(instructions 100 "$work/others.pmns")
read -r olarge _ < <(instructions 300 "$work/others.pmns")
rss=$( { /usr/bin/time -f '%M' "$loop" "$module" "$src/pmns/root" 20000 >/dev/null; } 2>&1 | tail -n 1)
echo "instructions per round: $per_round (target < $max_instructions_per_round)"
echo "  of which the replay: $replay_per_round; the agent and libpcp without it: $((per_round - replay_per_round))"
echo "  of which $families: $(( per_round - (olarge - osmall) / 200 ))"
echo "peak RSS after 20000 rounds: ${rss} KB (target < $max_rss_kb KB)"
[ "$per_round" -lt "$max_instructions_per_round" ] && [ "$rss" -lt "$max_rss_kb" ]
