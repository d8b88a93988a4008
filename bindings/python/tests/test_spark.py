"""error_catalog.spark on a local Spark session (local[2]): a DataFrame of
log lines read from files, classified and checked line by line against
`errcat scan --json` on the same files."""

import collections
import os
import shutil
import subprocess

import pytest

from error_catalog import Catalog

from conftest import EXAMPLE_LOG, as_errcat, errcat_scan, missing

pyspark = pytest.importorskip("pyspark", reason="SKIPPED: pyspark is not installed (pip install pyspark)")


@pytest.fixture(scope="module")
def spark():
    if not (shutil.which("java") or os.environ.get("JAVA_HOME")):
        missing("java (Debian: apt-get install openjdk-17-jre-headless)")
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[2]")
        .appName("error-catalog-tests")
        # Small batches: many per partition, to see the catalog is not rebuilt per batch.
        .config("spark.sql.execution.arrow.maxRecordsPerBatch", "500")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .getOrCreate()
    )
    yield session
    session.stop()


@pytest.fixture(scope="module")
def logs(tmp_path_factory, xtask, corpus):
    """Three log files: the example log and two made from the corpus."""
    folder = tmp_path_factory.mktemp("logs")
    shutil.copy(EXAMPLE_LOG, folder / "nats-server.log")
    for name, lines, share in (("sparse.log", 30000, "0.05"), ("dense.log", 6000, "1.0")):
        subprocess.run([str(xtask), "log", str(corpus), str(lines), share, str(folder / name)], check=True,
                       capture_output=True)
    return folder


def numbered_lines(spark, path, partitions):
    """A DataFrame (file, line, value) of a file's lines, with line numbers."""
    rdd = spark.sparkContext.textFile(str(path), minPartitions=partitions).zipWithIndex()
    return rdd.map(lambda pair: (path.name, pair[1] + 1, pair[0])).toDF(["file", "line", "value"])


def test_classify_dataframe_line_by_line_against_errcat(spark, logs, corpus, errcat, tmp_path):
    from error_catalog.spark import classify

    catalog = Catalog.load(corpus, cache_dir=tmp_path / "cache")
    frames = [numbered_lines(spark, path, 3) for path in sorted(logs.iterdir())]
    df = frames[0]
    for frame in frames[1:]:
        df = df.unionByName(frame)
    assert df.rdd.getNumPartitions() >= 6
    result = classify(df, "value", catalog=catalog)
    assert result.columns == ["file", "line", "value", "error"]
    rows = result.select("file", "line", "error").collect()
    got = {(r["file"], r["line"]): (r["error"].asDict() if r["error"] else None) for r in rows}
    checked = matched = 0
    for path in sorted(logs.iterdir()):
        expected = errcat_scan(errcat, path, data=corpus, cache_dir=tmp_path / "cache")
        count = path.read_bytes().count(b"\n")
        for number in range(1, count + 1):
            row = got.pop((path.name, number))
            want = expected.get(number)
            if want is None:
                assert row is None, f"{path.name}:{number}: Spark found {row}, errcat nothing"
            else:
                assert row is not None, f"{path.name}:{number}: errcat found {want['name']}, Spark nothing"
                # Spark's rows have no order: an event's rows are not given.
                unordered = ("file", "line", "start_line", "end_line", "intro", "causes")
                want = {key: value for key, value in want.items() if key not in unordered}
                assert as_errcat(row, event=False) == want, f"{path.name}:{number}"
                matched += 1
            checked += 1
    assert not got, "rows Spark gave beyond the files' lines"
    assert checked > 36000 and matched > 6000


def test_read_text_directory_counts_as_errcat(spark, logs, corpus, errcat, tmp_path):
    """spark.read.text over the folder: per-record counts equal errcat's; and
    each Python worker decoded the broadcast catalog once, not per batch."""
    from pyspark.sql import functions as F

    from error_catalog import spark as ec_spark

    catalog = Catalog.load(corpus, cache_dir=tmp_path / "cache")
    df = spark.read.text(str(logs)).repartition(8)
    result = ec_spark.classify(df, "value", catalog=catalog, output="match")
    counts = {r["id"]: r["count"] for r in result.where("match IS NOT NULL").groupBy("match.id").count().collect()}
    expected = collections.Counter()
    for path in logs.iterdir():
        expected.update(o["id"] for o in errcat_scan(errcat, path, data=corpus, cache_dir=tmp_path / "cache").values())
    assert counts == dict(expected)
    batches = result.count() // 500
    assert batches >= 60

    # The same kind of job, in the same (reused) Python workers: how many
    # times did each decode the catalog?
    import hashlib

    digest = hashlib.sha256(catalog.to_bytes()).hexdigest()

    def report(batches):
        import pyarrow as pa

        from error_catalog.spark import decoded_in_this_process

        info = decoded_in_this_process()
        for _ in batches:
            pass
        yield pa.RecordBatch.from_pydict({"pid": [info["pid"]], "decoded": [info["decoded"].get(digest, 0)]})

    reports = spark.range(0, 64, numPartitions=16).mapInArrow(report, "pid long, decoded long").collect()
    decoded = {r["pid"]: r["decoded"] for r in reports}
    assert max(decoded.values()) == 1, decoded
    assert sum(decoded.values()) < batches


def test_bad_arguments(spark):
    from error_catalog.spark import classify

    df = spark.createDataFrame([("a", 1)], ["value", "n"])
    with pytest.raises(ValueError, match="no column"):
        classify(df, "nope")
    with pytest.raises(TypeError, match="not string or binary"):
        classify(df, "n")
    with pytest.raises(ValueError, match="already has a column"):
        classify(df, "value", output="n")
    with pytest.raises(ValueError, match="batch_rows must be at least 1"):
        classify(df, "value", batch_rows=0)
    # Binary columns and nulls work; every embedded dataset by default.
    line = '[7] 2026/11/29 17:20:00.123456 [ERR] unable to persist session "s1" (seq=3): x'
    df = spark.createDataFrame([(line.encode(),), (None,), (b"\xff noise",)], "value binary")
    rows = classify(df, "value").collect()
    assert rows[0]["error"]["name"] == "UnableToPersistSession" and rows[1]["error"] is None
    assert rows[2]["error"] is None
    assert rows[0]["error"]["dataset"] == "seeds"


def test_batches_gathered_or_not_give_the_same_rows(spark, logs):
    """Spark's batches (500 rows here) classified one by one (batch_rows=1)
    or gathered into runs: the same rows, in the same order, with the
    embedded catalog (sent as dataset names) as with its bytes."""
    from error_catalog.spark import classify

    df = spark.read.text(str(logs / "sparse.log")).repartition(3)
    embedded = Catalog.embedded(["seeds", "nats-server"])
    gathered = classify(df, "value", catalog=embedded).collect()
    one_by_one = classify(df, "value", catalog=embedded, batch_rows=1).collect()
    as_bytes = classify(df, "value", catalog=Catalog.from_bytes(embedded.to_bytes()), batch_rows=7000).collect()
    assert gathered == one_by_one == as_bytes
    assert sum(row["error"] is not None for row in gathered) > 1000
