#!/bin/sh
# The long fuzzing budget: the snapshot parser and each agent's collectors
# under libFuzzer with sanitizers (tests/fuzz/run-fuzz.sh), a million inputs
# each by default. About 110 snapshots a second go through an agent on one
# core, so the agents' million take some hours; RUNS lowers it.
#
# usage: bench/fuzz-agents.sh [RUNS]
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-1000000}
exec "$src/tests/fuzz/run-fuzz.sh" "$src" "${TMPDIR:-/tmp}/pmda-darwin-fuzz" "$runs" "$runs"
