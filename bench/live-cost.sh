#!/bin/bash
# What one round of requests costs through the live macOS layer: the round
# bench/fetch-cost.sh measures (a fetch of every metric, every instance
# domain, label and help text), through the agent on src/macos/ on the
# double of every macOS call (tests/live), on the synthetic Apple Silicon
# machine of the simulated day (tests/live/day/day_machine.c). The live
# layer and the double are built again optimised and without sanitizers or
# coverage (PMDA_DARWIN_LIVE_PLAIN=1), as ctest's live.build and live.day
# build them otherwise. Reports instructions per round (callgrind) beside
# the same program's on the replay of the Apple Silicon fixture, and the
# OS calls each round makes, as the double counts them. Instructions in
# the double are in the live figure: it stands for the OS.
#
# usage: bench/live-cost.sh [BUILD_DIR]      (after a build with tests)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$src/build}" && pwd)     # absolute: ctest names its folders so
work=$(mktemp -d)
trap "rm -rf \"\$work\"" EXIT
cmake --build "$build" --target live_day >/dev/null

# ctest's own commands for live.build and live.day (its fixture comes
# along in the listing), with the live objects' directory moved to $work.
command_of() {
    ctest --test-dir "$build" -R "^$1\$" --show-only=json-v1 | python3 -c '
import json, sys
name, old, new = sys.argv[1:]
test = [t for t in json.load(sys.stdin)["tests"] if t["name"] == name][0]
for arg in test["command"]:
    print(new if arg == old else arg)' "$1" "$build/tests/live" "$work/live"
}
mapfile -t build_live < <(command_of live.build)
mapfile -t link_day < <(command_of live.day)
PMDA_DARWIN_LIVE_PLAIN=1 "${build_live[@]}" >/dev/null
PMDA_DARWIN_LIVE_PLAIN=1 DAY_LINK_ONLY=1 "${link_day[@]}"
# valgrind gives up on the debug information of the clang-built objects:
# it measures a copy without it.
day=$work/day
objcopy --strip-debug "$work/live/day" "$day"

# instructions ROUNDS: the whole run's (callgrind's total).
instructions() {
    valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.$1" "$day" "$1" cost >/dev/null 2>&1
    callgrind_annotate "$work/callgrind.$1" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}'
}
per_round() { echo $(( ($(instructions 300) - $(instructions 100)) / 200 )); }
export PCP_DERIVED_CONFIG= PMDA_DARWIN_SNAPSHOT=
live=$(per_round)
replay=$(DAY_REPLAY=$src/tests/fixtures/apple-silicon.snapshot per_round)
echo "instructions per round through the live layer and the double: $live"
echo "instructions per round through the replay of the Apple Silicon fixture: $replay"
"$day" 100 cost | grep '^OS calls per round'
