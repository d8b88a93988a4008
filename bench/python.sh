#!/usr/bin/env bash
# The Python package against errcat and against what Python and Spark users
# have without it, in one run, on the same logs (made from the nats-server
# corpus by xtask log, 1% of the lines messages of its records):
#  - Catalog.classify of a list of str, a pyarrow string array and the file's
#    bytes as an arrow array (read in place), with 1 and 2 threads, against
#    `errcat --data CORPUS scan --count` with 1 and 2 threads (the whole
#    process), interleaved in ROUNDS rounds (medians; bench/python_classify.py);
#    pyarrow.compute.match_substring_regex of one record's pattern, and
#    Python `re` with every record's pattern on a sample of the lines;
#  - error_catalog.spark.classify in Spark local mode with 1 and 2 cores,
#    against a chain of regexp_extract over the 20 records most found and a
#    Python UDF with `re` over every record's pattern (on a sample; bench/spark_classify.py).
# Prints each table: rows/s, rows/s per core, MB/s, the ratio of rows/s
# to errcat's with one thread (Spark: to the `re` UDF's with one core), and
# for Python the CPU seconds of all threads (what a busy machine inflates
# least: threads that scale cut the seconds, not the CPU seconds).
#
#   bench/python.sh                              # LINES=2000000 lines, SPARK=1000000, UDF_LINES=5000
#   LINES=200000 SPARK=200000 bench/python.sh    # a quicker run
#
# From a clean clone: installs what it needs (Java 17 from Debian's packages
# if there is no `java`; maturin, pyarrow, numpy, pandas and pyspark from
# the package index), builds errcat, xtask and the wheel of this checkout
# (bindings/python) and installs the wheel.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=${CORPUS:-$root/datasets/nats-server}
lines=${LINES:-2000000}
spark_lines=${SPARK:-1000000}
udf_lines=${UDF_LINES:-5000}
batches=${BATCHES:-10000 100000}
work=${WORK:-$root/target/bench}
[ -d "$corpus" ] || { echo "corpus not found at $corpus (set CORPUS=dir)" >&2; exit 2; }
mkdir -p "$work"
# A Debian system Python refuses `pip install` without it.
export PIP_BREAK_SYSTEM_PACKAGES=1
command -v java >/dev/null || {
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jre-headless >/dev/null
}
python3 -m pip install -q --disable-pip-version-check maturin pyarrow pyspark "pandas>=2.2,<3" numpy >&2

export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$root/target}
cargo build -q --release --manifest-path "$root/Cargo.toml" -p errcat -p xtask
# The wheel of this checkout, so that the numbers are its own.
rm -rf "$work/wheels"
(cd "$root/bindings/python" && maturin build -q --release -o "$work/wheels") >&2
python3 -m pip install -q --disable-pip-version-check --force-reinstall --no-deps "$work"/wheels/error_catalog-*.whl >&2
errcat=$CARGO_TARGET_DIR/release/errcat
xtask=$CARGO_TARGET_DIR/release/xtask
log() { # NAME LINES SHARE
    [ -f "$work/$1.log" ] && [ "$(cat "$work/$1.lines" 2>/dev/null)" = "$2 $3" ] || {
        echo "generating $1.log ($2 lines, $3 matching)..." >&2
        "$xtask" log "$corpus" "$2" "$3" "$work/$1.log"
        echo "$2 $3" > "$work/$1.lines"
    }
}
log sparse "$lines" 0.01
log spark "$spark_lines" 0.01
head -n "$udf_lines" "$work/spark.log" > "$work/spark-sample.log"
# Warm the compiled-catalog cache (the first load compiles the records).
"$errcat" --data "$corpus" explain "x" >/dev/null 2>&1 || true
python3 -c "import error_catalog, sys; error_catalog.Catalog.load(sys.argv[1])" "$corpus"

mb() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.1f", b / 1e6 }'; }
header() { printf "%-52s %7s %8s %11s %14s %8s %8s %8s %8s\n" "$1" threads seconds "rows/s" "rows/s/core" "MB/s" "x $2" matched "cpu s"; }
# NAME THREADS SECONDS ROWS MB_PER_ROW BASE_RATE MATCHED [CPU_SECONDS]
row() {
    awk -v n="$1" -v t="$2" -v s="$3" -v r="$4" -v m="$5" -v base="$6" -v hit="$7" -v cpu="${8:--}" 'BEGIN {
        rate = r / s; printf "%-52s %7d %8.3f %11.0f %14.0f %8.1f %8.2f %8d %8s\n", n, t, s, rate, rate / t, rate * m, rate / base, hit, cpu }'
}

log_file=$work/sparse.log
size=$(mb "$log_file")
count=$(wc -l < "$log_file")
per_row=$(awk -v mb="$size" -v n="$count" 'BEGIN { print mb / n }')
echo
echo "== Python: $log_file ($size MB, $count lines), $(nproc) cores; medians of ${ROUNDS:-3} interleaved rounds"
header method "errcat-1"
python3 "$root/bench/python_classify.py" "$corpus" "$log_file" "$errcat" 1 2 > "$work/python.out"
base=$(awk '$2 == "errcat_1" { print $5 / $4 }' "$work/python.out")
while read -r kind name threads seconds rows found cpu; do
    [ "$kind" = RESULT ] || continue
    case $name in
        errcat_*) label="errcat --data corpus scan --count (whole process)" ;;
        classify_list) label="Catalog.classify(list of str)" ;;
        classify_arrow) label="Catalog.classify(pyarrow string array)" ;;
        classify_in-place) label="Catalog.classify(file's bytes as arrow, in place)" ;;
        read+*) label="read file into arrow + classify (all cores)" ;;
        *) label=${name//_/ } ;;
    esac
    row "$label" "$threads" "$seconds" "$rows" "$per_row" "$base" "$found" "$cpu"
done < "$work/python.out"

spark_log=$work/spark.log
spark_size=$(mb "$spark_log")
spark_per_row=$(awk -v mb="$spark_size" -v n="$(wc -l < "$spark_log")" 'BEGIN { print mb / n }')
echo
echo "== Spark local mode: $spark_log ($spark_size MB, $spark_lines lines; the UDF on its first $udf_lines lines)"
header "method (maxRecordsPerBatch)" "UDF-1"
for cores in 1 2; do
    # shellcheck disable=SC2086
    python3 "$root/bench/spark_classify.py" "$corpus" "$spark_log" "$work/spark-sample.log" "$cores" $batches \
        2>"$work/spark.err" > "$work/spark-$cores.out" || { tail -n 20 "$work/spark.err" >&2; exit 1; }
done
cat "$work"/spark-1.out "$work"/spark-2.out > "$work/spark.out"
udf=$(awk '$3 == "re-udf-sample" && $2 == 1 { print $5 / $6; exit }' "$work/spark.out")
while read -r kind cores method batch rows seconds found; do
    [ "$kind" = RESULT ] || continue
    row "$method ($batch)" "$cores" "$seconds" "$rows" "$spark_per_row" "$udf" "$found"
done < "$work/spark.out"
