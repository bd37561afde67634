#!/bin/sh
# Build the snapshot parser's fuzz target with libFuzzer, AddressSanitizer and
# UBSan, and run it for a bounded number of inputs from the seed corpus.
#
# usage: run-fuzz.sh SOURCE_DIR WORK_DIR [RUNS]
set -eu
src=$1 work=$2 runs=${3:-20000}
clang=$(command -v clang || command -v clang-14 || true)
if [ -z "$clang" ]; then
    echo "FAIL: clang is needed for the libFuzzer build (scripts/deps.sh installs it)"
    echo "0 passed, 1 failed"
    exit 1
fi
rm -rf "$work"; mkdir -p "$work/corpus"
cp "$src"/tests/fuzz/corpus/* "$src"/tests/fixtures/*.snapshot "$work/corpus/"     # seeds: the corpus and the fixtures
sources=$(cat "$src/src/platform/portable-sources.txt" "$src/src/replay/sources.txt" | grep -v '^#' | sed "s|^|$src/|")
# shellcheck disable=SC2086 # one word per source path
"$clang" -g -O1 -std=c11 -D_POSIX_C_SOURCE=200809L -fsanitize=fuzzer,address,undefined \
    -fno-sanitize-recover=undefined -I"$src/include" -I"$src/src/platform" -I"$src/src/replay" \
    -o "$work/fuzz_snapshot" "$src/tests/fuzz/fuzz_snapshot.c" $sources
cd "$work"
if ./fuzz_snapshot -runs="$runs" -max_len=4096 -timeout=10 -rss_limit_mb=1024 corpus > fuzz.log 2>&1; then
    tail -n 2 fuzz.log
    echo "1 passed, 0 failed: $runs fuzz inputs, no crash, leak or undefined behaviour"
else
    tail -n 40 fuzz.log
    echo "0 passed, 1 failed"
    exit 1
fi
