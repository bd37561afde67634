#!/bin/bash
# Run every test of pmda-darwin, from a fresh Debian 12 machine: installs what
# it needs, builds with warnings as errors, runs the whole ctest suite (unit,
# metadata, fuzzing, valgrind fetch loop, real pmcd integration, a fleet
# through Redis, pmproxy and Prometheus, Install and Remove, macOS
# cross-compile, the macOS source run on a double of macOS with its
# coverage), the proc agent's scale benchmark, then the unit tests again under
# AddressSanitizer, LeakSanitizer and UBSan. Run it as root (it installs
# packages and sandboxes a pmcd in private namespaces).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

scripts/deps.sh test

# The dumps recorded on real Macs live beside the project: say now when the
# tests that replay them will be skipped (a failure where they are required).
python3 tests/integration/real_dumps.py corpus "the tests labelled corpus (ctest -L corpus)" >/dev/null ||
    [ $? -eq 77 ]

cmake -S . -B build -DPMDA_DARWIN_WERROR=ON
cmake --build build -j"$jobs"
(cd build && ctest --output-on-failure -j1)
scripts/test-without-corpus.sh build   # the tests that read ../shared again, hidden from them as from a fresh clone
bench/proc-scale.sh build       # the proc agent's cost per process at 1k and 10k processes
scripts/test-pcp7.sh            # the tests labelled pcp again, against PCP 7

cmake -S . -B build-asan -DPMDA_DARWIN_WERROR=ON -DPMDA_DARWIN_SANITIZE=ON
cmake --build build-asan -j"$jobs"
(cd build-asan &&
 ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
 LSAN_OPTIONS="suppressions=$PWD/../tests/leak/lsan.supp:print_suppressions=0" \
 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
 ctest --output-on-failure -R '^unit\.|^fuzz\.snapshot_corpus$')
