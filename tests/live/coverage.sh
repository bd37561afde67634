#!/bin/sh
# Run every harness program build.sh made in BUILD_DIR, then print the line
# coverage of src/macos/ that they reached together. Fails when a
# program fails or the total is below FLOOR percent (default 90).
#
# usage: coverage.sh SOURCE_DIR BUILD_DIR [FLOOR]
set -eu
src=$1
out=$2
floor=${3:-90}
cc=${PMDA_DARWIN_LIVE_CC:-clang}
version=$("$cc" -dumpversion | cut -d. -f1)
profdata=$(command -v "llvm-profdata-$version" || command -v llvm-profdata)
cov=$(command -v "llvm-cov-$version" || command -v llvm-cov)
rm -rf "$out/profiles"
mkdir -p "$out/profiles"
failed=0

# test_agreement compares the live layer and the replay on what this prepares from real Macs' dumps.
python3 "$src/tests/live/agreement.py" "$out" || { echo "FAIL: tests/live/agreement.py"; failed=1; }

objects=""
for t in "$out"/test_*; do
    [ -x "$t" ] || continue
    objects="$objects -object $t"
    LLVM_PROFILE_FILE="$out/profiles/%p.profraw" "$t" || { echo "FAIL: $(basename "$t")"; failed=1; }
done
[ -n "$objects" ] || { echo "FAIL: no harness programs in $out"; exit 1; }
"$profdata" merge -o "$out/live.profdata" "$out"/profiles/*.profraw
# The first -object is the binary llvm-cov reads first; any one will do.
"$cov" report ${objects# -object} -instr-profile "$out/live.profdata" "$src"/src/macos/*.c |
    sed "s|$src/||" | tee "$out/coverage.txt"
total=$(awk '$1 == "TOTAL" { sub("%", "", $10); print $10 }' "$out/coverage.txt")
echo "line coverage of src/macos/: $total% (floor $floor%)"
[ "$failed" -eq 0 ] || exit 1
awk -v t="$total" -v f="$floor" 'BEGIN { exit !(t + 0 >= f + 0) }' ||
    { echo "FAIL: line coverage $total% is below $floor%"; exit 1; }
