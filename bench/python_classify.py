"""Times Catalog.classify on a log file against errcat and against what a
Python user has without it, for bench/python.sh.

    python3 bench/python_classify.py CORPUS LOG ERRCAT THREADS...
    ENVELOPE=docker python3 bench/python_classify.py CORPUS LOG ERRCAT THREADS...

The log is read three ways, untimed: a list of str (one per line), a pyarrow
`string` array of the same str, and the file's bytes as a `large_string`
array whose elements keep their line breaks (numpy finds them; no Python
object per line), which classify reads in place. Then ROUNDS (default 3)
rounds, each timing in turn `errcat --data CORPUS scan --count --threads N`
(the whole process) and `classify` of each form, with each thread count:
interleaved, so that a busy machine slows all alike. After them, once: the
file read into the in-place array plus classify; `pyarrow.compute.
match_substring_regex` of one record's `messagePattern` over the string
array (the cost floor of a per-row Arrow kernel, for one record of the
catalog); Python `re`, every record's `messagePattern` tried on each of the
first SAMPLE (default 2000) lines. Prints `RESULT name threads seconds
lines matched cpu` lines, the median of the rounds for the interleaved ones;
`cpu` is the CPU seconds of all threads (errcat's process, or this
process's during the call), which a busy machine inflates far less than
the elapsed seconds: what threads gain shows as elapsed time falling while
CPU time stays.
ENVELOPE (default `auto`) is classify()'s `envelope`: wrapped logs are made
by bench/envelopes.py (in target/bench-envelopes/)."""

import os
import re
import resource
import statistics
import subprocess
import sys
import time

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from error_catalog import Catalog


def in_place(data: bytes):
    """The lines of `data` as a large_string array, each with its line break."""
    breaks = np.flatnonzero(np.frombuffer(data, np.uint8) == 10)
    offsets = np.concatenate(([0], breaks + 1)).astype(np.int64)
    if offsets[-1] != len(data):  # a last line without a line break
        offsets = np.append(offsets, len(data))
    return pa.LargeStringArray.from_buffers(len(offsets) - 1, pa.py_buffer(offsets), pa.py_buffer(data))


def cpu_seconds():
    """CPU seconds of this process and of its finished children."""
    own, children = (resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed(run):
    started, cpu = time.perf_counter(), cpu_seconds()
    result = run()
    return time.perf_counter() - started, result, cpu_seconds() - cpu


def matched(result):
    return len(result) - result.null_count


def errcat_count(errcat, corpus, log, threads):
    def run():
        done = subprocess.run(
            [errcat, "--data", corpus, "scan", "--count", "--threads", str(threads), log],
            capture_output=True,
            text=True,
        )
        # `N matching line(s), ...` on its last line.
        return int(done.stdout.strip().splitlines()[-1].split()[0])

    return run


def main():
    corpus, log, errcat, *threads = sys.argv[1:]
    envelope = os.environ.get("ENVELOPE", "auto")
    rounds = int(os.environ.get("ROUNDS", "3"))
    sample = int(os.environ.get("SAMPLE", "2000"))
    catalog = Catalog.load(corpus)
    data = open(log, "rb").read()
    text = data.decode("utf-8", errors="replace")
    as_list = text.split("\n")
    if as_list[-1] == "":
        as_list.pop()
    forms = {"list": as_list, "arrow": pa.array(as_list, pa.string()), "in-place": in_place(data)}
    lines = len(as_list)
    runs = []
    for n in threads:
        runs.append((f"errcat {n}", int(n), errcat_count(errcat, corpus, log, n), lambda found: found))
        for name, given in forms.items():
            run = lambda given=given, n=int(n): catalog.classify(given, threads=n, envelope=envelope)  # noqa: E731
            runs.append((f"classify {name}", int(n), run, matched))
    times = {}
    for _ in range(rounds):
        for name, n, run, count in runs:
            seconds, result, cpu = timed(run)
            times.setdefault((name, n), []).append(seconds)
            times.setdefault((name, n, "cpu"), []).append(cpu)
            times[(name, n, "matched")] = count(result)
    for name, n, _, _ in runs:
        median, cpu = (statistics.median(times[key]) for key in ((name, n), (name, n, "cpu")))
        found = times[(name, n, "matched")]
        print(f"RESULT {name.replace(' ', '_')} {n} {median:.3f} {lines} {found} {cpu:.3f}", flush=True)

    seconds, result, cpu = timed(lambda: catalog.classify(in_place(open(log, "rb").read()), envelope=envelope))
    print(f"RESULT read+classify_in-place {os.cpu_count()} {seconds:.3f} {lines} {matched(result)} {cpu:.3f}", flush=True)

    # The record most found, its pattern alone, as one Arrow kernel.
    found = catalog.classify(forms["in-place"]).field("id").drop_null().value_counts()
    top = max(found.to_pylist(), key=lambda pair: pair["counts"])["values"]
    pattern = catalog[top].message_pattern
    seconds, hits, cpu = timed(lambda: pc.match_substring_regex(forms["arrow"], pattern))
    found = pc.sum(hits).as_py()
    print(f"RESULT pyarrow_match_substring_regex(1_pattern) 1 {seconds:.3f} {lines} {found} {cpu:.3f}", flush=True)

    patterns = [re.compile(entry.message_pattern) for entry in catalog if entry.message_pattern]

    def python_re():
        hits = 0
        for line in as_list[:sample]:
            hits += any(p.search(line) for p in patterns)
        return hits

    seconds, hits, cpu = timed(python_re)
    print(f"RESULT python_re({len(patterns)}_patterns) 1 {seconds:.3f} {min(sample, lines)} {hits} {cpu:.3f}", flush=True)


main()
