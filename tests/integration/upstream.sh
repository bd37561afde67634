#!/bin/bash
# Upstream PCP's own checks of the names it added after 918d12b68b, run
# against both agents here: performancecopilot/pcp's
# build/mac/test/integration/test-memory-pressure-metrics.sh (a7fb196963) and
# test-kernel-task-counts.sh (123bd45d50). On a Mac they compare pminfo with
# `sysctl -n`, `ps -A` and `top`; here each runs on one sample of a fixture,
# whose own sysctl records stand in for sysctl and whose process table, as
# the proc agent serves it, stands in for ps and top. The samples are chosen
# so that every pressure state the fixtures have is seen. Their checks, in
# our words:
#   - mem.pressure.level is the kernel's level, exactly;
#   - mem.pressure.state names that level: Normal, Warning, Critical, else Unknown;
#   - mem.pressure.available is at most 100 and within 5 of kern.memorystatus_level;
#   - kernel.all.nprocs and nthreads are within 10% (at least 25) of the
#     processes and the threads counted one by one: live counts, not limits;
#   - kernel.limits.maxthreads and maxtaskthreads are kern.num_threads and
#     kern.num_taskthreads, exactly, and nthreads is below maxthreads.
#
# usage: upstream.sh MODULE PMDAPROC SOURCE_DIR WORK_DIR
set -u
module=$(realpath "$1") pmdaproc=$(realpath "$2") src=$(realpath "$3") work=$4
. "$src/tests/integration/lib.sh"
rm -rf "$work"; mkdir -p "$work"
trap stop_pmcd EXIT
host="-h 127.0.0.1"

# sysctl_n SNAPSHOT NAME: the sysctl's value in a one-sample snapshot.
sysctl_n() { snapshot_value "$1" "sysctl.$2"; }
# value METRIC: what pminfo -f serves (a number, or a quoted string), empty without a value.
value() { pminfo $host -f "$1" 2>/dev/null | sed -n 's/^ *value //p' | tr -d '"'; }
# near VALUE REFERENCE TOLERANCE: both are numbers and differ by at most TOLERANCE.
near() {
    [[ $1 =~ ^[0-9]+$ && $2 =~ ^[0-9]+$ ]] || return 1
    local d=$(($1 - $2)); [ ${d#-} -le "$3" ]
}
# counts VALUE REFERENCE: upstream's tolerance for a count, 10% of the reference or 25, whichever is more.
counts() { [[ $2 =~ ^[0-9]+$ ]] && near "$1" "$2" $(($2 / 10 > 25 ? $2 / 10 : 25)); }
state_of() { case $1 in 1) echo Normal ;; 2) echo Warning ;; 4) echo Critical ;; *) echo Unknown ;; esac; }

for case in "apple-silicon 0" "apple-silicon 2" "intel 1"; do
    set -- $case
    snap=$work/$1-$2.snapshot
    one_sample "$src/tests/fixtures/$1.snapshot" "$2" > "$snap"
    echo "# $1, sample $2"
    start_pmcd "$work/pmcd.$1-$2" "$module" "$snap" "$pmdaproc" || { not_ok "pmcd starts on $1, sample $2"; continue; }

    kernel_level=$(sysctl_n "$snap" kern.memorystatus_vm_pressure_level)
    level=$(value mem.pressure.level)
    check "mem.pressure.level is the kernel's ${kernel_level:-?} (served: ${level:-none})" \
        [ -n "$level" -a "$level" = "$kernel_level" ]
    state=$(value mem.pressure.state)
    check "mem.pressure.state names level $kernel_level: $(state_of "$kernel_level") (served: ${state:-none})" \
        [ -n "$state" -a "$state" = "$(state_of "$kernel_level")" ]
    kernel_available=$(sysctl_n "$snap" kern.memorystatus_level)
    available=$(value mem.pressure.available)
    check "mem.pressure.available is a percentage within 5 of $kernel_available (served: ${available:-none})" \
        eval 'near "$available" "$kernel_available" 5 && [ "$available" -le 100 ]'

    processes=$(value proc.nprocs)
    nprocs=$(value kernel.all.nprocs)
    check "kernel.all.nprocs ${nprocs:-none} counts the ${processes:-?} processes, as ps -A would" \
        counts "$nprocs" "$processes"
    threads=$(pminfo $host -f proc.psinfo.threads 2>/dev/null | awk '/ value / { n += $NF } END { print n + 0 }')
    nthreads=$(value kernel.all.nthreads)
    check "kernel.all.nthreads ${nthreads:-none} counts the processes' $threads threads, as top would" \
        eval '[ "$threads" -gt 0 ] && counts "$nthreads" "$threads"'
    for limit in maxthreads:kern.num_threads maxtaskthreads:kern.num_taskthreads; do
        kernel=$(sysctl_n "$snap" "${limit#*:}")
        served=$(value "kernel.limits.${limit%%:*}")
        check "kernel.limits.${limit%%:*} is ${limit#*:}, $kernel (served: ${served:-none})" \
            [ -n "$served" -a "$served" = "$kernel" ]
    done
    maxthreads=$(value kernel.limits.maxthreads)
    check "kernel.all.nthreads is below kernel.limits.maxthreads" \
        eval '[[ $nthreads =~ ^[0-9]+$ && $maxthreads =~ ^[0-9]+$ ]] && [ "$nthreads" -lt "$maxthreads" ]'
    stop_pmcd
done
finish
