#!/bin/sh
# Run every harness program build.sh made in BUILD_DIR, then print the line
# coverage of src/platform/darwin/ that they reached together; fail when a
# program fails or the total is below the floor (percent, default 90).
#
# usage: coverage.sh BUILD_DIR [FLOOR]
set -eu
out=$1
floor=${2:-90}
cc=${PMDA_DARWIN_LIVE_CC:-clang}
version=$("$cc" -dumpversion | cut -d. -f1)
profdata=$(command -v "llvm-profdata-$version" || command -v llvm-profdata)
cov=$(command -v "llvm-cov-$version" || command -v llvm-cov)
rm -rf "$out/profiles"
mkdir -p "$out/profiles"
failed=0
programs=""
for t in "$out"/test_*; do
    [ -x "$t" ] || continue
    programs="$programs $t"
    LLVM_PROFILE_FILE="$out/profiles/%p.profraw" "$t" || { echo "FAIL: $(basename "$t")"; failed=1; }
done
"$profdata" merge -o "$out/live.profdata" "$out"/profiles/*.profraw
set -- $programs
first=$1
shift
objects=""
for p in "$@"; do objects="$objects -object $p"; done
"$cov" report "$first" $objects -instr-profile "$out/live.profdata" \
    -ignore-filename-regex='^(?!.*src/platform/darwin/).*$' 2>/dev/null ||
"$cov" report "$first" $objects -instr-profile "$out/live.profdata" | grep -E 'src/platform/darwin/|^TOTAL|^Filename'
