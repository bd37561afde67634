# Put in place, and take away, what PCP's own tools read for this agent:
# pmchart views, pmieconf rules, pmlogconf groups, pmrep reports, derived
# metrics (PCP's clients read every file of $PCP_VAR_DIR/config/derived
# unless PCP_DERIVED_CONFIG names others) and pcp-dstat plugins. Sourced by Install and Remove from the agent's directory, after
# $PCP_DIR/etc/pcp.env.
#
# pcp-dstat merges its plugin files by section name, so the macOS plugins
# replace PCP's Linux cpu, mem, net and swap files; PCP's "sys" plugin
# (interrupts and context switches, which macOS does not count) would stop
# the default report, so it is moved aside as well. PCP's files are kept in
# dstat.pcp here and put back by Remove.

groups="pmieconf/darwin pmlogconf/darwin"     # under $PCP_VAR_DIR/config
derived=$PCP_VAR_DIR/config/derived/darwin.conf
dstat_dir=$PCP_SYSCONF_DIR/dstat
dstat_saved=dstat.pcp
dstat_replaced="cpu mem net swap sys"

install_tool_configs()
{
    mkdir -p $PCP_VAR_DIR/config/pmchart $PCP_VAR_DIR/config/derived $PCP_SYSCONF_DIR/pmrep
    cp config/pmchart/macOS.* $PCP_VAR_DIR/config/pmchart/
    cp config/derived/darwin.conf $derived
    for g in $groups
    do
        rm -rf $PCP_VAR_DIR/config/$g
        mkdir -p `dirname $PCP_VAR_DIR/config/$g`
        cp -R config/$g $PCP_VAR_DIR/config/$g
    done
    cp config/pmrep/darwin.conf $PCP_SYSCONF_DIR/pmrep/darwin.conf
    if [ -d $dstat_dir ]
    then
        mkdir -p $dstat_saved
        for f in $dstat_replaced
        do
            # keep PCP's file from the first Install, not ours from a later one
            [ -f $dstat_dir/$f -a ! -f $dstat_saved/$f ] && mv $dstat_dir/$f $dstat_saved/$f
            rm -f $dstat_dir/$f
        done
        cp config/dstat/* $dstat_dir/
    fi
    echo "Installed pmchart views (macOS.*), pmie rules (pmieconf darwin), pmlogger groups"
    echo "(pmlogconf darwin), pmrep reports (:darwin-*), derived metrics (derived/darwin.conf)"
    echo "and pcp-dstat plugins for macOS."
}

remove_tool_configs()
{
    rm -f $PCP_VAR_DIR/config/pmchart/macOS.* $PCP_SYSCONF_DIR/pmrep/darwin.conf $derived
    for g in $groups
    do
        rm -rf $PCP_VAR_DIR/config/$g
    done
    if [ -d $dstat_saved ]
    then
        for f in $dstat_replaced
        do
            rm -f $dstat_dir/$f
            [ -f $dstat_saved/$f ] && mv $dstat_saved/$f $dstat_dir/$f
        done
        rmdir $dstat_saved 2>/dev/null
    fi
}
