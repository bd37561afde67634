#!/bin/bash
# The soak (bench/soak.c): each agent over the Apple Silicon fixture for
# ROUNDS rounds of every request (a million by default) while interfaces,
# mounts, processes and a disk come and go. Fails if, from the first report
# to the last, RSS grows by more than 1 MiB, the log grows at all, or a
# round takes more than half as long again.
#
# usage: bench/soak.sh [BUILD_DIR [ROUNDS]]      (after a build with tests)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build}
rounds=${2:-1000000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

status=0
for agent in system proc; do
    "$build/tests/soak" "$src/tests/fixtures/apple-silicon.snapshot" "$rounds" "$agent" \
        > "$work/$agent.out" 2> "$work/$agent.log"
    cat "$work/$agent.out"
    awk -v agent="$agent" '
        $1 ~ /^[0-9]+$/ { if (!first) { first = 1; rss0 = $2; log0 = $3; us0 = $4 } rss = $2; logb = $3; us = $4 }
        END {
            bad = 0
            if (rss - rss0 > 1024) { print agent ": RSS grew by " rss - rss0 " KiB"; bad = 1 }
            if (logb != log0) { print agent ": the log grew by " logb - log0 " bytes after the first report"; bad = 1 }
            if (us > 1.5 * us0) { print agent ": a round takes " us " us, against " us0 " at first"; bad = 1 }
            exit bad
        }' "$work/$agent.out" || status=1
done
exit $status
