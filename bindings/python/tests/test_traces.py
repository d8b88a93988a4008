"""classify() groups the lines of a stack trace into one event as errcat scan
does: a Java trace, a Python traceback and a Go panic, as plain lines and in
Docker and JSON envelopes, give the same events (the message's row carrying
the trace as `context`, the trace's rows nothing) as `errcat scan --json` on
the same lines."""

import json
import sys

import pytest

from error_catalog import Catalog

from conftest import REPO, assert_equals_errcat, errcat_scan

sys.path.insert(0, str(REPO / "tools"))
from envelope_fixtures import docker_string  # noqa: E402

PERSIST = 'unable to persist session "s1" (seq=3): nats: timeout'
QOS = 'create QoS2 incoming messages stream for account "A": nats: timeout'

TRACES = [
    # Java: the exception line is the message; its frames and causes follow.
    f'Exception in thread "main" java.lang.IllegalStateException: {PERSIST}',
    "\tat com.example.Sessions.store(Sessions.java:42)",
    f"Caused by: java.io.IOException: {QOS}",
    "\t... 3 more",
    "[INF] between the traces",
    # Python: the exception line ends the traceback, whose lines come first.
    "Traceback (most recent call last):",
    '  File "app.py", line 3, in <module>',
    "    store()",
    f"RuntimeError: {QOS}",
    # Go: the panic, a blank line, the goroutines.
    f"panic: {PERSIST}",
    "",
    "goroutine 1 [running]:",
    "main.main()",
    "\t/app/main.go:8 +0x1d",
    "exit status 2",
    f"[ERR] {PERSIST}",
]

ENVELOPES = {
    "none": lambda line: line,
    "docker": lambda line: '{"log":%s,"stream":"stderr","time":"2026-11-29T17:20:35.000001Z"}'
    % docker_string(line + "\n"),
    "json": lambda line: json.dumps({"level": "error", "msg": line}),
}


@pytest.mark.parametrize("name", sorted(ENVELOPES))
def test_traces_are_grouped_as_errcat_groups_them(name, errcat, tmp_path):
    lines = [ENVELOPES[name](line) for line in TRACES]
    log = tmp_path / f"{name}.log"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    expected = errcat_scan(errcat, log)
    rows = Catalog.default().classify(lines).to_pylist()
    assert_equals_errcat(rows, len(lines), expected, name)
    # What grouping gives: the three messages, each with its trace, and the
    # line after them; no row for the trace lines (the `Caused by` among them).
    matched = [number for number, row in enumerate(rows, start=1) if row is not None]
    assert matched == [1, 9, 10, 16], f"{name}: {matched}"
    contexts = [rows[number - 1]["context"] for number in matched]
    assert contexts[0] == "\n".join(TRACES[1:4])
    assert contexts[1] == "\n".join(TRACES[5:8])
    assert contexts[2] == "\n".join(TRACES[10:15])
    assert contexts[3] is None
    assert all(rows[number - 1]["envelope"] == name for number in matched)
