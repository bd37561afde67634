#!/bin/bash
# The worked examples of docs/adding-a-collector.md, followed as
# written: apply its two patches to a copy of the tree, count the files each
# edits by hand, run its commands, fetch the new metrics from the replayed
# fixture with the values the doc gives, and replay a real GPU dump
# through pmcd with the new pass-through rule (the corpus beside the
# project: skipped visibly without it, a failure where CI requires it).
#
# usage: worked-example.sh SOURCE_DIR WORK_DIR
set -euo pipefail
src=$1
work=$2
doc=$src/docs/adding-a-collector.md

# The fenced block after a marker comment in the doc.
block() {
    awk -v marker="<!-- worked-example $1 -->" '
        $0 == marker { found = 1; next }
        found && /^```/ { if (inside) exit; inside = 1; next }
        inside { print }' "$doc"
}

# The files a patch edits, less the one that opens a cluster.
edited() {
    grep '^+++ ' "$1" | grep -vc 'metric_ids\.h$' || true
}

rm -rf "$work"
mkdir -p "$work/tree"
tar -C "$src" --exclude=./.git --exclude='./build*' --exclude=./Testing -cf - . | tar -C "$work/tree" -xf -
block patch > "$work/sysctl.diff"
block registry-patch > "$work/registry.diff"
block commands > "$work/commands.sh"
for f in sysctl.diff registry.diff commands.sh; do
    [ -s "$work/$f" ] || { echo "the doc has no worked example's $f" >&2; exit 1; }
done

sysctl_files=$(edited "$work/sysctl.diff")
registry_files=$(edited "$work/registry.diff")
echo "a sysctl metric edits $sysctl_files files by hand (after its cluster's first), an IORegistry one $registry_files"
[ "$sysctl_files" -le 3 ] || { echo "adding a sysctl metric takes $sysctl_files places, more than 3" >&2; exit 1; }
[ "$registry_files" -le 4 ] || { echo "adding an IORegistry metric takes $registry_files places, more than 4" >&2; exit 1; }

# The copy is not beside the corpus: the doc's commands and the replay read it where the tree is.
export PMDA_DARWIN_REAL_MACS=${PMDA_DARWIN_REAL_MACS:-$(realpath -m "$src/../shared/real-macs")}
python3 "$src/tests/integration/real_dumps.py" corpus docs.worked_example >/dev/null || exit
cd "$work/tree"
patch -p1 --quiet --fuzz=0 < "$work/sysctl.diff"     # a stale context fails: the doc must match the tree
patch -p1 --quiet --fuzz=0 < "$work/registry.diff"
export PCP_DERIVED_CONFIG= PMDA_DARWIN_SNAPSHOT=
bash -euo pipefail "$work/commands.sh"

module=build/pmda_darwin.so
[ -e "$module" ] || module=build/pmda_darwin.dylib
fetched=$(PMDA_DARWIN_SNAPSHOT=tests/fixtures/apple-silicon.snapshot \
    pminfo -L -K clear -K "add,78,$module,darwin_init" -n pmns/root -f ipc.socket.buffer_bytes gpu.recovery_count \
    2>/dev/null | awk '/^[a-z]/ {m = $1} NF > 1 && $(NF - 1) == "value" {print m, $NF}')
echo "from the fixture: ${fetched:-nothing}"
[ "$fetched" = "ipc.socket.buffer_bytes 5000
gpu.recovery_count 0" ]
# The generated files gained the new names and keys.
grep -q 'sysctl.kern.ipc.sbmb_cnt' docs/snapshot-format.md || { echo "docs/snapshot-format.md lacks the new key" >&2; exit 1; }
grep -q 'recoveryCount' docs/registry-keys.md || { echo "docs/registry-keys.md lacks the new key" >&2; exit 1; }
grep -q 'recovery_count *DARWIN:120:7' pmns/pmns || { echo "pmns/pmns lacks gpu.recovery_count" >&2; exit 1; }

# A real dump through pmcd: the rule gives the dump's own value, and the
# check fails for a served value no line or rule covers.
tests/integration/real.sh "$module" build/darwin-snapshot . "$work/real" gpu/m1pro-or-max-macos12.6-stats1094 |
    tee "$work/real.log" | grep -E 'recovery|passed'
grep -q '^ok - .*gpu.recovery_count\[gpu0\] is 0 (IOAccelerator PerformanceStatistics.recoveryCount)' "$work/real.log"
