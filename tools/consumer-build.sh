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

metadata=$(cargo metadata --no-deps --format-version 1 --offline 2>/dev/null || cargo metadata --no-deps --format-version 1)
# Published packages: name, version and directory; `publish = false` ones
# (tools and test crates) are left out of `cargo package`.
mapfile -t published < <(python3 -c '
import json, os, sys
for p in json.load(sys.stdin)["packages"]:
    if p["publish"] != []:
        kinds = {kind for target in p["targets"] for kind in target["kind"]}
        library = "lib" if kinds & {"lib", "rlib", "proc-macro"} else "bin"
        print(p["name"], p["version"], os.path.dirname(p["manifest_path"]), library)' <<<"$metadata")
mapfile -t internal < <(python3 -c '
import json, sys
for p in json.load(sys.stdin)["packages"]:
    if p["publish"] == []:
        print(p["name"])' <<<"$metadata")
target_dir=$(python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])' <<<"$metadata")
[ "${#published[@]}" -gt 0 ] || fail "no publishable package in the workspace"

# The license texts each published package carries are copies of the root's.
for entry in "${published[@]}"; do
    read -r name version dir _ <<<"$entry"
    for license in LICENSE-MIT LICENSE-APACHE; do
        cmp -s "$root/$license" "$dir/$license" || fail "$name: $dir/$license is not a copy of the root's $license"
    done
done

# Offline when every dependency the host needs is in the local cargo cache
# (no index update, no download); online otherwise.
host=$(rustc -vV | sed -n 's/^host: //p')
if cargo fetch --locked --offline --target "$host" >/dev/null 2>&1; then
    offline=(--offline)
    echo "consumer-build: the dependencies are in the local cargo cache: working offline"
else
    offline=()
fi

# cargo unpacks each package it verifies against (from its temporary local
# registry under target/package) into the cargo home, and reuses what it
# unpacked and built there before for the same registry path and version,
# even when the package changed since (a registry's packages are taken to
# never change): a second run at the same path would verify against the
# first run's code. Those unpacked copies of our own packages and their
# builds (in the workspace's target directory, where the verify builds) are
# removed first; cargo makes them again.
rm -rf "$target_dir/package"
clean=()
for entry in "${published[@]}"; do
    read -r name _ _ _ <<<"$entry"
    clean+=(-p "$name")
done
cargo clean --offline "${clean[@]}" 2>/dev/null || cargo clean "${clean[@]}"
cargo_home=${CARGO_HOME:-$HOME/.cargo}
for entry in "${published[@]}"; do
    read -r name version _ _ <<<"$entry"
    for unpacked in "$cargo_home"/registry/src/-*/"$name-$version"; do
        if [ -d "$unpacked" ]; then rm -rf "$unpacked"; fi
    done
done

excludes=()
for name in "${internal[@]}"; do
    excludes+=(--exclude "$name")
done
cargo package --workspace "${excludes[@]}" "${offline[@]}" "$@"

# What each .crate carries: its manifest, README and licenses; never the
# repository's tests, benchmarks, CI, tools, fuzzing or Python bindings.
work="$target_dir/consumer-build"
rm -rf "$work"
mkdir -p "$work/crates"
patches=()
for entry in "${published[@]}"; do
    read -r name version _ kind <<<"$entry"
    crate="$target_dir/package/$name-$version.crate"
    [ -f "$crate" ] || fail "cargo package made no $crate"
    listing=$(tar -tzf "$crate")
    for file in Cargo.toml README.md LICENSE-MIT LICENSE-APACHE; do
        grep -qx "$name-$version/$file" <<<"$listing" || fail "$name-$version.crate lacks $file"
    done
    grep -q "^$name-$version/src/.*\.rs$" <<<"$listing" || fail "$name-$version.crate has no sources"
    if unwanted=$(grep -E "^$name-$version/(tests|bench|benches|\.ci|tools|fuzz|fuzz-harness|xtask|bindings|public-api|proptest-regressions|snapshots)/" <<<"$listing"); then
        fail "$name-$version.crate carries files it should not:"$'\n'"$unwanted"
    fi
    tar -xzf "$crate" -C "$work/crates"
    # Libraries only: a dependency cannot be a command (errcat's package is
    # checked by its verify build).
    [ "$kind" = bin ] || patches+=("$name = { path = \"$work/crates/$name-$version\" }")
done
# The embedded catalog: the library's package carries its records.
listing=$(tar -tzf "$target_dir/package/error-catalog-"*.crate)
grep -q '/data/nats-io/nats-server/.*\.json$' <<<"$listing" || fail "the error-catalog package lacks data/"
# errcat's build script compiles the datasets its package carries (its
# `datasets` and `data` are links to the repository's folders).
listing=$(tar -tzf "$target_dir/package/errcat-"*.crate)
for dataset in datasets/*/; do
    grep -q "/$dataset.*\.json$" <<<"$listing" || fail "the errcat package lacks $dataset"
done
grep -q '/data/nats-io/nats-server/.*\.json$' <<<"$listing" || fail "the errcat package lacks the seeds of data/"
# crates.io refuses a .crate over 10 MB.
for crate in "$target_dir"/package/*.crate; do
    size=$(wc -c <"$crate")
    [ "$size" -le 10000000 ] || fail "$(basename "$crate") is $size bytes: over crates.io's 10 MB"
done

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
if [ "${#offline[@]}" -eq 0 ]; then
    cargo fetch "${manifest[@]}" --target "$host"
fi

# The build uses the packaged crates, not the workspace's.
cargo metadata "${manifest[@]}" --format-version 1 --offline >"$work/metadata.json"
libraries=()
for entry in "${published[@]}"; do
    read -r name _ _ kind <<<"$entry"
    [ "$kind" = bin ] || libraries+=("$name")
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
