#!/bin/bash
# The proc agent's cost per process, at 1,000 and 10,000 processes with 10
# threads each (100,000 threads at 10k), over generated SYNTHETIC snapshots
# (bench/gen-procs.py): platform calls per instance for the ps/top columns
# (the process list and one task call per process; footprint adds rusage;
# open files and threads only when asked), the agent's own microseconds per
# instance (the snapshot source's time taken out), and heap bytes per process
# besides the cached strings. Fails if a target below is missed.
#
# usage: bench/proc-scale.sh [BUILD_DIR]      (after a build with tests)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Targets: the common columns cost at most 2 platform calls per process; the
# agent keeps at most 1 KiB per process besides its strings (this includes the
# source's process-list buffer); cost per process does not grow with the count
# by more than half.
max_calls=2
max_bytes=1024

for n in 1000 10000; do
    python3 "$src/bench/gen-procs.py" "$n" 10 > "$work/$n.snapshot"
    echo "$n processes:"
    "$build/tests/proc_bench" "$work/$n.snapshot" | tee "$work/$n.out"
done
awk -v max_calls="$max_calls" -v max_bytes="$max_bytes" '
    /ps\/top columns/ { calls[FILENAME] = $(NF - 5); us[FILENAME] = $(NF - 2) }
    /agent heap/ { bytes[FILENAME] = $(NF - 6) }
    END {
        bad = 0
        for (f in calls) {
            if (calls[f] > max_calls) { print "FAIL: " calls[f] " calls per process"; bad = 1 }
            if (bytes[f] > max_bytes) { print "FAIL: " bytes[f] " bytes per process"; bad = 1 }
        }
        if (us[ARGV[2]] > 1.5 * us[ARGV[1]] + 0.5) { print "FAIL: us per process grows with the count"; bad = 1 }
        exit bad
    }' "$work/1000.out" "$work/10000.out"
echo "targets met: <= $max_calls calls and <= $max_bytes bytes per process, linear cost"
