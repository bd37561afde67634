#!/bin/bash
# The tests that run against the installed PCP (ctest -L pcp) once more,
# against PCP 7, the PCP Mac users run: Debian unstable's PCP 7 packages in a
# root of their own (scripts/pcp7-root.sh), the same source tree and ctest
# definitions, a build of its own inside the root (/build and the tree's
# path). The root is kept for the next run (in PMDA_DARWIN_PCP7_ROOT, else
# beside the Zig toolchain); delete it to start from nothing. Prints how long
# each step took. Run as root, after scripts/deps.sh test (scripts/test.sh
# calls it).
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
root=${PMDA_DARWIN_PCP7_ROOT:-${PMDA_DARWIN_TOOLS:-$HOME/.cache/pmda-darwin}/pcp7-root}
build=/build$src
jobs=$(nproc 2>/dev/null || echo 2)

timed() { # timed WHAT CMD...: CMD, then how long it took
    local what=$1 start=$SECONDS
    shift
    "$@"
    echo "test-pcp7: $what: $((SECONDS - start)) s"
}
in_root() { "$src/scripts/pcp7-root.sh" run "$root" "$@"; }

timed "the root" "$src/scripts/pcp7-root.sh" make "$root"
timed "the build" in_root sh -c "cmake -S '$src' -B '$build' -DPMDA_DARWIN_WERROR=ON >/dev/null &&
                                 cmake --build '$build' -j$jobs >/dev/null"
timed "ctest -L pcp" in_root sh -c "cd '$build' && ctest --output-on-failure -L pcp"
