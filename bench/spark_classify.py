"""Times error_catalog.spark.classify in Spark local mode against what a Spark
user writes without it, for bench/python.sh.

    python3 bench/spark_classify.py CORPUS LOG SAMPLE CORES BATCH_ROWS...

On `spark.read.text(LOG)` (input splits of about 32 MB), with
`spark.sql.execution.arrow.maxRecordsPerBatch` set to each BATCH_ROWS in
turn: `classify`, its matches counted (which classifies every line); and
the same count by a chain of `regexp_extract` over the `messagePattern`s of
the 20 records classify finds most in the log (Spark's own regex engine, the JVM's:
what a user writes for a few known errors). On `spark.read.text(SAMPLE)` (the
first lines of the log): `classify`, and a Python UDF (pandas, Arrow batches)
that tries every record's `messagePattern` with `re` on each line, as a user
writes for a whole catalog. Each after an untimed warm-up of its own kind.
Prints `RESULT cores method batch_rows lines seconds matched` lines."""

import os
import re
import sys
import time

from pyspark.sql import SparkSession
from pyspark.sql import functions as F

from error_catalog import Catalog
from error_catalog.spark import classify

TOP = 20


def re_udf(catalog):
    """A pandas UDF: the id of the first record whose messagePattern `re` finds in the line, or None."""
    import pandas as pd

    patterns = [(entry.id, entry.message_pattern) for entry in catalog if entry.message_pattern]

    @F.pandas_udf("string")
    def first_record(lines: pd.Series) -> pd.Series:
        compiled = [(key, re.compile(pattern)) for key, pattern in patterns]

        def one(line):
            for key, pattern in compiled:
                if pattern.search(line):
                    return key
            return None

        return lines.map(one)

    return first_record


def regexp_chain(catalog, top_ids):
    """`CASE WHEN regexp_extract(value, p1, 0) != '' THEN id1 ...` over the top records."""
    chain = None
    for key in top_ids:
        found = F.regexp_extract("value", catalog[key].message_pattern, 0) != ""
        chain = F.when(found, F.lit(key)) if chain is None else chain.when(found, F.lit(key))
    return chain


def timed(what):
    started = time.perf_counter()
    matched = what()
    return time.perf_counter() - started, matched


def main():
    corpus, log, sample, cores, *batch_rows = sys.argv[1:]
    spark = (
        SparkSession.builder.master(f"local[{cores}]")
        .appName("error-catalog-bench")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.memory", "3g")
        .config("spark.sql.files.maxPartitionBytes", str(32 << 20))
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    catalog = Catalog.load(corpus)
    logs, samples = spark.read.text(log), spark.read.text(sample)
    lines, sample_lines = logs.count(), samples.count()
    # The records most found in the log, by classify (untimed).
    found = classify(logs, "value", catalog=catalog).where("error IS NOT NULL").groupBy("error.id").count()
    top_ids = [row["id"] for row in found.orderBy(F.desc("count")).limit(TOP).collect()]
    chain = regexp_chain(catalog, top_ids)
    first_record = re_udf(catalog)

    def count_classified(df):
        return classify(df, "value", catalog=catalog).where("error IS NOT NULL").count()

    def count_chain(df):
        return df.select(chain.alias("id")).where("id IS NOT NULL").count()

    def count_udf(df):
        return df.select(first_record("value").alias("id")).where("id IS NOT NULL").count()

    runs = [
        ("classify", logs, lines, count_classified),
        (f"regexp_extract-top{TOP}", logs, lines, count_chain),
        ("classify-sample", samples, sample_lines, count_classified),
        ("re-udf-sample", samples, sample_lines, count_udf),
    ]
    for rows in batch_rows:
        spark.conf.set("spark.sql.execution.arrow.maxRecordsPerBatch", rows)
        for method, df, count, run in runs:
            run(df.limit(2000))  # warm-up: JVM code, Python workers
            seconds, matched = timed(lambda: run(df))
            print(f"RESULT {cores} {method} {rows} {count} {seconds:.3f} {matched}", flush=True)
    spark.stop()


if __name__ == "__main__":
    os.environ.setdefault("PYARROW_IGNORE_TIMEZONE", "1")
    main()
