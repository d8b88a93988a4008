"""Every ```python example of README.md (the package's PyPI page) runs, in
order, in one namespace, as a reader would paste them one after the other.

They run in a temporary directory where `nats-server/` is the
repository's nats-server dataset and `nats-server.log` the repository's example log. A
block whose first lines say `# needs: corpus`, `# needs: pyarrow`, `# needs:
numpy` or `# needs: spark` (several: `# needs: spark, corpus`) is skipped, with the
reason, when that is missing (failed instead with ERROR_CATALOG_REQUIRE=1).
Tracebacks name the README's own lines."""

import importlib.util
import os
import re
import shutil
from pathlib import Path

import pytest

from conftest import CORPUS, EXAMPLE_LOG, missing

README = Path(__file__).resolve().parents[1] / "README.md"
FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.M | re.S)
NEEDS = re.compile(r"^# needs: *(.+)$", re.M)


def fenced_blocks():
    """(language, first line of the code, code) of every fenced block."""
    text = README.read_text(encoding="utf-8")
    return [
        (m.group(1).strip(), text.count("\n", 0, m.start()) + 2, m.group(2))
        for m in FENCE.finditer(text)
    ]


BLOCKS = [(line, code) for language, line, code in fenced_blocks() if language == "python"]


def what_is_missing(need: str):
    """Why a block that needs `need` cannot run here, or None."""
    if need == "corpus":
        return None if CORPUS.is_dir() else f"the nats-server dataset at {CORPUS} (set ERROR_CATALOG_CORPUS)"
    if need in ("pyarrow", "numpy"):
        return None if importlib.util.find_spec(need) else f"{need} (pip install {need})"
    if need == "spark":
        for module in ("pyspark", "pyarrow", "pandas"):
            if not importlib.util.find_spec(module):
                return f"{module} (pip install 'error-catalog[spark]')"
        if not (shutil.which("java") or os.environ.get("JAVA_HOME")):
            return "Java, for Spark (no `java` on PATH, no JAVA_HOME)"
        return None
    pytest.fail(f"README.md: unknown `# needs: {need}` (known: corpus, pyarrow, numpy, spark)")


def needs_of(code: str):
    return [need.strip() for found in NEEDS.findall(code) for need in found.split(",") if need.strip()]


@pytest.fixture(scope="module")
def namespace(tmp_path_factory):
    """The examples' shared globals, run in a directory holding their files."""
    work = tmp_path_factory.mktemp("readme")
    if CORPUS.is_dir():
        (work / "nats-server").symlink_to(CORPUS.resolve(), target_is_directory=True)
    shutil.copy(EXAMPLE_LOG, work / "nats-server.log")
    before = os.getcwd()
    os.chdir(work)
    globals_ = {"__name__": "readme"}
    try:
        yield globals_
    finally:
        os.chdir(before)
        spark = globals_.get("spark")
        if spark is not None:
            spark.stop()


def test_the_readme_has_its_examples():
    """The parser sees the examples: a block spelt `py` or `python3` would
    silently not run, and an emptied README would pass."""
    languages = {language for language, _, _ in fenced_blocks()}
    assert not languages & {"py", "python3", "pycon", "Python"}, f"spell Python blocks ```python: {languages}"
    assert len(BLOCKS) >= 8, f"only {len(BLOCKS)} python blocks found in {README}"
    for line, code in BLOCKS:
        for need in needs_of(code):
            what_is_missing(need)  # fails on an unknown need


@pytest.mark.parametrize("line, code", BLOCKS, ids=[f"README.md:{line}" for line, _ in BLOCKS])
def test_readme_example(line, code, namespace):
    for need in needs_of(code):
        reason = what_is_missing(need)
        if reason is not None:
            missing(f"README.md:{line} needs {reason}")
    # Blank lines first, so that tracebacks give the README's line numbers.
    exec(compile("\n" * (line - 1) + code, str(README), "exec"), namespace)
