#!/bin/bash
# The worked example of docs/adding-a-metric-family.md, followed as written:
# apply its patch to a copy of the tree, run its commands, and fetch the new
# metric from the replayed fixture with the value the patch gives it.
#
# usage: worked-example.sh SOURCE_DIR WORK_DIR
set -euo pipefail
src=$1
work=$2
doc=$src/docs/adding-a-metric-family.md

# The fenced block after a marker comment in the doc.
block() {
    awk -v marker="<!-- worked-example $1 -->" '
        $0 == marker { found = 1; next }
        found && /^```/ { if (inside) exit; inside = 1; next }
        inside { print }' "$doc"
}

rm -rf "$work"
mkdir -p "$work/tree"
tar -C "$src" --exclude=./.git --exclude='./build*' --exclude=./Testing -cf - . | tar -C "$work/tree" -xf -
block patch > "$work/example.diff"
block commands > "$work/commands.sh"
[ -s "$work/example.diff" ] && [ -s "$work/commands.sh" ] || { echo "the doc has no worked example" >&2; exit 1; }

files=$(grep -c '^+++ ' "$work/example.diff")
echo "the example edits $files files by hand"
[ "$files" -le 5 ] || { echo "adding a sysctl metric takes $files places, more than the doc promises" >&2; exit 1; }

cd "$work/tree"
patch -p1 --quiet < "$work/example.diff"
export PCP_DERIVED_CONFIG= PMDA_DARWIN_SNAPSHOT=
bash -euo pipefail "$work/commands.sh"

module=build/pmda_darwin.so
[ -e "$module" ] || module=build/pmda_darwin.dylib
value=$(PMDA_DARWIN_SNAPSHOT=tests/fixtures/apple-silicon.snapshot \
    pminfo -L -K clear -K "add,78,$module,darwin_init" -n pmns/root -f ipc.socket.buffer_bytes 2>/dev/null |
    awk '$1 == "value" {print $2}')
echo "ipc.socket.buffer_bytes from the fixture: ${value:-none}"
[ "$value" = 5000 ]
# The docs' key table gained the new key.
grep -q 'sysctl.kern.ipc.sbmb_cnt' docs/snapshot-format.md || { echo "docs/snapshot-format.md lacks the new key" >&2; exit 1; }
