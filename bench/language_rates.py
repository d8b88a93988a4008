#!/usr/bin/env python3
"""Classification rates on messages rendered by the real runtimes, searched
in a log line.

The renderings are those of tools/golden/corpora.py: every record of each
corpus rendered with varied, seeded values (empty strings, multi-word text,
the dialects' own delimiters, quotes, braces, backslashes, non-ASCII,
numbers at their limits, a last value holding the literal after it) by
the formatter its source calls (Node's util.format and template literals,
CPython's %, str.format and f-strings, rustc's format!, Java's
String.format and SLF4J's MessageFormatter, Go's fmt for nats-server). Each is written into a log line with text before and
after it,

    2026-12-01T10:00:00Z ERROR [worker-3] <message> (at src/x.rs:10)

except where the matching rules say what the text cannot: a message that
starts with a placeholder starts where the log prefix ends (no thread name
before it), and one that ends with a text placeholder runs to the end of
the line (no context after it).

the log is classified by the real binary, `errcat --data <corpus> scan
--json`, and each line is checked for

* the right record: this record, one with the same message, or one at least
  as literal (by this script's reading of the message) whose own
  messagePattern matches exactly the rendered text, found exactly there;
* all values recovered: the values found, in placeholder order, are the
  values rendered (numbers as numbers, text exactly).

Per language it prints both as counts and percentages, and the first
failures. nats-server (Go, the project's first dialect) is the
no-regression check: it is measured in a line and, as issue 26 gave its
baseline, with each message alone on its line. The Display round trip of every rendering, and the
failures by cause, are in catalog-runtime/tests/it/corpus_golden.rs.

    bench/language_rates.py [--errcat target/release/errcat] [--corpus ../shared/corpus]
                            [--golden catalog-runtime/tests/golden/corpora]
                            [--render] [--alone] [--failures N] [corpus ...]

Needs python3 and the errcat binary (`cargo build --release --bin errcat`);
by default it reads the checked-in renderings. --render renders them afresh
(into a temporary directory) through the runtimes, which then need node,
rustc, javac/java with slf4j-api and go (see tools/golden/corpora.py).
--alone puts each message alone on its line instead.

Last, a table gives each language's rendered rates beside those of what its
real program wrote (bench/real_rates.py's count on tools/real/golden/, with
the records in datasets/); --no-real leaves it out.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(ROOT, "tools", "golden"))
import corpora  # noqa: E402 (tools/golden/corpora.py)
sys.path.insert(0, HERE)
import real_rates  # noqa: E402 (bench/real_rates.py)

PREFIX = "2026-12-01T10:00:00Z ERROR "
CONTEXT = "[worker-3] "
AFTER = " (at src/x.rs:10)"
NAMES = {"nodejs-node": "JavaScript (nodejs-node)", "django": "Python (django)", "cargo": "Rust (cargo)",
         "kafka": "Java (kafka)", "nats-server": "Go (nats-server)"}


def after_of(golden):
    """The context after a message: none when it ends with text, which runs
    to the end of the line (the matcher's rule: nothing tells where the
    value stops)."""
    parsed = corpora.parse(golden["message"], golden["style"])
    ends_with_text = bool(parsed.holes) and parsed.literals[-1] == "" and parsed.holes[-1].kind == "text"
    return "" if ends_with_text else AFTER


def in_a_line(golden):
    """The message in a log line: after a log prefix and, unless it starts
    with a placeholder (which starts where the log prefix ends), a thread
    name; then context, unless it ends with text."""
    parsed = corpora.parse(golden["message"], golden["style"])
    starts_with_value = bool(parsed.holes) and parsed.literals[0] == ""
    before = PREFIX if starts_with_value else PREFIX + CONTEXT
    return before + golden["text"] + after_of(golden)


def read_golden(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def same(want, got):
    """A golden [kind, value] read back as the JSON value `got`."""
    kind, value = want
    if kind == "text":
        return isinstance(got, str) and got == value
    if kind == "bool":
        return got is value
    if isinstance(got, bool):
        return False
    if kind in ("int", "bigint"):
        if isinstance(got, str) and re.fullmatch(r"-?\d+", got):
            return int(got) == int(value)
        return isinstance(got, int) and got == int(value)
    return isinstance(got, (int, float)) and float(got) == float(value)


def expected_args(golden):
    """The golden values in placeholder order, as `errcat scan --json`
    gives `args` (a value rendered twice appears twice)."""
    parsed = corpora.parse(golden["message"], golden["style"])
    keys = parsed.keys
    return [golden["values"][keys.index(h.key)] for h in parsed.holes if h.kind != "none"]


def literal_len(record, corpus):
    try:
        return corpora.parse(record["errorMessage"], corpora.style_of(corpus, record)).literal_len()
    except corpora.Unrenderable:
        return 0


def measure(corpus, goldens, errcat, corpus_dir, alone, show):
    records = {r["id"]: r for r in corpora.load(corpus_dir)}
    lines = [g["text"] if alone else in_a_line(g) for g in goldens]
    with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False, encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
        log = f.name
    try:
        scan = subprocess.run([errcat, "--data", corpus_dir, "scan", "--json", log], capture_output=True, text=True)
    finally:
        os.unlink(log)
    if scan.returncode not in (0, 1):
        sys.exit(f"{errcat} scan failed ({scan.returncode}): {scan.stderr.strip()}")
    found = {}
    for line in scan.stdout.splitlines():
        match = json.loads(line)
        if not match.get("unmatched"):
            found[match["line"]] = match
    right = this = values = 0
    failures = []
    for number, golden in enumerate(goldens, start=1):
        start = len(lines[number - 1].encode("utf-8")) - len((golden["text"] + ("" if alone else after_of(golden))).encode("utf-8"))
        match = found.get(number)
        record = records[golden["id"]]
        text = golden["text"]
        span = [start, start + len(text.encode("utf-8"))]
        ok = False
        if match is not None:
            other = records.get(match["id"], {})
            ok = (match["id"] == golden["id"] or other.get("errorMessage") == golden["message"]
                  or (match["span"] == span and literal_len(other, corpus) >= literal_len(record, corpus)
                      and re.fullmatch(other.get("messagePattern") or "(?!)", text, re.S) is not None))
        this += match is not None and match["id"] == golden["id"]
        right += ok
        want = expected_args(golden)
        got_values = ok and len(match["args"]) == len(want) and all(same(w, g) for w, g in zip(want, match["args"]))
        values += got_values
        if not got_values and len(failures) < show:
            got = (match["id"], match["args"]) if match else None
            failures.append(f"{golden['id']} {'wrong record' if not ok else 'values'}: {lines[number - 1][:160]!r}\n"
                            f"        rendered {[v for _, v in want]}, found {got}")
    total = len(goldens)
    pct = lambda k: f"{k}/{total} ({100 * k / max(total, 1):.2f}%)"  # noqa: E731
    print(f"{NAMES.get(corpus, corpus)}: {total} renderings; right record {pct(right)} (this very record {this}); "
          f"all values {pct(values)}")
    for failure in failures:
        print("    " + failure)
    return right, values, total


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--errcat", default=os.path.join(ROOT, "target", "release", "errcat"))
    parser.add_argument("--corpus", default=os.path.join(ROOT, "..", "shared", "corpus"))
    parser.add_argument("--golden", default=os.path.join(ROOT, "catalog-runtime", "tests", "golden", "corpora"))
    parser.add_argument("--render", action="store_true", help="render afresh through the runtimes")
    parser.add_argument("--slf4j", help="the slf4j-api jar, with --render")
    parser.add_argument("--alone", action="store_true", help="each message alone on its line")
    parser.add_argument("--failures", type=int, default=8, help="failures shown per corpus")
    parser.add_argument("--real-golden", default=os.path.join(ROOT, "tools", "real", "golden"),
                        help="what the real programs wrote (bench/real_rates.py), reported beside the renderings")
    parser.add_argument("--no-real", action="store_true", help="leave out the real programs' rates")
    parser.add_argument("names", nargs="*", default=corpora.CORPORA)
    options = parser.parse_args()
    if not os.access(options.errcat, os.X_OK):
        sys.exit(f"{options.errcat}: no errcat binary (cargo build --release --bin errcat, or --errcat)")
    where = "alone on a line" if options.alone else f"in a line: {PREFIX}{CONTEXT}<message>{AFTER}"
    print(f"messages rendered by the real runtimes, searched {where}")
    rendered = {}
    for name in options.names:
        directory = os.path.join(options.corpus, name)
        if not os.path.isdir(directory):
            sys.exit(f"{directory}: no such corpus (clone `shared` beside the repository, or --corpus)")
        if options.render:
            goldens, counts, _ = corpora.renderings(name, corpora.load(directory), options, corpora.PER_RECORD[name])
            print(f"  rendered {name}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
        else:
            goldens = read_golden(os.path.join(options.golden, f"{name}.jsonl"))
        rendered[name] = measure(name, goldens, options.errcat, directory, options.alone, options.failures)
        if name == "nats-server" and not options.alone:
            # The no-regression check of issue 26 (2,001/2,002 right, >= 1,991
            # exact values) measured each message alone on its line.
            print("  and alone on a line (the no-regression check):")
            measure(name, goldens, options.errcat, directory, True, options.failures)
    if not options.no_real:
        print_beside_real(rendered, options)


def print_beside_real(rendered, options):
    """One table per language: the rendered rates beside those of what the
    real program wrote (tools/real/golden/, measured as bench/real_rates.py
    does, with the dataset of the same records)."""
    pct = lambda k, n: f"{k}/{n} ({100 * k / max(n, 1):.2f}%)"  # noqa: E731
    table = ["| language | rendered: right record | rendered: all values | real program | real: right record | real: values exact |",
             "| --- | ---: | ---: | --- | ---: | ---: |"]
    for name, (right, values, total) in rendered.items():
        real = ["—", "—", "—"]
        if name in real_rates.PROGRAMS:
            corpus_dir = os.path.join(ROOT, "datasets", name)
            _, c, _ = real_rates.measure_program(name, options.errcat, corpus_dir, options.real_golden)
            real = [real_rates.PROGRAMS[name], pct(c["right"], c["with_record"]),
                    pct(c["exact"], c["valued"]) if c["valued"] else "— (not known)"]
        table.append(f"| {NAMES.get(name, name)} | {pct(right, total)} | {pct(values, total)} | " + " | ".join(real) + " |")
    print()
    print("\n".join(table))


if __name__ == "__main__":
    main()
