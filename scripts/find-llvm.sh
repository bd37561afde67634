#!/bin/sh
# Print the path of the LLVM tool named $1 (llvm-lipo, llvm-nm, llvm-objdump,
# llvm-otool): on the PATH, else the newest /usr/lib/llvm-*/bin (Debian puts
# llvm-lipo and llvm-otool only there). Fails when there is none.
set -eu
t=$1
command -v "$t" 2>/dev/null && exit 0
for d in $(ls -d /usr/lib/llvm-*/bin 2>/dev/null | sort -t- -k2 -n -r); do
    [ -x "$d/$t" ] && { echo "$d/$t"; exit 0; }
done
echo "FAIL: $t not found (Debian: apt-get install llvm)" >&2
exit 1
