#!/bin/sh
# The macOS release archive, built here by scripts/release.sh and checked as
# a Mac would need it: every binary universal (arm64 and x86_64 Mach-O) with
# a valid arm64 code signature, the module exporting darwin_init alone,
# PCP's libraries referenced where PCP's macOS package installs them, the PCP
# stubs listing exactly what the agents import, and the same files, with the
# same bytes but for the Mach-O programs, as "cmake --install" puts under its
# prefix, which integration.mac_layout installs on PCP's macOS layout.
#
# usage: check-archive.sh SOURCE_DIR BUILD_DIR WORK_DIR
set -u
src=$1 build=$2 work=$3
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok - $*"; }
not_ok() { failed=$((failed + 1)); echo "not ok - $*"; }
check() { desc=$1; shift; if "$@"; then ok "$desc"; else not_ok "$desc"; fi; }
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; }

llvm() { "$src/scripts/find-llvm.sh" "$1"; }
nm=$(llvm llvm-nm) objdump=$(llvm llvm-objdump) || { not_ok "LLVM tools"; finish; exit 1; }

mkdir -p "$work"
rm -rf "$work/extract" "$work/cmake-stage" "$work"/pmda-darwin-*     # an earlier version's archive too
if ! sh "$src/scripts/release.sh" "$work" > "$work/release.log" 2>&1; then
    cat "$work/release.log"; not_ok "scripts/release.sh builds the archive"; finish; exit 1
fi
archive=$(ls "$work"/pmda-darwin-*-macos.tar.gz)
version=$(sed -n 's/^project(pmda_darwin VERSION \([0-9][0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
check "the archive is named for the project's version ($version)" \
    [ "$archive" = "$work/pmda-darwin-$version-macos.tar.gz" ]
check "its sha256 file matches it" sh -c "cd '$work' && sha256sum -c --quiet '$(basename "$archive").sha256'"
mkdir -p "$work/extract"
tar -C "$work/extract" -xzf "$archive"
top=$work/extract/pmda-darwin-$version
d=$top/libexec/pmda-darwin/darwin p=$top/libexec/pmda-darwin/proc

# Every binary as a Mac loads it (tests/macho/check-macho.py): arm64 and
# x86_64 slices and nothing else, each of the right file type, for macOS 13,
# every library it loads named by an absolute path, and the arm64 slice's
# code signature matching every page.
macho() { python3 "$src/tests/macho/check-macho.py" --arch arm64 --arch x86_64 "$@"; }
check "pmda_darwin.dylib is a universal Mach-O dylib whose arm64 signature verifies" \
    macho --filetype MH_DYLIB "$d/pmda_darwin.dylib"
check "pmdaproc is a universal Mach-O executable whose arm64 signature verifies" \
    macho --filetype MH_EXECUTE "$p/pmdaproc"
check "darwin-snapshot is a universal Mach-O executable whose arm64 signature verifies" \
    macho --filetype MH_EXECUTE "$top/bin/darwin-snapshot"

exports_only_init() {
    for a in arm64 x86_64; do
        [ "$("$nm" -g --defined-only --arch=$a "$1" | awk '{print $3}')" = "_darwin_init" ] || return 1
    done
}
check "the module exports _darwin_init alone, in both slices" exports_only_init "$d/pmda_darwin.dylib"

# Room after the load commands for install_name_tool to lengthen one, as
# Homebrew does when it rewrites the dylib's id to its keg path (ld64's
# -headerpad_max_install_names leaves room for a full path per library).
headerpad() {  # FILE: each slice's gap between its load commands and its first section
    for a in arm64 x86_64; do
        "$objdump" --macho --private-headers --arch=$a "$1" |
            awk 'hdr { cmds = $7; hdr = 0 } /magic cputype/ { hdr = 1 }
                 $1 == "offset" && !first { first = $2 } END { print first - 32 - cmds }'
    done
}
for f in "$d/pmda_darwin.dylib" "$p/pmdaproc" "$top/bin/darwin-snapshot"; do
    check "$(basename "$f"): at least 1024 bytes after the load commands in both slices" \
        sh -c "[ \$(echo '$(headerpad "$f")' | sort -n | head -1) -ge 1024 ]"
done

# The libraries each binary loads: PCP's at the install names of PCP's macOS
# package, the rest Apple's; no path of this build machine.
dylibs() {  # FILE ARCH: the libraries it loads (a dylib's own name left out)
    "$objdump" --macho --dylibs-used --arch="$2" "$1" | awk 'NR > 1 && $1 != "pmda_darwin.dylib" {print $1}' | sort | xargs
}
pcp_and_apple="/System/Library/Frameworks/CoreFoundation.framework/Versions/A/CoreFoundation /System/Library/Frameworks/IOKit.framework/Versions/A/IOKit /usr/lib/libSystem.B.dylib /usr/local/lib/libpcp.4.dylib /usr/local/lib/libpcp_pmda.3.dylib"
apple="/System/Library/Frameworks/CoreFoundation.framework/Versions/A/CoreFoundation /System/Library/Frameworks/IOKit.framework/Versions/A/IOKit /usr/lib/libSystem.B.dylib"
for a in arm64 x86_64; do
    check "$a: the module loads libpcp and libpcp_pmda from /usr/local/lib, and Apple's libraries" \
        [ "$(dylibs "$d/pmda_darwin.dylib" $a)" = "$pcp_and_apple" ]
    check "$a: pmdaproc loads the same" [ "$(dylibs "$p/pmdaproc" $a)" = "$pcp_and_apple" ]
    check "$a: darwin-snapshot loads only Apple's libraries" [ "$(dylibs "$top/bin/darwin-snapshot" $a)" = "$apple" ]
done

# The stubs list what the agents import from PCP, no more and no less (the
# linker has already refused anything missing): a stale name fails here.
stub() { sed -n 's/^ *symbols: *\[\(.*\)\]/\1/p' "$src/packaging/macos/$1" | tr -d ' ' | tr ',' '\n'; }
for a in arm64 x86_64; do
    imported=$("$nm" -u --arch=$a "$d/pmda_darwin.dylib" "$p/pmdaproc" | grep '^_pm' | sort -u | xargs)
    check "$a: the PCP stubs list exactly the PCP symbols the agents import" \
        [ "$imported" = "$( (stub libpcp.tbd; stub libpcp_pmda.tbd) | sort -u | xargs)" ]
done

# The same files as "cmake --install" puts under its prefix (the module
# under its macOS name), and the README besides.
DESTDIR="$work/cmake-stage" cmake --install "$build" > "$work/cmake-install.log" 2>&1
prefix=$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$build/CMakeCache.txt")
files() { (cd "$1" && find . -type f | sort); }
check "the archive holds what cmake --install puts under its prefix, and the README" \
    [ "$(files "$top")" = "$( (files "$work/cmake-stage$prefix"; echo ./README.md) | sort |
                                sed 's/pmda_darwin\.so$/pmda_darwin.dylib/')" ]
check "pmda-darwin, Install and Remove are executable, the README the project's" \
    sh -c "[ -x '$top/bin/pmda-darwin' ] && [ -x '$d/Install' ] && [ -x '$d/Remove' ] && [ -x '$p/Install' ] &&
           [ -x '$p/Remove' ] && cmp -s '$src/README.md' '$top/README.md'"
check "release.sh wrote the Homebrew formula with the archive's sha256 and URL" sh -c \
    "grep -q \"sha256 \\\"\$(cut -d' ' -f1 '$archive.sha256')\\\"\" '$work/pmda-darwin.rb' &&
     grep -q 'url \"file://$archive\"' '$work/pmda-darwin.rb'"

# Install and Remove run from cmake --install's files on PCP's macOS layout
# (integration.mac_layout): the archive's are the same bytes, but for the
# three Mach-O programs.
differ() {
    (cd "$top" && find . -type f ! -name pmda_darwin.dylib ! -name pmdaproc ! -name darwin-snapshot ! -name README.md) |
        while read -r f; do cmp -s "$top/$f" "$work/cmake-stage$prefix/$f" || echo "$f"; done
}
check "every other file of the archive has the bytes cmake --install gives it" [ -z "$(differ)" ]
finish
