#!/bin/sh
# Build the macOS release archive on Linux: pmda_darwin.dylib (the system
# agent pmcd loads), pmdaproc (the proc agent) and darwin-snapshot as
# universal (arm64 + x86_64) Mach-O files, built by CMake once per
# architecture through cmake/zig-macos.cmake (Zig's compiler, LLVM's linker,
# the stand-ins of packaging/macos) and joined by llvm-lipo, packed with
# everything Install and Remove need into
#     OUTDIR/pmda-darwin-VERSION-macos.tar.gz      (OUTDIR: dist/ by default)
# laid out as "cmake --install" lays out its prefix, under pmda-darwin-VERSION/:
#     bin/pmda-darwin, bin/darwin-snapshot
#     libexec/pmda-darwin/{darwin,proc}/   the agents, which pmda-darwin install
#                                          places in $PCP_PMDAS_DIR
#     share/man/man1/, README.md
# and OUTDIR/pmda-darwin-VERSION-macos.tar.gz.sha256. It also writes
# OUTDIR/pmda-darwin.rb, packaging/homebrew/pmda-darwin.rb with the archive's
# URL (RELEASE_URL, by default the local file) and sha256 filled in.
#
# PCP: the agents are compiled against the build host's PCP headers
# (libpcp3-dev, read through pkg-config) and linked against the text stubs
# packaging/macos/libpcp*.tbd, whose install names are where PCP's macOS
# package puts the libraries (/usr/local/lib): cmake/FindPCP.cmake. See
# README.md, "The macOS release archive".
#
# usage: release.sh [OUTDIR]
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$src/dist}
mkdir -p "$out"
out=$(cd "$out" && pwd)
version=$(sed -n 's/^project(pmda_darwin VERSION \([0-9][0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
[ -n "$version" ] || { echo "FAIL: no VERSION in $src/CMakeLists.txt's project()" >&2; exit 1; }
name=pmda-darwin-$version
archive=$name-macos.tar.gz
work=$out/release-work
rm -rf "$work"
mkdir -p "$work/stage"

# Zig's cache outlives the work directory: a second run reuses it.
export ZIG_GLOBAL_CACHE_DIR="${ZIG_GLOBAL_CACHE_DIR:-$out/zig-cache}" ZIG_LOCAL_CACHE_DIR="${ZIG_LOCAL_CACHE_DIR:-$out/zig-cache}"
lipo=$("$src/scripts/find-llvm.sh" llvm-lipo)

# The project's own build, warnings as errors, once per architecture.
arches="arm64 x86_64"
for arch in $arches; do
    build=$work/$arch
    cmake -S "$src" -B "$build" -DCMAKE_TOOLCHAIN_FILE="$src/cmake/zig-macos.cmake" -DMACOS_ARCH="$arch" \
          -DPMDA_DARWIN_WERROR=ON -DBUILD_TESTING=OFF > "$build.configure.log" 2>&1 ||
        { cat "$build.configure.log"; echo "FAIL: CMake cannot configure the $arch build" >&2; exit 1; }
    cmake --build "$build" -j "$(nproc 2>/dev/null || echo 4)" --target pmda_darwin pmdaproc darwin-snapshot
done

# The staged tree: what "cmake --install" installs under its prefix
# (CMakeLists.txt), the Mach-O files made universal, and the README.
root=$work/stage/$name
cmake --install "$work/${arches%% *}" --prefix "$root" > "$work/install.log"
universal() {   # FILE, as installed under $root
    "$lipo" -create -output "$root/$1" $(for arch in $arches; do echo "$work/$arch/$(basename "$1")"; done)
    chmod 755 "$root/$1"
}
universal libexec/pmda-darwin/darwin/pmda_darwin.dylib
universal libexec/pmda-darwin/proc/pmdaproc
universal bin/darwin-snapshot
cp "$src/README.md" "$root/"

# A reproducible archive: sorted names, root-owned, the commit's time.
mtime=$(git -C "$src" log -1 --format=%cI 2>/dev/null || date -u +%Y-%m-%dT%H:%M:%SZ)
tar -C "$work/stage" --sort=name --owner=0 --group=0 --numeric-owner --mtime="$mtime" \
    -cf - "$name" | gzip -n -9 > "$out/$archive"
sha=$(sha256sum "$out/$archive" | cut -d' ' -f1)
echo "$sha  $archive" > "$out/$archive.sha256"

# The formula points at the local archive unless RELEASE_URL names where it is published.
url=${RELEASE_URL:-file://$out/$archive}
sed -e "s|^  url \".*\"|  url \"$url\"|" -e "s|^  sha256 \".*\"|  sha256 \"$sha\"|" \
    -e "s|^  version \".*\"|  version \"$version\"|" \
    "$src/packaging/homebrew/pmda-darwin.rb" > "$out/pmda-darwin.rb"
echo "$out/$archive"
echo "sha256 $sha"
