#!/usr/bin/env bash
# Regenerates the golden tables of catalog-runtime/tests/golden/ from the
# real formatters: Go's fmt (apt-get install golang-go), C's printf (gcc,
# glibc) and Python 3's `%`. The tables are checked in, so that tests (and
# CI) need none of these tools; rerun this after changing the generators.
#
# With --corpora it also renders the records of the corpora in
# ../shared/corpus (tools/golden/corpora.py: node, rustc, javac/java with
# libslf4j-java, go) into catalog-runtime/tests/golden/corpora/.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dest="$here/../../catalog-runtime/tests/golden"
mkdir -p "$dest"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

go version >&2
(cd "$work" && cp "$here/golden.go" main.go && GO111MODULE=off go run main.go) > "$dest/go.jsonl"

gcc --version | head -1 >&2
gcc -std=c11 -O0 -Wall -Wno-format -o "$work/golden_c" "$here/golden.c"
"$work/golden_c" > "$dest/c.jsonl"

python3 --version >&2
python3 "$here/golden.py" > "$dest/python.jsonl"

wc -l "$dest"/*.jsonl >&2

if [ "${1:-}" = "--corpora" ]; then
    node --version >&2
    rustc --version >&2
    java -version 2>&1 | head -1 >&2
    python3 "$here/corpora.py"
    wc -l "$dest"/corpora/*.jsonl >&2
fi
