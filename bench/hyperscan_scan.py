"""Hyperscan baseline: compile every pattern into one block-mode database and
scan the whole file in one call. Reports only which pattern matched where (no
captures, no ranking), as the benchmark's scan-only reference.

usage: python3 bench/hyperscan_scan.py PATTERNS FILE [RUNS]

With RUNS (default 1), the file is scanned that many times and the median
scan time reported.
"""
import sys
import time

import hyperscan


def main():
    patterns_path, file_path = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    with open(patterns_path, "rb") as f:
        patterns = [p for p in f.read().split(b"\n") if p]
    started = time.perf_counter()
    usable = []
    for p in patterns:
        try:
            db = hyperscan.Database()
            db.compile(expressions=[p], flags=[hyperscan.HS_FLAG_SINGLEMATCH])
            usable.append(p)
        except hyperscan.error:
            pass
    db = hyperscan.Database()
    db.compile(
        expressions=usable,
        ids=list(range(len(usable))),
        flags=[0] * len(usable),
    )
    compiled = time.perf_counter() - started
    with open(file_path, "rb") as f:
        data = f.read()
    hits = [0]

    def on_match(pattern_id, start, end, flags, context):
        hits[0] += 1
        return 0

    times = []
    for _ in range(runs):
        hits[0] = 0
        started = time.perf_counter()
        db.scan(data, match_event_handler=on_match)
        times.append(time.perf_counter() - started)
    scanned = sorted(times)[(len(times) - 1) // 2]
    print(
        f"hyperscan: {len(usable)}/{len(patterns)} patterns compiled in {compiled:.2f} s; "
        f"scanned {len(data) / 1e6:.1f} MB in {scanned:.3f} s (median of {runs}) = {len(data) / 1e6 / scanned:.1f} MB/s; {hits[0]} matches"
    )
    print(f"RESULT {scanned:.4f} {compiled:.4f}")


if __name__ == "__main__":
    main()
