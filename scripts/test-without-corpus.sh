#!/bin/bash
# The tests labelled "corpus" (those that read ../shared, the dumps recorded
# on real Macs and PCP's own files: tests/CMakeLists.txt names them) once
# more on a build already made, as a fresh clone without ../shared runs
# them: ../shared is hidden under an empty tmpfs in a private mount
# namespace, and no variable names another corpus or requires one. Each
# must pass or skip visibly; the live layer runs under LeakSanitizer, so a
# skip that leaves its source open fails. The ctest log is kept apart from
# the build's own, in BUILD_DIR/Testing/without-corpus.
#
# usage: scripts/test-without-corpus.sh BUILD_DIR   (as root: it mounts)
set -euo pipefail
build=$(realpath "$1")
shared=$(realpath -m "$(dirname "$0")/../../shared")
log=$build/Testing/without-corpus
unset PMDA_DARWIN_SHARED_REQUIRED PMDA_DARWIN_REAL_MACS PMDA_DARWIN_UPSTREAM_PCP
mkdir -p "$log" "$build/Testing/Temporary"
started=$SECONDS
status=0
# shellcheck disable=SC2016     # the inner shell expands them
unshare --mount --propagation private bash -euc '
    shared=$1 build=$2 log=$3
    [ ! -d "$shared" ] || mount -t tmpfs -o ro,size=4k,mode=555 none "$shared"
    [ -z "$(ls -A "$shared" 2>/dev/null)" ] || { echo "FAIL: $shared is still visible"; exit 1; }
    mount --bind "$log" "$build/Testing/Temporary"
    cd "$build"
    ctest --output-on-failure --no-tests=error -L "^corpus\$"' sh "$shared" "$build" "$log" || status=$?
# What each test skipped by its own count (cmocka programs, lib.sh's checks,
# real_dumps.py), which a passing test's output shows nowhere else.
awk '/^[0-9]+\/[0-9]+ Testing: / { name = $3 }
     /^\[  SKIPPED \] [0-9]+ test\(s\)/ { n[name] += $4 }
     /^skip - |^SKIPPED: / { n[name]++ }
     END { for (t in n) print "skipped without the corpus: " t ": " n[t] }' "$log/LastTest.log" | sort
echo "the tests labelled corpus ran without $shared in $((SECONDS - started)) s"
exit "$status"
