"""classify() gives what `errcat scan --json` gives, on every line, for what
real programs wrote: tools/real/golden (kafka's, django's, cargo's and
Node's own output, each program's lines classified with its dataset), with
Java, Python and Go traces around the programs' messages between them, and
errcat's own logs of events (errcat/tests/data/events: Django requests,
chained Python tracebacks, Java through SLF4J) with errcat's default
catalog. The same records, spans, fields and events (a trace's rows null,
its message's row holding it, with the event's first and last rows, the
line that introduced it and its causes), whatever the input's form (a list
of str, of bytes, an arrow array, the file's bytes as an arrow array with
the line breaks kept, which is classified in place) and the threads."""

import json

import pytest

from error_catalog import Catalog

from conftest import REPO, assert_equals_errcat, errcat_scan, missing

pa = pytest.importorskip("pyarrow", reason="SKIPPED: pyarrow is not installed (pip install pyarrow)")
np = pytest.importorskip("numpy", reason="SKIPPED: numpy is not installed (pip install numpy)")

GOLDEN = REPO / "tools" / "real" / "golden"
EVENTS = REPO / "errcat" / "tests" / "data" / "events"
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


def assert_every_form_as_errcat(catalog, log, expected, what):
    """classify() of `log`'s lines in each form and with 1 and 2 threads
    against errcat's objects."""
    lines = log.read_text(encoding="utf-8").splitlines()
    inputs = {
        "str": lines,
        "bytes": [line.encode() for line in lines],
        "arrow": pa.array(lines),
        "in place": in_place(log.read_bytes()),
    }
    for name, given in inputs.items():
        for threads in (1, 2):
            result = catalog.classify(given, threads=threads)
            result.validate(full=True)
            assert_equals_errcat(result.to_pylist(), len(lines), expected, f"{what} ({name}, {threads} threads)")


def test_errcats_event_logs_as_errcat(errcat):
    logs = sorted(EVENTS.glob("*.log"))
    if not logs:
        missing(f"errcat's event logs in {EVENTS}")
    catalog = Catalog.embedded()
    events = causes = 0
    for log in logs:
        expected = errcat_scan(errcat, log, dataset=None)
        events += sum("start_line" in found for found in expected.values())
        causes += sum(len(found.get("causes", [])) for found in expected.values())
        assert_every_form_as_errcat(catalog, log, expected, log.name)
    assert events >= 3 and causes >= 3, f"errcat found {events} events, {causes} causes in {EVENTS}"


# A Python traceback introduced by a log line that a record explains, and a
# Java trace introduced by one that none does, with a cause a record explains
# (Django's messages, matched by errcat's default catalog).
INTRODUCED = """\
2026-12-01 10:00:00,000 ERROR [django.request] Internal Server Error: /orders/7
Traceback (most recent call last):
  File "app.py", line 3, in <module>
django.template.exceptions.TemplateSyntaxError: Not expecting 'and' in this position in if tag.
GET /healthz 200
2026-12-01 10:00:01,000 ERROR [broker] Failed to start
java.lang.IllegalStateException: Not expecting 'and' in this position in if tag.
\tat com.example.Broker.handle(Broker.java:42)
Caused by: django.template.exceptions.TemplateSyntaxError: Not expecting 'or' in this position in if tag.
\t... 3 more
"""


def test_introduced_events_and_their_causes_as_errcat(errcat, tmp_path):
    if not (REPO / "datasets" / "django").is_dir():
        missing("the django dataset (datasets/django)")
    log = tmp_path / "introduced.log"
    log.write_text(INTRODUCED, encoding="utf-8")
    expected = errcat_scan(errcat, log, dataset=None)
    assert sorted(expected) == [4, 7], expected
    assert expected[4]["intro"]["name"] == "InternalServerErrorResponseForException"
    assert expected[7]["causes"][0]["fields"] == {"self_id": "or"} and "name" not in expected[7]["intro"]
    catalog = Catalog.embedded()
    assert_every_form_as_errcat(catalog, log, expected, log.name)
    rows = catalog.classify(INTRODUCED.splitlines()).to_pylist()
    # The rows, 0-based, of the lines errcat numbers from 1.
    assert (rows[3]["start_row"], rows[3]["end_row"], json.loads(rows[3]["intro"])["row"]) == (0, 3, 0)
    assert (rows[6]["start_row"], rows[6]["end_row"], json.loads(rows[6]["causes"])[0]["row"]) == (5, 9, 8)
    assert rows[4] is None and rows[5] is None
    # Matches without an event: the event's columns all null, the array valid.
    plain = catalog.classify(["GET /healthz 200", INTRODUCED.splitlines()[3]])
    plain.validate(full=True)
    assert plain.null_count == 1 and plain[1].as_py()["name"] == "NotExpectingInThisPositionInIfTag"
    assert [plain.field(key).null_count for key in ("start_row", "end_row", "intro", "causes")] == [2] * 4
