#!/bin/bash
# Every dump recorded on a real Mac that an expectation names
# (tests/real-macs/*/*.expect; the dumps are in the corpus beside the project,
# real_dumps.py says where) imported as its queries read it, replayed by a
# private pmcd, and what PCP's clients see checked against the values its
# .expect derives from the dump's own numbers. Without the corpus: skipped (77).
#
# usage: real.sh MODULE DARWIN_SNAPSHOT SOURCE_DIR WORK_DIR [FAMILY/NAME]
# (with FAMILY/NAME, that .expect alone: a glob such as battery/sik-*)
set -u
module=$(realpath "$1") darwin_snapshot=$(realpath "$2") src=$(realpath "$3") work=$4 only=${5:-*/*}
. "$src/tests/integration/lib.sh"
python3 "$src/tests/integration/real_dumps.py" corpus integration.real_dumps >/dev/null || exit
rm -rf "$work"; mkdir -p "$work"
trap stop_pmcd EXIT

for expect in "$src"/tests/real-macs/$only.expect; do
    name=$(basename "$(dirname "$expect")")/$(basename "$expect" .expect)
    snap=$work/${name//\//-}.snapshot
    check "$name: its dumps import as the .expect says" \
        python3 "$src/tests/integration/real_dumps.py" snapshot "$expect" "$darwin_snapshot" "$snap"
    if ! start_pmcd "$work/pmcd" "$module" "$snap"; then
        not_ok "$name: pmcd replays it"
        continue
    fi
    while IFS= read -r line; do
        case $line in
            "ok - "*) ok "${line#ok - }" ;;
            "not ok - "*) not_ok "${line#not ok - }" ;;
            *) echo "$line" ;;
        esac
    done < <(python3 "$src/tests/integration/real_dumps.py" check "$expect" "$snap")
    check "$name: pmcd is still up" sh -c "kill -0 $pmcd_pid && pminfo -h 127.0.0.1 -d power.source >/dev/null"
    stop_pmcd
done
finish
