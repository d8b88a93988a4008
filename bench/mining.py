#!/usr/bin/env python3
"""Log-template mining: `errcat draft` against other miners, on the same lines, in one run.

    python3 bench/mining.py [--loghub DIR] [--held-out DIR | --fetch-held-out] [--renderings N] [--corpus DIR] [--rendered-only]

First the real logs (`bench/mining_loghub.py`: Loghub-2k, errcat against
drain3 and logparser3's Drain and Brain, GA/FGA/PA/FTA, time and memory),
then the corpus-rendered benchmark, a second table: from the datasets
(`datasets/*`), every record's message is rendered N times (5 by default)
with varied values by the runtime's own rendering (`cargo run -p xtask --
mining`), the lines are shuffled, and errcat and drain3 group them with an
empty catalog (a dataset of one record that matches no line):

- errcat: `errcat --data EMPTY draft --json lines.txt`; each line's group is
  then the draft that explains it when the lines are scanned with the drafts
  as the catalog (`errcat --data DRAFTS scan --json`): what a user gets from
  the drafts; how many drafts the re-scan gives another count than their
  group's ("off") is printed too. The timed run is without `--out` (a second
  run writes the files and must print the same groups);
- drain3 (PyPI, `TemplateMiner()` with its default settings): each line's
  cluster id from `add_log_message`.

Reported for each: grouping accuracy (GA, as Loghub-2.0 computes it: the
lines of each true template count when they all land in one group that holds
no other line), template accuracy (the fraction of lines whose group's
template equals the line's record message, placeholders written alike), the
number of groups, lines per second of the whole process on one core
(`taskset -c 0`, the wall time of the process that mines, start-up included)
and its peak memory (maximum resident set size, read by GNU time).

Needs: cargo, python3, `taskset` (util-linux), GNU time; installs `drain3` (and, for the
real logs, `logparser3`) with pip when missing.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict

import mining_loghub
from mining_lib import ROOT, Drafted, build_errcat, empty_catalog, ensure_packages, run_child

CORPORA = ["nats-server", "nodejs-node", "django", "cargo", "kafka"]


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


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--renderings", type=int, default=5)
    parser.add_argument("--corpus", action="append", help="corpus folders (default: the datasets of datasets/)")
    parser.add_argument("--rendered-only", action="store_true", help="only the corpus-rendered benchmark")
    mining_loghub.add_arguments(parser)
    args = parser.parse_args()
    corpora = args.corpus or [os.path.join(ROOT, "datasets", name) for name in CORPORA]
    missing = [c for c in corpora if not os.path.isdir(c)]
    if missing:
        sys.exit(f"missing corpora: {', '.join(missing)}")
    if shutil.which("taskset") is None:
        sys.exit("taskset is not installed (util-linux)")
    if not args.rendered_only:
        mining_loghub.run(args)
        print("\nThe corpus-rendered benchmark:\n")
    ensure_packages(mining_loghub.PACKAGES[:1])
    target = os.path.dirname(build_errcat("xtask"))
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
        empty = empty_catalog(work)
        drafted = Drafted(os.path.join(target, "errcat"), empty, lines_path, os.path.join(work, "drafts"), len(truth))
        templates = {g["id"]: from_go(g["template"]) for g in drafted.drafts}
        rows = [
            (
                "errcat draft",
                grouping_accuracy(truth, drafted.groups),
                template_accuracy(truth, drafted.groups, true_templates, templates),
                len(drafted.drafts),
                len(truth) / drafted.elapsed,
                drafted.peak_kib,
            )
        ]
        rescan = (drafted.off, len(drafted.drafts), drafted.unexplained)

        drain_out = os.path.join(work, "drain3.json")
        drain3 = [sys.executable, mining_loghub.__file__, "--child", "drain3", "rendered", lines_path, drain_out]
        elapsed, peak, _ = run_child(drain3)
        with open(drain_out, encoding="utf-8") as f:
            drained = json.load(f)
        drain_templates = {int(k): v for k, v in drained["templates"].items()}
        rows.append(
            (
                "drain3 " + __import__("importlib.metadata").metadata.version("drain3"),
                grouping_accuracy(truth, drained["groups"]),
                template_accuracy(truth, drained["groups"], true_templates, drain_templates),
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
