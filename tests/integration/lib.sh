# Helpers for the integration tests: TAP-like bookkeeping ending in
# "N passed, M failed", and the private pmcd of scripts/private-pmcd.sh.

. "$src/scripts/private-pmcd.sh"
passed=0
failed=0
skipped=0

ok() { passed=$((passed + 1)); echo "ok - $*"; }
not_ok() { failed=$((failed + 1)); echo "not ok - $*"; }
check() { desc=$1; shift; if "$@"; then ok "$desc"; else not_ok "$desc"; return 1; fi; }
# A check that could not run for want of what lives beside the project
# (../shared); a failure where PMDA_DARWIN_SHARED_REQUIRED is set, as in CI.
skip() {
    if [ -n "${PMDA_DARWIN_SHARED_REQUIRED:-}" ]; then not_ok "$*"; return; fi
    skipped=$((skipped + 1)); echo "skip - $*"
}
finish() {
    local also=""
    [ "$skipped" -eq 0 ] || also=", $skipped skipped"
    echo "$passed passed, $failed failed$also"; [ "$failed" -eq 0 ]
}

# pcp_file NAME: PCP's own file NAME (never copied into the tree): the
# installed PCP's, as on a Mac with a current PCP, else the copy beside the
# project ($PMDA_DARWIN_UPSTREAM_PCP, ../shared/upstream-pcp).
pcp_file() {
    local f
    for f in "$(. "${PCP_CONF:-/etc/pcp.conf}" 2>/dev/null; echo "${PCP_SYSCONF_DIR:-/nonexistent}")/$1" \
             "${PMDA_DARWIN_UPSTREAM_PCP:-$src/../shared/upstream-pcp}/$(basename "$1")"; do
        [ -r "$f" ] && { echo "$f"; return 0; }
    done
    return 1
}

# one_sample FIXTURE N: the fixture's keys for every sample and its sample N
# (from 0): a snapshot whose values stay those of that sample.
one_sample() {
    awk -v want="$2" '/^sample / { n++ } n == 0 || n == want + 1' "$1"
}
# snapshot_value SNAPSHOT KEY: a key's value in a one-sample snapshot (the
# sample's overrides the default).
snapshot_value() { awk -v key="$2" '$1 == key { $1 = ""; v = substr($0, 2) } END { print v }' "$1"; }

# pcp_at_least VERSION: the installed PCP is VERSION or later (pcp_version: its version).
pcp_version=$(pminfo --version 2>&1 | sed -n 's/.*version \([0-9.]*\).*/\1/p')
pcp_at_least() { [ "$(printf '%s\n%s\n' "$1" "$pcp_version" | sort -V | head -1)" = "$1" ]; }
# wait_for SECONDS COMMAND...: until COMMAND succeeds, at most SECONDS (a
# bound for a condition that never comes, never a time to wait).
wait_for() {
    local deadline=$((SECONDS + $1))
    shift
    until "$@" >/dev/null 2>&1; do
        [ $SECONDS -lt $deadline ] || return 1
        sleep 0.2
    done
}

pmcd_alive() { kill -0 "$pmcd_pid" 2>/dev/null && pminfo -h 127.0.0.1 -f hinv.ncpu >/dev/null 2>&1; }
