#!/usr/bin/env bash
# Packages the workspace's publishable crates as `cargo publish` would
# (`cargo package --workspace`, with its verify build: each package built from
# its own `.crate` contents, the ones that depend on each other through
# cargo's temporary local registry), checks what the `.crate` files carry,
# then builds and tests tests/consumer, a crate that depends on them by
# version as a user's does, with `[patch.crates-io]` pointing at the unpacked
# `.crate` files.
#
#   bash tools/consumer-build.sh                 # as .ci/run runs it
#   bash tools/consumer-build.sh --allow-dirty   # arguments go to cargo package
#
# Works offline when the dependencies are in the local cargo cache (the
# consumer is locked to the workspace's Cargo.lock), and downloads them
# otherwise.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

fail() {
    echo "consumer-build: $*" >&2
    exit 1
}

# The license texts each published package carries are copies of the root's.
metadata=$(cargo metadata --no-deps --format-version 1 --offline 2>/dev/null || cargo metadata --no-deps --format-version 1)
# Published packages: name, version and directory; `publish = false` ones
# (tools and test crates) are left out of `cargo package`.
mapfile -t published < <(python3 -c '
import json, os, sys
for p in json.load(sys.stdin)["packages"]:
    if p["publish"] != []:
        print(p["name"], p["version"], os.path.dirname(p["manifest_path"]))' <<<"$metadata")
mapfile -t internal < <(python3 -c '
import json, sys
for p in json.load(sys.stdin)["packages"]:
    if p["publish"] == []:
        print(p["name"])' <<<"$metadata")
target_dir=$(python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])' <<<"$metadata")
[ "${#published[@]}" -gt 0 ] || fail "no publishable package in the workspace"

for entry in "${published[@]}"; do
    read -r name version dir <<<"$entry"
    for license in LICENSE-MIT LICENSE-APACHE; do
        cmp -s "$root/$license" "$dir/$license" || fail "$name: $dir/$license is not a copy of the root's $license"
    done
done

excludes=()
for name in "${internal[@]}"; do
    excludes+=(--exclude "$name")
done
cargo package --workspace "${excludes[@]}" "$@"

# What each .crate carries: its manifest, README and licenses; never the
# repository's tests, benchmarks, CI, tools, fuzzing or Python bindings.
work="$target_dir/consumer-build"
rm -rf "$work"
mkdir -p "$work/crates"
patches=()
for entry in "${published[@]}"; do
    read -r name version dir <<<"$entry"
    crate="$target_dir/package/$name-$version.crate"
    [ -f "$crate" ] || fail "cargo package made no $crate"
    listing=$(tar -tzf "$crate")
    for file in Cargo.toml README.md LICENSE-MIT LICENSE-APACHE src/; do
        grep -qx "$name-$version/$file" <<<"$listing" || fail "$name-$version.crate lacks $file"
    done
    if unwanted=$(grep -E "^$name-$version/(tests|bench|benches|\.ci|tools|fuzz|fuzz-harness|xtask|bindings|public-api|proptest-regressions|snapshots)/" <<<"$listing"); then
        fail "$name-$version.crate carries files it should not:"$'\n'"$unwanted"
    fi
    tar -xzf "$crate" -C "$work/crates"
    patches+=("$name = { path = \"$work/crates/$name-$version\" }")
done
# The embedded catalog: the library's package carries its records.
tar -tzf "$target_dir/package/error-catalog-"*.crate | grep -q '/data/nats-io/nats-server/.*\.json$' ||
    fail "the error-catalog package lacks data/"

# A copy of the consumer, patched to the unpacked packages, locked to the
# versions the workspace was tested with.
cp -R tests/consumer "$work/consumer"
rm -rf "$work/consumer/target" "$work/consumer/Cargo.lock"
cp Cargo.lock "$work/consumer/Cargo.lock"
{
    echo
    echo "[patch.crates-io]"
    printf '%s\n' "${patches[@]}"
} >>"$work/consumer/Cargo.toml"

manifest=(--manifest-path "$work/consumer/Cargo.toml")
# Its own target directory, kept between runs: the third-party dependencies
# are built once.
export CARGO_TARGET_DIR="$target_dir/consumer-build-target"
cargo fetch "${manifest[@]}" --offline 2>/dev/null || cargo fetch "${manifest[@]}"

# The build uses the packaged crates, not the workspace's.
cargo metadata "${manifest[@]}" --format-version 1 --offline >"$work/metadata.json"
libraries=()
for entry in "${published[@]}"; do
    read -r name _ <<<"$entry"
    [ "$name" = errcat ] || libraries+=("$name")
done
python3 - "$work/metadata.json" "$work/crates" "${libraries[@]}" <<'PY'
import json, sys

path, crates, names = sys.argv[1], sys.argv[2], sys.argv[3:]
metadata = json.load(open(path))
used = {node["id"] for node in metadata["resolve"]["nodes"]}
found = {p["name"]: p for p in metadata["packages"] if p["id"] in used and p["name"] in names}
for name in names:
    assert name in found, f"consumer-build: the consumer does not use {name}"
    manifest = found[name]["manifest_path"]
    assert manifest.startswith(crates + "/"), f"consumer-build: {name} is built from {manifest}, not its .crate"
    print(f"consumer-build: {name} {found[name]['version']} from its .crate")
PY

cargo test "${manifest[@]}" --offline
echo "consumer-build: the consumer builds and passes its tests against the packaged crates"
