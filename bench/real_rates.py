#!/usr/bin/env python3
"""Classification rates on what real programs wrote (tools/real/golden/):
Django 5.2.19 raising and logging its own errors, Node's ERR_* errors,
cargo's errors for broken manifests and workspaces, and Kafka's messages
as SLF4J and String.format write them (tools/real/generate.sh regenerates
them from the programs).

Each golden message, as the program wrote it inside its log line (Python
logging's `asctime levelname [name] message`, Node's `util.inspect` head
after a timestamp, log4j's `[%d] %p %m (%c)` for Kafka; cargo's whole
stderr), is scanned by the real binary,
`errcat --data <corpus> scan --json`, and checked against the truth the
harness took from where the program raised it (Django's innermost frame,
Node's error code or frame, the cargo case's table, the Kafka record whose
format Java was given):

* right record: a message raised where a record is gets that record, one
  with the same message, or one whose messagePattern matches exactly this
  text (which cannot tell the two apart; counted apart too); for cargo,
  every record of the case's error chain is found in its stderr;
* values exact: where the harness knows them (ValidationError params, log
  record args, the arguments a Node case passed, every Kafka value), the
  values found are those (numbers compared as numbers);
* cut/run-over values: a value found that is a part of the true one, or
  holds it and more: the text after it (the line's context after the
  message) or before it (the line's text before the message);
* misses: nothing found for a message that has a record (those of
  several lines counted apart);
* false: a record found for a message raised where no record is.

    bench/real_rates.py [--errcat target/release/errcat] [--corpus datasets]
                        [--golden tools/real/golden] [--failures N] [--check THRESHOLDS] [program ...]

Prints a line per program, a markdown table, and the first failures. With
--check tools/real/thresholds.json it fails (status 1, listing them)
where a count is below (or, for wrong and false, above) the count measured
when the thresholds were set; errcat/tests/it/real_programs.rs runs it so
with the errcat under test, from the checked-in golden files alone.
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
PROGRAMS = {"django": "Django 5.2.19", "nodejs-node": "Node v20", "cargo": "cargo", "kafka": "Kafka (SLF4J, String.format)"}


def read_jsonl(path):
    goldens = []
    if not os.path.isfile(path):
        sys.exit(f"{path}: no golden file (they are checked in; tools/real/generate.sh writes them)")
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, start=1):
            if line.strip():
                try:
                    goldens.append(json.loads(line))
                except json.JSONDecodeError as err:
                    sys.exit(f"{path}:{number}: not a JSON object: {err}")
    return goldens


def load_records(corpus_dir):
    records = {}
    for name in os.listdir(corpus_dir):
        if name.endswith(".json"):
            with open(os.path.join(corpus_dir, name), encoding="utf-8") as f:
                record = json.load(f)["record"]
            records[record["id"]] = record
    return records


def fits(record, text):
    """Whether the record's messagePattern matches exactly this text: the
    text then cannot tell the record from the true one."""
    pattern = (record or {}).get("messagePattern")
    try:
        return bool(pattern) and re.fullmatch(pattern, text, re.S) is not None
    except re.error:
        return False


def without_fixed_values(want, got, message):
    """The pairs of true and found values where the record found fixes some
    of the true ones in its message: `log_response("%s: %s", reason, path)`
    documented once per reason (`Not Found: %s`) has the path alone for a
    field, the reason being its literal text. Each true value left out must
    be in the record's message; None where the counts still differ."""
    skip = len(want) - len(got)
    if skip <= 0 or not message:
        return None
    pairs = []
    found = iter(got)
    pending = next(found, None)
    for value in want:
        if skip and value in message and (pending is None or str(pending) != value):
            skip -= 1
            continue
        if pending is None:
            return None
        pairs.append((value, pending))
        pending = next(found, None)
    return pairs if not skip and pending is None else None


def value_verdict(want, match, message=None):
    """'exact', 'cut', 'run-over after' (a value that takes the text after
    it too: the context after the message), 'run-over before' (the line's
    text before the message) or 'other', for the values found. `message`
    is the record found's errorMessage (see without_fixed_values)."""
    if isinstance(want, dict):
        got = match.get("fields", {})
        pairs = [(want[k], got.get(k)) for k in want]
    else:
        got = match.get("args", [])
        pairs = list(zip(want, got)) if len(got) == len(want) else without_fixed_values(want, got, message)
        if pairs is None:
            return "other"
    verdict = "exact"
    for w, g in pairs:
        if isinstance(g, (int, float)) and not isinstance(g, bool) and re.fullmatch(r"-?\d+(?:\.\d*)?", w):
            # A number read as a number: `%.3f`'s 0.000 is 0.0.
            if float(w) == float(g):
                continue
            return "other"
        g = "" if g is None else str(g)
        if g == w:
            continue
        if w.startswith(g) or (g and g in w):
            verdict = "cut"
        elif g.startswith(w):
            verdict = "run-over after"
        elif w in g:
            verdict = "run-over before"
        else:
            return "other"
    return verdict


def line_of(golden):
    """The log line holding the message; a message of several lines, or
    one the harness has no line for, is scanned as it was written."""
    return golden.get("line") or golden["text"]


def new_counts():
    return dict(with_record=0, right=0, same_text=0, misses=0, multi_line=0, wrong=0, without=0, false=0, false_fits=0,
                valued=0, exact=0, cut=0, over=0, over_before=0)


def measure_messages(goldens, errcat, corpus_dir, records):
    messages = {i: r["errorMessage"] for i, r in records.items()}
    lines = [line_of(g) for g in goldens]
    starts, text = [], ""
    for line in lines:
        starts.append(text.count("\n") + 1)
        text += line.rstrip("\n") + "\n"
    found = scan_text(errcat, corpus_dir, text)
    counts = new_counts()
    failures = []
    for golden, start, line in zip(goldens, starts, lines):
        height = line.rstrip("\n").count("\n") + 1
        matches = [m for n in range(start, start + height) for m in found.get(n, [])]
        expected = golden["expected"]
        if not expected:
            counts["without"] += 1
            if matches:
                counts["false"] += 1
                counts["false_fits"] += fits(records.get(matches[0]["id"]), golden["text"])
                failures.append(f"false: {golden['case']}: {golden['text'][:100]!r} -> {matches[0]['id']} "
                                f"{messages.get(matches[0]['id'], '')[:60]!r}")
            continue
        counts["with_record"] += 1
        same = {messages.get(i) for i in expected}
        right = [m for m in matches if m["id"] in expected or messages.get(m["id"]) in same]
        if right:
            counts["right"] += 1
        elif any(fits(records.get(m["id"]), golden["text"]) for m in matches):
            # Another record whose message this very text is: right by
            # the text, which cannot tell the two apart.
            counts["right"] += 1
            counts["same_text"] += 1
        elif matches:
            counts["wrong"] += 1
            failures.append(f"wrong: {golden['case']} ({golden['where']}): {golden['text'][:100]!r} -> {matches[0]['id']} "
                            f"{messages.get(matches[0]['id'], '')[:60]!r}, want {expected}")
        else:
            counts["misses"] += 1
            counts["multi_line"] += "\n" in golden["text"].rstrip("\n")
            failures.append(f"miss: {golden['case']} ({golden['where']}): {golden['text'][:120]!r}, want {expected} "
                            f"{messages.get(expected[0], '')[:60]!r}")
        want = golden.get("values")
        if want and right:
            counts["valued"] += 1
            verdict = value_verdict(want, right[0], messages.get(right[0]["id"]))
            counts["exact"] += verdict == "exact"
            counts["cut"] += verdict == "cut"
            counts["over"] += verdict.startswith("run-over")
            counts["over_before"] += verdict == "run-over before"
            if verdict != "exact":
                failures.append(f"values ({verdict}): {golden['case']}: {want} found {right[0].get('args')}")
    return counts, failures


def measure_cargo(goldens, errcat, corpus_dir, records):
    """Each expected record of a case's error chain, found in its stderr."""
    messages = {i: r["errorMessage"] for i, r in records.items()}
    counts = new_counts()
    failures = []
    for golden in goldens:
        matches = [m for ms in scan_text(errcat, corpus_dir, golden["text"]).values() for m in ms]
        found_messages = {messages.get(m["id"]) for m in matches}
        found_ids = {m["id"] for m in matches}
        if not golden["expected"]:
            counts["without"] += 1
            if matches:
                counts["false"] += 1
                failures.append(f"false: {golden['case']}: {matches[0]['id']} {messages.get(matches[0]['id'], '')[:60]!r}")
        for rid in golden["expected"]:
            counts["with_record"] += 1
            if rid in found_ids or messages.get(rid) in found_messages:
                counts["right"] += 1
            else:
                counts["misses"] += 1
                counts["multi_line"] += "\n" in messages.get(rid, "")
                failures.append(f"miss: {golden['case']}: {rid} {messages.get(rid, '')[:70]!r} not found in "
                                f"{golden['text'][:160]!r}")
    return counts, failures


def measure_program(program, errcat, corpus_dir, golden_dir):
    """The golden messages of `program` (in `golden_dir`), their counts as
    scanned by `errcat --data corpus_dir`, and the failures."""
    goldens = read_jsonl(os.path.join(golden_dir, f"{program}.jsonl"))
    measure = measure_cargo if program == "cargo" else measure_messages
    counts, failures = measure(goldens, errcat, corpus_dir, load_records(corpus_dir))
    return goldens, counts, failures


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--errcat", default=os.path.join(ROOT, "target", "release", "errcat"))
    parser.add_argument("--corpus", default=os.path.join(ROOT, "datasets"))
    parser.add_argument("--golden", default=os.path.join(ROOT, "tools", "real", "golden"))
    parser.add_argument("--failures", type=int, default=10, help="failures shown per program")
    parser.add_argument("--check", metavar="THRESHOLDS", help="fail where a count misses tools/real/thresholds.json's")
    parser.add_argument("programs", nargs="*", default=list(PROGRAMS))
    options = parser.parse_args()
    if not os.access(options.errcat, os.X_OK):
        sys.exit(f"{options.errcat}: no errcat binary (cargo build --release --bin errcat, or --errcat)")
    table = ["| program | messages | raised where a record is | right record | values known | values exact "
             "| cut / run-over | misses | wrong record | false (no record) |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    shown = []
    results = {}
    for program in options.programs:
        corpus_dir = os.path.join(options.corpus, program)
        if not os.path.isdir(corpus_dir):
            sys.exit(f"{corpus_dir}: no such dataset (--corpus DIR)")
        goldens, c, failures = measure_program(program, options.errcat, corpus_dir, options.golden)
        results[program] = c
        pct = lambda k, n: f"{k}/{n} ({100 * k / max(n, 1):.1f}%)"  # noqa: E731
        print(f"{PROGRAMS.get(program, program)}: {len(goldens)} messages; right record {pct(c['right'], c['with_record'])}; "
              f"(another record of the same text {c['same_text']}); values exact {pct(c['exact'], c['valued'])}; "
              f"cut {c['cut']}, run over {c['over']} ({c['over_before']} into the text before the message); misses {c['misses']} ({c['multi_line']} of several lines); "
              f"wrong {c['wrong']}; false {c['false']} of {c['without']} ({c['false_fits']} whose text fits the record found)",
              flush=True)
        table.append(f"| {PROGRAMS.get(program, program)} | {len(goldens)} | {c['with_record']} | "
                     f"{pct(c['right'], c['with_record'])} | {c['valued']} | {pct(c['exact'], c['valued'])} | "
                     f"{c['cut']} / {c['over']} ({c['over_before']} before) | {c['misses']} ({c['multi_line']} of several lines) | {c['wrong']} | "
                     f"{c['false']} of {c['without']} |")
        shown.extend(f"  {program}: {f}" for f in failures[:options.failures])
    print_report(table, "first failures:", shown)
    if options.check:
        check(results, options.check, len(options.programs) == len(PROGRAMS))


def check(results, path, every_program):
    """Fails (status 1) where a count is below its floor, or above its
    ceiling, in the thresholds file: the rates as measured, so that a
    regression fails."""
    with open(path, encoding="utf-8") as f:
        thresholds = json.load(f)
    problems = [f"{p}: not measured" for p in thresholds if every_program and p not in results]
    for program, limits in thresholds.items():
        counts = results.get(program)
        if counts is None:
            continue
        for key, floor in limits.get("at_least", {}).items():
            if counts[key] < floor:
                problems.append(f"{program}: {key} {counts[key]} < {floor}")
        for key, ceiling in limits.get("at_most", {}).items():
            if counts[key] > ceiling:
                problems.append(f"{program}: {key} {counts[key]} > {ceiling}")
    if problems:
        sys.exit("real-program rates below the thresholds of " + path + ":\n  " + "\n  ".join(problems))
    print(f"\nall rates at their thresholds ({path})")


if __name__ == "__main__":
    main()
