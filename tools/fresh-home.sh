#!/usr/bin/env bash
# Runs a command (a test suite) with HOME an empty temporary directory and
# neither ERRCAT_CACHE_DIR nor XDG_CACHE_HOME set, so that anything that
# falls back to the user's home lands there; then fails if error-catalog's
# cache, or any file named after the project, appeared in it. The toolchains
# found through HOME (cargo, rustup, pyenv, Python's per-user packages) are
# pinned to where they are first, so the command runs as it would.
#
#   bash tools/fresh-home.sh cargo test -p errcat
#
# It does not require HOME to stay empty: programs the tests start write
# there on their own (Chromium's ~/.pki, pip's and maturin's caches), which is
# not the tests' doing and would make the check fail for them; those are
# listed, not failed on. With the defaults unset, a test that leaves its
# catalogs to the default cache writes ~/.cache/error-catalog, which fails.
set -euo pipefail
[ "$#" -gt 0 ] || { echo "usage: $0 COMMAND [ARGS...]" >&2; exit 2; }

real_home=${HOME:?}
export CARGO_HOME="${CARGO_HOME:-$real_home/.cargo}"
export RUSTUP_HOME="${RUSTUP_HOME:-$real_home/.rustup}"
if [ -z "${PYENV_ROOT:-}" ] && [ -d "$real_home/.pyenv" ]; then
    export PYENV_ROOT="$real_home/.pyenv"
fi
if [ -z "${PYTHONUSERBASE:-}" ] && command -v python3 >/dev/null; then
    PYTHONUSERBASE=$(python3 -m site --user-base)
    export PYTHONUSERBASE
fi

home=$(mktemp -d "${TMPDIR:-/tmp}/fresh-home.XXXXXX")
trap 'rm -rf "$home"' EXIT
status=0
env -u ERRCAT_CACHE_DIR -u XDG_CACHE_HOME HOME="$home" "$@" || status=$?

others=$(find "$home" -mindepth 1 -maxdepth 3 | sed "s|^$home|~|")
ours=$(find "$home" \( -iname '*error-catalog*' -o -iname '*errcat*' -o -name 'catalog-*.bin' \) | sed "s|^$home|~|")
if [ -n "$others" ]; then
    echo "fresh-home: written into HOME by \`$*\` (listed, allowed unless below):"
    echo "$others"
fi
if [ -n "$ours" ]; then
    echo "fresh-home: \`$*\` wrote error-catalog files into the user's home:" >&2
    echo "$ours" >&2
    exit 1
fi
exit "$status"
