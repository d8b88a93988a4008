#!/usr/bin/env bash
# Regenerates tools/real/golden/ from the real programs: Django 5.2.19 from
# PyPI (installed into a venv under target/), the machine's node, the
# machine's cargo, and Java's SLF4J and String.format for Kafka's messages. The golden files are checked in, so that the check
# (errcat/tests/it/real_programs.rs) and bench/real_rates.py need none of
# these programs; rerun this after changing a harness.
#
#     bash tools/real/generate.sh    # needs python3 (venv, pip), node, cargo, javac/java, libslf4j-java
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
corpus="${ERRCAT_CORPUS:-$root/datasets}"
dest="$here/golden"
mkdir -p "$dest"

venv="$root/target/real-venv"
if ! "$venv/bin/python" -c 'import django, sys; sys.exit(django.__version__ != "5.2.19")' 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q django==5.2.19
fi
"$venv/bin/python" -W ignore "$here/django_errors.py" "$corpus/django" > "$dest/django.jsonl"

# Node's harness reads the records' codes and places from an index.
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 - "$corpus/nodejs-node" > "$work/node-index.json" <<'PY'
import json, os, sys
out = []
for name in sorted(os.listdir(sys.argv[1])):
    if name.endswith(".json"):
        with open(os.path.join(sys.argv[1], name), encoding="utf-8") as f:
            r = json.load(f)["record"]
        out.append({k: r[k] for k in ("id", "errorCode", "filePath", "sourceCodeStart", "sourceCodeEnd")})
json.dump(out, sys.stdout)
PY
(cd "$work" && node --no-warnings --experimental-vm-modules "$here/node_errors.js" "$work/node-index.json") > "$dest/nodejs-node.jsonl"

python3 "$here/cargo_errors.py" > "$dest/cargo.jsonl"

# Java's own formatters (javac/java; slf4j-api: apt-get install -y libslf4j-java).
python3 "$here/kafka_messages.py" "$corpus/kafka" > "$dest/kafka.jsonl"

# Real programs' logs for everyday failures (tools/real/logs/): the site's,
# the scripts' and the projects' output as written, each with its held-out
# cases in a file of their own (not to be tuned on).
logs="$dest/logs"
mkdir -p "$logs"
for held in "" "--held-out"; do
    suffix="${held:+.held-out}"
    "$venv/bin/python" -W ignore "$here/logs/django_logs.py" "$corpus/django" $held > "$logs/django$suffix.jsonl"
    (cd "$work" && node "$here/logs/node_logs.js" "$work/node-index.json" $held) > "$logs/nodejs-node$suffix.jsonl"
    python3 "$here/logs/cargo_logs.py" $held > "$logs/cargo$suffix.jsonl"
done
wc -l "$dest"/*.jsonl "$logs"/*.jsonl >&2
