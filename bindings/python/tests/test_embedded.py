"""The datasets compiled into the package, as errcat embeds them: the same
list as `errcat datasets --json`, `Catalog.embedded()` classifying as
errcat's default catalog (every dataset, the `dataset` key included) and a
selection as `errcat --dataset NAME`."""

import json
import subprocess

import pytest

import error_catalog
from error_catalog import Catalog

from conftest import EXAMPLE_LOG, REPO, assert_equals_errcat, errcat_scan, missing
from test_same_as_errcat import PROGRAMS, program_lines

pa = pytest.importorskip("pyarrow", reason="SKIPPED: pyarrow is not installed (pip install pyarrow)")


def test_datasets_as_errcat_lists_them(errcat):
    run = subprocess.run([str(errcat), "datasets", "--json"], capture_output=True, check=True, text=True)
    expected = [json.loads(line) for line in run.stdout.splitlines()]
    assert error_catalog.datasets() == expected
    names = [dataset["name"] for dataset in expected]
    # The seeds first, then every folder of datasets/ by name.
    folders = sorted(path.name for path in (REPO / "datasets").iterdir() if path.is_dir())
    assert names == ["seeds", *folders] and len(folders) >= 5
    catalog = Catalog.embedded()
    assert len(catalog) == sum(dataset["records"] for dataset in expected)
    assert [entry.dataset for entry in catalog][:3] == ["seeds"] * 3
    # The records' files, named from the repository (as errcat names them).
    assert catalog[-1].dataset == names[-1] and catalog[-1].origin[0].startswith(f"datasets/{names[-1]}/")


def test_a_selection_of_the_embedded_datasets(errcat, tmp_path):
    by_name = {dataset["name"]: dataset for dataset in error_catalog.datasets()}
    for chosen in (["django"], "django", ("kafka", "cargo")):
        catalog = Catalog.embedded(chosen)
        names = [chosen] if isinstance(chosen, str) else list(chosen)
        assert len(catalog) == sum(by_name[name]["records"] for name in names)
        # In catalog order, whatever the order asked.
        seen = list(dict.fromkeys(entry.dataset for entry in catalog))
        assert seen == [name for name in by_name if name in names]
    assert len(Catalog.embedded([])) == 0
    with pytest.raises(ValueError, match=r'no dataset is called "nope"; one of seeds, '):
        Catalog.embedded(["django", "nope"])
    with pytest.raises(TypeError, match="datasets= takes a str or a list of str"):
        Catalog.embedded(3)
    # A selection classifies as `errcat --dataset NAME`.
    lines = program_lines("django")
    log = tmp_path / "django.log"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    expected = errcat_scan(errcat, log, dataset="django")
    assert len(expected) > 10 and {found["dataset"] for found in expected.values()} == {"django"}
    rows = Catalog.embedded("django").classify(lines, threads=1).to_pylist()
    assert_equals_errcat(rows, len(lines), expected, "django")


def test_the_default_catalog_is_the_seeds_dataset(errcat):
    catalog = Catalog.default()
    assert [entry.dataset for entry in catalog] == ["seeds"] * 3
    found = catalog.find(EXAMPLE_LOG.read_text().splitlines()[136])
    assert found.dataset == "seeds" and found.to_dict()["dataset"] == "seeds"
    # Through bytes and pickling, the names stay.
    assert [entry.dataset for entry in Catalog.from_bytes(catalog.to_bytes())] == ["seeds"] * 3


def test_a_loaded_catalog_is_named_after_its_folder(corpus):
    catalog = Catalog.load(corpus)
    assert {entry.dataset for entry in catalog} == {corpus.name}


@pytest.mark.parametrize("program", PROGRAMS)
def test_every_line_of_real_programs_as_errcat_by_default(program, errcat, tmp_path):
    """Every embedded dataset at once, as errcat with no option: the same
    records (from whichever dataset), spans, fields, events and `dataset`."""
    if not (REPO / "tools" / "real" / "golden").is_dir():
        missing("tools/real/golden (tools/real/generate.sh writes it)")
    lines = program_lines(program)
    log = tmp_path / f"{program}.log"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    expected = errcat_scan(errcat, log, dataset=None)
    assert len(expected) > 10, f"{program}: errcat found {len(expected)} lines"
    assert program in {found["dataset"] for found in expected.values()}
    catalog = Catalog.embedded()
    for threads in (1, 2):
        rows = catalog.classify(lines, threads=threads).to_pylist()
        assert_equals_errcat(rows, len(lines), expected, f"{program}, {threads} threads")
    assert_equals_errcat(catalog.classify(pa.array(lines)).to_pylist(), len(lines), expected, f"{program}, arrow")
