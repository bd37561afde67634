#!/bin/bash
# The alert rules' tests can fail: each condition of each rule, changed so
# that it no longer holds its threshold or term, must fail
# darwin-alerts.test.yml. A change that no longer applies to the rules (they
# were edited) fails too, so the list keeps up with them.
#
# usage: mutations.sh WORK_DIR
set -u
here=$(cd "$(dirname "$0")" && pwd)
rules=$here/../../config/prometheus/darwin-alerts.yml
work=$1
rm -rf "$work" && mkdir -p "$work"
sed "s#../../config/prometheus/darwin-alerts.yml#$work/rules.yml#" "$here/darwin-alerts.test.yml" > "$work/test.yml"
status=0
while IFS= read -r change; do
    [ -z "$change" ] && continue
    sed "$change" "$rules" > "$work/rules.yml"
    if cmp -s "$rules" "$work/rules.yml"; then
        echo "not ok - $change no longer changes the rules"; status=1
    elif promtool test rules "$work/test.yml" > "$work/out" 2>&1; then
        echo "not ok - the tests pass with $change"; status=1
    else
        echo "ok - the tests fail with $change"
    fi
done <<'CHANGES'
s/mem_pressure_level >= 2 and mem_pressure_level < 4/mem_pressure_level >= 2/
s/mem_pressure_level == 4/mem_pressure_level >= 2/
s/increase(mem_compressor_thrashing_detected\[5m\]) > 0/increase(mem_compressor_thrashing_detected[5m]) > 10/
s/rate(mem_compressor_swapouts_under_30s\[5m\]) > 1/rate(mem_compressor_swapouts_under_30s[5m]) > 0/
s/swap_used \* 1024 > 512 \* 1024 \* 1024/swap_used * 1024 > 0/
s/deriv(swap_used\[5m\]) > 1024/deriv(swap_used[5m]) > 0/
s/filesys_full > 90/filesys_full > 40/
s/filesys_readonly == 0/filesys_readonly >= 0/
s/deriv(filesys_used\[5m\]) > 0/deriv(filesys_used[5m]) >= 0/
s/increase(disk_dev_read_errors\[5m\]) + //
s/increase(disk_dev_read_errors\[5m\]) + increase(disk_dev_write_errors\[5m\]) > 0/increase(disk_dev_read_errors[5m]) > 0/
s/rate(network_interface_total_errors\[5m\]) + //
s/ + rate(network_interface_total_drops\[5m\])//
s/rate(network_interface_total_drops\[5m\]) > 1/rate(network_interface_total_drops[5m]) > 0/
s/> 90$/> 50/
s/< 20$/< 100/
s/thermal_pressure_level > 0/thermal_pressure_level > 1/
s/>= 80$/>= 30/
s/>= 80$/>= 96/
s/ + rate(kernel_cpucluster_idle\[5m\])//
s/+ rate(kernel_cpucluster_down\[5m\])//
s/< 70$/< 200/
s/< 70$/< 50/
s/100 \* 1000 \* rate/100 * rate/
s/thermal_pressure_level >= 1/thermal_pressure_level >= 0/
s/thermal_pressure_level >= 1/thermal_pressure_level >= 2/
s/thermal_cpu_die >= 95/thermal_cpu_die >= 50/
s/thermal_cpu_die >= 95/thermal_cpu_die >= 105/
s/power_battery_health < 80/power_battery_health < 70/
s/power_battery_cycle_count > 1000/power_battery_cycle_count > 1500/
s/proc_memory_footprint > 100 \* 1024 \* 1024/proc_memory_footprint > 0/
s/ offset 5m//
s/and delta(proc_memory_footprint\[5m\]) > 10 \* 1024 \* 1024/and delta(proc_memory_footprint[5m]) > 0/
CHANGES
exit $status
