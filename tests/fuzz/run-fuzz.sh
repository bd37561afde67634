#!/bin/sh
# Build the fuzz targets with libFuzzer, AddressSanitizer and UBSan, and run
# each for a bounded number of inputs from the seed corpus: the snapshot
# parser (RUNS inputs), then the collectors of each agent (AGENT_RUNS each,
# whole snapshots through every request: slower per input).
#
# usage: run-fuzz.sh SOURCE_DIR WORK_DIR [RUNS [AGENT_RUNS]]
set -eu
src=$1 work=$2 runs=${3:-20000} agent_runs=${4:-2000}
clang=$(command -v clang || command -v clang-14 || true)
if [ -z "$clang" ]; then
    echo "FAIL: clang is needed for the libFuzzer build (scripts/deps.sh installs it)"
    echo "0 passed, 1 failed"
    exit 1
fi
rm -rf "$work"; mkdir -p "$work/corpus"
cp "$src"/tests/fuzz/corpus/* "$src"/tests/fixtures/*.snapshot "$work/corpus/"     # seeds: the corpus and the fixtures
sources=$(cat "$src/src/decode/sources.txt" "$src/src/containers/sources.txt" "$src/src/replay/sources.txt" | grep -v '^#' | sed "s|^|$src/|")
# shellcheck disable=SC2086 # one word per source path
"$clang" -g -O1 -std=c11 -D_POSIX_C_SOURCE=200809L -fsanitize=fuzzer,address,undefined \
    -fno-sanitize-recover=undefined -I"$src/include" -I"$src/src/decode" -I"$src/src/containers" -I"$src/src/replay" \
    -o "$work/fuzz_snapshot" "$src/tests/fuzz/fuzz_snapshot.c" $sources
cmake -S "$src" -B "$work/agent" -DCMAKE_C_COMPILER="$clang" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPMDA_DARWIN_FUZZ=ON -DPMDA_DARWIN_WERROR=ON \
    > "$work/agent-build.log" 2>&1 &&
    cmake --build "$work/agent" -j"$(nproc 2>/dev/null || echo 2)" --target fuzz_agent >> "$work/agent-build.log" 2>&1 ||
    { tail -n 40 "$work/agent-build.log"; echo "0 passed, 1 failed"; exit 1; }
cd "$work"
passed=0 failed=0
# target, runs, longest input, and FUZZ_AGENT: one run of libFuzzer over its own copy of the seeds
fuzz() {
    rm -rf "corpus-$4"; cp -r corpus "corpus-$4"
    if FUZZ_AGENT=$4 LSAN_OPTIONS="suppressions=$src/tests/leak/lsan.supp:print_suppressions=0" \
        "$1" -runs="$2" -max_len="$3" -timeout=10 -rss_limit_mb=2048 "corpus-$4" > "fuzz-$4.log" 2>&1; then
        echo "$4: $(grep -E '^#[0-9]+.*DONE' "fuzz-$4.log")"
        passed=$((passed + 1))
    else
        tail -n 40 "fuzz-$4.log"
        failed=$((failed + 1))
    fi
}
fuzz ./fuzz_snapshot "$runs" 4096 parser
fuzz ./agent/tests/fuzz_agent "$agent_runs" 65536 darwin
fuzz ./agent/tests/fuzz_agent "$agent_runs" 65536 proc
echo "$passed passed, $failed failed: $runs parser inputs, $agent_runs snapshots through each agent"
[ "$failed" -eq 0 ]
