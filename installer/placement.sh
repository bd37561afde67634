# Putting this agent's files where PCP reads them without touching PCP's own.
# Sourced by Install and Remove (after $PCP_DIR/etc/pcp.env) and by the
# pmda-darwin command.
#
# PCP's macOS package makes most of its agent files symlinks into
# /usr/local/libexec/pcp (its install-sh -t) and /etc/pcp. Writing onto such
# a path with cp or a shell redirection follows the link and rewrites PCP's
# file in place (Apple's cp opens an existing destination O_WRONLY|O_TRUNC:
# apple-oss-distributions/file_cmds cp/utils.c), and on Apple Silicon a
# binary rewritten in place keeps its vnode's old code signature, so the next
# process to map it is killed. So every file goes in as a new inode (a
# temporary name, then a rename over the path), and whatever was at the path
# before, unless it is a file this agent placed, is set aside in the state
# directory, to be put back by unplace.
#
# The state directory ($PMDA_DARWIN_STATE_DIR, by default /var/db/pmda-darwin,
# where macOS keeps system daemons' state) is outside PCP's trees, so it
# survives PCP's uninstaller (rm -rf /etc/pcp /var/lib/pcp):
#   NAME.placed   a line per entry: "SHA256 PATH" for a file placed at PATH,
#                 "- PATH" for PCP's file set aside with nothing in its place,
#                 "+ PATH" for a directory made for a placed file
#   aside/PATH    what was at PATH before

state_dir=${PMDA_DARWIN_STATE_DIR:-/var/db/pmda-darwin}
aside_dir=$state_dir/aside

# "SHA256 PATH" for each PATH that is a regular file (not a link), in one
# run of shasum (a Perl program: slow to start, and there are a hundred).
placement_hashes()
{
    __ifs=$IFS
    IFS='
'
    set -- `for __p in "$@"; do [ -f "$__p" ] && [ ! -h "$__p" ] && echo "$__p"; done`
    IFS=$__ifs
    [ $# -gt 0 ] || return 0
    shasum -a 256 "$@" 2>/dev/null | sed -e 's/^\([0-9a-f]*\) [ *]/\1 /'
}

# Something (a file, a directory or a link, even a dangling one) is at PATH.
placement_exists()
{
    [ -e "$1" ] || [ -h "$1" ]
}

# The hash of PATH in a "SHA256 PATH" list.
placement_lookup()
{
    [ -f "$2" ] && $PCP_AWK_PROG -v p="$1" '{ h = $1; sub(/^[^ ]* /, "") } $0 == p { print h; exit }' "$2"
}

# PATH holds the file placed there according to the list LIST: its
# recorded hash is that of PATH's bytes now, looked up in CURRENT if given.
placement_ours()
{
    __recorded=`placement_lookup "$1" "$2"`
    if [ -n "$3" ]
    then
        __now=`placement_lookup "$1" "$3"`
    else
        __now=`placement_hashes "$1" | cut -d' ' -f1`
    fi
    [ -n "$__recorded" ] && [ "$__recorded" = "$__now" ]
}

# Move what is at PATH into the aside tree, replacing an older copy there
# (set aside before PCP's package installed the path again: stale).
placement_set_aside()
{
    __aside=$aside_dir$1
    rm -rf "$__aside"
    mkdir -p "`dirname "$__aside"`" && mv "$1" "$__aside" ||
        { echo "Error: cannot set $1 aside in $aside_dir"; return 1; }
}

# Make DIR and the directories above it that are missing, recording each.
placement_mkdir()
{
    placement_exists "$1" && return 0
    placement_mkdir "`dirname "$1"`" || return 1
    mkdir "$1" && chmod 755 "$1" && echo "+ $1" >> "$placed_new"
}

# Start placing the files of NAME (an agent, or the command's own): the list
# of an earlier placement tells this agent's files from PCP's, by their
# bytes now (placed_now).
place_begin()
{
    placed_list=$state_dir/$1.placed
    placed_new=$state_dir/$1.placed.new
    placed_now=$state_dir/$1.placed.now
    mkdir -p "$state_dir" && chmod 755 "$state_dir" && : > "$placed_new" || return 1
    placement_current "$placed_list" > "$placed_now"
}

# The hashes now of the files a placed list names.
placement_current()
{
    [ -f "$1" ] || return 0
    placement_hashes `grep -v '^[-+] ' "$1" | cut -d' ' -f2-`
}

# Put SRC at TARGET as a new inode, setting aside what was there unless it is
# this agent's own file from an earlier placement. SRC's hash is looked up
# in HASHES when given (place_tree hashes a tree at once).
place_file()
{
    if placement_exists "$2" && ! placement_ours "$2" "$placed_list" "$placed_now"
    then
        placement_set_aside "$2" || return 1
    fi
    placement_mkdir "`dirname "$2"`" || return 1
    __hash=`placement_lookup "$1" "${3:-/dev/null}"`
    [ -n "$__hash" ] || __hash=`placement_hashes "$1" | cut -d' ' -f1`
    __new=$2.pmda-darwin-new
    rm -f "$__new"
    if cp "$1" "$__new" && chmod `[ -x "$1" ] && echo 755 || echo 644` "$__new" && mv -f "$__new" "$2"
    then
        echo "$__hash $2" >> "$placed_new"
    else
        rm -f "$__new"
        echo "Error: cannot put $1 at $2"
        return 1
    fi
}

# Every file below SRC_DIR, at the same place below TARGET_DIR.
place_tree()
{
    __files=`cd "$1" && find . -type f | sed -e 's;^\./;;' | LC_ALL=C sort`
    __hashes=$placed_new.tree
    (cd "$1" && placement_hashes $__files) | sed -e "s;^\([0-9a-f]*\) ;\1 $1/;" > "$__hashes"
    for __f in $__files
    do
        place_file "$1/$__f" "$2/$__f" "$__hashes" || { rm -f "$__hashes"; return 1; }
    done
    rm -f "$__hashes"
}

# Set PCP's file at TARGET aside with nothing in its place.
place_none()
{
    if placement_exists "$1" && ! placement_ours "$1" "$placed_list" "$placed_now"
    then
        placement_set_aside "$1" || return 1
    fi
    rm -f "$1"
    echo "- $1" >> "$placed_new"
}

# Finish: what an earlier placement put in place and this one did not is
# taken back, then the new list replaces the old.
place_end()
{
    if [ -f "$placed_list" ]
    then
        # a directory made earlier is still this agent's to remove
        $PCP_AWK_PROG -v new="$placed_new" 'FILENAME == new { now[$2] = 1; next } !($2 in now)' \
            "$placed_new" "$placed_list" \
            > "$placed_new.gone"
        grep '^+ ' "$placed_new.gone" >> "$placed_new"
        grep -v '^+ ' "$placed_new.gone" > "$placed_new.files"
        placement_take_back "$placed_new.files"
        rm -f "$placed_new.gone" "$placed_new.files"
    fi
    rm -f "$placed_now"
    mv -f "$placed_new" "$placed_list"
}

# For each entry of LIST: remove the file placed at its path if it is still
# there and put back what was set aside. Where the path holds something
# else, PCP's package has installed it again since: that stays, and the
# stale copy set aside goes. Directories made for placed files go last, if
# they are empty.
placement_take_back()
{
    __current=$1.now
    placement_current "$1" > "$__current"
    grep -v '^+ ' "$1" | while read __hash __path
    do
        __restore=false
        if [ "$__hash" = - ]
        then
            placement_exists "$__path" || __restore=true
        elif [ "$__hash" = "`placement_lookup "$__path" "$__current"`" ]
        then
            rm -f "$__path" && __restore=true
        fi
        __aside=$aside_dir$__path
        if $__restore && placement_exists "$__aside"
        then
            mv "$__aside" "$__path"
        else
            rm -rf "$__aside"
        fi
    done
    rm -f "$__current"
    sed -n 's/^+ //p' "$1" | LC_ALL=C sort -r | while read __dir
    do
        rmdir "$__dir" 2>/dev/null
    done
    return 0
}

# Remove every file NAME placed that is still its own, put back what was set
# aside, and forget NAME.
unplace()
{
    [ -f "$state_dir/$1.placed" ] || return 0
    placement_take_back "$state_dir/$1.placed"
    rm -f "$state_dir/$1.placed"
}

# The paths placed for NAME that no longer hold its files (PCP's package put
# its own back, or something else replaced them), a line each.
placement_replaced()
{
    __list=$state_dir/$1.placed
    [ -f "$__list" ] || return 0
    __held=`mktemp "${TMPDIR:-/tmp}/pmda-darwin.XXXXXXXXX"` || return 1
    placement_current "$__list" > "$__held"
    $PCP_AWK_PROG -v now="$__held" 'FILENAME == now { held[$0] = 1; next }
        /^[-+] / { next } !($0 in held) { sub(/^[^ ]* /, ""); print }' "$__held" "$__list"
    rm -f "$__held"
}
