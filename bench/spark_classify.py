"""Times error_catalog.spark.classify in Spark local mode, for bench/python.sh.

    python3 bench/spark_classify.py CORPUS LOG CORES PARTITIONS...

For each partition count: spark.read.text(LOG), read
with that many input splits (spark.sql.files.maxPartitionBytes), classified,
and the matches counted (which runs the classification of every line).
Prints `RESULT cores partitions seconds matched`."""

import os
import sys
import time

from pyspark.sql import SparkSession

from error_catalog import Catalog
from error_catalog.spark import classify


def main():
    corpus, log, cores, *partitions = sys.argv[1:]
    size = os.path.getsize(log)
    spark = (
        SparkSession.builder.master(f"local[{cores}]")
        .appName("error-catalog-bench")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.memory", "2g")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    catalog = Catalog.load(corpus)
    # Warm-up (JVM, Python workers), not timed.
    classify(spark.read.text(log).limit(10000), "value", catalog=catalog).where("error IS NOT NULL").count()
    for count in partitions:
        spark.conf.set("spark.sql.files.maxPartitionBytes", str(size // int(count) + 1))
        df = spark.read.text(log)
        started = time.perf_counter()
        matched = classify(df, "value", catalog=catalog).where("error IS NOT NULL").count()
        seconds = time.perf_counter() - started
        print(f"RESULT {cores} {df.rdd.getNumPartitions()} {seconds:.3f} {matched}", flush=True)
    spark.stop()


main()
