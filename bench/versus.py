#!/usr/bin/env python3
"""Two errcat binaries side by side in one run, on every workload a change to
the engine must not slow down: the sparse and dense nats-server logs, the
multi-system pattern catalog, Docker json-file and JSON envelopes (with the
embedded catalog and with the 2,008 nats-server records), a scan that prints
every match (`--json`), the sparse log with every embedded dataset (11,741
records, no `--data`), and the cached start-up of an `explain` that matches,
at 2,008 and 5,110 records, against `errcat --version`.

"Embedded" means the three embedded seeds: every run has
`ERRCAT_DATASET=seeds` in its environment (a binary from before the datasets
were embedded ignores it, so both binaries read the same three records),
but the runs of "every embedded dataset", which have no `ERRCAT_DATASET`. A
binary without embedded datasets (no `errcat datasets`) has no equivalent of
those: they run with NEW alone, and the table says so.

    python3 bench/versus.py OLD NEW                 # RUNS=5 rounds
    RUNS=3 LINES=500000 python3 bench/versus.py OLD NEW

OLD and NEW are errcat binaries (e.g. one built from the last release's tag,
copied aside, and target/release/errcat). Each binary gets its own cache
directory, so that one never reads or rewrites the other's compiled-catalog
cache. A round runs every workload once with each binary, in alternating
order, so that a burst of load on a shared machine falls on both; reported
are the medians of the rounds' wall and CPU (user + system) times and
NEW ÷ OLD of each (below 1.00 is faster). Start-up is the mean of START
runs per round (default 20) minus the same for `--version`.

Needs the datasets in datasets/ (CORPUS=dir to choose another) and
xtask (built here in release mode) to make the logs.
"""

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from envelopes import wrappers  # noqa: E402 (bench/envelopes.py)

CORPUS = Path(os.environ.get("CORPUS", ROOT / "datasets"))
RUNS = int(os.environ.get("RUNS", "5"))
START = int(os.environ.get("START", "20"))
LINES = int(os.environ.get("LINES", "2000000"))
DENSE = int(os.environ.get("DENSE", "200000"))
MULTI = int(os.environ.get("MULTI", "215000"))
ENVELOPE_MB = int(os.environ.get("ENVELOPE_MB", "50"))
WORK = Path(os.environ.get("WORK", ROOT / "target" / "bench-versus"))

NATS_MESSAGE = 'unable to persist session "s1" (seq=3): nats: timeout'
KAFKA_MESSAGE = "Failed to close producer for connector my-connector"


def make_inputs():
    """Writes the logs (once: reused while their size settings hold)."""
    WORK.mkdir(parents=True, exist_ok=True)
    subprocess.run(["cargo", "build", "-q", "--release", "-p", "xtask"], cwd=ROOT, check=True)
    xtask = ROOT / "target" / "release" / "xtask"
    nats = CORPUS / "nats-server"

    def once(name, settings, make):
        stamp = WORK / f"{name}.settings"
        if not stamp.exists() or stamp.read_text() != settings:
            print(f"making {name}...", file=sys.stderr)
            make()
            stamp.write_text(settings)

    once("sparse", str(LINES), lambda: subprocess.run([xtask, "log", nats, str(LINES), "0.01", WORK / "sparse.log"], check=True))
    once("dense", str(DENSE), lambda: subprocess.run([xtask, "log", nats, str(DENSE), "1.0", WORK / "dense.log"], check=True))
    once("multi", str(MULTI), lambda: subprocess.run([xtask, "multisystem", WORK / "multi-catalog", WORK / "multi.log", str(MULTI)], check=True))

    def envelopes():
        example = (ROOT / "examples" / "nats-server.log").read_text().splitlines()
        lines, size = [], 0
        while size < ENVELOPE_MB << 20:
            lines.extend(example)
            size += sum(len(line) + 1 for line in example)
        (WORK / "plain.log").write_text("\n".join(lines) + "\n")
        for name, wrap in wrappers().items():
            if name in ("docker", "json"):
                (WORK / f"{name}.log").write_text("\n".join(wrap(line) for line in lines) + "\n")

    once("envelopes", str(ENVELOPE_MB), envelopes)
    for log in ("sparse", "dense", "multi", "plain", "docker", "json"):
        (WORK / f"{log}.log").read_bytes()  # into the page cache

    nats_data = ["--data", str(nats)]
    every_dataset = {"ERRCAT_DATASET": None}
    scan = ["scan", "--count", "--threads", "1"]
    workloads = [
        ("sparse, 2,008 records", [*nats_data, *scan, WORK / "sparse.log"]),
        ("sparse, --json", [*nats_data, "scan", "--json", "--threads", "1", WORK / "sparse.log"]),
        ("dense, 2,008 records", [*nats_data, *scan, WORK / "dense.log"]),
        ("multi-system", ["--data", WORK / "multi-catalog", *scan, WORK / "multi.log"]),
        ("plain, embedded", [*scan, WORK / "plain.log"]),
        ("Docker, embedded", [*scan, WORK / "docker.log"]),
        ("JSON, embedded", [*scan, WORK / "json.log"]),
        ("plain, 2,008 records", [*nats_data, *scan, WORK / "plain.log"]),
        ("Docker, 2,008 records", [*nats_data, *scan, WORK / "docker.log"]),
        ("JSON, 2,008 records", [*nats_data, *scan, WORK / "json.log"]),
    ]
    workloads = [(label, args, {}) for label, args in workloads]
    workloads.append(("sparse, every embedded dataset", [*scan, WORK / "sparse.log"], every_dataset))
    return workloads


def embeds_every_dataset(binary):
    """Whether `binary` has the datasets embedded (`errcat datasets`)."""
    return subprocess.run([binary, "datasets"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0


def timed(binary, cache, args, changes=None):
    """Wall and CPU seconds of one run, with the environment's `changes`
    (None removes a variable) on top of `ERRCAT_DATASET=seeds`."""
    env = dict(os.environ, ERRCAT_CACHE_DIR=cache, ERRCAT_DATASET="seeds")
    for name, value in (changes or {}).items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    start = time.perf_counter()
    child = subprocess.Popen([binary, *map(str, args)], stdout=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        sys.exit(f"{binary} {' '.join(map(str, args))} failed")
    return wall, usage.ru_utime + usage.ru_stime


def startup(binary, cache, args):
    """Mean wall milliseconds of START runs of `args`, minus `--version`'s."""
    def mean(run_args):
        return statistics.mean(timed(binary, cache, run_args)[0] for _ in range(START)) * 1000

    return mean(args) - mean(["--version"])


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    binaries = [os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])]
    workloads = make_inputs()
    caches = [tempfile.mkdtemp(prefix="errcat-versus-") for _ in binaries]
    starts = [
        ("start-up, explain, 2,008 records", ["--data", CORPUS / "nats-server", "explain", NATS_MESSAGE]),
        ("start-up, explain, 5,110 records", ["--data", CORPUS / "kafka", "explain", KAFKA_MESSAGE]),
    ]
    starts = [(label, args, {}) for label, args in starts]
    # Which binaries run which workloads: the old one may have no embedded datasets.
    embedded = [embeds_every_dataset(binary) for binary in binaries]
    runs_on = {label: [which for which in (0, 1) if not changes or embedded[which]] for label, _, changes in workloads}
    # First runs write each binary's caches.
    for which, (binary, cache) in enumerate(zip(binaries, caches)):
        for label, args, changes in workloads + starts:
            if which in runs_on.get(label, (0, 1)):
                timed(binary, cache, args, changes)
    results = {label: ([], []) for label, _, _ in workloads + starts}
    for round_ in range(RUNS):
        order = [0, 1] if round_ % 2 == 0 else [1, 0]
        for label, args, changes in workloads:
            for which in order:
                if which in runs_on[label]:
                    results[label][which].append(timed(binaries[which], caches[which], args, changes))
        for label, args, _ in starts:
            for which in order:
                results[label][which].append((startup(binaries[which], caches[which], args), 0.0))
    print(f"OLD {binaries[0]}\nNEW {binaries[1]}\nmedians of {RUNS} rounds, one thread\n")
    print("| workload | OLD s | NEW s | NEW ÷ OLD (wall) | OLD CPU s | NEW CPU s | NEW ÷ OLD (CPU) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    alone = []
    for label, _, _ in workloads:
        old, new = results[label]
        wall = [statistics.median(t[0] for t in runs) if runs else None for runs in (old, new)]
        cpu = [statistics.median(t[1] for t in runs) if runs else None for runs in (old, new)]
        if wall[0] is None:
            alone.append(label)
            print(f"| {label} | – | {wall[1]:.3f} | – | – | {cpu[1]:.3f} | – |")
            continue
        print(f"| {label} | {wall[0]:.3f} | {wall[1]:.3f} | {wall[1] / wall[0]:.2f} | {cpu[0]:.3f} | {cpu[1]:.3f} | {cpu[1] / cpu[0]:.2f} |")
    for label in alone:
        print(f"\n{label}: NEW alone (OLD has no embedded datasets: no `errcat datasets`)")
    print("\n| start-up (ms above `--version`, mean of %d) | OLD | NEW | NEW − OLD |" % START)
    print("| --- | ---: | ---: | ---: |")
    for label, _, _ in starts:
        old, new = (statistics.median(t[0] for t in runs) for runs in results[label])
        print(f"| {label} | {old:.1f} | {new:.1f} | {new - old:+.1f} |")


if __name__ == "__main__":
    main()
