#!/bin/sh
# Build the platform layer (the live source against Apple's headers, the
# portable decoders, the replay and the writer) and darwin-snapshot for
# macOS on arm64 and x86_64, with the project's own CMake description and
# flags through cmake/zig-macos.cmake (the toolchain scripts/release.sh
# builds the release with), warnings as errors, and check that
# darwin-snapshot is a Mach-O executable a Mac would run, for both
# (tests/macho/check-macho.py: its slice, file type, macOS 13, libraries by
# absolute paths, and the arm64 code signature). The toolchain is Zig's
# from npm, installed when absent (scripts/find-zig.sh): this check never
# skips, without a toolchain it fails. The agents, which need PCP's headers,
# are left to release.archive.
#
# usage: check-macos.sh SOURCE_DIR WORK_DIR
set -eu
src=$1
work=$2
mkdir -p "$work"
export ZIG_GLOBAL_CACHE_DIR="$work/zig-cache" ZIG_LOCAL_CACHE_DIR="$work/zig-cache"
zig=$("$src/scripts/find-zig.sh")
echo "Using $zig ($("$zig" version))"

passed=0
failed=0
for arch in arm64 x86_64; do
    build=$work/$arch
    if ! cmake -S "$src" -B "$build" -DCMAKE_TOOLCHAIN_FILE="$src/cmake/zig-macos.cmake" -DMACOS_ARCH="$arch" \
            -DZIG="$zig" -DPMDA_DARWIN_WERROR=ON -DPMDA_DARWIN_AGENTS=OFF -DBUILD_TESTING=OFF \
            > "$build.configure.log" 2>&1; then
        cat "$build.configure.log"; echo "FAIL: CMake cannot configure a build for $arch"; failed=$((failed + 1))
        continue
    fi
    if cmake --build "$build" --target darwin-snapshot -j "$(nproc 2>/dev/null || echo 2)" -- -k; then
        objects=$(find "$build" -name '*.c.o' | wc -l)
        echo "compiled $objects sources for $arch"; passed=$((passed + 1))
    else
        echo "FAIL: the platform layer or darwin-snapshot does not build for $arch"; failed=$((failed + 1))
        continue
    fi
    # As a Mac loads it: this architecture alone, an executable for macOS 13,
    # libraries by absolute paths, and on arm64 a code signature the linker
    # made that matches every page (tests/macho/check-macho.py).
    if python3 "$src/tests/macho/check-macho.py" --filetype MH_EXECUTE --arch "$arch" "$build/darwin-snapshot"; then
        passed=$((passed + 1))
    else
        echo "FAIL: $build/darwin-snapshot is not a Mach-O executable a Mac would run"; failed=$((failed + 1))
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
