#!/bin/sh
# Build the platform layer (the live source against Apple's headers, the
# portable decoders, the replay and the writer) and darwin-snapshot for
# macOS on arm64 and x86_64, with the project's own CMake description and
# flags through cmake/zig-macos.cmake, warnings as errors, and check that
# darwin-snapshot is a Mach-O executable a Mac would run, for both
# (tests/macho/check-macho.py: its slice, file type, macOS 13, libraries by
# absolute paths, and the arm64 code signature). The toolchain is Zig's
# from npm, installed when absent: this check never skips, without a
# toolchain it fails. Zig has Apple's libc headers but no frameworks: the
# toolchain file takes the IOKit and CoreFoundation declarations from
# sdk/ here and links against the frameworks' .tbd files beside this
# script (text lists of their symbols, as Apple's SDKs ship them), so the
# file that talks to IOKit is compiled and linked like every other.
#
# usage: check-macos.sh SOURCE_DIR WORK_DIR
set -eu
src=$1
work=$2
mkdir -p "$work"
export ZIG_GLOBAL_CACHE_DIR="$work/zig-cache" ZIG_LOCAL_CACHE_DIR="$work/zig-cache"
zig=$("$(dirname "$0")/find-zig.sh")
echo "Using $zig ($("$zig" version))"

passed=0
failed=0
# macOS 13 headers: rusage flavor 6 (ri_energy_nj, ri_user_ptime) is declared from the macOS 12 SDK on.
for target in aarch64-macos.13.0 x86_64-macos.13.0; do
    build=$work/$target
    if ! cmake -S "$src" -B "$build" -DCMAKE_TOOLCHAIN_FILE="$src/cmake/zig-macos.cmake" -DZIG_TARGET="$target" \
            -DPMDA_DARWIN_WERROR=ON -DBUILD_TESTING=OFF > "$build.configure.log" 2>&1; then
        cat "$build.configure.log"; echo "FAIL: CMake cannot configure a build for $target"; failed=$((failed + 1))
        continue
    fi
    if cmake --build "$build" --target darwin-snapshot -j "$(nproc 2>/dev/null || echo 2)" -- -k; then
        objects=$(find "$build" -name '*.c.o' | wc -l)
        echo "compiled $objects sources for $target"; passed=$((passed + 1))
    else
        echo "FAIL: the platform layer or darwin-snapshot does not build for $target"; failed=$((failed + 1))
        continue
    fi
    # As a Mac loads it: this architecture alone, an executable for macOS 13,
    # libraries by absolute paths, and on arm64 a code signature Zig's linker
    # made that matches every page (tests/macho/check-macho.py).
    arch=${target%%-*}; [ "$arch" = aarch64 ] && arch=arm64
    if python3 "$src/tests/macho/check-macho.py" --filetype MH_EXECUTE --arch "$arch" "$build/darwin-snapshot"; then
        passed=$((passed + 1))
    else
        echo "FAIL: $build/darwin-snapshot is not a Mach-O executable a Mac would run"; failed=$((failed + 1))
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
