#!/usr/bin/env bash
# The Python package against errcat, in one run, on the same logs:
# Catalog.classify (a pyarrow array of the log's lines, 1 thread and all
# cores) against `errcat --data CORPUS scan --json` and `--count` (1 thread
# and all cores) on the sparse log of bench/compare.sh; then
# error_catalog.spark.classify in Spark local mode on a 1 GB log, with
# several partition counts and 1 and 2 cores. Prints every time and rate.
#
#   bench/python.sh                    # LINES=2000000 sparse lines, BIG=10500000 lines (1 GB)
#   LINES=200000 BIG=1000000 bench/python.sh   # a quicker run
#
# Needs the wheel installed (see bindings/python/README.md: maturin build, pip install)
# and Java for Spark; installs nothing itself but numpy if missing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=${CORPUS:-$root/datasets/nats-server}
lines=${LINES:-2000000}
big_lines=${BIG:-10500000}
partitions=${PARTITIONS:-2 8 32}
work=${WORK:-$root/target/bench}
[ -d "$corpus" ] || { echo "corpus not found at $corpus (set CORPUS=dir)" >&2; exit 2; }
mkdir -p "$work"
python3 -c "import error_catalog" || { echo "install the wheel first (see bindings/python/README.md)" >&2; exit 2; }
python3 -c "import numpy" 2>/dev/null || pip install -q numpy >&2
[ -x /usr/bin/time ] || { apt-get update -qq >&2 && apt-get install -y -qq time >&2; }

cargo build -q --release --manifest-path "$root/Cargo.toml" -p errcat -p xtask
errcat=$root/target/release/errcat
xtask=$root/target/release/xtask
log() { # NAME LINES SHARE
    [ -f "$work/$1.log" ] && [ "$(cat "$work/$1.lines" 2>/dev/null)" = "$2 $3" ] || {
        echo "generating $1.log ($2 lines, $3 matching)..." >&2
        "$xtask" log "$corpus" "$2" "$3" "$work/$1.log"
        echo "$2 $3" > "$work/$1.lines"
    }
}
log sparse "$lines" 0.01
log big "$big_lines" 0.01
# Warm the compiled-catalog cache (the first load compiles the records).
"$errcat" --data "$corpus" explain "x" >/dev/null 2>&1 || true
python3 -c "import error_catalog, sys; error_catalog.Catalog.load(sys.argv[1])" "$corpus"

mb() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.1f", b / 1e6 }'; }
seconds() { /usr/bin/time -f "%e" -o "$work/time" "$@" >/dev/null 2>"$work/stderr" || true; tail -n 1 "$work/time"; }
row() { # TOOL SECONDS LINES MB
    awk -v t="$1" -v s="$2" -v l="$3" -v mb="$4" \
        'BEGIN { printf "%-58s %8.2f %12.0f %9.1f\n", t, s, l / s, mb / s }'
}

log_file=$work/sparse.log
size=$(mb "$log_file")
count=$(wc -l < "$log_file")
echo
echo "== classify vs errcat: $log_file ($size MB, $count lines), $(nproc) cores"
printf "%-58s %8s %12s %9s\n" tool seconds "lines/s" "MB/s"
row "errcat scan --count --threads 1 (whole process)" "$(seconds "$errcat" --data "$corpus" scan --count --threads 1 "$log_file")" "$count" "$size"
row "errcat scan --json --threads 1 (whole process)" "$(seconds "$errcat" --data "$corpus" scan --json --threads 1 "$log_file")" "$count" "$size"
row "errcat scan --count (all cores)" "$(seconds "$errcat" --data "$corpus" scan --count "$log_file")" "$count" "$size"
row "errcat scan --json (all cores)" "$(seconds "$errcat" --data "$corpus" scan --json "$log_file")" "$count" "$size"
python3 "$root/bench/python_classify.py" "$corpus" "$log_file" 1 "$(nproc)" > "$work/python.out"
while read -r kind a b c d; do
    case $kind in
        READ) row "read into a pyarrow array (numpy, not classify)" "$a" "$count" "$size" ;;
        RESULT) row "Catalog.classify(arrow array, threads=$a)" "$b" "$count" "$size" ;;
        END_TO_END) row "read + Catalog.classify (all cores)" "$a" "$count" "$size" ;;
    esac
done < "$work/python.out"

big=$work/big.log
big_size=$(mb "$big")
big_count=$(wc -l < "$big")
echo
echo "== Spark local mode: $big ($big_size MB, $big_count lines); spark.read.text, classify, count matches"
printf "%-58s %8s %12s %9s\n" "cores, partitions" seconds "lines/s" "MB/s"
for cores in 1 2; do
    # shellcheck disable=SC2086
    python3 "$root/bench/spark_classify.py" "$corpus" "$big" "$cores" $partitions 2>"$work/spark.err" |
        while read -r kind c p s matched; do
            [ "$kind" = RESULT ] && row "local[$c], $p partitions ($matched matches)" "$s" "$big_count" "$big_size"
        done
done
row "errcat scan --count on the same log (all cores)" "$(seconds "$errcat" --data "$corpus" scan --count "$big")" "$big_count" "$big_size"
