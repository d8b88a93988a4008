"""`errcat scan --json` run by the benchmark scripts (the real binary on a
log file or on text, its matches by line number), and the end of their
reports: the markdown table, then what failed."""

import json
import os
import subprocess
import sys
import tempfile
import time


def scan_file(errcat, data, log, options=(), env=None):
    """The matches of `errcat --data DATA scan --json OPTIONS LOG` by line
    number (each line's in the order errcat wrote them), and the wall time
    of the run; DATA None: the embedded datasets. Exits with errcat's
    message if it fails."""
    started = time.perf_counter()
    done = subprocess.run([errcat, *(["--data", data] if data else []), "scan", "--json", *options, log],
                          capture_output=True, text=True, env=env)
    seconds = time.perf_counter() - started
    if done.returncode not in (0, 1):
        sys.exit(f"{errcat} scan {' '.join(options)} {log} failed ({done.returncode}): {done.stderr.strip()}")
    found = {}
    for line in done.stdout.splitlines():
        match = json.loads(line)
        if not match.get("unmatched"):
            found.setdefault(match["line"], []).append(match)
    return found, seconds


def scan_text(errcat, data, text, options=()):
    """`scan_file` of `text` written to a temporary log."""
    with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False, encoding="utf-8") as f:
        f.write(text)
        log = f.name
    try:
        return scan_file(errcat, data, log, options)[0]
    finally:
        os.unlink(log)


def print_report(table, heading, failures):
    """The markdown table's lines, then `heading` and the failures' lines
    when there are any."""
    print()
    print("\n".join(table))
    if failures:
        print(f"\n{heading}")
        print("\n".join(failures))
