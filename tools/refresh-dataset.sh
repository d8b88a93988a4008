#!/usr/bin/env bash
# Replaces datasets/NAME with a newer extraction and prints what changed:
#
#   tools/refresh-dataset.sh NAME [FROM]     # FROM defaults to ../shared/corpus/NAME
#
# FROM is a folder of records in the datasets' layout (<id>.json files and a
# README.md). The old folder is kept aside until `errcat diff` has compared it
# with the new one (records added, removed, changed; the generated enum's
# semver impact), then removed. Uses the errcat of this checkout (built in
# release mode if needed).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
name=${1:?usage: tools/refresh-dataset.sh NAME [FROM]}
from=${2:-$root/../shared/corpus/$name}
dest=$root/datasets/$name
[ -d "$from" ] || { echo "no folder of records at $from" >&2; exit 2; }
ls "$from"/*.json >/dev/null 2>&1 || { echo "$from holds no record files (*.json)" >&2; exit 2; }
cargo build -q --release --manifest-path "$root/Cargo.toml" -p errcat
errcat=$root/target/release/errcat

old=$(mktemp -d)
trap 'rm -rf "$old"' EXIT
[ -d "$dest" ] && cp -r "$dest/." "$old/"
# The new records must load before they replace the old ones.
"$errcat" --no-cache --data "$from" check >/dev/null || {
    echo "$from does not pass errcat check; datasets/$name is unchanged" >&2
    exit 1
}
rm -rf "$dest"
mkdir -p "$dest"
cp -r "$from/." "$dest/"
echo "datasets/$name: $(ls "$dest"/*.json | wc -l) records (was $(ls "$old"/*.json 2>/dev/null | wc -l))"
# `errcat diff` exits 1 when the datasets differ: a report here, not a failure.
status=0
"$errcat" diff "$old" "$dest" || status=$?
[ "$status" -le 1 ] || exit "$status"
