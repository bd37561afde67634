# What PCP's own tools read for this agent, placed by Install (Remove takes
# it back with the agent's other files): pmchart views, pmieconf rules,
# pmlogconf groups, pmrep reports, derived metrics (PCP's clients read every
# file of $PCP_VAR_DIR/config/derived unless PCP_DERIVED_CONFIG names
# others), pcp-htop columns and meters and pcp-dstat plugins. Sourced by
# Install from the agent's directory, after installer/agent.sh.
#
# pcp-dstat merges its plugin files by section name, so the macOS plugins
# take the place of PCP's Linux cpu, mem, net and swap files, and PCP's
# "sys" plugin (interrupts and context switches, which macOS does not count)
# would stop the default report, so it is set aside with nothing in its
# place. Remove puts PCP's files back.

place_tool_configs()
{
    for view in config/pmchart/macOS.*
    do
        place_file "$view" "$PCP_VAR_DIR/config/pmchart/`basename "$view"`" || return 1
    done
    place_file config/derived/darwin.conf "$PCP_VAR_DIR/config/derived/darwin.conf" &&
        place_tree config/pmieconf/darwin "$PCP_VAR_DIR/config/pmieconf/darwin" &&
        place_tree config/pmlogconf/darwin "$PCP_VAR_DIR/config/pmlogconf/darwin" &&
        place_file config/pmrep/darwin.conf "$PCP_SYSCONF_DIR/pmrep/darwin.conf" &&
        place_tree config/htop "$PCP_SYSCONF_DIR/htop" || return 1
    if [ -d "$PCP_SYSCONF_DIR/dstat" ]
    then
        place_tree config/dstat "$PCP_SYSCONF_DIR/dstat" &&
            place_none "$PCP_SYSCONF_DIR/dstat/sys" || return 1
    fi
    echo "Installed pmchart views (macOS.*), pmie rules (pmieconf darwin), pmlogger groups"
    echo "(pmlogconf darwin), pmrep reports (:darwin-*), derived metrics (derived/darwin.conf),"
    echo "pcp-htop columns and meters (htop/*/darwin) and pcp-dstat plugins for macOS."
}
