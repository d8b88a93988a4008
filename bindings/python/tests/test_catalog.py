"""The error_catalog package against the Rust tests' expectations and errcat."""

import json
import os
import pickle
import subprocess
import threading
import time
import warnings

import pyarrow as pa
import pytest

import error_catalog
from error_catalog import Catalog, CatalogError, CatalogLoadError, CatalogWarning

from conftest import (
    BAD_DATA,
    EXAMPLE_LOG,
    HOSTILE_DATA,
    SEED_DATA,
    as_errcat,
    assert_equals_errcat,
    errcat_scan,
)

# The embedded catalog's records, as errcat/tests/it/errcat.rs lists them (catalog order).
RECORDS = [
    ("CreateQos2IncomingMessagesStreamForAccount", "443048c6cb7c33f3",
     "create-qos2-incoming-messages-stream-for-account",
     "create QoS2 incoming messages stream for account %q: %v", [("acc_name", "str"), ("err", "str")]),
    ("UnableToPersistSession", "503f49fe39cf5793", "unable-to-persist-session-q-seq-v-v",
     "unable to persist session %q (seq=%v): %v", [("ps_id", "str"), ("seq", "str"), ("err", "str")]),
    ("Qos1InFlightWindowIsFull", "59aa3418e32dd765", "qos1-in-flight-window-is-full-d-messages-and-je",
     "QoS1 in-flight window is full (%d messages) and JetStream has not acknowledged the oldest message "
     "within %v; failing the connection, the client will re-send unacknowledged PUBLISH packets on reconnect",
     [("mqtt_max_acks_in_flight", "int"), ("jsa_timeout", "str")]),
]

# The matches of examples/nats-server.log, as errcat/tests/it/errcat.rs expects them:
# line, record name, values in placeholder order.
EXAMPLE_MATCHES = [
    (55, "CreateQos2IncomingMessagesStreamForAccount", ["tenant-42", "nats: timeout"]),
    (77, "UnableToPersistSession", ["Mj4n8x2Lq", "1042", "nats: timeout"]),
    (88, "CreateQos2IncomingMessagesStreamForAccount", ["ACME", "nats: timeout"]),
    (102, "Qos1InFlightWindowIsFull", [1024, "4s"]),
    (111, "UnableToPersistSession", ["7fQp2ZrW0kLmN3bV", "17", "nats: no responders available for request"]),
    (121, "UnableToPersistSession", ["gw-plant-04", "2291", "maximum payload exceeded"]),
    (128, "CreateQos2IncomingMessagesStreamForAccount", ["tenant-42", "insufficient storage resources available"]),
    (134, "Qos1InFlightWindowIsFull", [512, "10s"]),
    (137, "UnableToPersistSession", ['line-"west"-03', "0", "insufficient resources"]),
    (146, "CreateQos2IncomingMessagesStreamForAccount", ["$G", "insufficient resources"]),
    (147, "Qos1InFlightWindowIsFull", [256, "2.5s"]),
    (157, "Qos1InFlightWindowIsFull", [1024, "750ms"]),
]

PREFIX = "[7] 2026/11/29 17:20:00.123456 [ERR] "
PERSIST = 'unable to persist session "s1" (seq=3): nats: timeout'


def file_lines(path):
    """The lines of a file as errcat splits them (on \\n only), as bytes."""
    data = path.read_bytes()
    lines = data.split(b"\n")
    if data.endswith(b"\n"):
        lines.pop()
    return lines


@pytest.fixture(scope="module")
def catalog():
    return Catalog.default()


def test_default_catalog_entries_and_metadata(catalog):
    assert len(catalog) == 3
    entries = list(catalog)
    assert [(e.name, e.id, e.slug, e.message, e.fields) for e in entries] == RECORDS
    for entry in entries:
        assert entry.severity == "error"
        assert entry.documentation and entry.solutions and all(isinstance(s, str) for s in entry.solutions)
        assert entry.source_link.startswith("https://") and entry.repo == "nats-io/nats-server"
        assert entry.origin is None  # embedded, not read from a file
        record = entry.record()
        assert record["id"] == entry.id and record["errorMessage"] == entry.message
        assert catalog[entry.id] is catalog[entry.slug] is catalog[entry.name]
    assert catalog[-1] is entries[2]
    with pytest.raises(KeyError):
        catalog["nope"]
    with pytest.raises(IndexError):
        catalog[3]
    with pytest.raises(TypeError):
        catalog[1.5]


def test_example_log_matches_the_rust_tests_expectations(catalog):
    lines = EXAMPLE_LOG.read_text().split("\n")
    found = [(n, m) for n, m in ((n, catalog.find(line)) for n, line in enumerate(lines, 1)) if m]
    assert [(n, m.name, m.args) for n, m in found] == EXAMPLE_MATCHES
    # Typed fields: %d is an int.
    qos1 = dict(found)[102]
    assert qos1.fields == {"mqtt_max_acks_in_flight": 1024, "jsa_timeout": "4s"}
    assert type(qos1.fields["mqtt_max_acks_in_flight"]) is int
    persist = dict(found)[137]
    assert persist.fields == {"ps_id": 'line-"west"-03', "seq": "0", "err": "insufficient resources"}
    assert persist.id == "503f49fe39cf5793" and persist.severity == "error"
    assert persist.entry is catalog["UnableToPersistSession"]


def test_every_line_of_the_example_log_as_errcat(catalog, errcat):
    """The done-when check: find() and classify() give errcat's match on every line."""
    expected = errcat_scan(errcat, EXAMPLE_LOG)
    assert sorted(expected) == [n for n, _, _ in EXAMPLE_MATCHES]
    lines = EXAMPLE_LOG.read_text().split("\n")[:-1]
    for number, line in enumerate(lines, 1):
        m = catalog.find(line)
        want = expected.get(number)
        if want is None:
            assert m is None, f"line {number}: {m}"
        else:
            got = m.to_dict()
            assert {k: got[k] for k in ("id", "slug", "name", "severity", "span", "fields", "args")} == {
                k: want[k] for k in ("id", "slug", "name", "severity", "span", "fields", "args")
            }, f"line {number}"
    for lines_in in (lines, pa.array(lines), pa.array(lines, pa.large_string()), file_lines(EXAMPLE_LOG)):
        assert_equals_errcat(catalog.classify(lines_in).to_pylist(), len(lines), expected, "example")


def test_parse_find_all_and_spans(catalog):
    line = PREFIX + PERSIST
    m = catalog.parse(PERSIST)
    assert m.name == "UnableToPersistSession" and m.span == (0, len(PERSIST))
    assert catalog.parse(line) is None  # a whole message only
    found = catalog.find(line)
    assert line[found.span[0]:found.span[1]] == PERSIST
    assert found == catalog.find(line) and found != m
    every = catalog.find_all(line)
    assert every[0] == found
    # str indices and UTF-8 byte offsets differ after non-ASCII text.
    wide = "[7] ünïcödé [ERR] " + PERSIST
    m = catalog.find(wide)
    assert wide[m.span[0]:m.span[1]] == PERSIST
    assert wide.encode()[m.byte_span[0]:m.byte_span[1]] == PERSIST.encode()
    assert m.byte_span[0] == m.span[0] + 4
    assert catalog.find("nothing here") is None and catalog.find_all("nothing") == []
    assert catalog.find("") is None


def test_values_whole_in_a_line(catalog):
    """As in Rust: a text placeholder that ends the message takes the rest of
    the line (multi-word text whole, not one character), and values may be
    empty."""
    message = 'unable to persist session "s 1" (seq=7): nats: timeout after 5s'
    m = catalog.find(PREFIX + message)
    assert m.fields == {"ps_id": "s 1", "seq": "7", "err": "nats: timeout after 5s"}
    empty = 'unable to persist session "" (seq=): '
    m = catalog.find(PREFIX + empty)
    assert m is not None and m.fields == {"ps_id": "", "seq": "", "err": ""}
    assert [json.loads(row["fields"]) for row in catalog.classify([PREFIX + empty]).to_pylist()] == [m.fields]


def test_non_utf8_bytes_as_errcat(catalog, errcat, tmp_path):
    """Bytes that are not UTF-8 are read with replacement characters and the
    span is in the original bytes, as errcat does."""
    lines = [
        b"\xff\xfe[ERR] " + PERSIST.encode(),
        PREFIX.encode() + b'unable to persist session "\xc3\x28" (seq=1): x\x80y',
        b"\x01 binary noise \xff",
        PREFIX.encode() + PERSIST.encode() + b"\r",
        b"",
    ]
    log = tmp_path / "bad.log"
    log.write_bytes(b"\n".join(lines) + b"\n")
    expected = errcat_scan(errcat, log)
    assert sorted(expected) == [1, 2, 4]
    for input in (lines, pa.array(lines, pa.binary()), pa.array(lines, pa.large_binary())):
        assert_equals_errcat(catalog.classify(input).to_pylist(), len(lines), expected, "bad.log")
    for number, line in enumerate(lines, 1):
        m = catalog.find(line)
        if number in expected:
            assert [m.byte_span[0], m.byte_span[1]] == expected[number]["span"]
            assert m.fields == expected[number]["fields"]
        else:
            assert m is None
    assert "\ufffd" in catalog.find(lines[1]).fields["ps_id"]
    # NUL bytes (errcat refuses such a file as binary): no crash, the same as find.
    nul = [b"\x00" + lines[0], b"\x00\x00", PREFIX.encode() + b"\x00" + PERSIST.encode()]
    rows = catalog.classify(nul).to_pylist()
    assert [r and r["span"] for r in rows] == [m and list(m.byte_span) for m in map(catalog.find, nul)]


def test_huge_lines_as_errcat(catalog, errcat, tmp_path):
    """A 10 MiB line is classified; a 20 MiB one is skipped (null, with a
    warning), as errcat skips lines over 16 MiB."""
    big = "x" * (10 << 20) + " [ERR] " + PERSIST
    huge = "y" * (20 << 20) + " [ERR] " + PERSIST
    lines = [PREFIX + PERSIST, big, huge, PREFIX + PERSIST]
    log = tmp_path / "huge.log"
    log.write_text("\n".join(lines) + "\n")
    expected = errcat_scan(errcat, log)
    assert sorted(expected) == [1, 2, 4]
    with pytest.warns(CatalogWarning, match="longer than 16 MiB"):
        rows = catalog.classify(lines).to_pylist()
    assert_equals_errcat(rows, len(lines), expected, "huge.log")
    # find() itself has no limit.
    assert catalog.find(huge).name == "UnableToPersistSession"


def test_lines_with_breaks_and_nulls(catalog):
    rows = catalog.classify([PREFIX + PERSIST + "\n", None, "noise\n" + PREFIX + PERSIST, PREFIX + PERSIST + "\r\n"])
    assert rows.null_count == 1 and rows[1].as_py() is None
    first = rows[0].as_py()
    assert rows[3].as_py() == first
    # Several lines in one element: the first that matches, its span from the element's start.
    assert rows[2].as_py()["span"] == [first["span"][0] + 6, first["span"][1] + 6]
    assert pa.array([None, None], pa.string()).null_count == 2
    assert catalog.classify(pa.array([None, PERSIST], pa.string())).to_pylist()[0] is None


def test_bad_input_types(catalog):
    with pytest.raises(TypeError, match="str or bytes, not int"):
        catalog.find(5)
    with pytest.raises(TypeError, match="str or bytes"):
        catalog.parse(None)
    with pytest.raises(TypeError, match="not str"):
        catalog.classify("a single str")
    with pytest.raises(TypeError, match="line 1 is int"):
        catalog.classify(["ok", 1])
    with pytest.raises(TypeError, match="not arrow format"):
        catalog.classify(pa.array([1, 2]))
    with pytest.raises(TypeError):
        catalog.classify({"a": 1})
    with pytest.raises(ValueError, match="not valid Unicode"):
        catalog.classify(["ok", "\ud800"])
    with pytest.raises(UnicodeError):
        catalog.find("\ud800")
    with pytest.raises(ValueError, match="threads"):
        catalog.classify(["x"], threads=0)
    # Hostile arrow buffers: an error (pyarrow's own check when it builds the
    # array, or classify's), never a crash.
    data = pa.py_buffer(b"abcdef")
    for offsets in ([0, 3, 600], [0, 5, 2], [0, -1, 2]):
        with pytest.raises(ValueError):
            buffer = pa.py_buffer(pa.array(offsets, pa.int32()).buffers()[1])
            catalog.classify(pa.StringArray.from_buffers(2, buffer, data))
    # Empty inputs give empty results of the same type.
    empty = catalog.classify([])
    assert len(empty) == 0 and empty.type == catalog.classify(["x"]).type
    assert len(catalog.classify(pa.chunked_array([], pa.string()))) == 0


def old_copy_of_seeds(data):
    """A copy of the seed records an hour old. A fresh checkout's files may
    be too recent to cache (racily clean): copies with old times are cached.
    The directory too: it is stamped, to skip listing it while unchanged."""
    data.mkdir()
    for path in SEED_DATA.iterdir():
        (data / path.name).write_bytes(path.read_bytes())
        os.utime(data / path.name, (time.time() - 3600, time.time() - 3600))
    os.utime(data, (time.time() - 3600, time.time() - 3600))
    return data


def test_the_default_cache_is_this_runs_temporary_directory(tmp_path, default_cache_dir):
    """`Catalog.load` without `cache_dir` caches where ERRCAT_CACHE_DIR says:
    in these tests a temporary directory (conftest.py), never ~/.cache."""
    assert os.environ["ERRCAT_CACHE_DIR"] == str(default_cache_dir)
    before = set(default_cache_dir.glob("catalog-*.bin"))
    Catalog.load(old_copy_of_seeds(tmp_path / "data"))
    assert set(default_cache_dir.glob("catalog-*.bin")) - before, "nothing cached in the run's directory"


def test_load_with_cache(tmp_path, catalog):
    fresh = Catalog.load(SEED_DATA, cache=False)
    assert [e.id for e in fresh] == [e.id for e in catalog]
    origin = fresh["UnableToPersistSession"].origin
    assert origin[0].endswith(".json") and origin[1] >= 1
    cache = tmp_path / "cache"
    first = Catalog.load(SEED_DATA, cache_dir=cache)
    data = old_copy_of_seeds(tmp_path / "data")
    Catalog.load(data, cache_dir=cache)
    assert len(list(cache.glob("catalog-*.bin"))) >= 1
    again = Catalog.load(data, cache_dir=cache)
    line = PREFIX + PERSIST
    found = [c.find(line).to_dict() for c in (again, first, catalog)]
    # Each named as errcat names its dataset: the folder's name.
    assert [match.pop("dataset") for match in found] == ["data", "nats-server", "seeds"]
    assert found[0] == found[1] == found[2]


def test_bad_records_raise_with_file_line_and_field():
    with pytest.raises(CatalogLoadError) as raised:
        Catalog.load(BAD_DATA, cache=False)
    diagnostics = raised.value.diagnostics
    files = sorted({d.path.rsplit("/", 1)[-1].split(".")[0] for d in diagnostics if d.level == "error"})
    assert files == ["a_malformed", "b_mistyped", "c_missing", "d_regex", "e_format", "f_duplicate"]
    assert len([d for d in diagnostics if d.level == "error"]) == 7
    assert all(d.line > 0 and d.column > 0 for d in diagnostics)
    assert any(d.field for d in diagnostics)
    message = str(raised.value)
    for d in diagnostics:
        assert str(d).startswith(f"{d.path}:{d.line}:{d.column}: ")
        if d.level == "error":
            assert str(d) in message
    assert isinstance(raised.value, CatalogError)
    # Hostile records (200-deep JSON, a 20 KB message, a regex of 10^9 states,
    # a file that is not UTF-8, ...): errors, never a crash.
    with pytest.raises(CatalogLoadError) as raised:
        Catalog.load(HOSTILE_DATA, cache=False)
    assert {"a_nested", "b_enormous", "c_huge_regex", "d_placeholders", "e_not_utf8"} <= {
        d.path.rsplit("/", 1)[-1].split(".")[0] for d in raised.value.diagnostics
    }
    with pytest.raises(CatalogLoadError):
        Catalog.load(BAD_DATA / "no-such-dir")


def test_bytes_and_pickle(catalog):
    copy = Catalog.from_bytes(catalog.to_bytes())
    line = PREFIX + PERSIST
    assert copy.find(line).to_dict() == catalog.find(line).to_dict()
    assert len(pickle.loads(pickle.dumps(catalog))) == 3
    data = catalog.to_bytes()
    for damaged in (b"", b"garbage", data[:-1], data[:20], data[:-1] + bytes([data[-1] ^ 1])):
        with pytest.raises(CatalogError, match="not a compiled catalog"):
            Catalog.from_bytes(damaged)


def test_classify_releases_the_gil(catalog):
    lines = pa.array([PREFIX + PERSIST, "noise " * 30] * 400_000)
    done = threading.Event()
    result = {}

    def work():
        result["rows"] = catalog.classify(lines, threads=1)
        done.set()

    worker = threading.Thread(target=work)
    started = time.perf_counter()
    worker.start()
    ticks = 0
    while not done.is_set():
        ticks += 1
    worker.join()
    elapsed = time.perf_counter() - started
    assert len(result["rows"]) == len(lines)
    # The main thread kept running Python while classify ran.
    assert elapsed > 0.05 and ticks > 10_000, (elapsed, ticks)


def test_corpus_log_as_errcat_with_any_threads(corpus, errcat, xtask, tmp_path):
    """20,000 lines made from the 2,008-record corpus, a third of them
    messages: classify (list, arrow, 1 to 4 threads) equals errcat --data."""
    log = tmp_path / "corpus.log"
    subprocess.run([str(xtask), "log", str(corpus), "20000", "0.3", str(log)], check=True, capture_output=True)
    cache = tmp_path / "cache"
    expected = errcat_scan(errcat, log, data=corpus, cache_dir=cache)
    assert len(expected) > 3000
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        loaded = Catalog.load(corpus, cache_dir=cache)
    assert len(loaded) == 2008
    lines = log.read_text().split("\n")[:-1]
    arrow = pa.array(lines)
    first = loaded.classify(arrow, threads=1)
    assert_equals_errcat(first.to_pylist(), len(lines), expected, "corpus.log")
    for threads in (2, 4):
        assert loaded.classify(arrow, threads=threads).equals(first)
    assert loaded.classify(lines).equals(first)
    assert loaded.classify(pa.chunked_array([arrow.slice(0, 7001), arrow.slice(7001)])).combine_chunks().equals(first)
    for number in list(expected)[:200]:
        m = loaded.find(lines[number - 1])
        assert [m.byte_span[0], m.byte_span[1]] == expected[number]["span"]
        assert m.args == expected[number]["args"]


def test_lossless_values_beyond_str_and_int64(corpus, errcat, tmp_path):
    """Go's %q of bytes that are not UTF-8 gives Python bytes (errcat shows
    them escaped), and classify writes them as errcat's JSON does."""
    line = '[1] 2026/11/29 17:20:00.1 [ERR] 10.0.0.1:4222 - cid:7 - invalid utf8 for client ID: "\\xc3(ab"'
    loaded = Catalog.load(corpus, cache_dir=tmp_path / "cache")
    m = loaded.find(line)
    assert m is not None and m.slug == "invalid-utf8-for-s-q"
    assert m.args == ["client ID:", b"\xc3(ab"]
    log = tmp_path / "utf8.log"
    log.write_text(line + "\n")
    expected = errcat_scan(errcat, log, data=corpus, cache_dir=tmp_path / "cache")
    assert_equals_errcat(loaded.classify([line]).to_pylist(), 1, expected, "utf8.log")


def test_package_metadata():
    assert error_catalog.__version__ == "0.1.0"
    assert Catalog.__doc__ and Catalog.classify.__doc__ and Catalog.find.__doc__


def test_stubs_list_the_runtime_api():
    """_native.pyi names every public method and property of each class, and no other."""
    import ast
    from pathlib import Path

    from error_catalog import _native

    stubs = ast.parse((Path(error_catalog.__file__).parent / "_native.pyi").read_text())
    for node in stubs.body:
        if isinstance(node, ast.ClassDef) and hasattr(_native, node.name):
            runtime = getattr(_native, node.name)
            if issubclass(runtime, BaseException):
                continue
            stubbed = {n.name for n in node.body if isinstance(n, ast.FunctionDef)} | {
                n.target.id for n in node.body if isinstance(n, ast.AnnAssign)
            }
            public = {name for name in vars(runtime) if not name.startswith("_")}
            assert {n for n in stubbed if not n.startswith("_")} == public, node.name
