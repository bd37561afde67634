#!/bin/sh
# Build the macOS release archive on Linux: pmda_darwin.dylib (the system
# agent pmcd loads), pmdaproc (the proc agent) and darwin-snapshot as
# universal (arm64 + x86_64) Mach-O files, cross-compiled with the Zig
# toolchain the tests use (tests/cross/find-zig.sh) and joined by llvm-lipo,
# packed with everything Install and Remove need into
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
# (libpcp3-dev, read through pkg-config) with two shims for what those
# Linux-configured headers include (packaging/macos/include), and linked
# against the text stubs packaging/macos/libpcp*.tbd, whose install names
# are where PCP's macOS package puts the libraries (/usr/local/lib). See
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
mkdir -p "$work/gen" "$work/include" "$work/stage/$name"

# Zig's cache outlives the work directory: a second run reuses it.
export ZIG_GLOBAL_CACHE_DIR="${ZIG_GLOBAL_CACHE_DIR:-$out/zig-cache}" ZIG_LOCAL_CACHE_DIR="${ZIG_LOCAL_CACHE_DIR:-$out/zig-cache}"
zig=$("$src/tests/cross/find-zig.sh")
lipo=$("$src/scripts/find-llvm.sh" llvm-lipo)

# PCP's headers, copied so that nothing else of /usr/include is on the path.
# pkg-config's includedir is PCP's own directory (/usr/include/pcp on Debian).
pcp_inc=$(pkg-config --variable=includedir libpcp_pmda 2>/dev/null || echo /usr/include/pcp)
[ -f "$pcp_inc/pmda.h" ] || pcp_inc=$pcp_inc/pcp
[ -f "$pcp_inc/pmda.h" ] || { echo "FAIL: no PCP headers in $pcp_inc (Debian: libpcp-pmda3-dev)" >&2; exit 1; }
cp -R "$pcp_inc" "$work/include/pcp"
pcp_defs=""
# PCP 7 headers name the PMDA fetch result pmdaResult (as FindPCP.cmake checks)
grep -q 'define pmdaResult' "$work/include/pcp/pmda.h" && pcp_defs=-DHAVE_PMDA_RESULT

# What CMake generates: the embedded help texts and the version header.
cmake -DINPUT="$src/help/darwin.help" -DOUTPUT="$work/gen/help_source.c" -DSYMBOL=darwin_help_source \
      -P "$src/cmake/EmbedText.cmake"
cmake -DINPUT="$src/help/proc.help" -DOUTPUT="$work/gen/proc_help_source.c" -DSYMBOL=proc_help_source \
      -P "$src/cmake/EmbedText.cmake"
sed "s/@PROJECT_VERSION@/$version/" "$src/cmake/pmda_darwin_version.h.in" > "$work/gen/pmda_darwin_version.h"

list() { for f in "$@"; do grep -v '^#' "$src/$f"; done | sed "s|^|$src/|"; }
platform=$(list src/decode/sources.txt src/containers/sources.txt src/macos/sources.txt src/replay/sources.txt)
agent=$(list src/core/sources.txt src/collectors/sources.txt)
proc=$(list src/proc/sources.txt)
writer=$(list tools/writer/sources.txt)

# CMake's flags for the targets (C11, _DARWIN_C_SOURCE on Apple, hidden
# symbols, the project's warnings as errors) and its include directories.
warnings=$(sed -n 's/^set(PMDA_DARWIN_WARNINGS \(.*\))$/\1/p' "$src/CMakeLists.txt")
[ -n "$warnings" ] || { echo "FAIL: PMDA_DARWIN_WARNINGS not found in CMakeLists.txt" >&2; exit 1; }
cflags="-std=c11 -O2 -g -D_DARWIN_C_SOURCE $pcp_defs $warnings -Werror -fPIC -fvisibility=hidden
        -I$src/include -I$src/src/decode -I$src/src/containers -I$src/src/replay -I$src/src/core -I$src/src/collectors
        -I$src/src/collectors/common -I$src/src/proc
        -I$src/tools/writer -I$work/gen -I$work/include -I$src/packaging/macos/include -I$src/tests/cross/sdk"

# Compile every source once per target, in parallel. macOS 13: the oldest
# release whose SDK declares all the live source uses (tests/cross/check-macos.sh
# compiles for the same).
targets="aarch64-macos.13.0 x86_64-macos.13.0"
sources="$platform $agent $proc $writer $src/src/collectors/darwin_main.c $src/src/proc/main.c $src/tools/darwin-snapshot.c
         $work/gen/help_source.c $work/gen/proc_help_source.c"
o() { for f in "$@"; do echo "$t/obj/$(echo "${f#"$src"/}" | sed "s|^$work/||" | tr / _).o"; done; }
for t in $targets; do
    mkdir -p "$work/$t/obj"
    for f in $sources; do echo "$t $f $(t=$work/$t; o "$f")"; done
done | RELEASE_ZIG=$zig RELEASE_CFLAGS=$(echo $cflags) xargs -P "$(nproc 2>/dev/null || echo 4)" -n 3 \
    sh -c '"$RELEASE_ZIG" cc -target "$0" $RELEASE_CFLAGS -c "$1" -o "$2"'

# Link with LLVM's ld64.lld rather than zig cc: Zig 0.11's Mach-O linker
# exports every global symbol, hidden ones (private extern) included, and
# compiler_rt's, where the module must export darwin_init alone. lld reads a
# .tbd only when it starts with the YAML header: the stubs lose their comments.
lld=$("$src/scripts/find-llvm.sh" ld64.lld)
libsystem=$(dirname "$zig")/lib/libc/darwin/libSystem.13.tbd
[ -f "$libsystem" ] || { echo "FAIL: $libsystem not found in the Zig toolchain" >&2; exit 1; }
mkdir -p "$work/tbd"
for f in "$src"/packaging/macos/libpcp.tbd "$src"/packaging/macos/libpcp_pmda.tbd \
         "$src"/tests/cross/IOKit.tbd "$src"/tests/cross/CoreFoundation.tbd; do
    grep -v '^#' "$f" > "$work/tbd/$(basename "$f")"
done
system="$work/tbd/IOKit.tbd $work/tbd/CoreFoundation.tbd $libsystem"
pcp_libs="$work/tbd/libpcp_pmda.tbd $work/tbd/libpcp.tbd"
for target in $targets; do
    t=$work/$target
    arch=${target%%-*}; [ "$arch" = aarch64 ] && arch=arm64
    # room for install_name_tool to lengthen a load command: Homebrew
    # rewrites the dylib's id to its keg path when it installs the formula
    ld="$lld -arch $arch -platform_version macos 13.0 13.0 -headerpad_max_install_names"
    p=$(o $platform)
    a=$(o $agent "$work/gen/help_source.c")
    $ld -dylib -install_name pmda_darwin.dylib -exported_symbol _darwin_init -o "$t/pmda_darwin.dylib" \
        $(o "$src/src/collectors/darwin_main.c") $a $p $pcp_libs $system
    $ld -o "$t/pmdaproc" $(o "$src/src/proc/main.c" $proc "$work/gen/proc_help_source.c") $a $p $pcp_libs $system
    $ld -o "$t/darwin-snapshot" $(o "$src/tools/darwin-snapshot.c" $writer) $p $system
done

# The staged tree: what "cmake --install" installs under its prefix
# (CMakeLists.txt), the binaries universal.
root=$work/stage/$name
home=$root/libexec/pmda-darwin
d=$home/darwin p=$home/proc
mkdir -p "$d" "$p" "$root/bin" "$root/share/man/man1"
universal() {
    "$lipo" -create -output "$2" "$work/aarch64-macos.13.0/$1" "$work/x86_64-macos.13.0/$1"
    chmod "$3" "$2"
}
universal pmda_darwin.dylib "$d/pmda_darwin.dylib" 755
universal pmdaproc "$p/pmdaproc" 755
universal darwin-snapshot "$root/bin/darwin-snapshot" 755
cp "$src/installer/pmda-darwin" "$root/bin/"
cp "$src/installer/pmda-darwin.check.plist.in" "$home/"
cp "$src/installer/placement.sh" "$src/installer/agent.sh" "$d/"
cp "$src/installer/placement.sh" "$src/installer/agent.sh" "$p/"
cp "$src/pmns/pmns" "$src/pmns/root" "$src/pmns/domain.h" "$src/help/darwin.help" "$d/"
cp "$src/pmlogrewrite/darwin.conf" "$d/rewrite.conf"
cp "$src/Install" "$src/Remove" "$d/"
cp -R "$src/config" "$d/config"
cp "$src/pmns/proc/pmns" "$src/pmns/proc/root" "$src/pmns/proc/domain.h" "$src/help/proc.help" \
   "$src/pmdaproc/access.conf" "$p/"
cp "$src/pmlogrewrite/proc.conf" "$p/rewrite.conf"
cp "$src/pmdaproc/Install" "$src/pmdaproc/Remove" "$p/"
cp "$src/man/pmda-darwin.1" "$src/man/pmda-darwin-proc.1" "$root/share/man/man1/"
cp "$src/README.md" "$root/"
chmod 755 "$root/bin/pmda-darwin" "$d/Install" "$d/Remove" "$p/Install" "$p/Remove"

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
