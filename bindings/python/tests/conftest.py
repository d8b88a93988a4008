"""Shared fixtures: the repository's files, the `errcat` and `xtask` binaries
(built by `cargo build --release -p errcat -p xtask`), the
nats-server dataset (`datasets/nats-server`), and `errcat scan --json` results to compare with.

A missing tool or corpus skips the tests that need it, with the reason; with
ERROR_CATALOG_REQUIRE=1 (as in CI) it fails them instead.

The tests never write into the user's home: `Catalog.load`'s default cache
(and errcat's, and the Spark workers', which inherit the environment) is a
temporary directory for the whole run, removed at its end."""

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

# Set when pytest imports this file, before it imports a test module (which
# may load a catalog as it is imported) or starts Spark: both variables, so
# that a test that unsets ERRCAT_CACHE_DIR to see the XDG fallback still
# stays out of ~/.cache.
CACHE_ROOT = Path(tempfile.mkdtemp(prefix="error-catalog-tests-"))
DEFAULT_CACHE = CACHE_ROOT / "errcat"
os.environ["ERRCAT_CACHE_DIR"] = str(DEFAULT_CACHE)
os.environ["XDG_CACHE_HOME"] = str(CACHE_ROOT / "xdg")


@pytest.fixture(scope="session", autouse=True)
def default_cache_dir():
    """Where the catalogs loaded without `cache_dir` are cached in this run."""
    assert os.environ["ERRCAT_CACHE_DIR"] == str(DEFAULT_CACHE), "a test changed ERRCAT_CACHE_DIR for good"
    yield DEFAULT_CACHE
    shutil.rmtree(CACHE_ROOT, ignore_errors=True)

REPO = Path(__file__).resolve().parents[3]
EXAMPLE_LOG = REPO / "examples" / "nats-server.log"
SEED_DATA = REPO / "data" / "nats-io" / "nats-server"
BAD_DATA = REPO / "tests" / "ui" / "data" / "bad"
HOSTILE_DATA = REPO / "tests" / "ui" / "data" / "hostile"
CORPUS = Path(os.environ.get("ERROR_CATALOG_CORPUS", REPO / "datasets" / "nats-server"))


def missing(what: str):
    """Skips (loudly, with the reason), or fails when ERROR_CATALOG_REQUIRE is set."""
    if os.environ.get("ERROR_CATALOG_REQUIRE"):
        pytest.fail(f"required but missing: {what}")
    pytest.skip(f"SKIPPED: {what}")


def binary(name: str, variable: str) -> Path:
    if os.environ.get(variable):
        return Path(os.environ[variable])
    for profile in ("release", "debug"):
        path = REPO / "target" / profile / name
        if path.exists():
            return path
    missing(f"{name} binary (build it: cargo build --release -p errcat -p xtask, or set {variable})")


@pytest.fixture(scope="session")
def errcat() -> Path:
    return binary("errcat", "ERRCAT")


@pytest.fixture(scope="session")
def xtask() -> Path:
    return binary("xtask", "XTASK")


@pytest.fixture(scope="session")
def corpus() -> Path:
    if not CORPUS.is_dir():
        missing(f"the nats-server dataset at {CORPUS} (set ERROR_CATALOG_CORPUS)")
    return CORPUS


def errcat_scan(errcat: Path, log: Path, data: Path = None, cache_dir: Path = None, dataset="seeds") -> dict:
    """`errcat scan --json` on `log`: its objects by line number. With no
    `data`, the embedded `dataset` (by default the seed records, the
    catalog of `Catalog.default()`); `dataset=None`: errcat's default, every
    dataset it embeds (`Catalog.embedded()`)."""
    command = [str(errcat)]
    if data is not None:
        command += ["--data", str(data)]
    elif dataset is not None:
        command += ["--dataset", dataset]
    command += ["scan", "--json", str(log)]
    env = dict(os.environ)
    env.pop("ERRCAT_DATASET", None)
    if cache_dir is not None:
        env["ERRCAT_CACHE_DIR"] = str(cache_dir)
    run = subprocess.run(command, capture_output=True, env=env)
    # 0: matches, 1: none, 2: trouble (invalid UTF-8, a skipped line), still scanned.
    assert run.returncode in (0, 1, 2), run.stderr.decode(errors="replace")
    objects = [json.loads(line) for line in run.stdout.decode().splitlines()]
    return {o["line"]: o for o in objects}


# classify()'s columns that hold JSON text, as errcat writes the values.
JSON_COLUMNS = ("fields", "args", "field_spans", "message_span")


def as_errcat(row, event=True) -> dict:
    """A row of classify()'s result as errcat's `--json` object (without
    `file` and `line`): its JSON columns decoded, `envelope` and
    `message_span` only for a line in an envelope, `context` only when
    there is a trace, and for an event of several lines its rows as
    errcat's 1-based lines (`start_line`, `end_line`, the `line` of its
    `intro` and `causes`), those keys only for such an event (`event=False`:
    a row of `error_catalog.spark`'s, which has none of them)."""
    if row is None:
        return None
    got = {**row, **{key: json.loads(row[key]) for key in JSON_COLUMNS}}
    if got["envelope"] == "none":
        del got["envelope"], got["message_span"]
    if got["context"] is None:
        del got["context"]
    if not event:
        assert not {"start_row", "end_row", "intro", "causes"} & got.keys(), row
        return got
    start, end = got.pop("start_row"), got.pop("end_row")
    assert (start is None) == (end is None), row
    if start is not None:
        got["start_line"], got["end_line"] = start + 1, end + 1
    for key in ("intro", "causes"):
        value = got.pop(key)
        if value is not None:
            assert start is not None, f"{key} without an event: {row}"
            got[key] = json.loads(value)
    for part in ([got["intro"]] if "intro" in got else []) + got.get("causes", []):
        part["line"] = part.pop("row") + 1
    return got


# errcat's keys that classify()'s rows do not have.
NOT_IN_ROWS = ("file", "line")


def assert_equals_errcat(rows, lines_count: int, expected: dict, what: str):
    """`rows` (classify's, one per line) against errcat's objects by line:
    every key errcat writes but `file` and `line`, an event's included."""
    assert len(rows) == lines_count
    for number, row in enumerate(rows, start=1):
        want = expected.get(number)
        got = as_errcat(row)
        if want is None:
            assert got is None, f"{what}:{number}: classify found {got}, errcat nothing"
        else:
            assert got is not None, f"{what}:{number}: errcat found {want['name']}, classify nothing"
            want = {key: value for key, value in want.items() if key not in NOT_IN_ROWS}
            assert got == want, f"{what}:{number}"
