#!/bin/sh
# The step a build on macOS gives the agents (cmake/AbsoluteInstallNames.cmake:
# PCP's libraries by absolute paths, then signed again), exercised on Linux:
# tests/macho/install-names links a module and an executable for arm64
# through cmake/zig-macos.cmake against a stand-in for PCP's libpcp whose
# own name is bare, as the real one's is, and check-macho.py checks the
# result, as built and as "cmake --install" installs it.
#
# Stand-ins for Apple's tools: llvm-otool for otool, and for codesign
# llvm-objcopy, which writes a new ad-hoc signature over a file that has one
# (Debian 12 has no codesign nor ldid). For install_name_tool,
# install-name-tool-unsigned.py, which leaves the signature as it was:
# llvm-install-name-tool signs again by itself and would hide a step that
# does not. With it, any edit CMake's install step made would show too.
#
# usage: check-install-names.sh SOURCE_DIR WORK_DIR
set -u
src=$1 work=$2
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok - $*"; }
not_ok() { failed=$((failed + 1)); echo "not ok - $*"; }
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; }

llvm() { "$src/scripts/find-llvm.sh" "$1"; }
otool=$(llvm llvm-otool) objcopy=$(llvm llvm-objcopy) || { not_ok "LLVM tools"; finish; exit 1; }
unsigned=$src/tests/macho/install-name-tool-unsigned.py
macho() { python3 "$src/tests/macho/check-macho.py" --arch arm64 "$@"; }
build=$work/build stage=$work/stage
rm -rf "$build" "$stage"
mkdir -p "$work"
export ZIG_GLOBAL_CACHE_DIR="$work/zig-cache" ZIG_LOCAL_CACHE_DIR="$work/zig-cache"
if ! { cmake -S "$src/tests/macho/install-names" -B "$build" -DCMAKE_TOOLCHAIN_FILE="$src/cmake/zig-macos.cmake" \
           -DMACOS_ARCH=arm64 -DCMAKE_INSTALL_NAME_TOOL="$unsigned" \
           -DPMDA_DARWIN_OTOOL="$otool" -DPMDA_DARWIN_CODESIGN="$objcopy" &&
       cmake --build "$build" && cmake --install "$build" --prefix "$stage"; } > "$work/build.log" 2>&1; then
    cat "$work/build.log"; not_ok "the module and the executable build and install"; finish; exit 1
fi

# What was linked names libpcp bare: dyld would not find it.
out=$(macho --filetype MH_EXECUTE "$build/program_as_linked")
echo "$out" | sed 's/^/# /'
case $out in
    *"arm64: LC_LOAD_DYLIB libpcp.4.dylib: not an absolute path"*) ok "as linked, the executable loads libpcp by its bare name";;
    *) not_ok "as linked, the executable loads libpcp by its bare name";;
esac
for f in "$build/module.dylib" "$stage/lib/module.dylib"; do
    if macho --filetype MH_DYLIB "$f"; then ok "$f loads libpcp by its path, signed"; else not_ok "$f"; fi
done
for f in "$build/program" "$stage/bin/program"; do
    if macho --filetype MH_EXECUTE "$f"; then ok "$f loads libpcp by its path, signed"; else not_ok "$f"; fi
done

# The same step with no signing after it: the names are right, the
# signature no longer matches the page of load commands.
cp "$build/program_as_linked" "$work/unsigned"
cmake -DFILE="$work/unsigned" -DLIBRARY_DIRS="$build/pcp-lib" -DOTOOL="$otool" -DINSTALL_NAME_TOOL="$unsigned" \
      -DCODESIGN=true -P "$src/cmake/absolute-install-names.cmake"
out=$(macho --filetype MH_EXECUTE "$work/unsigned")
echo "$out" | sed 's/^/# /'
case $out in
    *"not an absolute path"*) not_ok "without signing again, the names are still changed";;
    *"arm64: page 0 (0x0-"*) ok "without signing again, the signature no longer matches page 0";;
    *) not_ok "without signing again, the signature no longer matches page 0";;
esac
finish
