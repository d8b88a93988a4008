#!/usr/bin/env python3
"""Envelope benchmark, side by side in one run: `errcat scan --count
--threads 1` on a plain nats-server log and on the same lines wrapped in each
envelope (Docker json-file, CRI, JSON, logfmt, syslog), with auto detection
and with `--envelope none` on the plain log (what detection costs), and
errcat's peak memory on hostile input (100 MB of CRI pieces of a line that
never ends; a 15 MiB JSON string of escapes, just under errcat's 16 MiB line
limit: longer lines are skipped). The inputs are run in turn, RUNS rounds
of one run each, so that a burst of load on a shared machine falls on one
round of every input rather than on all the runs of one; each file is read
once before the rounds, so that none is timed from the disk. Prints seconds
(median of RUNS), MB/s of input, lines/s and the ratio to the plain log
(`--envelope none`), the median of the rounds' ratios, and the same ratio
in CPU time (the child's user and system time, steadier than wall time on a
shared machine); then the peak RSS.

    python3 bench/envelopes.py                  # MB=50 of plain log, RUNS=3
    MB=10 RUNS=1 python3 bench/envelopes.py     # a quicker run
    DATA=datasets/nats-server python3 bench/envelopes.py   # with a dataset (--data)

Without DATA, errcat reads its embedded seeds (the three nats-server records
of `ERRCAT_DATASET=seeds`, set here), as errcat did before every dataset was
embedded: a binary that predates `ERRCAT_DATASET` ignores it.

Needs a release errcat (cargo build --release -p errcat; ERRCAT=path to
choose another) and GNU time (/usr/bin/time) for the memory figures.
"""

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from envelope_fixtures import docker_string  # noqa: E402

ERRCAT = os.environ.get("ERRCAT", str(ROOT / "target" / "release" / "errcat"))
MB = int(os.environ.get("MB", "50"))
RUNS = int(os.environ.get("RUNS", "3"))
WORK = Path(os.environ.get("WORK", ROOT / "target" / "bench-envelopes"))
DATA = ["--data", os.environ["DATA"]] if os.environ.get("DATA") else []
# The embedded seeds, not every embedded dataset, when no DATA is given.
ENV = dict(os.environ, ERRCAT_DATASET=os.environ.get("ERRCAT_DATASET", "seeds"))


def go_quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t") + '"'


def wrappers():
    """Each envelope as a function of a plain line."""
    def message(line):
        # The nats-server prefix `[pid] date time [LVL] ` is the envelope's own fields in JSON and logfmt.
        parts = line.split(" ", 4)
        return (parts[3].strip("[]"), parts[4]) if len(parts) == 5 else ("INF", line)

    return {
        "docker": lambda line: '{"log":%s,"stream":"stderr","time":"2026-11-29T17:20:00.123456789Z"}'
        % docker_string(line + "\n"),
        "cri": lambda line: "2026-11-29T17:20:00.123456789Z stderr F " + line,
        "json": lambda line: json.dumps({"level": message(line)[0], "ts": 1764436800.123, "msg": message(line)[1]}),
        "logfmt": lambda line: "time=2026-11-29T17:20:00.123Z level=%s msg=%s" % (message(line)[0], go_quote(message(line)[1])),
        "syslog": lambda line: "<11>1 2026-11-29T17:20:00.123456Z host-a nats-server 1035 - - " + line,
    }


def write_logs():
    WORK.mkdir(parents=True, exist_ok=True)
    example = (ROOT / "examples" / "nats-server.log").read_text().splitlines()
    lines = []
    size = 0
    while size < MB << 20:
        lines.extend(example)
        size += sum(len(line) + 1 for line in example)
    (WORK / "plain.log").write_text("\n".join(lines) + "\n")
    for name, wrap in wrappers().items():
        (WORK / f"{name}.log").write_text("\n".join(wrap(line) for line in lines) + "\n")
    # Hostile: 100 MB of CRI pieces of one line that never ends, and one 15 MiB JSON string.
    with open(WORK / "never-ending.log", "w") as f:
        piece = "2026-11-29T17:20:00.1Z stderr P " + "y" * 16000 + "\n"
        for _ in range((100 << 20) // len(piece)):
            f.write(piece)
    with open(WORK / "huge-json.log", "w") as f:
        f.write('{"level":"error","msg":"' + "\\u003c" * ((15 << 20) // 6) + '"}\n')
    return len(lines)


def timed_once(args):
    """Wall time and CPU time (user and system) of one scan."""
    start = time.perf_counter()
    child = subprocess.Popen([ERRCAT, *DATA, "scan", "--count", "--threads", "1", *args], stdout=subprocess.DEVNULL, env=ENV)
    _, _, usage = os.wait4(child.pid, 0)
    child.returncode = 0
    return time.perf_counter() - start, usage.ru_utime + usage.ru_stime


def peak_rss_mb(args):
    out = subprocess.run(["/usr/bin/time", "-f", "%M", ERRCAT, *DATA, "scan", "--count", *args],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=ENV)
    return int(out.stderr.strip().splitlines()[-1]) / 1024


def main():
    count = write_logs()
    data = f"; --data {DATA[1]}" if DATA else f"; the embedded catalog (ERRCAT_DATASET={ENV['ERRCAT_DATASET']})"
    print(f"{count} lines; errcat {ERRCAT}{data}; median of {RUNS} runs, one thread")
    inputs = [("plain, --envelope none", "plain.log", ["--envelope", "none"]), ("plain, auto", "plain.log", [])]
    inputs += [(f"{name}, auto", f"{name}.log", []) for name in wrappers()]
    for _, file, _ in inputs:
        (WORK / file).read_bytes()
    # A first run writes the dataset's compiled-catalog cache.
    timed_once(["--envelope", "none", str(WORK / "plain.log")])
    rounds = [[timed_once([*args, str(WORK / file)]) for _, file, args in inputs] for _ in range(RUNS)]
    print(f"{'input':<24} {'seconds':>8} {'MB/s':>8} {'lines/s':>10} {'x plain':>8} {'x plain, CPU':>13}")
    for at, (label, file, _) in enumerate(inputs):
        seconds = statistics.median(times[at][0] for times in rounds)
        ratio = statistics.median(times[0][0] / times[at][0] for times in rounds)
        cpu_ratio = statistics.median(times[0][1] / times[at][1] for times in rounds)
        size = (WORK / file).stat().st_size / 1e6
        print(f"{label:<24} {seconds:8.3f} {size / seconds:8.1f} {count / seconds:10.0f} {ratio:8.2f} {cpu_ratio:13.2f}")
    if os.path.exists("/usr/bin/time"):
        for file in ("never-ending.log", "huge-json.log"):
            size = (WORK / file).stat().st_size / 1e6
            print(f"peak RSS on {file} ({size:.0f} MB): {peak_rss_mb([str(WORK / file)]):.1f} MB")


if __name__ == "__main__":
    main()
