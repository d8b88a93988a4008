#!/usr/bin/env python3
"""How much of what real programs log for everyday failures errcat
explains: the error and warning events of tools/real/golden/logs/ (a small
Django 5.2.19 site, small Node programs and broken cargo projects, each
case a process's output as written; tools/real/logs/ and
tools/real/generate.sh make them), scanned by the real binary, case by
case, and compared with the truth the harness took from where the program
wrote each event.

For each event (an error or warning line with the lines that belong to
it: its traceback, its `Caused by:` chain, its stack):

* explained: a record is found on one of its lines;
* right record: one of the event's records (or one of the same message),
  where the event has records; an event the dataset has no record for
  (`expected` empty: the coverage gap) is never right, and a record found
  there is counted as wrong;
* values exact: where the harness knows the values (a log record's
  arguments), those of the right record found are they.

    bench/real_logs.py [--errcat target/release/errcat] [--corpus datasets] [--embedded]
                       [--golden tools/real/golden/logs] [--failures N] [--check THRESHOLDS] [program ...]

Each case's log is scanned with `errcat --data <corpus>/<program> scan
--json`, or with --embedded by `errcat scan --json` with the embedded
datasets (all of them, as a user runs it). Held-out cases (the
`<program>.held-out.jsonl` files, not to be tuned on) are a row of their
own. With --check tools/real/logs/thresholds.json it fails (status 1,
listing them) where a count is below its floor or above its ceiling;
errcat/tests/it/real_logs.rs runs it so, from the checked-in golden files.
"""

import argparse
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
from errcat_json import print_report, scan_text  # noqa: E402 (bench/errcat_json.py)
from real_rates import check, load_records, read_jsonl, value_verdict  # noqa: E402 (bench/real_rates.py)
sys.path.insert(0, os.path.join(ROOT, "tools", "real", "logs"))
from records import records_at  # noqa: E402 (tools/real/logs/records.py)

PROGRAMS = {"django": "Django 5.2.19", "nodejs-node": "Node", "cargo": "cargo"}
COUNTS = ("events", "lines", "explained", "with_record", "right", "wrong", "valued", "exact")


class Truth:
    """The records that are right for an event in the dataset scanned:
    those the harness found (`expected`, ids of the dataset it was run
    with) and those of this dataset where the event was raised or logged
    (`places`: file and line, an exception's classes; `code`: a record's
    errorCode), so that a regenerated dataset's records count as right
    where they are right."""

    def __init__(self, records):
        self.records = records
        self.by_file = {}
        self.by_code = {}
        for record in records.values():
            self.by_file.setdefault(record["filePath"], []).append(record)
            if record.get("errorCode"):
                self.by_code.setdefault(record["errorCode"], []).append(record["id"])

    def at(self, places):
        return {i for p in places for i in records_at(self.by_file, p["file"], p["line"], p.get("classes") and set(p["classes"]))}

    def expected(self, event):
        return set(event["expected"]) | set(self.by_code.get(event.get("code") or "", [])) | self.at(event.get("places", []))

    def same_text(self, ids, text):
        """Whether one of these records' messagePattern is exactly `text`
        (the part of the line a record was found on): the text then cannot
        tell the record found from the right one."""
        for i in ids:
            pattern = self.records.get(i, {}).get("messagePattern")
            try:
                if pattern and re.fullmatch(pattern, text, re.S):
                    return True
            except re.error:
                continue
        return False


def measure(goldens, errcat, data, truth):
    """The counts of COUNTS for these cases, and the failures."""
    messages = {i: r["errorMessage"] for i, r in truth.records.items()}
    counts = dict.fromkeys(COUNTS, 0)
    failures = []
    for golden in goldens:
        found = scan_text(errcat, data, golden["log"])
        log_lines = golden["log"].split("\n")
        for event in golden["events"]:
            counts["events"] += 1
            counts["lines"] += event["lines"]
            matches = [m for n in range(event["line"], event["line"] + event["lines"]) for m in found.get(n, [])]
            expected = sorted(truth.expected(event))
            counts["with_record"] += bool(expected)
            head = event["text"].split("\n")[0][:110]
            if not matches:
                if expected:
                    failures.append(f"miss: {golden['case']}: {head!r}, want {expected} "
                                    f"{messages.get(expected[0], '')[:60]!r}")
                continue
            counts["explained"] += 1
            same = {messages.get(i) for i in expected}
            right = [m for m in matches if m["id"] in expected or (expected and messages.get(m["id"]) in same)
                     or truth.same_text(expected, log_lines[m["line"] - 1][m["span"][0]:m["span"][1]])]
            if not right:
                counts["wrong"] += 1
                failures.append(f"wrong: {golden['case']} ({event['where']}): {head!r} -> {matches[0]['id']} "
                                f"{messages.get(matches[0]['id'], matches[0].get('name', ''))[:60]!r}, want {expected}")
                continue
            counts["right"] += 1
            # Values are those of the log call: compared where the record
            # found is one of the call's (not the exception's it carries).
            valued = [m for m in right if m["id"] in truth.at(event.get("value_places", []))]
            if event.get("values") and valued:
                right = valued
                counts["valued"] += 1
                verdict = value_verdict(event["values"], right[0], messages.get(right[0]["id"]))
                counts["exact"] += verdict == "exact"
                if verdict != "exact":
                    failures.append(f"values ({verdict}): {golden['case']}: {event['values']} found {right[0].get('args')}")
    return counts, failures


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--errcat", default=os.path.join(ROOT, "target", "release", "errcat"))
    parser.add_argument("--corpus", default=os.path.join(ROOT, "datasets"))
    parser.add_argument("--embedded", action="store_true", help="scan with the embedded datasets, not --data")
    parser.add_argument("--golden", default=os.path.join(ROOT, "tools", "real", "golden", "logs"))
    parser.add_argument("--failures", type=int, default=10, help="failures shown per program")
    parser.add_argument("--check", metavar="THRESHOLDS", help="fail where a count misses tools/real/logs/thresholds.json's")
    parser.add_argument("programs", nargs="*", default=list(PROGRAMS))
    options = parser.parse_args()
    if not os.access(options.errcat, os.X_OK):
        sys.exit(f"{options.errcat}: no errcat binary (cargo build --release --bin errcat, or --errcat)")
    pct = lambda k, n: f"{k}/{n} ({100 * k / max(n, 1):.1f}%)"  # noqa: E731
    table = ["| program | cases | error/warning events (lines) | explained | events a record is for "
             "| right record (of those) | right of explained | wrong record | values exact |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    shown = []
    results = {}
    for program in options.programs:
        corpus_dir = os.path.join(options.corpus, program)
        if not os.path.isdir(corpus_dir):
            sys.exit(f"{corpus_dir}: no such dataset (--corpus DIR)")
        truth = Truth(load_records(corpus_dir))
        data = None if options.embedded else corpus_dir
        for suffix, label in (("", ""), (".held-out", " (held-out)")):
            goldens = read_jsonl(os.path.join(options.golden, f"{program}{suffix}.jsonl"))
            c, failures = measure(goldens, options.errcat, data, truth)
            results[program + suffix] = c
            name = PROGRAMS.get(program, program) + label
            print(f"{name}: {len(goldens)} cases, {c['events']} events ({c['lines']} lines); explained "
                  f"{pct(c['explained'], c['events'])}; right record {pct(c['right'], c['with_record'])} of those a record "
                  f"is for, {pct(c['right'], c['explained'])} of those explained; wrong {c['wrong']}; values exact "
                  f"{pct(c['exact'], c['valued'])}", flush=True)
            table.append(f"| {name} | {len(goldens)} | {c['events']} ({c['lines']}) | {pct(c['explained'], c['events'])} | "
                         f"{c['with_record']} | {pct(c['right'], c['with_record'])} | {pct(c['right'], c['explained'])} | "
                         f"{c['wrong']} | {pct(c['exact'], c['valued'])} |")
            shown.extend(f"  {program}{suffix}: {f}" for f in failures[:options.failures])
    print_report(table, "first failures:", shown)
    if options.check:
        every = len(options.programs) == len(PROGRAMS)
        check(results, options.check, every)


if __name__ == "__main__":
    main()
