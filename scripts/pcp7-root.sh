#!/bin/bash
# A Debian unstable root with Debian's PCP 7 packages, where
# scripts/test-pcp7.sh runs the PCP-dependent tests against the PCP that Mac
# users run. debootstrap makes it from nothing: its libc and everything else
# are unstable's, nothing of the host's system is mixed in.
#
#   pcp7-root.sh make ROOT        make ROOT, or complete it: debootstrap when it
#                                 is not there, then the packages it lacks
#   pcp7-root.sh run ROOT CMD...  run CMD in ROOT, as root, with this source tree
#                                 (and ../shared, and the Zig toolchain of
#                                 scripts/deps.sh) at their own paths, a /tmp of
#                                 its own and no network but loopback
#
# Each runs in mount and PID namespaces of its own: whatever it mounts or
# starts in the root is gone when it ends, however it ends. Run as root.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 make ROOT | run ROOT CMD..." >&2; exit 2; }
what=$1 root=$(realpath -m "$2")
shift 2
src=$(cd "$(dirname "$0")/.." && pwd)

# What the PCP-dependent tests run in the root: the build, PCP 7 with the
# tools PCP 7 packages apart (pcp-htop, pcp-atop, pcp-dstat), pmchart under
# Xvfb, valgrind, tmux for pcp-htop, Valkey (PCP 7's store) and Prometheus for
# the fleet, LLVM's lipo and Mach-O linker for the release archive.
packages="build-essential cmake pkg-config pcp python3-pcp libpcp3-dev libpcp-pmda3-dev libcmocka-dev
          pcp-htop pcp-atop pcp-dstat pcp-gui xvfb xauth tmux valgrind iproute2 valkey-server valkey-tools
          prometheus curl llvm lld"

if [ -z "${PMDA_DARWIN_IN_PCP7_NAMESPACES:-}" ]; then
    network=--net                       # loopback only, and ports of its own
    [ "$what" = make ] && network=""    # debootstrap and apt reach the mirror
    PMDA_DARWIN_IN_PCP7_NAMESPACES=1 exec unshare --mount --pid --fork --kill-child $network "$0" "$what" "$root" "$@"
fi
mount --make-rprivate /

make_root() {
    local start=$SECONDS missing
    mkdir -p "$(dirname "$root")"
    exec 9> "$root.lock"                # one make at a time, from any tree
    flock 9
    if [ ! -d "$root" ]; then
        # The host's own Debian mirror. debootstrap checks unstable's Release
        # against the host's debian-archive-keyring: Debian 12's holds the
        # archive keys of 12 and 13, which sign it. Once no key it holds signs
        # unstable, this fails: the way on is the newer keyring Debian 12's
        # updates bring (as 12's deb12u2 brought 13's keys), never a root
        # made unverified.
        local mirror
        mirror=$(. /etc/os-release && apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 'Identifier: Packages' |
                 awk -v suite="$VERSION_CODENAME" '$2 == suite { print $1; exit }')
        rm -rf "$root.partial"
        debootstrap --variant=minbase --keyring=/usr/share/keyrings/debian-archive-keyring.gpg \
            sid "$root.partial" ${mirror:+"$mirror"} > "$root.debootstrap.log" 2>&1 ||
            { tail -20 "$root.debootstrap.log"; exit 1; }
        mv "$root.partial" "$root"
        echo "pcp7-root: debootstrap made $root in $((SECONDS - start)) s"
    fi
    # A mirror's copy of unstable can be older than its Release's Valid-Until
    # (a week): apt still checks the signatures, not the date.
    echo 'Acquire::Check-Valid-Until "false";' > "$root/etc/apt/apt.conf.d/90pmda-darwin"
    # A throwaway root: dpkg need not sync every file it unpacks.
    echo force-unsafe-io > "$root/etc/dpkg/dpkg.cfg.d/90pmda-darwin"
    # Packages start no service in the root (pcp, valkey-server, prometheus).
    printf '#!/bin/sh\nexit 101\n' > "$root/usr/sbin/policy-rc.d"
    chmod 755 "$root/usr/sbin/policy-rc.d"
    printf '127.0.0.1\tlocalhost\n::1\tlocalhost\n' > "$root/etc/hosts"

    mount -t proc proc "$root/proc"
    missing=$(for p in $packages; do
                  chroot "$root" dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"
              done)
    if [ -n "$missing" ]; then
        start=$SECONDS
        chroot "$root" apt-get update -q > "$root.apt.log" 2>&1 || { cat "$root.apt.log"; exit 1; }
        chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing \
            >> "$root.apt.log" 2>&1 || { tail -30 "$root.apt.log"; exit 1; }
        chroot "$root" apt-get clean
        echo "pcp7-root: $(echo $missing | wc -w) packages installed in $((SECONDS - start)) s" \
             "(PCP $(chroot "$root" dpkg-query -W -f='${Version}' pcp))"
    fi
}

# bind DIR PATH [ro]: the host's directory DIR at PATH in the root.
bind() {
    mkdir -p "$root$2"
    mount --bind "$1" "$root$2"
    [ "${3:-}" != ro ] || mount -o remount,bind,ro "$root$2"
}

run_in_root() {
    [ -x "$root/usr/bin/pminfo" ] || { echo "$root has no PCP: scripts/pcp7-root.sh make $root" >&2; exit 1; }
    # The root a mount of its own: unshare(1) in it (install-remove.sh) needs / to be a mount point.
    mount --bind "$root" "$root"
    mount -t proc proc "$root/proc"
    mount --rbind /dev "$root/dev"
    mount -t tmpfs tmpfs "$root/dev/shm"
    mount -t tmpfs tmpfs "$root/tmp"
    bind "$src" "$src"
    [ ! -d "$src/../shared" ] || bind "$src/../shared" "$(dirname "$src")/shared" ro
    local tools=${PMDA_DARWIN_TOOLS:-$HOME/.cache/pmda-darwin}
    [ ! -d "$tools/node_modules" ] || bind "$tools/node_modules" "$tools/node_modules" ro
    ip link set lo up
    chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
        LANG=C.UTF-8 PMDA_DARWIN_TOOLS="$tools" ${PMDA_DARWIN_SHARED_REQUIRED:+PMDA_DARWIN_SHARED_REQUIRED=1} "$@"
}

case $what in
    make) make_root ;;
    run) run_in_root "$@" ;;
    *) echo "usage: $0 make ROOT | run ROOT CMD..." >&2; exit 2 ;;
esac
