"""What both mining benchmarks share: a timed child on one core, the empty
catalog errcat drafts against, and errcat's groups as a user gets them (the
drafts, `errcat check` of them, and a scan of the same lines with them)."""

import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# One record no line matches: `--data` needs a record.
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


def ensure_packages(packages):
    """Imports each (module, pip requirement) pair, installing with pip what
    is missing (and saying so)."""
    missing = [req for module, req in packages if importlib.util.find_spec(module) is None]
    if missing:
        print(f"installing with pip: {' '.join(missing)}", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", *missing], check=True)
        importlib.invalidate_caches()


# GNU time: it forks its child from a process of its own size, so the peak
# RSS it reads is the child's (a child that Python starts with vfork and exec
# is charged the parent's peak: the kernel keeps the larger at exec).
GNU_TIME = "/usr/bin/time"


def run_child(argv, stdout=None):
    """Runs argv on core 0: its wall time, its own peak RSS (KiB, read by
    GNU time) and its standard output."""
    if not os.access(GNU_TIME, os.X_OK):
        sys.exit(f"{GNU_TIME} is missing (Debian's package `time`)")
    with tempfile.TemporaryFile(mode="w+") as err, tempfile.NamedTemporaryFile(mode="r") as peak:
        start = time.perf_counter()
        command = ["taskset", "-c", "0", GNU_TIME, "-f", "%M", "-o", peak.name, *argv]
        child = subprocess.Popen(command, stdout=stdout, stderr=err, text=True)
        out = child.stdout.read() if child.stdout else None
        child.wait()
        elapsed = time.perf_counter() - start
        if child.returncode not in (0, 1):
            err.seek(0)
            sys.exit(f"{' '.join(argv)} failed ({child.returncode}):\n{err.read()}")
        peak_kib = int(peak.read().split()[-1])
    return elapsed, peak_kib, out


def build_errcat(*extra_packages):
    """Builds errcat (and `extra_packages`) in release mode; errcat's path."""
    packages = [arg for name in ("errcat", *extra_packages) for arg in ("-p", name)]
    subprocess.run(["cargo", "build", "--release", "-q", *packages], cwd=ROOT, check=True)
    return os.path.join(ROOT, "target", "release", "errcat")


def empty_catalog(work):
    """A dataset directory of the one record no line matches."""
    empty = os.path.join(work, "empty")
    os.makedirs(empty, exist_ok=True)
    with open(os.path.join(empty, "never.json"), "w", encoding="utf-8") as f:
        json.dump(NEVER, f)
    return empty


class Drafted:
    """errcat's groups of the lines of one file, as a user gets them."""

    def __init__(self, errcat, empty, lines_path, drafts_dir, line_count):
        draft_cmd = [errcat, "--no-cache", "--data", empty, "draft", "--threads", "1", "--json"]
        # Timed without `--out`: writing thousands of files is no part of mining.
        self.elapsed, self.peak_kib, out = run_child([*draft_cmd, lines_path], stdout=subprocess.PIPE)
        self.drafts = [json.loads(line) for line in out.splitlines()]
        again = subprocess.run(
            [*draft_cmd, "--out", drafts_dir, lines_path], stdout=subprocess.PIPE, text=True, check=True
        )
        if again.stdout != out:
            sys.exit(f"errcat draft gave other groups on a second run of {lines_path}")
        self.templates = {d["id"]: d["template"] for d in self.drafts}
        # Each line's group: the draft a scan with the drafts gives it.
        self.groups = [None] * line_count
        if self.drafts:
            scan = subprocess.run(
                [errcat, "--no-cache", "--data", drafts_dir, "scan", "--json", lines_path],
                stdout=subprocess.PIPE,
                text=True,
                check=False,
            )
            for line in scan.stdout.splitlines():
                found = json.loads(line)
                if found["line"] <= line_count:
                    self.groups[found["line"] - 1] = found["id"]
            check = subprocess.run(
                [errcat, "check", drafts_dir], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
            )
            self.check_errors = check.returncode != 0
            self.never_win = sum("can never win" in line for line in check.stdout.splitlines())
        else:
            self.check_errors, self.never_win = False, 0
        counts = Counter(self.groups)
        # Drafts whose re-scan count is not their group's count.
        self.off = sum(1 for d in self.drafts if counts.get(d["id"]) != d["count"])
        self.unexplained = counts.get(None, 0)
