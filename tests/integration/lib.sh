# Helpers for the integration tests: TAP-like bookkeeping ending in
# "N passed, M failed", and the private pmcd of scripts/private-pmcd.sh.

. "$src/scripts/private-pmcd.sh"
passed=0
failed=0

ok() { passed=$((passed + 1)); echo "ok - $*"; }
not_ok() { failed=$((failed + 1)); echo "not ok - $*"; }
check() { desc=$1; shift; if "$@"; then ok "$desc"; else not_ok "$desc"; fi; }
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; }

pmcd_alive() { kill -0 "$pmcd_pid" 2>/dev/null && pminfo -h 127.0.0.1 -f hinv.ncpu >/dev/null 2>&1; }
