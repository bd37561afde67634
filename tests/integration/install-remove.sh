#!/bin/bash
# Install and Remove against a real pmcd managed the way PCP manages it (rc
# script, pmcd.conf, the system PMNS), inside private mount, PID and network
# namespaces so that the machine's own PCP setup is never touched. The
# sandbox starts with an existing "darwin" agent on domain 78, as a Mac with
# upstream PCP has, and checks that Install replaces it and says so, that the
# metrics are served, and that Remove leaves pmcd healthy.
#
# usage: install-remove.sh MODULE SOURCE_DIR WORK_DIR   (needs root and unshare)
# With PMDA_DARWIN_STAGE set, the agents' files come from that tree (laid out
# as "cmake --install" stages them under DESTDIR) instead of cmake --install.
set -u
module=$(realpath "$1") src=$(realpath "$2") work=$3

if [ -z "${PMDA_DARWIN_IN_SANDBOX:-}" ]; then
    if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null; then
        echo "FAIL: this test needs root and unshare(1) to sandbox pmcd; run the suite as root"
        echo "0 passed, 1 failed"
        exit 1
    fi
    rm -rf "$work"; mkdir -p "$work"
    if [ -n "${PMDA_DARWIN_STAGE:-}" ]; then
        # A tree staged already (tests/release/check-archive.sh: the release archive's).
        cp -a "$PMDA_DARWIN_STAGE" "$work/stage"
    else
        # Stage the files "cmake --install" would install, into the work dir.
        build=$(dirname "$module")
        DESTDIR="$work/stage" cmake --install "$build" >"$work/cmake-install.log" 2>&1 ||
            { cat "$work/cmake-install.log"; echo "0 passed, 1 failed"; exit 1; }
    fi
    export PMDA_DARWIN_IN_SANDBOX=1
    exec unshare --mount --pid --net --fork --mount-proc "$0" "$@"
fi

. /etc/pcp.conf
. "$src/tests/integration/lib.sh"      # after pcp.conf: it picks the python3 that has PCP's module
unset PMCD_PORT
mount --make-rprivate /
ip link set lo up

# Private copies of everything Install and pmcd write.
for d in "$PCP_SYSCONF_DIR" "$PCP_VAR_DIR"; do
    mkdir -p "$work/private$d"; cp -a "$d/." "$work/private$d/"; mount --bind "$work/private$d" "$d"
done
for d in "$PCP_LOG_DIR" "$PCP_RUN_DIR"; do
    mkdir -p "$d"; mount -t tmpfs tmpfs "$d"; chmod 775 "$d"; chown "$PCP_USER:$PCP_GROUP" "$d" 2>/dev/null
    mkdir -p "$d/pmcd"; chown "$PCP_USER:$PCP_GROUP" "$d/pmcd" 2>/dev/null
done

# The "upstream" darwin agent already configured: a copy of a darwin DSO at
# another path, with its names in the PMNS. Only pmcd's own PMDA besides it.
mkdir -p "$PCP_PMDAS_DIR/darwin-upstream"
cp "$module" "$PCP_PMDAS_DIR/darwin-upstream/"
printf 'pmcd\t2\tdso\tpmcd_init\t%s\ndarwin\t78\tdso\tdarwin_init\t%s\n' \
    "$PCP_PMDAS_DIR/pmcd/pmda_pmcd.so" "$PCP_PMDAS_DIR/darwin-upstream/$(basename "$module")" > "$PCP_PMCDCONF_PATH"
find "$PCP_VAR_DIR/pmns" -name 'root_*' ! -name root_pmcd -delete
{ echo "#define DARWIN 78"; sed -n '/^root {/,/^}/p' "$src/pmns/root"; cat "$src/pmns/pmns"; } \
    > "$PCP_VAR_DIR/pmns/root_darwin"
(cd "$PCP_VAR_DIR/pmns" && ./Rebuild -s >/dev/null 2>&1)
rm -rf "$PCP_PMDAS_DIR/darwin"
cp -a "$work/stage$PCP_PMDAS_DIR/darwin" "$PCP_PMDAS_DIR/darwin"
# pmcd loads the agent as root when it starts but as $PCP_USER after Install's
# reload, so the snapshot must be readable by that user wherever the clone
# lives (a clone under /root, mode 0700, is not): give pmcd a copy in a
# directory of its own. A second copy sits where $PCP_USER cannot read it.
readable=$PCP_VAR_DIR/darwin-test-snapshots
unreadable=$PCP_VAR_DIR/darwin-test-private
mkdir -p "$readable" "$unreadable"
cp "$src/tests/fixtures/apple-silicon.snapshot" "$readable/"
cp "$src/tests/fixtures/apple-silicon.snapshot" "$unreadable/"
chmod 755 "$readable"; chmod 644 "$readable/apple-silicon.snapshot"
chmod 700 "$unreadable"; chown root "$unreadable"
export PMDA_DARWIN_SNAPSHOT=$readable/apple-silicon.snapshot

"$PCP_RC_DIR/pmcd" start >"$work/pmcd-start.log" 2>&1
check "the sandboxed pmcd serves the pre-existing darwin agent" pminfo -f hinv.ncpu

cp -a "$PCP_SYSCONF_DIR/dstat" "$work/dstat.before"
(cd "$PCP_PMDAS_DIR/darwin" && ./Install </dev/null) >"$work/install.log" 2>&1
cat "$work/install.log"
check "Install says it replaces the existing darwin agent" grep -q "Replacing the agent that pmcd.conf has for domain 78" "$work/install.log"
check "pmcd.conf has exactly one domain 78 entry, the installed module" \
    sh -c "[ \$(awk '\$2 == 78' '$PCP_PMCDCONF_PATH' | wc -l) -eq 1 ] &&
           grep -q '^darwin.*$PCP_PMDAS_DIR/darwin/pmda_darwin' '$PCP_PMCDCONF_PATH'"
# pmdaproc.sh warns once for each metric that reports an error: here the 19
# network metrics macOS withholds or lacks (TCP statistics, TIME_WAIT, RTO
# bounds), mem.compressor.major_compactions and the 3 Linux memory names pcp
# free reads, the 10 Linux CPU names (I/O wait, interrupt and steal time,
# interrupt counts, for all CPUs and each) that macOS does not count, the 9
# NFS server metrics (no server has run) and the CPU proximity and ambient
# temperatures (Apple Silicon has no such sensor).
nmetrics=$("$METRIC_NAMES" darwin | wc -l)
check "Install finds all $nmetrics metrics of the table, every one with a value but the 44 without a source here" \
    sh -c "awk -v n=$nmetrics '/metrics have appeared/ {
        m += \$(NF-4); if (match(\$0, /[0-9]+ warnings/)) w += substr(\$0, RSTART, RLENGTH - 9)
    } END {exit !(m == n && w == 44)}' '$work/install.log'"
pminfo -f kernel.all.cpu.user mem.util.compressed kernel.percpu.cpu.idle > "$work/values" 2>&1
check "the installed agent serves values" sh -c "[ \$(grep -c value '$work/values') -ge 10 ]"
check "the pmlogrewrite rule is in place" cmp -s "$src/pmlogrewrite/darwin.conf" "$PCP_VAR_DIR/config/pmlogrewrite/darwin.conf"
check "its help text reaches clients" sh -c "pminfo -t kernel.all.cpu.user | grep -q 'user mode'"

# What PCP's tools read, where they look for it by default.
nviews=$(ls "$src"/config/pmchart | wc -l)
check "the $nviews pmchart views are where pmchart finds them" sh -c \
    "[ \$(ls '$PCP_VAR_DIR'/config/pmchart/macOS.* | wc -l) -eq $nviews ] &&
     cmp -s '$src/config/pmchart/macOS.Overview' '$PCP_VAR_DIR/config/pmchart/macOS.Overview'"
pmieconf list darwin > "$work/pmieconf.list" 2>&1
check "pmieconf lists the $(ls "$src"/config/pmieconf/darwin | wc -l) darwin rules" sh -c \
    "[ \$(grep -c '^  rule: darwin\.' '$work/pmieconf.list') -eq $(ls "$src"/config/pmieconf/darwin | wc -l) ]"
"$PCP_BINADM_DIR/pmlogconf" -c -q "$work/pmlogger.config" > "$work/pmlogconf.out" 2>&1
check "pmlogconf offers the darwin groups" sh -c \
    "[ \$(grep -c '^#+ darwin/' '$work/pmlogger.config') -eq $(ls "$src"/config/pmlogconf/darwin | wc -l) ]"
check "the derived metrics are where PCP's clients find them when nothing else is named" sh -c \
    "cmp -s '$src/config/derived/darwin.conf' '$PCP_VAR_DIR/config/derived/darwin.conf' &&
     env -u PCP_DERIVED_CONFIG pminfo -d kernel.cpucluster.mhz | grep -q 'Units: count / microsec'"
pmrep -t 1 -s 2 :darwin-macstat > "$work/pmrep" 2>&1
check "pmrep :darwin-macstat works without -c" sh -c "tail -1 '$work/pmrep' | grep -q ' Normal '"
pcp dstat --nocolor 1 2 > "$work/dstat" 2>&1
check "pcp dstat's default report works, with PCP's Linux plugin files kept aside" sh -c \
    "grep -q 'usr sys idl' '$work/dstat' && ! grep -q -i -E 'invalid|traceback' '$work/dstat' &&
     cmp -s '$work/dstat.before/cpu' '$PCP_PMDAS_DIR/darwin/dstat.pcp/cpu' && [ ! -f '$PCP_SYSCONF_DIR/dstat/sys' ]"

(cd "$PCP_PMDAS_DIR/darwin" && ./Remove </dev/null) >"$work/remove.log" 2>&1
cat "$work/remove.log"
check "Remove takes the agent out of pmcd.conf" sh -c "! awk '\$2 == 78' '$PCP_PMCDCONF_PATH' | grep -q ."
check "Remove takes the names out of the PMNS" sh -c "! pminfo hinv.ncpu >/dev/null 2>&1"
check "pmcd is healthy after Remove" sh -c "pminfo -f pmcd.version | grep -q value && pminfo -f pmcd.agent.status | grep -q value"
tools_removed() {
    ! ls "$PCP_VAR_DIR"/config/pmchart/macOS.* >/dev/null 2>&1 && [ ! -e "$PCP_VAR_DIR/config/pmieconf/darwin" ] &&
        [ ! -e "$PCP_VAR_DIR/config/pmlogconf/darwin" ] && [ ! -e "$PCP_SYSCONF_DIR/pmrep/darwin.conf" ] &&
        [ ! -e "$PCP_VAR_DIR/config/derived/darwin.conf" ] &&
        diff -r "$work/dstat.before" "$PCP_SYSCONF_DIR/dstat" >/dev/null
}
check "Remove takes the views, rules, groups, reports and derived metrics away and puts PCP's dstat files back" tools_removed

# The proc agent: upstream's darwin_proc is configured on domain 3 (a copy of
# pmdaproc at another path stands in for it); Install replaces it.
mkdir -p "$PCP_PMDAS_DIR/proc-upstream"
cp "$work/stage$PCP_PMDAS_DIR/proc/pmdaproc" "$PCP_PMDAS_DIR/proc-upstream/"
printf 'proc\t3\tpipe\tbinary\t\t%s -d 3\n' "$PCP_PMDAS_DIR/proc-upstream/pmdaproc" >> "$PCP_PMCDCONF_PATH"
{ echo "#define PROC 3"; echo "root { proc }"; cat "$src/pmns/proc/pmns"; } > "$PCP_VAR_DIR/pmns/root_proc"
(cd "$PCP_VAR_DIR/pmns" && ./Rebuild -s >/dev/null 2>&1)
"$PCP_RC_DIR/pmcd" restart >"$work/pmcd-restart.log" 2>&1
check "the sandboxed pmcd serves the pre-existing proc agent" sh -c "pminfo -f proc.nprocs | grep -q value"
rm -rf "$PCP_PMDAS_DIR/proc" "$PCP_SYSCONF_DIR/proc/access.conf"
cp -a "$work/stage$PCP_PMDAS_DIR/proc" "$PCP_PMDAS_DIR/proc"
(cd "$PCP_PMDAS_DIR/proc" && ./Install </dev/null) >"$work/install-proc.log" 2>&1
cat "$work/install-proc.log"
check "proc Install says it replaces the existing domain 3 agent" grep -q "Replacing the agent that pmcd.conf has for domain 3" "$work/install-proc.log"
check "pmcd.conf has exactly one domain 3 entry, the installed pmdaproc" \
    sh -c "[ \$(awk '\$2 == 3' '$PCP_PMCDCONF_PATH' | wc -l) -eq 1 ] &&
           grep -q '^proc.*$PCP_PMDAS_DIR/proc/pmdaproc' '$PCP_PMCDCONF_PATH'"
# pminfo's default host here is pmcd's unix socket, which tells the agent the client is root
pminfo -f proc.nprocs proc.psinfo.utime proc.psinfo.cwd > "$work/proc-values" 2>&1
pminfo -h 127.0.0.1 -f proc.psinfo.cwd > "$work/proc-values.tcp" 2>&1
check "the installed proc agent serves processes; root sees every cwd, a TCP client without credentials none" sh -c \
    "grep -A1 '^proc.nprocs' '$work/proc-values' | grep -q 'value [89]\$' &&
     grep -q '\"000731 python3.12\"\] value' '$work/proc-values' && grep -q '/Users/bob' '$work/proc-values' &&
     grep -q -i permission '$work/proc-values.tcp' && ! grep -q '/Users' '$work/proc-values.tcp'"
check "the access policy and the proc pmlogrewrite rule are in place" sh -c \
    "cmp -s '$src/pmdaproc/access.conf' '$PCP_SYSCONF_DIR/proc/access.conf' &&
     cmp -s '$src/pmlogrewrite/proc.conf' '$PCP_VAR_DIR/config/pmlogrewrite/darwin_proc.conf'"
(cd "$PCP_PMDAS_DIR/proc" && ./Remove </dev/null) >"$work/remove-proc.log" 2>&1
cat "$work/remove-proc.log"
check "proc Remove takes the agent out of pmcd.conf and its names out of the PMNS" sh -c \
    "! awk '\$2 == 3' '$PCP_PMCDCONF_PATH' | grep -q . && ! pminfo proc.nprocs >/dev/null 2>&1"
check "pmcd is healthy after the proc Remove" sh -c "pminfo -f pmcd.version | grep -q value"

"$PCP_RC_DIR/pmcd" stop >/dev/null 2>&1

# The same Install with a snapshot that pmcd's user cannot read: the agent
# loads, its metrics have no values, and pmcd's log says why, once.
export PMDA_DARWIN_SNAPSHOT=$unreadable/apple-silicon.snapshot
"$PCP_RC_DIR/pmcd" start >"$work/pmcd-start2.log" 2>&1
(cd "$PCP_PMDAS_DIR/darwin" && ./Install </dev/null) >"$work/install2.log" 2>&1
log=$PCP_LOG_DIR/pmcd/pmcd.log
grep 'darwin' "$log" > "$work/unreadable-pmcd.log"
check "an unreadable snapshot: pmcd's log names the file, the reason and the agent's user, once" sh -c \
    "[ \$(grep -c '$PMDA_DARWIN_SNAPSHOT: cannot open snapshot: Permission denied (the agent runs as user $PCP_USER, uid' '$log') -eq 1 ]"
check "an unreadable snapshot: no values, and pmcd stays healthy" sh -c \
    "pminfo -f hinv.ncpu > '$work/unreadable.values' 2>&1; grep -q '^hinv.ncpu' '$work/unreadable.values' &&
     ! grep -q ' value ' '$work/unreadable.values' && pminfo -f pmcd.version | grep -q value"
(cd "$PCP_PMDAS_DIR/darwin" && ./Remove </dev/null) >/dev/null 2>&1
check "after a second Install and Remove PCP's dstat files are still PCP's" tools_removed
"$PCP_RC_DIR/pmcd" stop >/dev/null 2>&1
finish
