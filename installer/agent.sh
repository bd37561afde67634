# What Install and Remove of both agents do around PCP's pmdaproc.sh.
# Sourced from the agent's own directory after $PCP_DIR/etc/pcp.env, with
# iam (the agent's name in pmcd.conf) set.
#
# Install runs from pmda-darwin's own copy of the agent (what the pmda-darwin
# command, Homebrew or cmake --install keep outside PCP's trees): it places
# the agent's files in $PCP_PMDAS_DIR/$iam and the rest where PCP reads it,
# then registers the agent with pmcd through pmdaproc.sh from there. Run in
# $PCP_PMDAS_DIR/$iam it only registers the files already placed. Remove
# unregisters the agent, takes its files back, and gives pmcd back the agent
# PCP had configured before (its pmcd.conf line and its names).

. ./placement.sh

agent_dir=$PCP_PMDAS_DIR/$iam
pcp_line=$state_dir/$iam.pcp        # PCP's pmcd.conf line for the agent, from before Install
domain=`sed -n 's/^#define [A-Z_]* \([0-9][0-9]*\)$/\1/p' domain.h`
# pmdaproc.sh adds and deletes the PMNS subtree by subtree: the agent's
# top-level names (for darwin, one pmns.NAME file each)
pmns_name=`sed -n '/^root {/,/^}/p' root | sed -e '1d' -e '$d' | tr -d ' \t' | tr '\n' ' '`

# The agent lines of pmcd.conf for this agent's name or domain.
agent_pmcd_lines()
{
    $PCP_AWK_PROG -v n="$iam" -v d="$domain" '/^\[/ { exit } $1 == n || $2 == d' "$PCP_PMCDCONF_PATH" 2>/dev/null
}

# The program a pmcd.conf line runs: its first absolute path after the type.
agent_program()
{
    echo "$1" | $PCP_AWK_PROG '{ for (i = 4; i <= NF; i++) if ($i ~ /^\//) { print $i; exit } }'
}

# This agent's files that PCP's package (or anything else) replaced since
# they were placed, with what to do about it; true when there are none.
agent_intact()
{
    __replaced=`placement_replaced $iam`
    [ -z "$__replaced" ] && return 0
    echo "These files of pmda-darwin's $iam agent have been replaced (a PCP install or upgrade"
    echo "puts PCP's own back):"
    echo "$__replaced" | sed -e 's/^/    /'
    echo "Put pmda-darwin's back with:  sudo pmda-darwin install $iam"
    return 1
}

# Place the agent's files from the directory Install runs in, then call
# EXTRA (the agent's other placements) and go to $PCP_PMDAS_DIR/$iam. Run
# there already, check that the placed files are still this agent's.
agent_place()
{
    __home=`pwd -P`
    if [ "$__home" = "`cd "$agent_dir" 2>/dev/null && pwd -P`" ]
    then
        [ -f "$state_dir/$iam.placed" ] || {
            echo "Error: $agent_dir holds no files placed by pmda-darwin: run  sudo pmda-darwin install $iam"
            return 1
        }
        agent_intact
        return
    fi
    # PCP's line names the same path as this agent's: keep it while the
    # file there is still PCP's
    __line=`agent_pmcd_lines | head -n 1`
    if [ -n "$__line" ] && ! placement_ours "`agent_program "$__line"`" "$state_dir/$iam.placed"
    then
        mkdir -p "$state_dir" && echo "$__line" > "$pcp_line"
    fi
    __gen=`mktemp -d "${TMPDIR:-/tmp}/pmda-darwin.XXXXXXXXX"` || return 1
    # Rebuild merges each root_* file whole: the domain's number, the
    # agent's top-level names and its subtrees in one file
    { grep '^#define' domain.h; sed -n '/^root {/,/^}/p' root; cat pmns; } > "$__gen/root_$iam"
    place_begin $iam &&
        place_tree "$__home" "$agent_dir" &&
        place_file "$__gen/root_$iam" "$PCP_VAR_DIR/pmns/root_$iam" &&
        "$@" "$__gen" &&
        place_end
    __status=$?
    rm -rf "$__gen"
    [ $__status -eq 0 ] && cd "$agent_dir"
}

# Whether pmda-darwin placed this agent's files (says so when not).
agent_placed()
{
    [ -f "$state_dir/$iam.placed" ] && return 0
    echo "pmda-darwin's $iam agent is not installed (no $state_dir/$iam.placed): nothing to remove."
    return 1
}

# After pmdaproc.sh's Remove: take the agent's files back and, if PCP had
# an agent configured for this name before Install, give pmcd its line and
# names again.
agent_unplace()
{
    __line=`cat "$pcp_line" 2>/dev/null`
    rm -f "$pcp_line"
    unplace $iam
    [ -n "$__line" ] || return 0
    __program=`agent_program "$__line"`
    if [ ! -e "$__program" ]
    then
        echo "PCP's $iam agent ($__program) is not there to put back."
        return 0
    fi
    echo "Putting back PCP's own $iam agent: $__line"
    __conf=`mktemp "${TMPDIR:-/tmp}/pmcd.conf.XXXXXXXXX"` || return 1
    # an agent line goes before the [access] section, if there is one
    $PCP_AWK_PROG -v line="$__line" '/^\[/ && !done { print line; done = 1 } { print } END { if (!done) print line }' \
        "$PCP_PMCDCONF_PATH" > "$__conf" &&
        cat "$__conf" > "$PCP_PMCDCONF_PATH"      # pmcd.conf keeps its inode, as pmdaproc.sh keeps it
    rm -f "$__conf"
    # Rebuild merges PCP's root_$iam (back in place) for the agent
    # pmcd.conf names again, and makes pmcd reread both
    (cd "$PCP_VAR_DIR/pmns" && ./Rebuild -s) || echo "Warning: PCP's Rebuild of the PMNS failed"
    pmsignal -a -s HUP pmcd >/dev/null 2>&1
    return 0
}
