#!/bin/bash
# What PCP users run on top of the agents, each with the real tool against a
# private pmcd: the pmrep reports, the pmlogconf groups, pcp-dstat with the
# macOS plugins, pmstat's columns, the pmie rules on a calm and a stressed
# scenario, the pmchart views rendered from a pmlogger archive, and PCP's
# commands a Mac user runs first (pcp free, ps, pidstat, mpstat, iostat, atop)
# with the fixture's numbers.
#
# usage: tools.sh MODULE PMDAPROC SOURCE_DIR WORK_DIR
set -u
module=$(realpath "$1") pmdaproc=$(realpath "$2") src=$(realpath "$3") work=$4
. "$src/tests/integration/lib.sh"
rm -rf "$work"; mkdir -p "$work"
work=$(realpath "$work")
trap stop_pmcd EXIT
config=$src/config
host="-h 127.0.0.1"
# in a subshell: pcp.conf would reset the PCP_PYTHON_PROG that lib.sh chose
read -r pcp_var_dir pcp_sysconf_dir < <(. "${PCP_CONF:-/etc/pcp.conf}"; echo "$PCP_VAR_DIR $PCP_SYSCONF_DIR")

start_pmcd "$work/pmcd" "$module" "$src/tests/fixtures/apple-silicon.snapshot" "$pmdaproc" ||
    { not_ok "pmcd starts with both agents"; finish; exit 1; }

# pmstat: cache is the file cache, bi/bo the disks' KB/s; buff, in and cs
# have no macOS source and stay "?" (README).
pmstat $host -t 1 -s 3 > "$work/pmstat" 2>&1
check "pmstat: cache column is the file cache (5072m), bi and bo have values, buff/in/cs are ?" awk '
    $1 ~ /^[0-9.]+$/ { rows++; if ($4 == "?" && $5 == "5072m" && $8 ~ /^[0-9]+$/ && $9 ~ /^[0-9]+$/ &&
                                   $10 == "?" && $11 == "?") good++ }
    END { exit !(rows >= 2 && good >= rows - 1) }' "$work/pmstat"

# pmrep: every :darwin-* report prints rows of values, none of them N/A
# (the first row of a rate report is blank: skip it), and the last row has
# the fixture's figures: memory used 10100 MB, compressed 983, cached 5072,
# pressure normal, swap 512; disk0 about 220 reads/s; python3 at 80% CPU
# and 675 MB; 4.2 W on the CPU, battery at 72%; the E and P clusters at
# 1500 and 2750 MHz while active, 40 and 50% of the time (the derived
# metrics Install puts in PCP's derived folder), drawing 0.9 and 3.3 W; en0 on
# Wi-Fi channel 149, 80 MHz wide (5745 MHz, 5 GHz, US rules); EACC0 and AGX
# at 2.1 and 2.4 GB/s (2003 and 2289 MB/s), AGX's top bucket reached. The
# SSD 2% used, spare 100% (threshold 10%), 33 C, 7152 GiB written and 5722
# read (data units of 512000 bytes), 2600 hours, 7 unsafe shutdowns. Rates are checked within
# the 1% that sampling jitter gives (a full run saw 79.9 for 80.0 and 4.18
# for 4.20). The fixture's CPU load
# differs from one recorded interval to the next, so the CPU report is
# checked for each level's user, sys and idle adding up to 100% instead.
declare -A last_row=(
    [darwin-macstat]=' 10100 +98[34] +5072 +Normal +51[23] '
    [darwin-cpu]='^[0-9:]+( +[0-9]+\.[0-9]){6}$'
    [darwin-disk]=' 2[12][0-9] +1[34][0-9] +52[78][0-9] +44[78][0-9] '
    [darwin-top-cpu]=' (17\.9|18\.[01]) +1\.[456] +(79\.[2-9]|80\.[0-8]) +(5\.9|6\.[01]) +(4\.9|5\.[01])$'
    [darwin-top]='^[0-9:]+( +[0-9]+\.[0-9]+){9}$'
    [darwin-top-memory]=' 240 +105 +675 +158 '
    [darwin-power]=' 4\.(1[6-9]|2[0-4]) +1\.(4[89]|5[0-2]) +0\.00 +0\.3[4-6] +72 +-9\.73 +Battery Power '
    [darwin-clocks]=' 1500 +2750 +40 +50 +1800 +3500 +0\.9 +3\.[23] +800 +10 +4\.[12] +1\.[45] +12\.5$'
    [darwin-wifi]=' 149 +80 +5745 +5 GHz +US$'
    [darwin-bandwidth]=' 2003 +2289 +0 +1$'
    [darwin-nvme]=' 2 +100 +10 +0 +33 +715[23] +572[23] +2600 +7 +0$'
)
reports=$(sed -n 's/^\[\(darwin-[a-z-]*\)\]$/\1/p' "$config/pmrep/darwin.conf")
check "pmrep config has the ${#last_row[@]} reports this test knows" sh -c "[ $(echo "$reports" | wc -l) -eq ${#last_row[@]} ]"
# disk4 is there from 10 s to 20 s of each 20 s lap of the fixture: a disk
# report it comes into has other columns, and the instance request that
# follows its coming refreshes the disks again at once, an interval without
# I/O (await N/A). The disk report starts as disk4 leaves, and has the 10 s
# it is away (the reports before it take about 10 s: a busy machine took
# longer and met disk4).
disk4_here() { pminfo $host -f disk.dev.read | grep -q '"disk4"'; }
disk4_away() { ! disk4_here; }
# pid 2001 (cc, then ld) runs from 5 s to 15 s of each lap: the top report
# starts as it leaves, and has the 10 s it is away, over which the
# fixture's first and last samples give every other process's rates.
pid2001_here() { pminfo $host -f proc.psinfo.pid | grep -q '"002001 '; }
pid2001_away() { ! pid2001_here; }
for report in $reports; do
    if [ "$report" = darwin-disk ]; then
        wait_for 30 disk4_here && wait_for 30 disk4_away || not_ok "disk4 comes and goes, once in 20 s"
    fi
    if [ "$report" = darwin-top ]; then
        wait_for 30 pid2001_here && wait_for 30 pid2001_away || not_ok "pid 2001 comes and goes, once in 20 s"
    fi
    PCP_DERIVED_CONFIG=$config/derived/darwin.conf \
        pmrep $host -c "$config/pmrep/darwin.conf" -t 1 -s 3 ":$report" > "$work/pmrep.$report" 2>&1
    check "pmrep :$report prints the fixture's values" sh -c "awk '
        /^[0-9][0-9]:[0-9][0-9]:[0-9][0-9] / { rows++; if (rows > 1 && NF > 1 && !/N\\/A/) good++ }
        END { exit !(rows == 3 && good == 2) }' '$work/pmrep.$report' &&
        tail -1 '$work/pmrep.$report' | grep -q -E -- '${last_row[$report]:-no expectation}'"
done
# :darwin-top ranks by each of its columns: the processes using the most
# CPU, the most GPU time and the most power, as the fixture's counters
# give them (the GPU's top three are not the CPU's), with their values.
rank=$(awk '/^\[/ { on = $0 == "[darwin-top]" } on && $1 == "rank" { print $3 }' "$config/pmrep/darwin.conf")
check "pmrep :darwin-top names the top $rank processes by CPU, GPU and power, with the fixture's rates" \
    python3 "$src/tests/integration/expected_rates.py" "$src/tests/fixtures/apple-silicon.snapshot" pmrep "$rank" \
    "$work/pmrep.darwin-top"
# Each level's user, sys and idle add up to 100%, to what the replay's whole
# ticks allow: it floors each CPU's four counters (user, nice, sys, idle),
# so a level's ticks over the interval are off by fewer than 4 a CPU, of
# the hz a CPU counts each second, and pmrep rounds each column to a tenth.
# Over 1 s that is 4% (an exact second of an idle machine hid it, a busy
# machine's longer or shorter one did not): over 5 s it is 0.8%.
hz=$(pminfo $host -f kernel.all.hz | awk '$1 == "value" { print $2 }') span=5
PCP_DERIVED_CONFIG=$config/derived/darwin.conf \
    pmrep $host -c "$config/pmrep/darwin.conf" -t $span -s 2 :darwin-cpu > "$work/pmrep.darwin-cpu.sum" 2>&1
check "pmrep :darwin-cpu: user, sys and idle of each level add up to 100% (to 4 ticks of $hz a CPU in $span s)" \
    awk -v hz="$hz" -v span="$span" 'END { p = $2 + $4 + $6; e = $3 + $5 + $7; off = 100 * 4 / (hz * span) + 3 * 0.05
                           exit !(hz > 0 && p > 100 - off && p < 100 + off && e > 100 - off && e < 100 + off && $2 > 0) }' \
    "$work/pmrep.darwin-cpu.sum"

# pmlogconf: each darwin group is offered and, where the fixture's Mac has
# the metrics, switched on; processes are "available" (on request).
"$PCP_BINADM_DIR/pmlogconf" -r -c -q -d "$config/pmlogconf" $host "$work/pmlogger.config" > "$work/pmlogconf.out" 2>&1
groups=$(ls "$config/pmlogconf/darwin" | wc -l)
check "pmlogconf offers all $groups darwin groups" sh -c \
    "[ \$(grep -c '^#+ darwin/' '$work/pmlogger.config') -eq $groups ]"
check "pmlogconf switches on every group but processes, which is available on request" sh -c \
    "[ \$(grep -c '^#+ darwin/.*:y:' '$work/pmlogger.config') -eq $((groups - 1)) ] &&
     grep -q '^#+ darwin/processes:n:' '$work/pmlogger.config'"

# pcp dstat with its default plugins (-cdngy), from a configuration
# directory laid out as Install leaves it: the macOS plugin files in place of
# PCP's, and no "sys" (interrupts and context switches, which macOS lacks).
mkdir -p "$work/sysconf"
cp -r "$pcp_sysconf_dir/dstat" "$work/sysconf/"
cp "$config"/dstat/* "$work/sysconf/dstat/"
rm -f "$work/sysconf/dstat/sys"
# dstat_rows HEADER FILE: the header is there, then 3 rows with a value under
# each of its columns and no more (a time column first, which PCP 7's
# pcp-dstat adds by default, aside), and no error.
dstat_rows() {
    awk -v header="$1" 'function fields(s, f) { gsub(/\|/, " ", s); return split(s, f, " ") }
        BEGIN { ncolumns = fields(header, h) }
        index($0, header) { seen = 1; next }
        seen && /\|/ { row = $0; sub(/^[0-9:]+\|/, "", row)
                       if (fields(row, f) == ncolumns && f[1] ~ /^[0-9]+$/) rows++ }
        /Invalid metric|Traceback|Unknown/ { bad = 1 }
        END { exit !(seen && rows >= 3 && !bad) }' "$2"
}
PCP_SYSCONF_DIR=$work/sysconf pcp $host dstat --nocolor 1 3 > "$work/dstat" 2>&1
check "pcp dstat (default plugins): CPU, disk, network and paging rows" \
    dstat_rows "usr sys idl| read  writ| recv  send|  in   out" "$work/dstat"
PCP_SYSCONF_DIR=$work/sysconf pcp $host dstat --nocolor -cmsn 1 3 > "$work/dstat.cmsn" 2>&1
check "pcp dstat -cmsn: memory as macOS counts it (used, free, cached, compressed) and swap" \
    dstat_rows "usr sys idl| used  free  cach  comp| used  free| recv  send" "$work/dstat.cmsn"

# pmie: every darwin rule, set up by pmieconf as a user would (a 2-second
# delta, actions to stdout, no holdoff), over two scenarios of the fixture:
# calm, where none may fire, and stressed, where each must. A rule's action
# echoes its summary, which names it.
mkdir -p "$work/pmieconf"
cp -r "$pcp_var_dir/config/pmieconf/global" "$config/pmieconf/darwin" "$work/pmieconf/"
pmie_config=$work/pmie.config
for setting in "global delta '2 sec'" "global syslog_action no" "global user_action yes" \
               "global holdoff 0" "darwin.footprint_growing delta '1 sec'"; do
    eval pmieconf -r "$work/pmieconf" -f "$pmie_config" modify "$setting" >> "$work/pmieconf.out" 2>&1
done
# rule name and the summary its action echoes, from the generated config
awk '/^\/\/ 1 darwin\./ { rule = $3 }
     rule && /-> shell/ { sub(/.*"echo /, ""); sub(/".*/, ""); print rule "\t" $0; rule = "" }' \
    "$pmie_config" > "$work/pmie.rules"
nrules=$(ls "$config/pmieconf/darwin" | wc -l)
check "pmieconf enables all $nrules darwin rules" sh -c "[ \$(wc -l < '$work/pmie.rules') -eq $nrules ]"
python3 "$src/tests/scenarios/make-scenarios.py" "$src/tests/fixtures/apple-silicon.snapshot" "$work" > /dev/null
for scenario in calm stressed; do
    stop_pmcd
    start_pmcd "$work/pmcd.$scenario" "$module" "$work/$scenario.snapshot" "$pmdaproc" ||
        { not_ok "pmcd starts on the $scenario scenario"; continue; }
    # 24 s: the scenario's 20 s of samples and the footprint rule's 10 intervals
    timeout 24 pmie $host -c "$pmie_config" > "$work/pmie.$scenario" 2>&1
    while IFS=$'\t' read -r rule summary; do
        if grep -q -F "$summary" "$work/pmie.$scenario"; then fired=yes; else fired=no; fi
        if [ $scenario = calm ]; then
            check "pmie $rule stays quiet when calm" [ $fired = no ]
        else
            check "pmie $rule fires under stress" [ $fired = yes ]
        fi
    done < "$work/pmie.rules"
    check "pmie prints nothing but the rules' messages on the $scenario scenario" sh -c \
        "! grep -v '^macOS ' '$work/pmie.$scenario' | grep -q ."
    # Under stress the E cluster is hot too, but idle at its lowest clock,
    # then busy at its top clock: the throttling rule names the P cluster alone.
    if [ $scenario = stressed ]; then
        throttled=$(awk -F'\t' '$1 == "darwin.cluster_throttled" { print $2 }' "$work/pmie.rules")
        check "pmie darwin.cluster_throttled names the P cluster (PCPU), never the E cluster" sh -c \
            "grep -F '$throttled' '$work/pmie.stressed' | grep -q ' PCPU@' &&
             ! grep -F '$throttled' '$work/pmie.stressed' | grep -q ECPU"
    fi
done

# pmchart: pmlogger records what the views plot (12 s of a fixture at 1 s),
# then each view is rendered from that archive under Xvfb: every view from
# the Apple Silicon fixture but macOS.Cooling, which needs fans (the Intel
# fixture). Each image must have plotted data, not only axes, legends or an
# error box: an empty chart has about 150 saturated pixels, a view with data
# thousands. (The last 5 points: a rate chart whose window holds the
# archive's first sample, which has no rate, is not autoscaled by -o.)
{
    echo "log mandatory on 1 sec {"
    grep -h -o 'metric [a-z0-9_.]*' "$config"/pmchart/macOS.* | awk '{ print "    " $2 }' | sort -u
    echo "}"
} > "$work/pmlogger.views"
mkdir -p "$work/views.png"
for fixture in apple-silicon intel; do
    stop_pmcd
    start_pmcd "$work/pmcd.$fixture" "$module" "$src/tests/fixtures/$fixture.snapshot" "$pmdaproc" ||
        { not_ok "pmcd starts on the $fixture fixture"; continue; }
    pmlogger $host -c "$work/pmlogger.views" -t 1sec -T 12sec -l "$work/pmlogger.$fixture.log" \
        "$work/views.$fixture" > /dev/null 2>&1
    check "pmlogger records the views' metrics from the $fixture fixture" sh -c \
        "[ \$(pminfo -a '$work/views.$fixture' | wc -l) -ge \$(grep -c '^    ' '$work/pmlogger.views') ]"
done
for view in "$config"/pmchart/macOS.*; do
    name=$(basename "$view") fixture=apple-silicon
    [ "$name" = macOS.Cooling ] && fixture=intel
    timeout 60 xvfb-run -a -s "-screen 0 1280x1600x24" \
        pmchart -a "$work/views.$fixture" -t 1sec -O +11sec -v 5 -c "$view" -g 900x1100 \
        -o "$work/views.png/$name.png" > "$work/pmchart.$name.log" 2>&1
    plotted=$(python3 "$src/tests/integration/png-plotted.py" "$work/views.png/$name.png" 2>&1)
    check "pmchart renders $name from the $fixture fixture with plotted data ($plotted pixels)" \
        sh -c "[ '${plotted:-0}' -gt 2000 ] 2>/dev/null"
done

# PCP's own commands. What they read as a level is checked on one sample of
# the fixture, whose values then stay (sample 3: pid 2001, cc before, is ld
# now); what they turn into rates, over the whole fixture. The rates are the
# fixture's (tests/fixtures/model/machines.c): python3 75% user and 5%
# system of a core; disk0 220 reads and 140 writes a second of 24 and 32
# KiB, each taking 95 and 41 us.
stop_pmcd
one=$work/one-sample.snapshot
one_sample "$src/tests/fixtures/apple-silicon.snapshot" 3 > "$one"
start_pmcd "$work/pmcd.one" "$module" "$one" "$pmdaproc" || not_ok "pmcd starts on one sample of the fixture"
kb() { echo $(( $(snapshot_value "$one" "$1") * ${2:-1} / 1024 )); }       # kb KEY [PAGE]: the sample's value in KiB
page=$(snapshot_value "$one" host.page_size)
total=$(kb host.memsize) free=$(kb vm.free_count "$page") cache=$(kb vm.external_page_count "$page")
available=$(pminfo $host -f mem.util.available | sed -n 's/^ *value //p')
pcp $host free > "$work/free" 2>&1
pcp $host free -l > "$work/free.l" 2>&1
check "pcp free: total $total, used, free $free, shared none, buff/cache the file cache $cache, available" \
    grep -q -E "^Mem: +$total +$((total - free - cache)) +$free +0 +$cache +${available:-none}\$" "$work/free"
check "pcp free: swap of the sample" \
    grep -q -E "^Swap +$(kb swap.total) +$(kb swap.used) +$(kb swap.avail)\$" "$work/free"
check "pcp free -l: a 64-bit kernel has no high memory" grep -q -E '^High: +0 +0 +0$' "$work/free.l"

TZ=UTC pcp $host ps -e > "$work/ps" 2>&1
TZ=UTC pcp $host ps -u > "$work/ps.u" 2>&1
pids=$(grep -o '^proc\[[0-9]*\]\.comm' "$one" | grep -o '[0-9][0-9]*' | sort -n | tr '\n' ' ')
check "pcp ps -e lists the sample's processes ($pids), no more, and ends cleanly" sh -c \
    "[ \"\$(awk '\$2 ~ /^[0-9]+\$/ { print \$2 }' '$work/ps' | sort -n | tr '\\n' ' ')\" = '$pids' ] &&
     ! grep -q Traceback '$work/ps'"
check "pcp ps -e: pid 2001 is the process that has it now, ld" grep -q -E '^[0-9:]+[[:space:]]+2001[[:space:]].*[[:space:]]ld -o main' "$work/ps"
# python3 (pid 731): its memory, terminal, state, start and CPU time as the sample has them; TIME is
# what pcp ps prints, user + system seconds as a time of day (it wraps at a day)
secs=$(awk '
    $1 == "timebase.numer" { n = $2 } $1 == "timebase.denom" { d = $2 }
    $1 == "proc[731].task.total_user" || $1 == "proc[731].task.total_system" { t += $2 }
    END { printf "%d", t * n / d / 1e9 }' "$one")
cpu_time=$(TZ=UTC date -u -d "@$((secs % 86400))" +%H:%M:%S)
started=$(TZ=UTC date -u -d "@$(snapshot_value "$one" 'proc[731].start' | cut -d. -f1)" '+%b%d %H:%M')
check "pcp ps -u: python3's VSZ, RSS, terminal, state, CPU time $cpu_time and start $started" awk -v FS='\t' \
    -v want="$(kb 'proc[731].task.virtual_size') $(kb 'proc[731].task.resident_size') ttys000 R $cpu_time $started" '
    $2 ~ /^731 *$/ { line = $5 " " $6 " " $7 " " $8 " " $9 " " $10; found = line == want && $11 ~ /^python3 / }
    END { exit !found }' "$work/ps.u"
stop_pmcd

start_pmcd "$work/pmcd.rates" "$module" "$src/tests/fixtures/apple-silicon.snapshot" "$pmdaproc" ||
    not_ok "pmcd starts on the fixture"
pcp $host pidstat -t 1 -s 3 > "$work/pidstat" 2>&1
check "pcp pidstat: python3 at 75% user and 5% system of a core, no guest time, no CPU macOS would name" awk '
    /[[:space:]]python3 train.py/ { rows++; if ($4 >= 74.2 && $4 <= 75.8 && $5 >= 4.9 && $5 <= 5.1 && $6 == "0.0" &&
                                      $7 >= 79.2 && $7 <= 80.8 && $8 == "?") good++ }
    END { exit !(rows >= 2 && good == rows) }' "$work/pidstat"
# A CPU's ticks are whole (kernel.all.hz a second) and the replay floors each
# counter between samples, so a row's four states may sum up to 3 ticks off
# over the interval, and the mean of 8 CPUs' user time 1 tick off the total's
# (the quantum q below, in %); on top of that, the 1% of sampling jitter.
interval=2
hz=$(pminfo $host -f kernel.all.hz | sed -n 's/^ *value //p')
pcp $host mpstat -P ALL -t $interval -s 2 > "$work/mpstat" 2>&1
check "pcp mpstat -P ALL: all and 8 numbered CPUs, each adding up to 100%, with no I/O wait, interrupt or steal time macOS does not count" awk -v q="$(awk -v hz="${hz:-0}" -v t=$interval 'BEGIN { print (hz > 0 ? 100 / (hz * t) : -1) }')" '
    function near(v, want, tol) { return v - want <= tol && want - v <= tol }
    $2 ~ /^(all|[0-7])$/ { rows++; cpus[$2] = 1; sum = $3 + $4 + $5 + $12
                           if (near(sum, 100, ($2 == "all" ? 3 * q / 8 : 3 * q) + 1.05) && $6 == "?" && $7 == "?" &&
                               $8 == "?" && $9 == "?" && $10 == "0.0" && $11 == "0.0") good++
                           if ($2 == "all") all = $3; else { each += $3; n++ } }
    END { k = 0; for (c in cpus) k++; mean = each / n
          exit !(q > 0 && k == 9 && good == rows && near(all, mean, q + q / 8 + 0.01)) }' "$work/mpstat" ||
    sed 's/^/# /' "$work/mpstat"
pcp $host iostat -x t -t 1 -s 3 > "$work/iostat" 2>&1
check "pcp iostat -x: disk0 220 reads and 140 writes a second, 5280 and 4480 KiB, 0.095 and 0.041 ms each, busy 2.7%, nothing merged" awk '
    $6 == "disk0" { rows++; if ($7 == "0.00" && $8 == "0.00" && $9 >= 217.8 && $9 <= 222.2 && $10 >= 138.6 &&
                                $10 <= 141.4 && $11 >= 5227 && $11 <= 5333 && $12 >= 4435 && $12 <= 4525 &&
                                ($16 == "0.09" || $16 == "0.10") && $17 == "0.04" && $18 >= 2.5 && $18 <= 2.8) good++ }
    END { exit !(rows >= 2 && good == rows) }' "$work/iostat"
timeout 30 pcp $host atop 1 3 > "$work/atop" 2>&1
check "pcp atop: three screens with the memory, disk0 and python3" sh -c \
    "[ \$(grep -c '^ATOP' '$work/atop') -eq 3 ] && grep -q 'MEM | tot    16.0G' '$work/atop' &&
     grep -q 'DSK |        disk0' '$work/atop' && grep -q ' 731 .*python3' '$work/atop'"

finish
