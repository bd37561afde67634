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

# instructions ROUNDS: the whole run's, and the replay's share (every call
# into the replay's platform entry points, snapshot_*: a platform serving
# the same values from memory would cost next to nothing there).
instructions() {
    local out=$work/callgrind.$1
    valgrind --tool=callgrind --callgrind-out-file="$out" "$loop" "$module" "$src/pmns/root" "$1" >/dev/null 2>&1
    # (callgrind_annotate may list a function under two spellings of its file: counted once)
    callgrind_annotate --inclusive=yes --threshold=100 "$out" 2>/dev/null | awk '
        /PROGRAM TOTALS/ {gsub(",", "", $1); total = $1}
        match($0, /snapshot_source\.c:snapshot_[a-z0-9_]+ /) {
            name = substr($0, RSTART, RLENGTH); gsub(",", "", $1)
            if (!(name in cost)) { cost[name] = $1; replay += $1 }
        }
        END {print total, replay + 0}'
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
read -r small small_replay < <(instructions 100)
read -r large large_replay < <(instructions 300)
per_round=$(( (large - small) / 200 ))
replay_per_round=$(( (large_replay - small_replay) / 200 ))
rss=$( { /usr/bin/time -f '%M' "$loop" "$module" "$src/pmns/root" 20000 >/dev/null; } 2>&1 | tail -n 1)
echo "instructions per round: $per_round (target < $max_instructions_per_round)"
echo "  of which the replay: $replay_per_round; the agent and libpcp without it: $((per_round - replay_per_round))"
echo "peak RSS after 20000 rounds: ${rss} KB (target < $max_rss_kb KB)"
[ "$per_round" -lt "$max_instructions_per_round" ] && [ "$rss" -lt "$max_rss_kb" ]
