#!/bin/bash
# PCP's own pmrep report for macOS, macstat.conf, over the Apple Silicon
# fixture: it runs with every column. The file is PCP's, never copied into
# the tree: the installed PCP's, else the copy beside the project (lib.sh's
# pcp_file). Without either: skipped (77), a failure where
# PMDA_DARWIN_SHARED_REQUIRED is set. A test of its own, so that a run
# without ../shared (scripts/test-without-corpus.sh) repeats this alone.
#
# usage: macstat.sh MODULE SOURCE_DIR WORK_DIR
set -u
module=$(realpath "$1") src=$(realpath "$2") work=$3
. "$src/tests/integration/lib.sh"
rm -rf "$work"; mkdir -p "$work"
trap stop_pmcd EXIT

if ! macstat=$(pcp_file pmrep/macstat.conf); then
    skip "pmrep :macstat: PCP's macstat.conf is neither installed nor in ../shared/upstream-pcp"
    finish && exit 77
    exit 1
fi
start_pmcd "$work/pmcd" "$module" "$src/tests/fixtures/apple-silicon.snapshot" ||
    { not_ok "pmcd starts"; finish; exit 1; }
pmrep -c "$macstat" -h 127.0.0.1 -t 1 -s 2 :macstat > "$work/macstat" 2>&1
check "pmrep :macstat (PCP's report for macOS, $macstat) runs with every column" sh -c "grep -q 'read' '$work/macstat' &&
    [ \$(grep -c -E '^ *[0-9]+ ' '$work/macstat') -ge 2 ] && ! grep -q -i -E 'error|invalid|unknown' '$work/macstat'"
finish
