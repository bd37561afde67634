#!/bin/bash
# The proc agent (pmdaproc, domain 3) under a real pmcd beside the system
# agent, over the Apple Silicon fixture: what PCP's clients see, the access
# policy for clients with and without credentials, threads on request, and
# pcp-htop and pcp ps drawing the fixture's processes.
#
# usage: proc.sh MODULE PMDAPROC SOURCE_DIR WORK_DIR   (as root: the access
# checks connect as other users over pmcd's unix socket)
set -u
module=$(realpath "$1") pmdaproc=$(realpath "$2") src=$(realpath "$3") work=$4
. "$src/tests/integration/lib.sh"
rm -rf "$work"; mkdir -p "$work"
# other users must reach the unix socket: a directory of its own under /tmp
sockdir=$(mktemp -d /tmp/pmda-proc-XXXXXX)
chmod 755 "$sockdir"
pmcd_socket=$sockdir/pmcd.socket
trap 'stop_pmcd; rm -rf "$sockdir"' EXIT

if [ "$(id -u)" -ne 0 ]; then
    echo "FAIL: the access checks connect as other users; run the suite as root"
    echo "0 passed, 1 failed"
    exit 1
fi

start_pmcd "$work/pmcd" "$module" "$src/tests/fixtures/apple-silicon.snapshot" "$pmdaproc" ||
    { not_ok "pmcd starts with both agents"; finish; exit 1; }
host="-h 127.0.0.1"
as_user() { # as_user UID CMD...: run a PCP client as that user, authenticated over the unix socket
    uid=$1; shift
    setpriv --reuid="$uid" --regid=20 --clear-groups env HOME=/tmp "$@"
}
local_host="-h unix:$pmcd_socket"

names=$(pminfo -n "$src/pmns/proc/root" | grep '^proc\.' | sort)
upstream=$(awk -F'\t' '!/^#/ && NR > 1 && $1 != "name" { print $1 }' "$src/tests/upstream/proc-compat.tsv" | sort)
echo "$upstream" > "$work/upstream.names"; echo "$names" > "$work/names"
check "all 65 upstream darwin_proc names are in the PMNS" sh -c "[ \$(wc -l < '$work/upstream.names') -eq 65 ] &&
    [ -z \"\$(comm -23 '$work/upstream.names' '$work/names')\" ]"
pminfo $host -m $upstream > "$work/pmids" 2>&1
awk -F'\t' '!/^#/ && $1 != "name" { printf "%s PMID: %s\n", $1, $2 }' "$src/tests/upstream/proc-compat.tsv" | sort > "$work/pmids.expected"
check "pmcd reports upstream's PMIDs for them" cmp -s <(sort "$work/pmids") "$work/pmids.expected"

# pminfo -fdlT proc: every metric described and explained; values where the policy
# lets a client without credentials have them.
pminfo $host -fdlT proc > "$work/fdlT" 2>&1
awk 'BEGIN{RS=""; FS="\n"} {gsub(/\n/, " | "); print}' "$work/fdlT" > "$work/blocks"   # one line per metric
nnames=$(echo "$names" | wc -l)
check "pminfo -fdlT proc: every metric has a descriptor and help" sh -c \
    "[ \$(grep 'Data Type:' '$work/blocks' | grep -c 'Help:') -eq $nnames ]"
owner_only='^proc\.(psinfo\.cwd|fd\.count|net\.)'
threads_only='^proc\.psinfo\.(tid|thread_name) '
no_source='^proc\.runq\.(swapped|kernel) '
grep -v -E "$owner_only|$threads_only|$no_source" "$work/blocks" | grep -v -c ' value ' > "$work/novalue.count"
check "without credentials every public metric has values" grep -q '^0$' "$work/novalue.count"
check "without credentials owner-only metrics are refused, not zero" sh -c \
    "[ \$(grep -E '^proc\.(psinfo\.cwd|fd\.count|net\.tcp_count|net\.udp_count) ' '$work/blocks' | grep -c 'No permission') -eq 4 ]"
check "swapped and kernel run queues: not supported on macOS, not zero" sh -c \
    "[ \$(grep -E '^proc\.runq\.(swapped|kernel) ' '$work/blocks' | grep -c 'not supported') -eq 2 ]"
check "instances are 'PID comm', the pid and start time key, with a pid label" sh -c \
    "grep -q 'inst \[731 or \"000731 python3.12\"\]' '$work/fdlT' && grep -q '\"pid\":731' '$work/fdlT'"
pminfo $host -f proc.psinfo.translated proc.id.uid proc.id.euid proc.psinfo.psargs > "$work/ids" 2>&1
check "translated is 1 for the Rosetta process, 0 for the others" sh -c \
    "grep -A20 '^proc.psinfo.translated' '$work/ids' | grep -q '\"000812 Rosetta App\"\] value 1\$' &&
     [ \$(grep -A20 '^proc.psinfo.translated' '$work/ids' | grep -c 'value 1\$') -eq 1 ]"
check "arguments as ps shows them, never the environment" sh -c \
    "grep -q '\"python3 train.py --epochs 10\"' '$work/ids' && ! grep -q HOME= '$work/ids'"

# pmrep: CPU of the top processes, from the counters (python3: 0.75 + 0.05 of a core)
# (pmrep shows the rate in ms/s: 750 ms/s is 75% of a core; WindowServer does 10%).
# 1%: pmrep's interval and the replay clock's differ by milliseconds on a loaded machine
# (0.4% seen); a timebase not applied would be about 42 times off (125/3).
pmrep $host -p -t 1 -s 3 -J 2 -w 12 proc.psinfo.utime > "$work/pmrep.top" 2>&1
check "pmrep ranks the two busiest: python3 at 75% of a core, WindowServer at 10%" awk '
    /^[0-9:]+ / { rows++; n = 0; for (i = 2; i <= NF; i++) if ($i != "N/A") { n++; v[n] = $i }
                  if (n == 2 && v[1] > 99 && v[1] < 101 && v[2] > 742.5 && v[2] < 757.5) good++ }
    END { exit !(rows >= 2 && good == rows - 1) }' "$work/pmrep.top"
pmval $host -t 1 -s 2 -i 000731 proc.memory.rss > "$work/pmval.rss" 2>&1
check "pmval: python3's RSS is 900 MiB (921600 KiB)" sh -c "[ \$(awk '\$1 == 921600' '$work/pmval.rss' | wc -l) -eq 2 ]"
pmval $host -t 1 -s 3 -i 000731 proc.psinfo.utime > "$work/pmval.utime" 2>&1
check "pmval: python3's utime rate is 0.75 s/s (the timebase applied)" sh -c \
    "[ \$(awk '\$1 ~ /^0\.7[45]/' '$work/pmval.utime' | wc -l) -ge 2 ]"

# Access: each side, with credentials from pmcd's unix socket.
as_user 501 pminfo $local_host -f proc.psinfo.cwd proc.net.tcp_count > "$work/alice" 2>&1
check "alice sees her own processes' working directory and sockets" sh -c \
    "grep -q '\"000731 python3.12\"\] value \"/Users/alice/src\"' '$work/alice' &&
     grep -q '\"000731 python3.12\"\] value 4' '$work/alice'"
check "alice does not see bob's: his backupd has no working directory for her" sh -c \
    "! grep -q 'backupd' '$work/alice' && ! grep -q '/Users/bob' '$work/alice'"
as_user 502 pminfo $local_host -f proc.psinfo.cwd > "$work/bob" 2>&1
check "bob, who does not own python3, sees only his own working directory" sh -c \
    "grep -q '\"001001 backupd\"\] value \"/Users/bob\"' '$work/bob' && ! grep -q '/Users/alice' '$work/bob'"
as_user 502 pminfo $local_host -f proc.psinfo.utime > "$work/bob.public" 2>&1
check "bob still sees everyone's CPU time, as ps shows it" grep -q '"000731 python3.12"\] value' "$work/bob.public"
pminfo $local_host -f proc.psinfo.cwd > "$work/root" 2>&1
check "root sees every working directory" sh -c "grep -q '/Users/alice/src' '$work/root' && grep -q '/Users/bob' '$work/root'"

# Threads: the global switch is root's; once on, threads are instances.
pmstore $host proc.control.all.threads 1 > "$work/store.anon" 2>&1
check "a client without credentials may not turn threads on for everyone" grep -q -i 'permission' "$work/store.anon"
pmstore $local_host proc.control.all.threads 1 > "$work/store.root" 2>&1
pminfo $host -f proc.psinfo.thread_name proc.nprocs proc.psinfo.pid > "$work/threads" 2>&1
in_pid() { awk -v pat="$1" '/^proc.psinfo.pid$/ {on = 1; next} /^$/ {on = 0} on && $0 ~ pat {n++} END {print n + 0}' "$work/threads"; }
nprocs=$(awk '/^proc.nprocs$/ {getline; print $2}' "$work/threads")
check "with threads on, named threads are instances 'PID.TID comm'; nprocs still counts processes" sh -c \
    "grep -q '\"000731.50202 python3.12\"\] value \"Thread-1\"' '$work/threads' &&
     [ $(in_pid '"000731[.][0-9]+ ') -eq 3 ] && [ $(in_pid 'inst [[][0-9]+ or "[0-9]+ ') -eq '$nprocs' ]"
pmstore $local_host proc.control.all.threads 0 > /dev/null 2>&1

# pcp-htop: the fixture's processes, drawn by PCP's own tool (pcp ps and the
# other commands: integration.tools), and the columns and meters of
# config/htop.
if command -v tmux >/dev/null; then
    tmux kill-session -t pmda-proc 2>/dev/null
    tmux new-session -d -s pmda-proc -x 200 -y 50 \
        "TERM=xterm PCP_DERIVED_CONFIG= PMCD_PORT=$PMCD_PORT /usr/lib/pcp/bin/pcp-htop --host=127.0.0.1 2> '$work/htop.err'"
    # The screen once pcp-htop has drawn its meters and its process list.
    htop_drawn() {
        tmux capture-pane -p -t pmda-proc > "$work/htop.screen" 2>&1 &&
            grep -q 'Tasks: ' "$work/htop.screen" && grep -q -E '^ *731 ' "$work/htop.screen"
    }
    wait_for 60 htop_drawn
    tmux kill-session -t pmda-proc 2>/dev/null
    check "pcp-htop draws the fixture's processes with their users and commands" sh -c \
        "grep -q -E '^ *731 alice .*python3 train.py --epochs 10' '$work/htop.screen' &&
         grep -q -E '^ *1001 bob .*/usr/local/bin/backupd --nightly' '$work/htop.screen' &&
         grep -q 'Tasks: 8,' '$work/htop.screen'"
    # Used memory: from PCP 7.2 on, pcp-htop counts it as htop on a Mac does,
    # wired + speculative + active less purgeable and file-backed
    # (mem.util.external) + compressed + inactive: 9.86G, Activity Monitor's
    # Memory Used (mem.util.memory_used), where it read 14.8G without
    # mem.util.external; before, as on Linux, total - free - cached
    # (mem.util.cached: the file cache) = 9.77G, where it read 14.7G without
    # mem.util.cached. Swap from vm.swapusage, where it read 0K/0K.
    used=9.77G
    pcp_at_least 7.2 && used=9.86G
    check "pcp-htop's memory bar reads $used of 16.0G used and its swap bar 512M of 2.00G" sh -c \
        "grep 'Mem\\[' '$work/htop.screen' | grep -q -F '$used/16.0G]' &&
         grep -q -E 'Swp\\[.*51[0-9]M/2\\.00G\\]' '$work/htop.screen'"
    # The columns and meters of config/htop, laid out as Install leaves them
    # in PCP's configuration directory, on a screen of their own (an htoprc
    # named by HTOPRC: PCP 6's pcp-htop looks for it in ~/.config/htop,
    # PCP 7's in ~/.pcp/htop; and a home of its own, where pcp-htop writes
    # its settings back): each process's GPU share, power and P-core share,
    # and the SoC's power and the GPU's clock and busy share, as the
    # fixture's counters give them (tests/integration/expected_rates.py),
    # and each CPU cluster's clock.
    mkdir -p "$work/sysconf" "$work/htop-home"
    cp -r "$src/config/htop" "$work/sysconf/"
    printf '%s\n' config_reader_min_version=3 hide_userland_threads=1 header_layout=two_50_50 \
        'column_meters_0=LeftCPUs Memory Dynamic(darwin_clusters) Dynamic(darwin_gpu)' \
        'column_meter_modes_0=1 1 2 2' \
        'column_meters_1=RightCPUs Tasks Dynamic(darwin_power)' 'column_meter_modes_1=1 2 2' \
        'screen:Main=PID USER PERCENT_CPU Dynamic(darwin_gpu) Dynamic(darwin_milliwatts) Dynamic(darwin_pcore) Command' \
        .sort_key=PID > "$work/htoprc"
    tmux new-session -d -s pmda-proc -x 200 -y 50 \
        "HTOPRC='$work/htoprc' HOME='$work/htop-home' PCP_SYSCONF_DIR='$work/sysconf' TERM=xterm PCP_DERIVED_CONFIG= PMCD_PORT=$PMCD_PORT \
         /usr/lib/pcp/bin/pcp-htop --host=127.0.0.1 2> '$work/htop-darwin.err'"
    expected() { python3 "$src/tests/integration/expected_rates.py" "$src/tests/fixtures/apple-silicon.snapshot" "$1"; }
    expected table > "$work/expected.table"
    expected soc > "$work/expected.soc"
    # within 1% and pcp-htop's rounding to hundredths
    near='function near(v, want) { return v - want <= want / 100 + 0.005 && want - v <= want / 100 + 0.005 }'
    columns_right() {
        awk "$near"'
            FILENAME ~ /table$/ { split($1, id, " "); pid = id[1] + 0; gpu[pid] = $3; watts[pid] = $4; pcore[pid] = $5; next }
            $1 in gpu { rows++; if (near($4, gpu[$1]) && near($5 / 1000, watts[$1]) && near($6, pcore[$1])) good++ }
            END { exit !(rows == length(gpu) && good == rows) }' FS='\t' "$work/expected.table" FS=' ' "$work/htop-darwin.screen"
    }
    meters_right() {
        awk "$near"'
            FILENAME ~ /soc$/ { want[$1] = $2; next }
            /SoC power:/ { for (i = 1; i < NF; i++) { v = $(i + 1); sub(/W$/, "", v); shown[$i] = v } }
            /GPU: mhz: [0-9.]+MHz busy:/ { for (i = 1; i < NF; i++) if ($i == "busy:") { v = $(i + 1); sub(/%$/, "", v); busy = v } }
            END { exit !(near(shown["cpu:"], want["CPU Energy"]) && near(shown["gpu:"], want["GPU Energy"]) &&
                         near(shown["ane:"], want["ANE"]) && near(shown["dram:"], want["DRAM"]) &&
                         shown["mac:"] ~ /^[0-9.]+$/ && busy != "" && near(busy, want["GPU busy"])) }' \
            FS='\t' "$work/expected.soc" FS=' ' "$work/htop-darwin.screen"
    }
    # The first screens have the rates of pcp-htop's first, shorter
    # intervals: the screen once they settle.
    settled() { tmux capture-pane -p -t pmda-proc > "$work/htop-darwin.screen" 2>&1 && columns_right && meters_right; }
    wait_for 60 settled
    tmux kill-session -t pmda-proc 2>/dev/null
    check "pcp-htop's darwin columns: each process's GPU %, watts and P-core % as the fixture's counters give them" \
        columns_right
    check "pcp-htop's darwin meters: the SoC's power by channel and the GPU's busy share, as the fixture's counters give them" \
        meters_right
    # one item a cluster of the fixture, labelled as its name less "CPU"
    clusters=$(sed -n 's/^ioreg\[IOReport:cpu-clusters#[^]]*\]\.name \(.*\)CPU\(.*\)$/\1\2/p' \
        "$src/tests/fixtures/apple-silicon.snapshot" | sort -u)
    check "pcp-htop's darwin clusters meter draws a clock for each cluster of the fixture ($(echo $clusters))" awk -v want="$clusters" '
        /Clusters:/ { for (i = 1; i < NF; i++) if ($(i + 1) ~ /^[0-9]+\.[0-9]+MHz$/) { sub(/:$/, "", $i); shown[$i] = 1; n++ } }
        END { k = split(want, c, "\n"); for (j = 1; j <= k; j++) if (!(c[j] in shown)) exit 1; exit !(n == k) }' \
        "$work/htop-darwin.screen"
    check "pcp-htop's darwin columns compute what derived metrics of config/derived/darwin.conf do, to the letter" awk '
        FILENAME ~ /derived/ && / = / && $1 !~ /\(/ { sub(/^[^=]*= /, ""); derived[$0] = 1; next }
        FILENAME ~ /columns/ && $1 == "metric" { columns++; sub(/^metric = /, ""); if ($0 in derived) same++ }
        END { exit !(columns > 0 && same == columns) }' "$src/config/derived/darwin.conf" "$src/config/htop/columns/darwin"
else
    not_ok "pcp-htop needs tmux (scripts/deps.sh installs it)"
fi
check "pmcd is still healthy" sh -c "pminfo $host -f proc.nprocs hinv.ncpu | grep -c value | grep -q 2"

# A snapshot of 10,000 processes (100,000 threads, 39 MB): pmdaproc answers
# pmcd's first exchange before it loads the snapshot, so pmcd keeps it (it
# gives an agent 3 s), and says in its log when it has loaded. A request
# before then waits on the load, 2 s alone but over pmcd's 5 s for a
# request on a busy machine, where pmcd would drop the agent: the first
# request waits for that line, and gets every process.
stop_pmcd
python3 "$src/bench/gen-procs.py" 10000 10 > "$work/10k.snapshot"
start_pmcd "$work/pmcd-10k" "$module" "$work/10k.snapshot" "$pmdaproc" ||
    not_ok "pmcd starts with both agents over a 10,000-process snapshot"
wait_for 120 grep -q 'proc: replaying .*10k.snapshot' "$work/pmcd-10k/proc.log" ||
    not_ok "pmdaproc loads the 10,000-process snapshot"
pminfo $host -f proc.nprocs > "$work/10k.nprocs" 2>&1
check "over a 10,000-process snapshot pmdaproc stays connected and counts them all" sh -c \
    "grep -q 'value 10000' '$work/10k.nprocs' && ! grep -q -i 'timeout\|not ready\|No PMCD agent' '$work/pmcd-10k/pmcd.log'"
finish
