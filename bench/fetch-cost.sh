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
max_instructions_per_round=2000000
max_rss_kb=20000

instructions() { # instructions ROUNDS
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$loop" "$module" "$src/pmns/root" "$1" 2>&1 |
        awk '/Collected :/ {print $NF}'
}
small=$(instructions 100)
large=$(instructions 300)
per_round=$(( (large - small) / 200 ))
rss=$( { /usr/bin/time -f '%M' "$loop" "$module" "$src/pmns/root" 20000 >/dev/null; } 2>&1 | tail -n 1)
echo "instructions per round: $per_round (target < $max_instructions_per_round)"
echo "peak RSS after 20000 rounds: ${rss} KB (target < $max_rss_kb KB)"
[ "$per_round" -lt "$max_instructions_per_round" ] && [ "$rss" -lt "$max_rss_kb" ]
