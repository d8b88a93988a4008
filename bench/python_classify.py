"""Times Catalog.classify on a log file (lines/s, MB/s), for bench/python.sh.

    python3 bench/python_classify.py CORPUS LOG THREADS...
    ENVELOPE=docker python3 bench/python_classify.py CORPUS LOG THREADS...

The log is read into a pyarrow string array without a Python object per
line (numpy finds the line breaks); then classify() runs on it once per
thread count. Prints one `RESULT threads seconds lines matched` line each,
then the end-to-end time (read + classify with all cores). ENVELOPE (default
`auto`) is classify()'s `envelope`: wrapped logs are made by
bench/envelopes.py (in target/bench-envelopes/)."""

import os
import sys
import time

import numpy as np
import pyarrow as pa

from error_catalog import Catalog


def read_lines(path):
    data = open(path, "rb").read()
    breaks = np.flatnonzero(np.frombuffer(data, np.uint8) == 10)
    starts = np.concatenate(([0], breaks + 1))
    ends = np.concatenate((breaks, [len(data)]))
    if ends[-1] == starts[-1]:  # a final line break ends the last line
        starts, ends = starts[:-1], ends[:-1]
    # Offsets of lines without their breaks: data laid out without copying
    # is not possible (the breaks sit between lines), so the breaks stay in
    # the elements and classify drops each line's trailing "\n".
    offsets = np.concatenate((starts, [len(data)])).astype(np.int64)
    return pa.LargeStringArray.from_buffers(len(starts), pa.py_buffer(offsets), pa.py_buffer(data))


def main():
    corpus, log, *threads = sys.argv[1:]
    envelope = os.environ.get("ENVELOPE", "auto")
    catalog = Catalog.load(corpus)
    started = time.perf_counter()
    lines = read_lines(log)
    read = time.perf_counter() - started
    print(f"READ {read:.3f} {len(lines)}")
    for n in threads:
        started = time.perf_counter()
        result = catalog.classify(lines, threads=int(n), envelope=envelope)
        seconds = time.perf_counter() - started
        print(f"RESULT {n} {seconds:.3f} {len(lines)} {len(result) - result.null_count}")
    started = time.perf_counter()
    result = catalog.classify(read_lines(log), envelope=envelope)
    print(f"END_TO_END {time.perf_counter() - started:.3f}")


main()
