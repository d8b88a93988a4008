#!/usr/bin/env python3
"""Log-template mining on real logs: `errcat draft` against drain3 and
against Drain and Brain of logparser3, on Loghub-2k, in one run.

    python3 bench/mining_loghub.py [--loghub DIR] [--held-out DIR | --fetch-held-out] [--shared DIR]

Each system of a Loghub-2k folder (`S/S_2k.log`, `S/S_2k.log_structured.csv`)
is mined twice by every miner: its `Content` column (the message, as Loghub
parsed it out of the line) and its raw lines (errcat strips the log prefix
itself; the others get the whole line). Each miner runs as its own process on
one core (`taskset -c 0`), timed whole (start-up included), its peak RSS read by
GNU time:

- errcat: `errcat --data EMPTY draft --json`, an empty catalog; each line's
  group is the draft that a scan of the same lines with the drafts gives it
  (`errcat --data DRAFTS scan --json`), which is what a user of the drafts
  gets. Also counted: `errcat check DRAFTS` errors and "can never win"
  warnings, and the drafts whose re-scan count is not their group's count.
- drain3 (`TemplateMiner()`, its defaults): each line's cluster, the
  cluster's final template.
- Drain and Brain from logparser3, with the settings of logparser3's own
  Loghub-2k benchmark for that system (masking regexes, similarity threshold
  and depth; Brain's delimiters and threshold), reading the lines as
  `<Content>`.

Scored with `shared/tools/loghub_score.py` (GA, FGA, PA, FTA of Jiang et al.,
ISSTA 2024). `--held-out DIR` scores a second Loghub-2k folder the same way,
in its own table (systems not to tune on); `--fetch-held-out` downloads the
eight Loghub-2k systems that `../shared/loghub-2k` does not have from the
Loghub repository, at a fixed commit, into `target/loghub-held-out/` (once),
and scores those: without network the table is left out, and a line on
standard error says so. The speed row mines the contents
of all the systems of `--loghub`, repeated to at least 100,000 lines, with
errcat and drain3.

Needs: cargo, python3, taskset (util-linux), GNU time (Debian's `time`); installs `drain3` and
`logparser3` with pip when they are missing.
"""

import argparse
import ast
import csv
import importlib.metadata
import importlib.util
import json
import math
import os
import subprocess
import sys
import tempfile
from collections import defaultdict

from mining_lib import ROOT, Drafted, build_errcat, empty_catalog, ensure_packages, run_child

PACKAGES = [("drain3", "drain3==0.9.11"), ("logparser", "logparser3==1.0.4")]
MINERS = ["errcat draft", "drain3", "Drain", "Brain"]
METRICS = ["GA", "FGA", "PA", "FTA"]
SPEED_LINES = 100_000


def systems(folder):
    """The systems of a Loghub-2k folder, sorted."""
    found = []
    for name in sorted(os.listdir(folder)):
        if os.path.isfile(os.path.join(folder, name, f"{name}_2k.log_structured.csv")):
            found.append(name)
    return found


class System:
    def __init__(self, folder, name):
        self.name = name
        self.structured = os.path.join(folder, name, f"{name}_2k.log_structured.csv")
        with open(self.structured, encoding="utf-8", errors="replace", newline="") as f:
            rows = list(csv.DictReader(f))
        self.contents = [r["Content"] for r in rows]
        with open(os.path.join(folder, name, f"{name}_2k.log"), encoding="utf-8", errors="replace", newline="") as f:
            raw = f.read().split("\n")
        if raw and raw[-1] == "":
            raw.pop()
        self.raw = [line.rstrip("\r") for line in raw]
        if len(self.raw) != len(rows):
            self.raw = None  # not one structured row per raw line: the raw mode is left out


# --- the children: one miner on one file of lines ---------------------------------------------


def logparser_settings(kind, system):
    """logparser3's own Loghub-2k benchmark settings of `system`, read from
    its benchmark script (a dict literal; the script itself runs the whole
    benchmark when imported)."""
    spec = importlib.util.find_spec(f"logparser.{kind}")
    path = os.path.join(os.path.dirname(spec.origin), "benchmark.py")
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "benchmark_settings" for t in node.targets):
            return ast.literal_eval(node.value).get(system)
    sys.exit(f"{path}: no benchmark_settings")


def child(kind, system, lines_path, out_path):
    """Runs in the timed process: `kind` on every line of `lines_path`."""
    with open(lines_path, encoding="utf-8") as f:
        lines = [line.rstrip("\n") for line in f]
    if kind == "drain3":
        from drain3 import TemplateMiner

        miner = TemplateMiner()
        groups = [miner.add_log_message(line)["cluster_id"] for line in lines]
        templates = {c.cluster_id: c.get_template() for c in miner.drain.clusters}
    else:
        settings = logparser_settings(kind, system) or {}
        work = tempfile.mkdtemp(prefix=f"{kind}-")
        name = os.path.basename(lines_path)
        common = {"log_format": "<Content>", "indir": os.path.dirname(lines_path), "outdir": work}
        if kind == "Drain":
            from logparser.Drain import LogParser

            parser = LogParser(
                **common, depth=settings.get("depth", 4), st=settings.get("st", 0.5), rex=settings.get("regex", [])
            )
        else:
            from logparser.Brain import LogParser

            parser = LogParser(
                logname=system,
                **common,
                threshold=settings.get("theshold", 2),
                delimeter=settings.get("delimiter", []),
                rex=settings.get("regex", []),
            )
        # Both print progress on standard output.
        stdout, sys.stdout = sys.stdout, open(os.devnull, "w")
        try:
            parser.parse(name)
        finally:
            sys.stdout = stdout
        with open(os.path.join(work, f"{name}_structured.csv"), encoding="utf-8", newline="") as f:
            parsed = list(csv.DictReader(f))
        if len(parsed) != len(lines):
            sys.exit(f"{kind} parsed {len(parsed)} of {len(lines)} lines of {lines_path}")
        groups = [row["EventTemplate"] for row in parsed]
        templates = {t: t for t in groups}
    with open(out_path, "w", encoding="utf-8") as out:
        json.dump({"groups": groups, "templates": templates}, out)


# --- the parent -----------------------------------------------------------------------------------


def score(scorer, structured, groups, templates, work):
    """loghub_score.py's four metrics of a prediction (None: no prediction)."""
    path = os.path.join(work, "predictions.jsonl")
    with open(path, "w", encoding="utf-8") as f:
        for line, group in enumerate(groups, 1):
            if group is not None:
                f.write(json.dumps({"line": line, "group": group, "template": templates[group]}) + "\n")
    out = subprocess.run([sys.executable, scorer, structured, path], stdout=subprocess.PIPE, text=True, check=True)
    return json.loads(out.stdout)


def mine(errcat, empty, scorer, system, lines, work):
    """Every miner on `lines` of `system`: {miner: result}."""
    lines_path = os.path.join(work, f"{system.name}.log")
    with open(lines_path, "w", encoding="utf-8") as f:
        f.writelines(line + "\n" for line in lines)
    results = {}
    drafts_dir = os.path.join(work, f"drafts-{system.name}")
    drafted = Drafted(errcat, empty, lines_path, drafts_dir, len(lines))
    subprocess.run(["rm", "-rf", drafts_dir], check=True)
    result = score(scorer, system.structured, drafted.groups, drafted.templates, work)
    result.update(
        seconds=drafted.elapsed,
        peak=drafted.peak_kib,
        lines=len(lines),
        off=drafted.off,
        unexplained=drafted.unexplained,
        never_win=drafted.never_win,
        check_errors=drafted.check_errors,
    )
    results["errcat draft"] = result
    for kind in MINERS[1:]:
        out_path = os.path.join(work, f"{kind}.json")
        elapsed, peak, _ = run_child([sys.executable, os.path.abspath(__file__), "--child", kind, system.name, lines_path, out_path])
        with open(out_path, encoding="utf-8") as f:
            mined = json.load(f)
        templates = {str(k): v for k, v in mined["templates"].items()}
        groups = [str(g) for g in mined["groups"]]
        result = score(scorer, system.structured, groups, templates, work)
        result.update(seconds=elapsed, peak=peak, lines=len(lines))
        results[kind] = result
    return results


def table(title, per_system):
    """Average of each metric over the systems, then each system's."""
    print(f"\n{title}\n")
    print("| miner | " + " | ".join(METRICS) + " | lines/s | peak RSS |")
    print("| --- |" + " ---: |" * (len(METRICS) + 2))
    for miner in MINERS:
        rows = [r[miner] for r in per_system.values()]
        means = [sum(r[m] for r in rows) / len(rows) for m in METRICS]
        rate = sum(r["lines"] for r in rows) / sum(r["seconds"] for r in rows)
        peak = max(r["peak"] for r in rows)
        print(f"| {miner} | " + " | ".join(f"{v:.3f}" for v in means) + f" | {rate:,.0f} | {peak / 1024:.0f} MiB |")
    print("\n| system | " + " | ".join(f"{m} {metric}" for m in ("errcat", "Drain", "Brain") for metric in ("GA", "PA")) + " |")
    print("| --- |" + " ---: |" * 6)
    for name, results in per_system.items():
        cells = [results[m][metric] for m in ("errcat draft", "Drain", "Brain") for metric in ("GA", "PA")]
        print(f"| {name} | " + " | ".join(f"{v:.3f}" for v in cells) + " |")
    loop = [r["errcat draft"] for r in per_system.values()]
    print(
        f"\nerrcat's loop: {sum(r['groups'] for r in loop)} drafts; re-scan off their group's count: "
        f"{sum(r['off'] for r in loop)}; lines the drafts leave unexplained: {sum(r['unexplained'] for r in loop)}; "
        f"`errcat check`: {sum(r['check_errors'] for r in loop)} set(s) with errors, "
        f"{sum(r['never_win'] for r in loop)} \"can never win\" warning(s)"
    )


def speed(errcat, empty, all_systems, work):
    """errcat and drain3 on the systems' contents repeated to SPEED_LINES lines or more."""
    contents = [line for system in all_systems for line in system.contents]
    repeat = math.ceil(SPEED_LINES / len(contents))
    path = os.path.join(work, "speed.log")
    with open(path, "w", encoding="utf-8") as f:
        for _ in range(repeat):
            f.writelines(line + "\n" for line in contents)
    lines = len(contents) * repeat
    drafted = Drafted(errcat, empty, path, os.path.join(work, "drafts-speed"), lines)
    elapsed, peak, _ = run_child([sys.executable, os.path.abspath(__file__), "--child", "drain3", "all", path, os.path.join(work, "speed.json")])
    print(f"\nSpeed: the {len(all_systems)} systems' contents {repeat} times ({lines:,} lines), one core, whole process\n")
    print("| miner | lines/s | peak RSS |")
    print("| --- | ---: | ---: |")
    print(f"| errcat draft | {lines / drafted.elapsed:,.0f} | {drafted.peak_kib / 1024:.0f} MiB |")
    print(f"| drain3 | {lines / elapsed:,.0f} | {peak / 1024:.0f} MiB |")
    print(f"errcat {elapsed / drafted.elapsed:.1f}x drain3's lines/s")


# The Loghub-2k systems of the Loghub repository that `shared/loghub-2k` does
# not have, and the commit they are read at.
HELD_OUT = ["HDFS", "HPC", "Hadoop", "Linux", "OpenSSH", "Proxifier", "Thunderbird", "Zookeeper"]
LOGHUB_COMMIT = "dd61d0952749ee7963bde24220d1be5ede023033"
LOGHUB_RAW = "https://raw.githubusercontent.com/logpai/loghub"


def fetch_held_out():
    """The folder of the held-out systems, downloaded once into target/, or
    None (and why, on standard error) when they cannot be downloaded."""
    import urllib.request

    folder = os.path.join(ROOT, "target", "loghub-held-out", LOGHUB_COMMIT[:12])
    try:
        for name in HELD_OUT:
            for suffix in ("_2k.log", "_2k.log_structured.csv"):
                path = os.path.join(folder, name, name + suffix)
                if os.path.isfile(path):
                    continue
                url = f"{LOGHUB_RAW}/{LOGHUB_COMMIT}/{name}/{name}{suffix}"
                with urllib.request.urlopen(url, timeout=30) as response:
                    data = response.read()
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path + ".part", "wb") as f:
                    f.write(data)
                os.replace(path + ".part", path)
    except OSError as err:
        print(f"SKIPPED: the held-out systems were not fetched from {LOGHUB_RAW} ({err}); "
              "their table is left out", file=sys.stderr)
        return None
    return folder


def run(args):
    ensure_packages(PACKAGES)
    if args.fetch_held_out:
        args.held_out = fetch_held_out()
    scorer = os.path.join(args.shared, "tools", "loghub_score.py")
    folders = [("dev", args.loghub)] + ([("held-out", args.held_out)] if args.held_out else [])
    for _, folder in folders:
        if not os.path.isdir(folder) or not systems(folder):
            sys.exit(f"{folder}: no Loghub-2k systems there")
    if not os.path.isfile(scorer):
        sys.exit(f"{scorer}: missing (the scorer of shared/tools)")
    errcat = build_errcat()
    import drain3  # noqa: F401  (installed above)

    versions = ", ".join(f"{p} {importlib.metadata.version(p)}" for p in ("drain3", "logparser3"))
    work = tempfile.mkdtemp(prefix="mining-loghub-")
    try:
        empty = empty_catalog(work)
        for label, folder in folders:
            loaded = [System(folder, name) for name in systems(folder)]
            by_mode = {"Content": defaultdict(dict), "raw lines": defaultdict(dict)}
            for system in loaded:
                by_mode["Content"][system.name] = mine(errcat, empty, scorer, system, system.contents, work)
                if system.raw is not None:
                    by_mode["raw lines"][system.name] = mine(errcat, empty, scorer, system, system.raw, work)
                else:
                    print(f"{system.name}: raw lines not one per structured row; raw mode left out", file=sys.stderr)
            names = ", ".join(s.name for s in loaded)
            for mode, per_system in by_mode.items():
                table(f"Loghub-2k {label} ({names}), {mode}; {versions}", per_system)
            if label == "dev":
                speed(errcat, empty, loaded, work)
    finally:
        subprocess.run(["rm", "-rf", work], check=False)


def main():
    if len(sys.argv) == 6 and sys.argv[1] == "--child":
        child(*sys.argv[2:])
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(parser)
    run(parser.parse_args())


def add_arguments(parser):
    shared = os.path.join(os.path.dirname(ROOT), "shared")
    parser.add_argument("--shared", default=shared, help="the shared folder (its tools/loghub_score.py)")
    parser.add_argument("--loghub", default=os.path.join(shared, "loghub-2k"), help="a Loghub-2k folder (the dev set)")
    held_out = parser.add_mutually_exclusive_group()
    held_out.add_argument("--held-out", help="a Loghub-2k folder of other systems, scored in a table of its own")
    held_out.add_argument(
        "--fetch-held-out",
        action="store_true",
        help=f"download Loghub-2k's {', '.join(HELD_OUT)} (Loghub at {LOGHUB_COMMIT[:7]}) and score them",
    )


if __name__ == "__main__":
    main()
