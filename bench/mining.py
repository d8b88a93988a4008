#!/usr/bin/env python3
"""Log-template mining: `errcat draft` against drain3, on the same lines, in one run.

    python3 bench/mining.py [--renderings N] [--corpus DIR]

From the datasets (`datasets/*`), every
record's message is rendered N times (5 by default) with varied values by the
runtime's own rendering (`cargo run -p xtask -- mining`), the lines are
shuffled, and both miners group them with an empty catalog (a dataset of one
record that matches no line):

- errcat: `errcat --data EMPTY draft --json --out DRAFTS lines.txt`; each
  line's group is then the draft that explains it when the lines are scanned
  with the drafts as the catalog (`errcat --data DRAFTS scan --json`): what a
  user gets from the drafts; how many drafts the re-scan gives another
  count than their group's ("off") is printed too. The timed run is without `--out` (a second run
  writes the files and must print the same groups);
- drain3 (PyPI, `TemplateMiner()` with its default settings): each line's
  cluster id from `add_log_message`.

Reported for each: grouping accuracy (GA, as Loghub-2.0 computes it: the
lines of each true template count when they all land in one group that holds
no other line), template accuracy (the fraction of lines whose group's
template equals the line's record message, placeholders written alike), the
number of groups, lines per second of the whole process on one core
(`taskset -c 0`, the wall time of the process that mines, start-up included)
and its peak memory (maximum resident set size, from `getrusage` of the
child).

Needs: cargo, python3, `pip install drain3`, `taskset` (util-linux).
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPORA = ["nats-server", "nodejs-node", "django", "cargo", "kafka"]

# One record no rendered line matches: `--data` needs a record.
NEVER = {
    "record": {
        "id": "0000000000000000",
        "repo": "bench/none",
        "slug": "never-logged",
        "errorMessage": "this message is never logged zq9x",
        "messagePattern": "this message is never logged zq9x",
        "filePath": "",
        "documentation": "",
        "solutions": [],
        "tags": [],
        "schemaVersion": 2,
    }
}


def run_child(argv, stdout=None):
    """Runs argv on core 0: its wall time, its own peak RSS (KiB, from
    wait4) and its standard output."""
    with tempfile.TemporaryFile(mode="w+") as err:
        start = time.perf_counter()
        child = subprocess.Popen(["taskset", "-c", "0", *argv], stdout=stdout, stderr=err, text=True)
        out = child.stdout.read() if child.stdout else None
        _, status, usage = os.wait4(child.pid, 0)
        elapsed = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode not in (0, 1):
            err.seek(0)
            sys.exit(f"{' '.join(argv)} failed ({child.returncode}):\n{err.read()}")
    return elapsed, usage.ru_maxrss, out


def grouping_accuracy(truth, groups):
    lines_of_truth = defaultdict(set)
    lines_of_group = defaultdict(set)
    for line, (t, g) in enumerate(zip(truth, groups)):
        lines_of_truth[t].add(line)
        lines_of_group[g].add(line)
    correct = 0
    for t, lines in lines_of_truth.items():
        group = groups[next(iter(lines))]
        if group is not None and lines_of_group[group] == lines:
            correct += len(lines)
    return correct / len(truth)


GO_VERB = re.compile(r"%(?:%|[-+# 0]*[0-9]*(?:\.[0-9]+)?[a-zA-Z])")


def from_go(template):
    """A Go format string with each placeholder as `<*>` (`%%` is `%`)."""
    return GO_VERB.sub(lambda m: "%" if m.group(0) == "%%" else "<*>", template)


def template_accuracy(truth, groups, true_templates, group_template):
    correct = sum(1 for t, g in zip(truth, groups) if g is not None and group_template.get(g) == true_templates[t])
    return correct / len(truth)


def drain3_child(lines_path, out_path):
    """Runs in the measured child process: drain3 on every line."""
    from drain3 import TemplateMiner

    miner = TemplateMiner()
    ids = []
    with open(lines_path, encoding="utf-8") as lines:
        for line in lines:
            ids.append(miner.add_log_message(line.rstrip("\n"))["cluster_id"])
    templates = {c.cluster_id: c.get_template() for c in miner.drain.clusters}
    with open(out_path, "w", encoding="utf-8") as out:
        json.dump({"ids": ids, "templates": templates}, out)


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--drain3-child":
        drain3_child(sys.argv[2], sys.argv[3])
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--renderings", type=int, default=5)
    parser.add_argument("--corpus", action="append", help="corpus folders (default: the datasets of datasets/)")
    args = parser.parse_args()
    corpora = args.corpus or [os.path.join(ROOT, "datasets", name) for name in CORPORA]
    missing = [c for c in corpora if not os.path.isdir(c)]
    if missing:
        sys.exit(f"missing corpora: {', '.join(missing)}")
    try:
        import drain3  # noqa: F401
    except ImportError:
        sys.exit("drain3 is not installed: pip install drain3")
    if shutil.which("taskset") is None:
        sys.exit("taskset is not installed (util-linux)")

    subprocess.run(["cargo", "build", "--release", "-q", "-p", "errcat", "-p", "xtask"], cwd=ROOT, check=True)
    target = os.path.join(ROOT, "target", "release")
    work = tempfile.mkdtemp(prefix="mining-")
    try:
        subprocess.run(
            [os.path.join(target, "xtask"), "mining", work, str(args.renderings), *corpora], check=True
        )
        lines_path = os.path.join(work, "lines.txt")
        with open(os.path.join(work, "truth.txt"), encoding="utf-8") as f:
            truth = [int(line) for line in f]
        with open(os.path.join(work, "templates.txt"), encoding="utf-8") as f:
            true_templates = [line.rstrip("\n") for line in f]
        empty = os.path.join(work, "empty")
        os.mkdir(empty)
        with open(os.path.join(empty, "never.json"), "w", encoding="utf-8") as f:
            json.dump(NEVER, f)
        drafts = os.path.join(work, "drafts")
        errcat = os.path.join(target, "errcat")
        rows = []

        draft_cmd = [errcat, "--no-cache", "--data", empty, "draft", "--threads", "1", "--json"]
        elapsed, peak, out = run_child([*draft_cmd, lines_path], stdout=subprocess.PIPE)
        groups_json = [json.loads(line) for line in out.splitlines()]
        # The drafts as files (not timed: writing thousands of files is no
        # part of mining), checked to be the same groups.
        again = subprocess.run([*draft_cmd, "--out", drafts, lines_path], stdout=subprocess.PIPE, text=True, check=True)
        if again.stdout != out:
            sys.exit("errcat draft gave other groups on a second run")
        scan = subprocess.run(
            [errcat, "--no-cache", "--data", drafts, "scan", "--json", lines_path],
            stdout=subprocess.PIPE,
            text=True,
            check=False,
        )
        groups = [None] * len(truth)
        for line in scan.stdout.splitlines():
            found = json.loads(line)
            groups[found["line"] - 1] = found["id"]
        counts = defaultdict(int)
        for g in groups:
            counts[g] += 1
        agree = sum(1 for g in groups_json if counts.get(g["id"]) == g["count"])
        unexplained = sum(1 for g in groups if g is None)
        templates = {g["id"]: from_go(g["template"]) for g in groups_json}
        rows.append(
            (
                "errcat draft",
                grouping_accuracy(truth, groups),
                template_accuracy(truth, groups, true_templates, templates),
                len(groups_json),
                len(truth) / elapsed,
                peak,
            )
        )
        rescan = (len(groups_json) - agree, len(groups_json), unexplained)

        drain_out = os.path.join(work, "drain3.json")
        elapsed, peak, _ = run_child([sys.executable, os.path.abspath(__file__), "--drain3-child", lines_path, drain_out])
        with open(drain_out, encoding="utf-8") as f:
            drained = json.load(f)
        drain_templates = {int(k): v for k, v in drained["templates"].items()}
        rows.append(
            (
                "drain3 " + __import__("importlib.metadata").metadata.version("drain3"),
                grouping_accuracy(truth, drained["ids"]),
                template_accuracy(truth, drained["ids"], true_templates, drain_templates),
                len(drain_templates),
                len(truth) / elapsed,
                peak,
            )
        )
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print(f"{len(truth)} lines of {len(true_templates)} templates ({args.renderings} renderings each), one core")
    print("| miner | GA | template accuracy | groups | lines/s | peak RSS |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name, ga, ta, n, rate, peak in rows:
        print(f"| {name} | {ga:.4f} | {ta:.4f} | {n} | {rate:,.0f} | {peak / 1024:.0f} MiB |")
    print(f"speed: errcat {rows[0][4] / rows[1][4]:.1f}x drain3")
    off, drafts_written, unexplained = rescan
    print(
        f"re-scan with the drafts: {off} of {drafts_written} drafts off their group's count; "
        f"{unexplained} line(s) unexplained"
    )


if __name__ == "__main__":
    main()
