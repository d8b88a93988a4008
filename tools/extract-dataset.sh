#!/usr/bin/env bash
# Rebuilds datasets/NAME with `errcat extract` from the source it names, and
# prints `errcat diff` of the change:
#
#   tools/extract-dataset.sh NAME        # nats-server, cargo, kafka, django, nodejs-node
#
# The source is fetched into a scratch folder (removed at the end): the
# pinned commit's archive from GitHub, the Django sdist from PyPI (pip), or
# Node's lib/ as compiled into the installed `node` binary. With SOURCE=DIR
# an already extracted tree is used instead (its root as the archive's).
# The new records replace those of datasets/NAME only if they pass `errcat
# check`. Uses the errcat of this checkout (built in release mode if needed)
# or the one ERRCAT names.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
name=${1:?usage: tools/extract-dataset.sh NAME}

case $name in
# The stamp is each dataset's `analyzedAt`: kept, so that unchanged records stay byte for byte.
nats-server) lang=go repo=nats-io/nats-server sha=1787eee035cf0253c201fa0f05afad92b6f296dc stamp=2026-11-29T00:00:00.000Z ;;
cargo) lang=rust repo=rust-lang/cargo sha=af373f761aa4e42b093c2e453078fd73c8ce54dd stamp=2026-11-30T00:00:00.000Z ;;
kafka) lang=java repo=apache/kafka sha=1eb7644349cb07139d6a3c1ad1986979647cac99 stamp=2026-11-30T00:00:00.000Z ;;
django) lang=python repo=django/django sha=5.2.19 stamp=2026-11-30T00:00:00.000Z ;;
nodejs-node) lang=javascript repo=nodejs/node sha= stamp=2026-11-30T00:00:00.000Z ;;
*)
    echo "unknown dataset $name (known: nats-server, cargo, kafka, django, nodejs-node)" >&2
    exit 2
    ;;
esac

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
src=${SOURCE:-}
if [ -z "$src" ]; then
    src=$scratch/src
    mkdir -p "$src"
    case $name in
    django)
        python3 -m pip download -q --no-deps --no-binary :all: -d "$scratch/sdist" "Django==$sha"
        tar -xzf "$scratch/sdist/django-$sha.tar.gz" -C "$src" --strip-components=1
        ;;
    nodejs-node)
        # The modules as compiled into the binary: the lib/ the messages come from.
        SCRATCH=$src node -e '
const n = process.binding("natives"), fs = require("fs"), path = require("path");
for (const [k, v] of Object.entries(n)) if (typeof v === "string") {
  const p = path.join(process.env.SCRATCH, "lib", k + ".js");
  fs.mkdirSync(path.dirname(p), { recursive: true }); fs.writeFileSync(p, v); }'
        # libuv's error map, where Node's repository has it, for the system
        # errors (Debian: apt-get install -y libuv1-dev).
        mkdir -p "$src/deps/uv/include"
        cp "${UV_HEADER:-/usr/include/uv.h}" "$src/deps/uv/include/uv.h"
        ;;
    *)
        curl -fsSL "https://codeload.github.com/$repo/tar.gz/$sha" | tar -xz -C "$src" --strip-components=1
        ;;
    esac
fi
[ -n "$sha" ] || sha=$(node -p process.version)

if [ -z "${ERRCAT:-}" ]; then
    cargo build -q --release --manifest-path "$root/Cargo.toml" -p errcat
    ERRCAT=$root/target/release/errcat
fi
"$ERRCAT" extract --lang "$lang" --src "$src" --repo "$repo" --sha "$sha" --out "$scratch/out" --name "$name" \
    --stamp "$stamp"
"$ERRCAT" check "$scratch/out/$name" >/dev/null || {
    echo "the new records do not pass errcat check; datasets/$name is unchanged" >&2
    exit 1
}
dest=$root/datasets/$name
mkdir -p "$scratch/old" "$dest"
cp -r "$dest/." "$scratch/old/"
rm -f "$dest"/*.json
cp -r "$scratch/out/$name/." "$dest/"
echo "datasets/$name: $(ls "$dest" | grep -c '\.json$') records (was $(ls "$scratch/old" | grep -c '\.json$'))"
# `errcat diff` exits 1 when the datasets differ: a report here, not a failure.
status=0
"$ERRCAT" diff "$scratch/old" "$dest" || status=$?
[ "$status" -le 1 ] || exit "$status"
