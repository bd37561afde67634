#!/bin/sh
# The documented ways of installing pmda-darwin, run against a double of
# PCP 7's macOS package (tests/maclayout/package.py) in a root laid out as a
# Mac lays out its disk, inside private mount, PID and network namespaces so
# that nothing of this machine changes.
#
# usage: run.sh SOURCE_DIR BUILD_DIR WORK_DIR     (needs root and unshare)
set -u
src=$(realpath "$1") build=$(realpath "$2") work=$3
if [ -z "${PMDA_DARWIN_IN_SANDBOX:-}" ]; then
    if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null; then
        echo "not ok - this test needs root and unshare(1) for its private root; run the suite as root"
        echo "0 passed, 1 failed"
        exit 1
    fi
    rm -rf "$work"; mkdir -p "$work"
    export PMDA_DARWIN_IN_SANDBOX=1
    exec unshare --mount --pid --net --fork --mount-proc "$0" "$src" "$build" "$(realpath "$work")"
fi
mount --make-rprivate /
ip link set lo up
exec python3 "$src/tests/maclayout/test_mac_layout.py" "$src" "$build" "$work"
