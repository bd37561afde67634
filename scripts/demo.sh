#!/bin/bash
# Build pmda-darwin, start a private pmcd (loopback only, never the system
# one) with the module, and show CPU, memory (including the compressor) and
# load with pmrep. On a Mac it reads the live system; elsewhere it replays a
# snapshot: PMDA_DARWIN_SNAPSHOT if set, else the synthetic Apple Silicon one.
#   scripts/demo.sh [SAMPLES]
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
cd "$src"
samples=${1:-10}

scripts/deps.sh demo
cmake -S . -B build-demo -DBUILD_TESTING=OFF >/dev/null
cmake --build build-demo -j"$(nproc 2>/dev/null || sysctl -n hw.ncpu)" >/dev/null
suffix=so
[ "$(uname -s)" = Darwin ] && suffix=dylib
module=$src/build-demo/pmda_darwin.$suffix

snapshot=""
if [ "$(uname -s)" != Darwin ]; then
    snapshot=${PMDA_DARWIN_SNAPSHOT:-$src/tests/fixtures/apple-silicon.snapshot}
    echo "Not a Mac: replaying $snapshot"
fi
. "$src/scripts/private-pmcd.sh"
trap stop_pmcd EXIT
start_pmcd "$src/build-demo/pmcd" "$module" "$snapshot"
echo "pmcd is serving pmda-darwin on port $PMCD_PORT ($(pminfo -h 127.0.0.1 -f kernel.uname.distro hinv.machine |
    awk '/value/ {gsub(/"/, ""); $1 = ""; sub(/^ /, ""); printf "%s%s", sep, $0; sep = ", "}'))"
pmrep -h 127.0.0.1 -c "$src/scripts/demo-pmrep.conf" -t 1 -s "$samples" :darwin
