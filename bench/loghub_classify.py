#!/usr/bin/env python3
"""Loghub-2k classification: the raw lines of each system classified to
their event template by the real binary.

For each system of ../shared/loghub-2k, its `EventTemplate`s become a
dataset of records (tools/loghub_records.py: `<*>`, and Mac's few `<NUM>`,
a text placeholder that may be empty), and `errcat --data <records> scan
--json S_2k.log` reads the raw lines, headers and all, once with the
default envelope detection (`--envelope auto`) and once with `--envelope
none`. A line counts when the record found is its true template's (the
`EventTemplate` of its row of the structured CSV; each record's message is
its template's text). Prints, per system and setting, the lines classified
right and the wall time of the `errcat scan` process (start-up included;
its compiled catalog cached beforehand), then a markdown table, then why
lines fail, by cause, with examples.

    bench/loghub_classify.py [--errcat target/release/errcat] [--loghub ../shared/loghub-2k]
                             [--examples N] [SYSTEM ...]

Needs python3 and the errcat binary (`cargo build --release --bin errcat`).
"""

import argparse
import collections
import csv
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
sys.path.insert(0, HERE)
import loghub_records  # noqa: E402 (tools/loghub_records.py)
from errcat_json import print_report, scan_file  # noqa: E402 (bench/errcat_json.py)

SYSTEMS = ["Android", "Apache", "BGL", "HealthApp", "Mac", "OpenStack", "Spark", "Windows"]
SETTINGS = ["auto", "none"]


def truth(loghub, system):
    path = os.path.join(loghub, system, f"{system}_2k.log_structured.csv")
    with open(path, encoding="utf-8", errors="replace", newline="") as f:
        return list(csv.DictReader(f))


def cause(row, match, templates, raw):
    """Why a line is not classified to its template."""
    content, template = row["Content"], row["EventTemplate"]
    fits = re.fullmatch(loghub_records.pattern_of(template), content, re.S) is not None
    if match is None:
        if not fits:
            return "nothing found; the template does not fit the Content column either (ground truth)"
        if raw.find(content) < 0:
            return "nothing found; the raw line does not hold the Content column as is"
        if template.startswith("<*>"):
            return "nothing found; the template fits the Content and starts with a placeholder"
        return "nothing found; the template fits the Content"
    other = templates.get(match["id"], "")
    if re.fullmatch(loghub_records.pattern_of(other), content, re.S):
        return "another template that also fits the Content (templates that overlap)"
    return "another template, found in a part of the line"


def measure(errcat, loghub, system):
    rows = truth(loghub, system)
    log = os.path.join(loghub, system, f"{system}_2k.log")
    with open(log, encoding="utf-8", errors="replace", newline="") as f:
        raw_lines = f.read().splitlines()
    with tempfile.TemporaryDirectory() as work:
        data = os.path.join(work, "records")
        loghub_records.write(system, data, loghub)
        templates = {r["record"]["id"]: r["record"]["errorMessage"] for r in loghub_records.records(system, loghub)}
        env = dict(os.environ, ERRCAT_CACHE_DIR=os.path.join(work, "cache"))
        scan_file(errcat, data, log, ["--envelope", "none"], env)  # warms the compiled-catalog cache
        results = {}
        for envelope in SETTINGS:
            found, seconds = scan_file(errcat, data, log, ["--envelope", envelope], env)
            right = 0
            causes = collections.defaultdict(list)
            for number, row in enumerate(rows, start=1):
                match = (found.get(number) or [None])[0]
                # The record of the line's template (each record's message is
                # its template), or one of the same template text.
                if match is not None and templates.get(match["id"]) == row["EventTemplate"]:
                    right += 1
                    continue
                raw = raw_lines[number - 1] if number <= len(raw_lines) else ""
                got = f"{match['id']} {templates.get(match['id'], '')!r} {match.get('args')}" if match else "nothing"
                causes[cause(row, match, templates, raw)].append(
                    f"line {number} ({row['EventId']} {row['EventTemplate'][:70]!r}): {raw[:150]!r} -> {got[:150]}")
            results[envelope] = (right, len(rows), seconds, causes)
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--errcat", default=os.path.join(ROOT, "target", "release", "errcat"))
    parser.add_argument("--loghub", default=loghub_records.DEFAULT_LOGHUB)
    parser.add_argument("--examples", type=int, default=2, help="examples shown per failure cause")
    parser.add_argument("systems", nargs="*", default=SYSTEMS)
    options = parser.parse_args()
    if not os.access(options.errcat, os.X_OK):
        sys.exit(f"{options.errcat}: no errcat binary (cargo build --release --bin errcat, or --errcat)")
    if not os.path.isdir(options.loghub):
        sys.exit(f"{options.loghub}: no Loghub-2k (clone `shared` beside the repository, or --loghub)")
    table = ["| system | lines | right, `auto` | right, `--envelope none` | time `auto` | time `none` |",
             "| --- | ---: | ---: | ---: | ---: | ---: |"]
    failures = []
    for system in options.systems:
        results = measure(options.errcat, options.loghub, system)
        (a, n, ta, ca), (b, _, tb, cb) = results["auto"], results["none"]
        pct = lambda k: f"{k}/{n} ({100 * k / max(n, 1):.2f}%)"  # noqa: E731
        print(f"{system}: auto {pct(a)} in {ta:.3f} s; none {pct(b)} in {tb:.3f} s", flush=True)
        table.append(f"| {system} | {n} | {pct(a)} | {pct(b)} | {ta * 1000:.0f} ms | {tb * 1000:.0f} ms |")
        for envelope, causes in (("auto", ca), ("none", cb)):
            for why, lines in sorted(causes.items(), key=lambda kv: -len(kv[1])):
                failures.append(f"{system} ({envelope}): {len(lines)} {why}")
                failures.extend(f"    e.g. {example}" for example in lines[:options.examples])
    print_report(table, "why lines fail:", failures)


if __name__ == "__main__":
    main()
