"""classify(lines, envelope=...): lines in Docker, CRI, journald, syslog,
logfmt and JSON envelopes classify as errcat scan classifies them (with no
option: auto-detected), and as their bare lines do."""

import json
import sys

import pytest

from error_catalog import Catalog

from conftest import REPO, assert_equals_errcat, errcat_scan

# Docker's escaping, as the golden files' generator writes it.
sys.path.insert(0, str(REPO / "tools"))
from envelope_fixtures import docker_string  # noqa: E402

PREFIX = "[1] 2026/11/29 17:20:35.000001 [ERR] "
# Quotes, the envelopes' delimiters and escapes, a tab, non-ASCII beyond the BMP.
HOSTILE = 's "7" <x> & y=\\z\té😀'


def go_quote(text: str) -> str:
    """As Go's strconv.Quote writes printable text (slog's TextHandler)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t") + '"'


def docker(text: str, stream: str = "stderr") -> str:
    """A json-file line as moby writes it."""
    return '{"log":%s,"stream":"%s","time":"2026-11-29T17:20:35.000001Z"}' % (docker_string(text), stream)


MESSAGES = [
    'unable to persist session %s (seq=5): disk <full> & more' % json.dumps(HOSTILE, ensure_ascii=False),
    'unable to persist session "" (seq=0): ',
    'create QoS2 incoming messages stream for account "日本": nats: timeout',
]

ENVELOPES = {
    "docker": lambda line, message: docker(line + "\n"),
    "cri": lambda line, message: "2026-11-29T17:20:35.000001234Z stderr F " + line,
    "journald": lambda line, message: json.dumps({"__CURSOR": "s=1", "PRIORITY": "3", "MESSAGE": line}),
    "syslog": lambda line, message: "<11>1 2026-11-29T17:20:35Z host-a nats-server 1035 - - " + line,
    "logfmt": lambda line, message: "time=2026-11-29T17:20:35Z level=error msg=" + go_quote(message),
    "json": lambda line, message: json.dumps({"level": "error", "msg": message}),
}


@pytest.mark.parametrize("name", sorted(ENVELOPES))
def test_each_envelope_classifies_as_errcat_and_as_the_bare_line(name, errcat, tmp_path):
    catalog = Catalog.default()
    bare = [PREFIX + message for message in MESSAGES]
    lines = [ENVELOPES[name](line, message) for line, message in zip(bare, MESSAGES)]
    log = tmp_path / f"{name}.log"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    rows = catalog.classify(lines).to_pylist()
    assert_equals_errcat(rows, len(lines), errcat_scan(errcat, log), name)
    plain = catalog.classify(bare).to_pylist()
    assert [(r["id"], json.loads(r["fields"])) for r in rows] == [(r["id"], json.loads(r["fields"])) for r in plain]
    assert all(row is not None for row in rows)


def test_the_pieces_of_a_long_docker_line_are_joined_on_the_first_piece_s_row():
    catalog = Catalog.default()
    session = "x" * 40_000
    whole = f'{PREFIX}unable to persist session "{session}" (seq=5): timeout\n'
    pieces = [docker(whole[at : at + 16384]) for at in range(0, len(whole), 16384)]
    lines = [pieces[0], docker("another line\n", "stdout")] + pieces[1:]
    rows = catalog.classify(lines).to_pylist()
    assert [row is not None for row in rows] == [True, False, False, False]
    assert json.loads(rows[0]["fields"])["ps_id"] == session
    # Read as plain lines, none of them matches.
    assert all(row is None for row in catalog.classify(lines, envelope="none").to_pylist())


def test_an_unknown_envelope_is_an_error():
    with pytest.raises(ValueError, match='unknown envelope "xml"'):
        Catalog.default().classify(["a"], envelope="xml")


# A row that makes its chunk go row by row: a message holding a line break
# (classify then reads its column row by row), or a line of invalid UTF-8.
FORCED = {
    "break": lambda name: ENVELOPES[name](PREFIX + MESSAGES[0] + "\nat main", MESSAGES[0] + "\nat main"),
    "invalid": lambda name: b"\xff" + ENVELOPES[name](PREFIX + MESSAGES[2], MESSAGES[2]).encode(),
}


@pytest.mark.parametrize(
    "name, forced",
    [(name, None) for name in sorted(ENVELOPES)] + [("docker", "break"), ("json", "break"), ("docker", "invalid")],
)
def test_a_large_wrapped_column_classifies_as_each_row_alone(name, forced):
    """Some megabytes of wrapped lines (several chunks, classified at once
    unless a row needs row by row) give each row what it gives alone."""
    catalog = Catalog.default()
    wrap = ENVELOPES[name]
    kinds = [wrap(PREFIX + message, message) for message in MESSAGES]
    kinds += [
        wrap("GET /healthz 200", "GET /healthz 200"),
        None,
        "",
        PREFIX + MESSAGES[0],  # a plain line among wrapped ones
        wrap(PREFIX + MESSAGES[2], MESSAGES[2]) + "\r\n",
        wrap(PREFIX + MESSAGES[0], MESSAGES[0]) + "\nsecond line",
    ]
    alone = [catalog.classify([line], envelope=name).to_pylist()[0] for line in kinds]
    lines = [kinds[i % len(kinds)] for i in range(30_000)]
    expected = [alone[i % len(kinds)] for i in range(len(lines))]
    if forced:
        at = len(lines) * 2 // 3
        lines[at] = FORCED[forced](name)
        expected[at] = catalog.classify([lines[at]], envelope=name).to_pylist()[0]
    assert sum(len(line or "") for line in lines) > 2 << 20
    for threads in (1, 2):
        rows = catalog.classify(lines, envelope=name, threads=threads).to_pylist()
        assert rows == expected
    assert sum(row is not None for row in expected) >= len(lines) * 4 // len(kinds)
