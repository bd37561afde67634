#!/bin/sh
# Tests and benchmarks address a metric by its name (metric_by_name.h), as
# clients do, never by a bare (cluster, item) pair: numbers keep reading
# whatever metric they name after a row moves, and the comment that named
# the metric beside them goes stale unseen. Fails on a PMID built from a
# cluster or item typed as a number, a helper that takes (cluster, item),
# a cluster constant followed by an item number, or a harness call whose
# first two arguments are numbers.
set -eu
root=$1
cd "$root"
found=$(grep -rnE --include='*.c' --include='*.h' \
            -e 'pmID_build\([^,()]+,\s*[0-9]+\s*,' \
            -e 'pmID_build\([^,()]+,[^,()]+,\s*[0-9]+\s*\)' \
            -e 'int\s+cluster\s*,\s*(unsigned\s+)?int\s+item\b' \
            -e '\b(PROC_)?CLUSTER_[A-Z0-9_]+\s*,\s*[0-9]+' \
            -e '\bharness_\w+\(\s*[0-9]+\s*,\s*[0-9]+' \
            tests bench || true)
if [ -n "$found" ]; then
    echo "FAIL: metrics addressed by (cluster, item) instead of by name:"
    echo "$found"
    exit 1
fi
echo "1 passed, 0 failed: the tests and benchmarks address every metric by name"
