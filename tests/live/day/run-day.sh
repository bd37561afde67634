#!/bin/sh
# Link the day program (tests/live/day) and run it: its objects, the
# agent's libraries as CMake built them for Linux, and the live layer and
# the double as tests/live/build.sh compiled them into LIVE_DIR (with
# Apple's declarations, renamed so that they link only with each other).
# The live objects carry coverage counters; the day writes no profile.
# DAY_LINK_ONLY=1 links the program and does not run it; DAY_ROUNDS runs
# that many seconds rather than a day.
#
# usage: run-day.sh LIVE_DIR LIBRARY... [-- LINK_FLAG...]
set -eu
live=$1
shift
libs=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do libs="$libs $1"; shift; done
[ $# -gt 0 ] && shift
cc=${PMDA_DARWIN_LIVE_CC:-clang}
[ -n "$(ls "$live"/live/*.o 2>/dev/null)" ] || { echo "FAIL: no live objects in $live: run live.build first"; exit 1; }
# As build.sh built the live objects: with the sanitizers and coverage
# unless PMDA_DARWIN_LIVE_PLAIN=1.
runtime="-fsanitize=address,undefined -fprofile-instr-generate"
[ "${PMDA_DARWIN_LIVE_PLAIN:-}" = 1 ] && runtime=""
"$cc" $runtime -Wl,--gc-sections -o "$live/day" \
    "$live"/live/*.o "$live"/mac/*.o $libs "$@" -lm ||
    { echo "FAIL: the day program does not link"; exit 1; }
[ "${DAY_LINK_ONLY:-}" = 1 ] && exit 0
LLVM_PROFILE_FILE=/dev/null exec "$live/day" ${DAY_ROUNDS:-}
