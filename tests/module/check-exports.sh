#!/bin/sh
# The module must export darwin_init and nothing else (the loader's own
# _init/_fini aside), so that pmcd's namespace stays clean.
set -eu
module=$1
if command -v nm >/dev/null 2>&1; then
    exported=$(nm -D --defined-only "$module" | awk '$2 ~ /^[TDBRVW]$/ {print $3}' | grep -v -x -e _init -e _fini | sort)
else
    echo "nm is needed (binutils)"; exit 1
fi
if [ "$exported" != "darwin_init" ]; then
    echo "FAIL: $module exports:"; echo "$exported"
    exit 1
fi
echo "1 passed, 0 failed: $module exports only darwin_init"
