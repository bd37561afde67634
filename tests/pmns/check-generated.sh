#!/bin/bash
# pmns/ is what tools/pmns-write writes from the metric rows: a row added,
# renamed or renumbered without `cmake --build build --target pmns` fails here.
#
# usage: check-generated.sh PMNS_WRITE SOURCE_DIR
set -euo pipefail
write=$1
src=$2
status=0
for agent in darwin proc; do
    file=$src/pmns/pmns
    [ "$agent" = proc ] && file=$src/pmns/proc/pmns
    if ! "$write" "$agent" "$src/tests/upstream/$agent-compat.tsv" | diff -u "$file" -; then
        echo "$file is not what the rows give: cmake --build build --target pmns" >&2
        status=1
    fi
done
exit $status
