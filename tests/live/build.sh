#!/bin/sh
# Build the live-layer harness: src/macos/ as it is, compiled
# with Apple's declarations (Zig's macOS headers, the ones the macOS build
# uses, and packaging/macos/sdk/include for the frameworks) for an x86_64
# ELF target, linked on Linux with the test-only double of every macOS call it makes
# (tests/live/double), under AddressSanitizer and UBSan, with line coverage.
#
# Three sets of objects:
#   live     src/macos/*.c, with coverage
#   mac      what the live files call outside themselves, compiled with
#            Apple's declarations as on a Mac: the project's portable
#            sources and the double
#   linux    the test programs, their helpers and the replay, with glibc
# Every symbol the live and mac objects use from outside themselves gets a
# "mac_" prefix (objcopy), except the C library functions whose ABI is the
# same on macOS and glibc (abi-same.txt) and the double's control calls
# (dbl_*). So a macOS call without a double does not link, nothing of
# Apple's calls reaches glibc, and the mac copies of portable code do not
# clash with the linux copies the replay uses.
#
# usage: build.sh SOURCE_DIR BUILD_DIR WARNING_FLAG...
set -eu
src=$1
out=$2
shift 2
warnings="$*"
[ -n "$warnings" ] || { echo "FAIL: no warning flags given: CMake passes PMDA_DARWIN_WARNINGS"; exit 1; }
here=$src/tests/live
rm -rf "$out/live" "$out/mac" "$out/linux"     # no object of a file since removed
mkdir -p "$out/live" "$out/mac" "$out/linux"

zig=$("$src/scripts/find-zig.sh")
apple=$(dirname "$zig")/lib/libc/include
cc=${PMDA_DARWIN_LIVE_CC:-clang}
resource=$("$cc" -print-resource-dir)
# PMDA_DARWIN_LIVE_PLAIN=1 (bench/live-cost.sh): optimised, without the
# sanitizers and coverage, so that callgrind counts the code's own instructions.
if [ "${PMDA_DARWIN_LIVE_PLAIN:-}" = 1 ]; then
    sanitize="" coverage="" optimise=-O2
else    # -O1: what AddressSanitizer's documentation advises; the day runs in two thirds of -O0's time
    sanitize="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
    coverage="-fprofile-instr-generate -fcoverage-mapping" optimise=-O1
fi
common="-g $optimise -std=c11 $warnings -Werror $sanitize -ffunction-sections -fdata-sections"
# Apple's headers for x86_64 macOS 13, on an ELF target that Linux runs.
mac_flags="-target x86_64-linux-gnu -nostdinc -isystem $resource/include -isystem $apple/x86_64-macos.13-none
           -isystem $apple/any-macos.13-any -isystem $apple/any-macos-any -D__APPLE__ -D__MACH__
           -D_DARWIN_C_SOURCE -I$src/include -I$src/src/decode -I$src/src/containers -I$src/src/macos
           -I$src/packaging/macos/sdk/include -I$here/double"
linux_flags="-D_GNU_SOURCE -I$src/tests/unit -I$src/include -I$src/src/decode -I$src/src/containers -I$src/src/replay -I$here/harness -I$here/double"

portable=$(cat "$src/src/decode/sources.txt" "$src/src/containers/sources.txt" | grep -v '^#')
replay=$(grep -v '^#' "$src/src/replay/sources.txt")
live=$(grep -v '^#' "$src/src/macos/sources.txt")

compile() {         # compile SET FILE EXTRA_FLAGS...
    set_=$1 file=$2
    shift 2
    "$cc" $common "$@" -c "$file" -o "$out/$set_/$(basename "$file" .c).o" ||
        { echo "FAIL: $file does not compile for the harness ($set_)"; exit 1; }
}

for f in $live; do
    compile live "$src/$f" $mac_flags $coverage
done
for f in $portable; do
    compile mac "$src/$f" $mac_flags
done
for f in "$here"/double/*.c; do
    compile mac "$f" $mac_flags -D_FORTIFY_SOURCE=0     # the double is what the checked calls land in
done
mkdir -p "$out/linux/portable"
for f in $portable $replay; do
    "$cc" $common $linux_flags -c "$src/$f" -o "$out/linux/portable/$(basename "$f" .c).o" ||
        { echo "FAIL: $f does not compile for Linux"; exit 1; }
done
# The unit tests' reader of the corpus of real Macs' data serves the harness too.
helpers="$here/harness/*.c $src/tests/unit/real_macs_file.c"
for f in $helpers "$here"/test_*.c; do
    compile linux "$f" $linux_flags
done

# The rename map: every name the live and mac objects use or the portable
# mac copies define, less the live files' own, the control calls, the
# sanitizers' and profiler's, and the ABI-same C library (abi-same.txt; an
# Apple symbol "_name" there is glibc's "name").
syms() { nm "$@" 2>/dev/null | awk 'NF >= 2 { print $NF }' | sort -u; }
defined() { nm --defined-only --extern-only "$@" | awk 'NF == 3 { print $3 }' | sort -u; }
undefined() { nm --undefined-only "$@" | awk 'NF >= 2 { print $NF }' | sort -u; }
grep -v '^#' "$here/abi-same.txt" | awk 'NF { print $1 }' | sort -u >"$out/abi-same"
defined "$out"/live/*.o >"$out/live.defined"
portable_mac=""
for f in $portable; do portable_mac="$portable_mac $out/mac/$(basename "$f" .c).o"; done
{ undefined "$out"/live/*.o "$out"/mac/*.o; defined $portable_mac; } | sort -u |
    comm -23 - "$out/live.defined" | grep -v -E '^(dbl_|__asan|__ubsan|__sanitizer|__llvm|__profc|__profd|_GLOBAL_OFFSET_TABLE_)' |
    while read -r s; do
        plain=${s#_}
        if grep -qx -- "$s" "$out/abi-same"; then :
        elif [ "$plain" != "$s" ] && grep -qx -- "$plain" "$out/abi-same"; then echo "$s $plain"
        else echo "$s mac_$s"
        fi
    done >"$out/rename"
for o in "$out"/live/*.o "$out"/mac/*.o; do
    objcopy --redefine-syms="$out/rename" "$o"
done

# One program per test file; a name without a definition fails here.
harness=""
for f in $helpers; do harness="$harness $out/linux/$(basename "$f" .c).o"; done
for t in "$here"/test_*.c; do
    name=$(basename "$t" .c)
    "$cc" $sanitize ${coverage:+-fprofile-instr-generate} -Wl,--gc-sections -o "$out/$name" "$out/linux/$name.o" \
        $harness "$out"/live/*.o "$out"/mac/*.o "$out"/linux/portable/*.o -lcmocka -lm ||
        { echo "FAIL: $name does not link: each mac_NAME above is a macOS call without a double"; exit 1; }
done
echo "built $(ls "$here"/test_*.c | wc -l) harness programs in $out"
