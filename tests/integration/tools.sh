#!/bin/bash
# What PCP users run on top of the agents, each with the real tool against a
# private pmcd: the pmrep reports, the pmlogconf groups, pcp-dstat with the
# macOS plugins, pmstat's columns, the pmie rules on a calm and a stressed
# scenario, and the pmchart views rendered from a pmlogger archive.
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
# and 675 MB; 4.2 W on the CPU, battery at 72%. Rates are checked within
# the 1% that sampling jitter gives (a full run saw 79.9 for 80.0 and 4.18
# for 4.20). The fixture's CPU load
# differs from one recorded interval to the next, so the CPU report is
# checked for each level's user, sys and idle adding up to 100% instead.
declare -A last_row=(
    [darwin-macstat]=' 10100 +98[34] +5072 +Normal +51[23] '
    [darwin-cpu]='^[0-9:]+( +[0-9]+\.[0-9]){6}$'
    [darwin-disk]=' 2[12][0-9] +1[34][0-9] +52[78][0-9] +44[78][0-9] '
    [darwin-top-cpu]=' (17\.9|18\.[01]) +1\.[456] +(79\.[2-9]|80\.[0-8]) +(5\.9|6\.[01]) +(4\.9|5\.[01])$'
    [darwin-top-memory]=' 240 +105 +675 +158 '
    [darwin-power]=' 4\.(1[6-9]|2[0-4]) +1\.(4[89]|5[0-2]) +0\.00 +0\.3[4-6] +72 +-9\.73 +Battery Power '
)
reports=$(sed -n 's/^\[\(darwin-[a-z-]*\)\]$/\1/p' "$config/pmrep/darwin.conf")
check "pmrep config has the ${#last_row[@]} reports this test knows" sh -c "[ $(echo "$reports" | wc -l) -eq ${#last_row[@]} ]"
for report in $reports; do
    pmrep $host -c "$config/pmrep/darwin.conf" -t 1 -s 3 ":$report" > "$work/pmrep.$report" 2>&1
    check "pmrep :$report prints the fixture's values" sh -c "awk '
        /^[0-9][0-9]:[0-9][0-9]:[0-9][0-9] / { rows++; if (rows > 1 && NF > 1 && !/N\\/A/) good++ }
        END { exit !(rows == 3 && good == 2) }' '$work/pmrep.$report' &&
        tail -1 '$work/pmrep.$report' | grep -q -E -- '${last_row[$report]:-no expectation}'"
done
check "pmrep :darwin-cpu: user, sys and idle of each level add up to 100%" awk '
    END { p = $2 + $4 + $6; e = $3 + $5 + $7; exit !(p > 99.5 && p < 100.5 && e > 99.5 && e < 100.5 && $2 > 0) }' \
    "$work/pmrep.darwin-cpu"

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
dstat_rows() { # dstat_rows HEADER FILE: the header is there, with 3 rows of values and no error
    awk -v header="$1" 'index($0, header) { seen = 1; next }
        seen && /\|/ && $1 ~ /^[0-9]+$/ { rows++ }
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

finish
