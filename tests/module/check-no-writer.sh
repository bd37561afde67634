#!/bin/sh
# The agent's module holds no code of the snapshot writer or the docs'
# generator: none of the functions the writer library defines is in it.
set -eu
module=$1
writer=$2
functions() { nm --defined-only "$1" | awk '$2 ~ /^[Tt]$/ {print $3}' | sort -u; }
list=$(mktemp)
trap 'rm -f "$list"' EXIT
functions "$writer" > "$list"
[ -s "$list" ] || { echo "FAIL: $writer defines no functions"; exit 1; }
found=$(functions "$module" | comm -12 - "$list")
if [ -n "$found" ]; then
    echo "FAIL: $module holds the writer's"; echo "$found"
    exit 1
fi
echo "1 passed, 0 failed: $module holds none of the $(wc -l < "$list") functions of $(basename "$writer")"
