# A private pmcd on a loopback port that serves pmda-darwin, never the
# system one, beside PCP's own pmcd agent (pmcd.*: hostname, version, agent
# states), which every real pmcd runs and pmproxy and pmlogger rely on.
# Sourced by scripts/demo.sh, the integration tests and bench/; expects $src
# to be the source tree.

eval "$(. "${PCP_CONF:-/etc/pcp.conf}" 2>/dev/null
        echo "PCP_BINADM_DIR=${PCP_BINADM_DIR:-/usr/lib/pcp/bin}"
        echo "PCP_PMDAS_DIR=${PCP_PMDAS_DIR:-/var/lib/pcp/pmdas}"
        echo "PCP_VAR_DIR=${PCP_VAR_DIR:-/var/lib/pcp}")"
export PCP_DERIVED_CONFIG=""            # keep the system's derived metrics out of the output
if [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import pcp' 2>/dev/null; then
    export PCP_PYTHON_PROG=/usr/bin/python3   # pmrep needs the python3 that has PCP's module
fi

# free_port [TAKEN...]: a port nothing listens on, from a range the system
# pmcd does not use, and none of TAKEN (ports handed to servers that may not
# listen yet: each call of one shell starts its search at the same port).
free_port() {
    port=$((45000 + $$ % 4000))
    while (echo >/dev/tcp/127.0.0.1/$port) 2>/dev/null || [[ " $* " == *" $port "* ]]; do port=$((port + 1)); done
    echo $port
}

# start_pmcd DIR MODULE [SNAPSHOT [PROC_AGENT]]: start a private pmcd serving
# the module, in snapshot mode when SNAPSHOT is given, and the proc agent
# (pmdaproc, domain 3) when PROC_AGENT is given; sets PMCD_PORT. Its unix
# socket is $pmcd_socket when set (a place other users can reach), else DIR's.
start_pmcd() {
    local dir=$1 module=$2 snapshot=${3:-} proc_agent=${4:-} pmcd_dso port
    rm -rf "$dir"; mkdir -p "$dir/run"
    {
        echo "#define DARWIN 78"
        [ -n "$proc_agent" ] && echo "#define PROC 3"
        sed -n '/^root {/,/^}/p' "$src/pmns/root" |     # the subtrees the agents serve
            sed 's/^}/    pmcd\n}/' |
            if [ -n "$proc_agent" ]; then sed 's/^}/    proc\n}/'; else cat; fi
        echo "#include \"$src/pmns/pmns\""
        [ -n "$proc_agent" ] && echo "#include \"$src/pmns/proc/pmns\""
        sed '/^root {/,/^}/d' "$PCP_VAR_DIR/pmns/root_pmcd"
    } > "$dir/root"
    pmcd_dso=$PCP_PMDAS_DIR/pmcd/pmda_pmcd.so
    [ -e "$pmcd_dso" ] || pmcd_dso=$PCP_PMDAS_DIR/pmcd/pmda_pmcd.dylib     # macOS
    printf 'pmcd\t2\tdso\tpmcd_init\t%s\n' "$pmcd_dso" > "$dir/pmcd.conf"
    printf 'darwin\t78\tdso\tdarwin_init\t%s\n' "$module" >> "$dir/pmcd.conf"
    [ -n "$proc_agent" ] && printf 'proc\t3\tpipe\tbinary\t%s -d 3 -l %s\n' "$proc_agent" "$dir/proc.log" >> "$dir/pmcd.conf"
    port=$(free_port)
    unset PMCD_PORT             # pmcd would listen on it as well as on -p
    PCP_RUN_DIR="$dir/run" PMDA_DARWIN_SNAPSHOT="$snapshot" \
        "$PCP_BINADM_DIR/pmcd" -f -A -i 127.0.0.1 -p "$port" -s "${pmcd_socket:-$dir/pmcd.socket}" \
        -c "$dir/pmcd.conf" -n "$dir/root" -l "$dir/pmcd.log" -x "$dir/pmcd.err" -U "$(id -un)" &
    pmcd_pid=$!
    PMCD_PORT=$port; export PMCD_PORT
    for _ in $(seq 1 50); do
        pminfo -h 127.0.0.1 pmcd.hostname hinv.ncpu >/dev/null 2>&1 && return 0
        kill -0 "$pmcd_pid" 2>/dev/null || break
        sleep 0.2
    done
    echo "pmcd did not start; its log:"; cat "$dir/pmcd.log" "$dir/pmcd.err" 2>/dev/null
    return 1
}

stop_pmcd() {
    [ -n "${pmcd_pid:-}" ] || return 0
    kill "$pmcd_pid" 2>/dev/null
    wait "$pmcd_pid" 2>/dev/null
    pmcd_pid=
}

