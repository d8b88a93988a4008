"""classify() gives what `errcat scan --json` gives, on every line, for what
real programs wrote: tools/real/golden (kafka's, django's, cargo's and
Node's own output, each program's lines classified with its dataset), with
Java, Python and Go traces around the programs' messages between them. The
same records, spans, fields and events (a trace's rows null, its message's
row holding it), whatever the input's form (a list of str, of bytes, an
arrow array, the file's bytes as an arrow array with the line breaks kept,
which is classified in place) and the threads."""

import json

import pytest

from error_catalog import Catalog

from conftest import REPO, assert_equals_errcat, errcat_scan, missing

pa = pytest.importorskip("pyarrow", reason="SKIPPED: pyarrow is not installed (pip install pyarrow)")
np = pytest.importorskip("numpy", reason="SKIPPED: numpy is not installed (pip install numpy)")

GOLDEN = REPO / "tools" / "real" / "golden"
PROGRAMS = ["cargo", "django", "kafka", "nodejs-node"]


def traced(message: str, kind: int) -> list:
    """`message` as the message of a Java, Python or Go trace."""
    if kind == 0:
        return [
            f'Exception in thread "main" java.lang.IllegalStateException: {message}',
            "\tat com.example.Broker.handle(Broker.java:42)",
            "Caused by: java.io.IOException: closed",
            "\t... 3 more",
        ]
    if kind == 1:
        return ["Traceback (most recent call last):", '  File "app.py", line 3, in <module>', f"RuntimeError: {message}"]
    return [f"panic: {message}", "", "goroutine 1 [running]:", "main.main()", "\t/app/main.go:8 +0x1d"]


def program_lines(program: str) -> list:
    """The program's lines from its golden file, about a hundred of its
    messages in traces too."""
    path = GOLDEN / f"{program}.jsonl"
    if not path.is_file():
        missing(f"{path} (tools/real/generate.sh writes it)")
    cases = [json.loads(text) for text in path.read_text(encoding="utf-8").splitlines()]
    every = max(1, len(cases) // 100)
    lines = []
    for number, case in enumerate(cases):
        lines += (case.get("line") or case["text"]).splitlines()
        if number % every == 0 and case.get("text"):
            lines += traced(case["text"].splitlines()[0], number // every % 3)
    return lines


def in_place(data: bytes):
    """A file's bytes as a large_string array of its lines, line breaks kept."""
    breaks = np.flatnonzero(np.frombuffer(data, np.uint8) == 10)
    offsets = np.concatenate(([0], breaks + 1)).astype(np.int64)
    return pa.LargeStringArray.from_buffers(len(offsets) - 1, pa.py_buffer(offsets), pa.py_buffer(data))


@pytest.mark.parametrize("program", PROGRAMS)
def test_every_line_of_real_programs_as_errcat(program, errcat, tmp_path, default_cache_dir):
    data = REPO / "datasets" / program
    if not data.is_dir():
        missing(f"the {program} dataset at {data}")
    lines = program_lines(program)
    log = tmp_path / f"{program}.log"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    expected = errcat_scan(errcat, log, data=data, cache_dir=default_cache_dir)
    assert len(expected) > 10, f"{program}: errcat found {len(expected)} lines"
    assert any("context" in found for found in expected.values()), f"{program}: no trace was grouped"
    catalog = Catalog.load(data)
    first = catalog.classify(lines, threads=1)
    assert_equals_errcat(first.to_pylist(), len(lines), expected, program)
    inputs = {
        "bytes": [line.encode() for line in lines],
        "arrow": pa.array(lines),
        "in place": in_place(log.read_bytes()),
    }
    for name, given in inputs.items():
        for threads in (1, 2):
            got = catalog.classify(given, threads=threads)
            assert got.to_pylist() == first.to_pylist(), f"{program}: {name}, {threads} threads"
