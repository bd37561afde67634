#!/bin/sh
# Compile the whole live macOS source against Apple's headers for arm64 and
# x86_64 with the project's warnings (CMake's PMDA_DARWIN_WARNINGS) as errors, and link darwin-snapshot as a Mach-O
# executable for both. Uses the Zig toolchain from npm, installing it when
# absent; this check never skips: without a toolchain it fails. Zig carries
# Apple's libc headers but no frameworks: the IOKit and CoreFoundation
# declarations the registry seam uses are in tests/cross/sdk/, and the
# frameworks' symbols in the .tbd stubs beside this script, so the file that
# talks to IOKit is compiled and linked like every other.
#
# usage: check-macos.sh SOURCE_DIR WORK_DIR WARNING_FLAG...
set -eu
src=$1
work=$2
shift 2
warnings="$*"
[ -n "$warnings" ] || { echo "FAIL: no warning flags given: CMake passes PMDA_DARWIN_WARNINGS"; exit 1; }
mkdir -p "$work"
export ZIG_GLOBAL_CACHE_DIR="$work/zig-cache" ZIG_LOCAL_CACHE_DIR="$work/zig-cache"
zig=$("$(dirname "$0")/find-zig.sh")
echo "Using $zig ($("$zig" version))"

live_sources=$(grep -v '^#' "$src/src/macos/sources.txt" | sed "s|^|$src/|")
portable_sources=$(cat "$src/src/platform/portable-sources.txt" "$src/src/replay/sources.txt" "$src/tools/writer/sources.txt" |
                   grep -v '^#' | sed "s|^|$src/|")
flags="-std=c11 -D_DARWIN_C_SOURCE $warnings -Werror -I$src/include -I$src/src/platform -I$src/src/replay -I$src/tools/writer -I$src/src/macos -I$src/tests/cross/sdk"

passed=0
failed=0
# macOS 13 headers: rusage flavor 6 (ri_energy_nj, ri_user_ptime) is declared from the macOS 12 SDK on.
for target in aarch64-macos.13.0 x86_64-macos.13.0; do
    for f in $live_sources $portable_sources; do
        if "$zig" cc -target "$target" $flags -c "$f" -o "$work/$(basename "$f" .c).$target.o"; then
            passed=$((passed + 1))
        else
            echo "FAIL: $f does not compile for $target"; failed=$((failed + 1))
        fi
    done
    exe="$work/darwin-snapshot.$target"
    if "$zig" cc -target "$target" $flags -o "$exe" "$src/tools/darwin-snapshot.c" $live_sources $portable_sources \
            "$src/tests/cross/IOKit.tbd" "$src/tests/cross/CoreFoundation.tbd"; then
        # Mach-O 64-bit magic, little-endian: cf fa ed fe
        magic=$(od -An -tx1 -N4 "$exe" | tr -d ' \n')
        if [ "$magic" = "cffaedfe" ]; then
            echo "linked $exe (Mach-O)"; passed=$((passed + 1))
        else
            echo "FAIL: $exe is not Mach-O (magic $magic)"; failed=$((failed + 1))
        fi
    else
        echo "FAIL: darwin-snapshot does not link for $target"; failed=$((failed + 1))
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
