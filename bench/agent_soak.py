#!/usr/bin/env python3
"""Soak, throughput and latency of `errcat scan --follow DIR` as a node agent
(docs/agent.md).

- soak: a simulated /var/log/pods of PODS pods, each writing CRI lines that
  errcat's seed catalog matches (`UnableToPersistSession`, every line with a
  session id of its own); LINES lines in all, over ROTATIONS rotations as
  kubelet makes them (0.log renamed 0.log.<timestamp>, two lines written to
  the renamed file, the rotation before it gzipped through a .gz.tmp, the
  plain one removed) and DELETIONS pod deletions (a pod stops writing, its
  directory is removed a second later, a new pod takes its place). errcat
  prints every match; the lines lost (written, never reported) and reported
  twice are counted from its output, and its peak RSS (VmHWM) read before it
  stops. Run twice: straight through, and stopped with SIGTERM half-way,
  lines written while it is down, started again with the same --state.
- throughput: 100 followed files appended at once with 1,000,000 lines of a
  real nats-server log (examples/nats-server.log, repeated), timed from the
  first write until errcat_lines_read_total says all were read, against
  `errcat scan --count` of one file of the same bytes (default threads, and
  --threads 1), both with the embedded catalog; wall-clock and errcat's CPU
  time (the second is steadier on a busy machine).
- latency: a matching line appended to a followed file, then /metrics polled
  until the record's counter moved; with file-system events and with --poll.
- idle: the CPU time errcat takes over 10 s following 1,000 files that
  nothing writes to, with events and with --poll.

    bench/agent_soak.py                       # the full figures of docs/agent.md
    bench/agent_soak.py --short               # CI: a shortened soak (with a restart), fails on any loss
    bench/agent_soak.py --errcat target/debug/errcat --short

Needs a release build (`cargo build --release -p errcat`) for the figures.
Prints Markdown tables; exits 1 when a soak lost or repeated a line.
"""
import argparse
import gzip
import os
import re
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
SESSION = re.compile(rb'ps_id="(p[0-9]+#[0-9]+#)"')
PERSIST = '[7] 2026/11/29 17:20:00.123456 [ERR] unable to persist session "{}" (seq=3): nats: timeout'
# The seed record of PERSIST.
PERSIST_SERIES = 'errcat_matches_total{id="503f49fe39cf5793"'
PATIENCE = 120.0


def cri(message):
    return f"2026-12-03T15:24:00.123456789Z stderr F {message}\n"


class Pod:
    def __init__(self, root, n):
        self.n = n
        self.dir = os.path.join(root, f"soak_pod-{n}_0b1c2d3e-0000-4000-8000-{n:012d}", "app")
        os.makedirs(self.dir)
        self.written = 0
        self.rotated = []

    def log(self):
        return os.path.join(self.dir, "0.log")

    def write(self, count, path=None):
        lines = "".join(cri(PERSIST.format(f"p{self.n}#{self.written + i}#")) for i in range(count))
        with open(path or self.log(), "a") as file:
            file.write(lines)
        self.written += count

    def rotate(self, stamp):
        rotated = f"{self.log()}.{stamp}"
        os.rename(self.log(), rotated)
        if self.rotated:
            older = self.rotated.pop()
            with open(older, "rb") as plain, gzip.open(older + ".gz.tmp", "wb", compresslevel=1) as packed:
                shutil.copyfileobj(plain, packed)
            os.rename(older + ".gz.tmp", older + ".gz")
            os.remove(older)
        self.rotated.append(rotated)
        # The runtime writes on to the renamed file until it reopens its log.
        self.write(2, rotated)


class Errcat:
    """A running errcat, its standard output in a file."""

    def __init__(self, errcat, args, tmp, name):
        self.out_path = os.path.join(tmp, f"{name}.out")
        self.err_path = os.path.join(tmp, f"{name}.err")
        self.out = open(self.out_path, "wb")
        self.err = open(self.err_path, "wb")
        self.process = subprocess.Popen([errcat, *args], stdout=self.out, stderr=self.err, stdin=subprocess.DEVNULL)
        self.address = None
        if "--metrics" in args:
            deadline = time.time() + PATIENCE
            while self.address is None:
                found = re.search(r"serving metrics on http://(\S+)/metrics", open(self.err_path).read())
                if found:
                    self.address = found.group(1)
                elif time.time() > deadline or self.process.poll() is not None:
                    sys.exit(f"errcat did not start: {open(self.err_path).read()}")
                else:
                    time.sleep(0.01)

    def scrape(self):
        with urllib.request.urlopen(f"http://{self.address}/metrics", timeout=10) as response:
            return response.read().decode()

    def peak_rss_kib(self):
        with open(f"/proc/{self.process.pid}/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        code = self.process.wait(timeout=PATIENCE)
        self.out.close()
        self.err.close()
        return code


def lines_read(text):
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines() if line.startswith("errcat_lines_read_total{"))


def wait_for_output(outputs, wanted):
    """Waits until the output files hold `wanted` lines (or stop growing for 10 s)."""
    seen, last, since = 0, -1, time.time()
    while seen < wanted:
        seen = sum(output_lines(path) for path in outputs)
        if seen != last:
            last, since = seen, time.time()
        elif time.time() - since > 10:
            return
        time.sleep(0.1)


def output_lines(path):
    with open(path, "rb") as file:
        return sum(chunk.count(b"\n") for chunk in iter(lambda: file.read(1 << 20), b""))


def soak(errcat, pods_count, total, rotations, deletions, restart):
    tmp = tempfile.mkdtemp(prefix="errcat-soak-")
    try:
        root = os.path.join(tmp, "pods")
        os.makedirs(root)
        pods = [Pod(root, n) for n in range(pods_count)]
        every = [p for p in pods]
        args = ["--dataset", "seeds", "scan", "--follow", "--from-start", "--metrics", "127.0.0.1:0"]
        args += ["--metrics-labels", "namespace,container", "--state", os.path.join(tmp, "state.json"), root]
        runs = [Errcat(errcat, args, tmp, "run1")]
        steps = 100
        per_step = total // steps
        rotate_at = {int(i * steps / rotations) for i in range(rotations)} if rotations else set()
        delete_at = {int(i * steps / deletions) for i in range(deletions)} if deletions else set()
        stopping = []  # (pod, when it stopped writing)
        written = 0
        peak = 0
        started = time.time()
        down_from = steps // 2 if restart else None
        for step in range(steps):
            if step == down_from:
                peak = max(peak, runs[-1].peak_rss_kib())
                code = runs[-1].stop()
                assert code == 0, f"errcat exited {code}: {open(runs[-1].err_path).read()[-2000:]}"
            if down_from is not None and step == down_from + 5:
                runs.append(Errcat(errcat, args, tmp, "run2"))
            count = per_step if step < steps - 1 else total - written
            active = [pod for pod in pods]
            for i, pod in enumerate(active):
                share = count // len(active) + (1 if i < count % len(active) else 0)
                if share:
                    pod.write(share)
                    written += share
            if step in rotate_at:
                pod = pods[(step * 7) % len(pods)]
                pod.rotate(f"20261203-15{step:04d}")
                written += 2
            if step in delete_at:
                pod = pods.pop((step * 13) % len(pods))
                stopping.append((pod, time.time()))
                fresh = Pod(root, len(every))
                every.append(fresh)
                pods.append(fresh)
            # kubelet removes a pod's logs after its containers stopped.
            for pod, since in list(stopping):
                if time.time() - since >= 1.0:
                    shutil.rmtree(os.path.dirname(pod.dir))
                    stopping.remove((pod, since))
            time.sleep(0.02)
        while stopping:
            pod, since = stopping.pop()
            time.sleep(max(0.0, 1.0 - (time.time() - since)))
            shutil.rmtree(os.path.dirname(pod.dir))
        wait_for_output([run.out_path for run in runs], written)
        elapsed = time.time() - started
        peak = max(peak, runs[-1].peak_rss_kib())
        code = runs[-1].stop()
        assert code == 0, f"errcat exited {code}"
        counts = {}
        for run in runs:
            with open(run.out_path, "rb") as out:
                for session in SESSION.findall(out.read()):
                    counts[session] = counts.get(session, 0) + 1
        expected = {f"p{pod.n}#{i}#".encode() for pod in every for i in range(pod.written)}
        missing = expected - counts.keys()
        lost = len(missing)
        if missing and os.environ.get("SOAK_DEBUG"):
            by_pod = {}
            for session in missing:
                pod, line = session.decode().split("#")[:2]
                by_pod.setdefault(pod, []).append(int(line))
            for pod, lines in sorted(by_pod.items())[:20]:
                print(f"lost {pod}: {len(lines)} lines, {min(lines)}..{max(lines)}", file=sys.stderr)
            print(f"deleted: {sorted(p.n for p in every if not os.path.exists(p.dir))[:60]}", file=sys.stderr)
            print(f"rotated: {sorted(p.n for p in every if p.rotated)}", file=sys.stderr)
        twice = sum(count - 1 for count in counts.values() if count > 1)
        stray = len(counts.keys() - expected)
        return {"lines": written, "lost": lost, "twice": twice, "stray": stray, "peak_mib": peak / 1024,
                "seconds": elapsed, "files": sum(1 + len(p.rotated) for p in every)}
    finally:
        if os.environ.get("SOAK_DEBUG"):
            print(f"kept {tmp}", file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def real_lines(count):
    with open(os.path.join(ROOT, "examples", "nats-server.log")) as log:
        sample = [line for line in log if line.strip()]
    return [sample[i % len(sample)] for i in range(count)]


def throughput(errcat, total, files):
    tmp = tempfile.mkdtemp(prefix="errcat-throughput-")
    try:
        lines = real_lines(total)
        one = os.path.join(tmp, "one.log")
        with open(one, "w") as file:
            file.writelines(lines)
        scans = {}
        for label, extra in [("scan", []), ("scan --threads 1", ["--threads", "1"])]:
            best = None
            for _ in range(3):
                begin, used = time.time(), children_cpu()
                subprocess.run([errcat, "scan", "--count", *extra, one], stdout=subprocess.DEVNULL, check=False)
                took = (time.time() - begin, children_cpu() - used)
                best = took if best is None else min(best, took)
            scans[label] = best
        root = os.path.join(tmp, "pods")
        paths = []
        for n in range(files):
            os.makedirs(os.path.join(root, f"bench_pod-{n}_uid-{n}", "app"))
            paths.append(os.path.join(root, f"bench_pod-{n}_uid-{n}", "app", "0.log"))
            open(paths[-1], "w").close()
        running = Errcat(errcat, ["scan", "--count", "--follow", "--metrics", "127.0.0.1:0", root], tmp, "follow")
        deadline = time.time() + PATIENCE
        while open(running.err_path).read().count("errcat: following") < files and time.time() < deadline:
            time.sleep(0.05)
        share = [lines[i::files] for i in range(files)]
        used = cpu_seconds(running.process.pid)
        begin = time.time()
        for path, part in zip(paths, share):
            with open(path, "a") as file:
                file.writelines(part)
        while lines_read(running.scrape()) < total:
            if time.time() - begin > PATIENCE:
                sys.exit("the followed lines were not all read in time")
            time.sleep(0.01)
        followed = (time.time() - begin, cpu_seconds(running.process.pid) - used)
        running.stop()
        return followed, scans
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def latency(errcat, samples, poll):
    tmp = tempfile.mkdtemp(prefix="errcat-latency-")
    try:
        log = os.path.join(tmp, "app.log")
        open(log, "w").close()
        args = ["--dataset", "seeds", "scan", "--count", "--follow", "--metrics", "127.0.0.1:0"]
        running = Errcat(errcat, args + (["--poll"] if poll else []) + [log], tmp, "latency")

        def count():
            text = running.scrape()
            return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines() if line.startswith(PERSIST_SERIES))

        taken = []
        for i in range(samples):
            before = count()
            time.sleep(0.3)
            begin = time.time()
            with open(log, "a") as file:
                file.write(PERSIST.format(f"latency-{i}") + "\n")
            while count() == before:
                if time.time() - begin > 10:
                    sys.exit("a line was not counted within 10 s")
            taken.append(time.time() - begin)
        running.stop()
        return taken
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def idle_cpu(errcat, files, seconds, poll):
    """CPU seconds errcat takes following `files` files that nothing writes to."""
    tmp = tempfile.mkdtemp(prefix="errcat-idle-")
    try:
        root = os.path.join(tmp, "pods")
        for n in range(files):
            os.makedirs(os.path.join(root, f"idle_pod-{n}_uid-{n}", "app"))
            with open(os.path.join(root, f"idle_pod-{n}_uid-{n}", "app", "0.log"), "w") as file:
                file.write(cri(PERSIST.format(f"idle-{n}")))
        args = ["--dataset", "seeds", "scan", "--count", "--follow", root] + (["--poll"] if poll else [])
        running = Errcat(errcat, args, tmp, "idle")
        deadline = time.time() + PATIENCE
        while open(running.err_path).read().count("errcat: following") < files and time.time() < deadline:
            time.sleep(0.05)
        time.sleep(1)
        before = cpu_seconds(running.process.pid)
        time.sleep(seconds)
        used = cpu_seconds(running.process.pid) - before
        running.stop()
        return used
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--errcat", default=os.path.join(ROOT, "target", "release", "errcat"))
    parser.add_argument("--short", action="store_true", help="CI: a shortened soak only")
    options = parser.parse_args()
    if not os.access(options.errcat, os.X_OK):
        sys.exit(f"{options.errcat}: no errcat there; build it (cargo build --release -p errcat) or give --errcat")
    if options.short:
        shape = dict(pods_count=20, total=50_000, rotations=4, deletions=5)
    else:
        shape = dict(pods_count=200, total=1_000_000, rotations=20, deletions=50)
    print(f"soak: {shape['pods_count']} pods, {shape['total']:,} lines, {shape['rotations']} rotations, "
          f"{shape['deletions']} pod deletions (errcat {options.errcat})\n")
    print("| run | lines written | files | lost | twice | not written | peak RSS (MiB) | seconds |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    failed = False
    for label, restart in [("straight through", False), ("restarted with --state half-way", True)]:
        result = soak(options.errcat, restart=restart, **shape)
        failed |= result["lost"] + result["twice"] + result["stray"] > 0
        print(f"| {label} | {result['lines']:,} | {result['files']} | {result['lost']} | {result['twice']} | "
              f"{result['stray']} | {result['peak_mib']:.1f} | {result['seconds']:.1f} |")
    if not options.short:
        total = 1_000_000
        followed, scans = throughput(options.errcat, total, 100)
        print(f"\nthroughput: {total:,} lines of examples/nats-server.log, the embedded catalog\n")
        print("| run | seconds | lines/s | follow ÷ run | CPU seconds | lines per CPU second | follow ÷ run (CPU) |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
        (wall, cpu) = followed
        print(f"| follow 100 files appended at once | {wall:.2f} | {total / wall:,.0f} | | {cpu:.2f} | {total / cpu:,.0f} | |")
        for label, (took, took_cpu) in scans.items():
            print(f"| {label} of one file (best of 3) | {took:.2f} | {total / took:,.0f} | {took / wall:.2f}x | "
                  f"{took_cpu:.2f} | {total / took_cpu:,.0f} | {took_cpu / cpu:.2f}x |")
        print("\nlatency from a write to the counter (30 samples)\n")
        print("| wake-up | median (ms) | max (ms) |")
        print("| --- | ---: | ---: |")
        for label, poll in [("file-system events", False), ("--poll", True)]:
            taken = latency(options.errcat, 30, poll)
            print(f"| {label} | {statistics.median(taken) * 1000:.0f} | {max(taken) * 1000:.0f} |")
        print("\nidle: CPU taken over 10 s following 1,000 files nothing writes to\n")
        print("| wake-up | CPU seconds | share of a core |")
        print("| --- | ---: | ---: |")
        for label, poll in [("file-system events", False), ("--poll", True)]:
            used = idle_cpu(options.errcat, 1000, 10, poll)
            print(f"| {label} | {used:.2f} | {used / 10:.1%} |")
    if failed:
        sys.exit("a soak lost or repeated lines")


if __name__ == "__main__":
    main()
