#!/bin/bash
# Run every test of pmda-darwin, from a fresh Debian 12 machine: installs what
# it needs, builds with warnings as errors, runs the whole ctest suite (unit,
# metadata, fuzzing, valgrind fetch loop, real pmcd integration, a fleet
# through Redis, pmproxy and Prometheus, every install path on a double of
# PCP's macOS package, the Mach-O checks, macOS cross-compile, the macOS
# source run on a double of macOS with its coverage) against Debian 12's PCP
# 6, the tests that read ../shared again without it, the tests that depend on
# PCP again against PCP 7, the proc agent's scale benchmark, then the unit
# tests again under AddressSanitizer, LeakSanitizer and UBSan, and in a Debug
# build. Run it as root (it installs packages and sandboxes pmcd in private
# namespaces).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

scripts/deps.sh test

# The dumps recorded on real Macs live beside the project: say now when the
# tests that replay them will be skipped (a failure where they are required).
python3 tests/integration/real_dumps.py corpus "the tests labelled corpus (ctest -L corpus)" >/dev/null ||
    [ $? -eq 77 ]

# The tests labelled pcp again, against PCP 7 (in a root of its own, with
# its own loopback), beside the run against this machine's PCP 6: both are
# mostly waits on real time (rates sampled over seconds), and the suite
# holds on a busy machine. Its output follows the PCP 6 run's.
pcp7_log=$(mktemp)
scripts/test-pcp7.sh > "$pcp7_log" 2>&1 &
pcp7=$!
trap 'kill $pcp7 2>/dev/null || true; rm -f "$pcp7_log"' EXIT    # errexit holds in a trap too

cmake -S . -B build -DPMDA_DARWIN_WERROR=ON
cmake --build build -j"$jobs"
(cd build && ctest --output-on-failure -j1)
scripts/test-without-corpus.sh build   # the tests that read ../shared again, hidden from them as from a fresh clone

pcp7_status=0
wait $pcp7 || pcp7_status=$?
echo "== the tests labelled pcp against PCP 7 (scripts/test-pcp7.sh)"
cat "$pcp7_log"
[ "$pcp7_status" -eq 0 ] || { echo "FAIL: the tests against PCP 7 (exit $pcp7_status)"; exit 1; }

bench/proc-scale.sh build       # the proc agent's cost per process at 1k and 10k processes, on a quiet machine

cmake -S . -B build-asan -DPMDA_DARWIN_WERROR=ON -DPMDA_DARWIN_SANITIZE=ON
cmake --build build-asan -j"$jobs"
(cd build-asan &&
 ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
 LSAN_OPTIONS="suppressions=$PWD/../tests/leak/lsan.supp:print_suppressions=0" \
 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
 ctest --output-on-failure -R '^unit\.|^fuzz\.snapshot_corpus$')

# The unit tests unoptimised, in a build of the unit tests alone: a read of
# memory never written that passes at -O2 by chance fails here.
cmake -S . -B build-debug -DPMDA_DARWIN_WERROR=ON -DCMAKE_BUILD_TYPE=Debug
cmake --build build-debug -j"$jobs" --target unit_tests
(cd build-debug && ctest --output-on-failure -R '^unit\.')
