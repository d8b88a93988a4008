#!/usr/bin/env python3
"""Benchmark of `errcat scan --follow --metrics`, on the largest catalog there
is: the five datasets of datasets/ together (nats-server, nodejs-node,
django, cargo, kafka: 9,826 records), else the nats-server corpus alone.

Measures, in one run, on errcat pinned to one core (`taskset -c 0`):

- scrape time and size: RUNS scrapes of GET /metrics in the Prometheus text
  format and in OpenMetrics, timed by the client (HTTP included);
- sustained appended lines per second while serving: LINES lines of a real
  nats-server log (examples/nats-server.log, repeated; with the five corpora
  about 70% of its lines match a record) appended to the followed file as
  fast as Python writes them, timed from the first write until
  `errcat_lines_read_total` says all were read; side by side with the
  baseline, `errcat scan --count --threads 1` on the same lines as a file
  (the batch scan of the same catalog on one core);
- write -> counter latency: a matching line appended, then /metrics polled
  until its record's counter moved (LATENCY samples).

    bench/metrics.py                        # LINES=2000000 RUNS=50 LATENCY=30
    LINES=500000 bench/metrics.py           # a quicker run
    ERRCAT=target/release/errcat DATA=dir bench/metrics.py

Needs a release build (`cargo build --release -p errcat`) and `taskset`
(util-linux). Prints a Markdown table.
"""
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import time
import urllib.request

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
CORPORA = ["nats-server", "nodejs-node", "django", "cargo", "kafka"]
LINES = int(os.environ.get("LINES", "2000000"))
RUNS = int(os.environ.get("RUNS", "50"))
LATENCY = int(os.environ.get("LATENCY", "30"))
ERRCAT = os.path.abspath(os.environ.get("ERRCAT", os.path.join(ROOT, "target/release/errcat")))
WORK = os.path.join(ROOT, "target/bench-metrics")
# A line of the log that one record matches, and that record's id in the corpus.
PROBE = '[4127] 2026/11/29 17:21:00.000000 [ERR] unable to persist session "bench" (seq=3): nats: timeout'
PROBE_ID = "69c0c8f50f54e0c9"


def dataset():
    """The catalog's directory and what it is, as the table says."""
    if os.environ.get("DATA"):
        return os.environ["DATA"], os.environ["DATA"]
    shared = os.path.join(ROOT, "datasets")
    found = [name for name in CORPORA if os.path.isdir(os.path.join(shared, name))]
    if len(found) == len(CORPORA):
        combined = os.path.join(WORK, "five-corpora")
        os.makedirs(combined, exist_ok=True)
        for name in CORPORA:
            link = os.path.join(combined, name)
            if not os.path.islink(link):
                os.symlink(os.path.abspath(os.path.join(shared, name)), link)
        return combined, "the five corpora together"
    if "nats-server" in found:
        return os.path.join(shared, "nats-server"), "the nats-server corpus"
    sys.exit("bench/metrics.py: no dataset under datasets/ (set DATA=DIR)")


def get(address, path, accept):
    request = urllib.request.Request(f"http://{address}{path}", headers={"Accept": accept})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.read()


TEXT = "text/plain;version=0.0.4"
OPENMETRICS = "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5"


def value(scrape, series):
    match = re.search(re.escape(series) + r"[^\n]*\} (\S+)\n", scrape)
    return float(match.group(1)) if match else None


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(samples, fraction):
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main():
    if not os.path.exists(ERRCAT):
        sys.exit(f"bench/metrics.py: no {ERRCAT}: run `cargo build --release -p errcat` first")
    if shutil.which("taskset") is None:
        sys.exit("bench/metrics.py: taskset (util-linux) is needed to pin errcat to one core")
    os.makedirs(WORK, exist_ok=True)
    data, what = dataset()
    env = dict(os.environ, ERRCAT_CACHE_DIR=os.path.join(WORK, "cache"))
    records = subprocess.run([ERRCAT, "--data", data, "list", "--json"], env=env, capture_output=True, check=True)
    records = len(records.stdout.splitlines())
    with open(os.path.join(ROOT, "examples", "nats-server.log"), "rb") as log:
        real = log.read()
    block = real * (LINES // real.count(b"\n") + 1)
    lines = b"\n".join(block.split(b"\n")[:LINES]) + b"\n"

    # The baseline: the same lines as a file, scanned in batch on one core.
    batch_log = os.path.join(WORK, "batch.log")
    with open(batch_log, "wb") as out:
        out.write(lines)
    started, children = time.monotonic(), os.times()
    subprocess.run(["taskset", "-c", "0", ERRCAT, "--data", data, "scan", "--count", "--threads", "1", batch_log],
                   env=env, stdout=subprocess.DEVNULL, check=False)
    batch_seconds = time.monotonic() - started
    batch_cpu = (os.times().children_user - children.children_user) + (
        os.times().children_system - children.children_system)

    followed = os.path.join(WORK, "followed.log")
    open(followed, "wb").close()
    errcat = subprocess.Popen(
        ["taskset", "-c", "0", ERRCAT, "--data", data, "scan", "--count", "--follow", "--metrics", "127.0.0.1:0",
         followed], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        address = None
        while address is None:
            line = errcat.stderr.readline().decode()
            if not line:
                sys.exit("errcat ended before serving")
            if "serving metrics on http://" in line:
                address = line.split("http://")[1].strip().removesuffix("/metrics")
        # Wait for the follower to be there (its first message).
        errcat.stderr.readline()

        sizes, times = {}, {}
        for name, accept in [("text", TEXT), ("OpenMetrics", OPENMETRICS)]:
            samples = []
            for _ in range(RUNS):
                started = time.perf_counter()
                body = get(address, "/metrics", accept)
                samples.append(time.perf_counter() - started)
            sizes[name], times[name] = len(body), samples

        cpu_before = cpu_seconds(errcat.pid)
        started = time.monotonic()
        with open(followed, "ab") as out:
            for offset in range(0, len(lines), 1 << 20):
                out.write(lines[offset:offset + (1 << 20)])
                out.flush()
        written = time.monotonic() - started
        series = 'errcat_lines_read_total{input="'
        while value(get(address, "/metrics", TEXT).decode(), series) != LINES:
            # Each scrape costs errcat about as much CPU as it takes: poll
            # seldom enough not to slow what is measured.
            time.sleep(0.05)
        sustained_seconds = time.monotonic() - started
        cpu_used = cpu_seconds(errcat.pid) - cpu_before

        latencies = []
        probe_series = f'errcat_matches_total{{id="{PROBE_ID}"'
        for _ in range(LATENCY):
            before = value(get(address, "/metrics", TEXT).decode(), probe_series)
            started = time.perf_counter()
            with open(followed, "ab") as out:
                out.write(PROBE.encode() + b"\n")
            while value(get(address, "/metrics", TEXT).decode(), probe_series) == before:
                pass
            latencies.append(time.perf_counter() - started)
            time.sleep(0.05)
    finally:
        errcat.send_signal(signal.SIGTERM)
        status = errcat.wait(timeout=30)

    ms = lambda seconds: f"{seconds * 1000:.1f} ms"
    print(f"catalog: {what} ({records} records); errcat pinned to one core; exit status on SIGTERM: {status}")
    print()
    print("| measure | median | p95 | max | target |")
    print("| --- | ---: | ---: | ---: | --- |")
    for name in ["text", "OpenMetrics"]:
        samples = times[name]
        print(f"| scrape, {name} ({sizes[name]:,} bytes) | {ms(statistics.median(samples))} | "
              f"{ms(percentile(samples, 0.95))} | {ms(max(samples))} | ≤ 20 ms, ≤ 2 MB |")
    print(f"| write → counter ({LATENCY} lines) | {ms(statistics.median(latencies))} | "
          f"{ms(percentile(latencies, 0.95))} | {ms(max(latencies))} | ≤ 1 s |")
    print()
    print("| lines per second, one core | lines | seconds | lines/s | CPU seconds | lines per CPU second | target |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
    print(f"| followed while serving (`scan --follow --metrics`; written in {written:.2f} s) "
          f"| {LINES:,} | {sustained_seconds:.2f} | {LINES / sustained_seconds:,.0f} | {cpu_used:.2f} "
          f"| {LINES / cpu_used:,.0f} | ≥ 100,000 |")
    print(f"| baseline: the same lines as a file (`scan --count --threads 1`, whole process) "
          f"| {LINES:,} | {batch_seconds:.2f} | {LINES / batch_seconds:,.0f} | {batch_cpu:.2f} "
          f"| {LINES / batch_cpu:,.0f} | |")


if __name__ == "__main__":
    main()
