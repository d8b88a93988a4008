#!/usr/bin/env bash
# Scan-engine benchmark, on the same inputs in one run: `errcat scan --count`
# (whole process: load, build, scan, classify, extract) against Hyperscan
# (scan-only, one block-mode call), ripgrep (`rg -c -f patterns`) and a naive
# Rust baseline (RegexSet per line), on four inputs: a sparse nats-server
# style log built from the corpus (1% matching; noise lines from `xtask log`'s
# few synthetic kinds), the same with real nats-server INF/DBG/TRC output as
# noise (`--noise real`), a dense one (every line matching), and the
# multi-system pattern catalog of `xtask multisystem` (about 1,400 records of
# 16 systems) with its dense log; errcat also reads the logs from a fast pipe
# (`cat log | errcat scan`, the path live input takes); then errcat's
# start-up. Prints, per input, seconds, MB/s and the ratio to Hyperscan.
#
#   bench/compare.sh               # LINES=2000000 sparse lines, DENSE=200000 dense lines,
#                                  # MULTI=215000 multi-system lines (about 30 MB)
#   LINES=200000 bench/compare.sh  # a quicker run
#
# Hyperscan and errcat (one thread, two threads, piped) are timed RUNS times
# each (default 3), and their medians compared: one run each moved the ratios
# by 15% on the 2-core development machine.
#
# Installs what it needs: the `hyperscan` package from PyPI, ripgrep from
# Debian's packages. Slow tools run on a prefix of each log (ripgrep: SLOW_MB,
# default 20 MB; the naive baseline: NAIVE_MB, default 2 MB; MULTI_MB=N runs
# errcat on the first N MB of the multi-system log, default all of it) and are
# reported in MB/s like the others. Hyperscan gets the
# multi-system patterns in the form of `xtask patterns --hyperscan` (captures
# and lazy modifiers dropped, which it ignores anyway; wildcards at either end
# trimmed, which matches the same lines with fewer reported match ends).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=${CORPUS:-$root/datasets/nats-server}
lines=${LINES:-2000000}
dense_lines=${DENSE:-200000}
slow_mb=${SLOW_MB:-20}
naive_mb=${NAIVE_MB:-2}
multi_lines=${MULTI:-215000}
multi_mb=${MULTI_MB:-}
runs=${RUNS:-3}
work=${WORK:-$root/target/bench}
[ -d "$corpus" ] || { echo "corpus not found at $corpus (set CORPUS=dir)" >&2; exit 2; }
mkdir -p "$work"

python3 -c "import hyperscan" 2>/dev/null || pip install -q hyperscan >&2
command -v rg >/dev/null || { apt-get update -qq >&2 && apt-get install -y -qq ripgrep >&2; }

echo "building (release)..." >&2
cargo build -q --release --manifest-path "$root/Cargo.toml" -p errcat -p xtask
errcat=$root/target/release/errcat
xtask=$root/target/release/xtask

[ -f "$work/sparse.log" ] && [ "$(cat "$work/sparse.lines" 2>/dev/null)" = "$lines" ] || {
    echo "generating the sparse log ($lines lines, 1% matching)..." >&2
    "$xtask" log "$corpus" "$lines" 0.01 "$work/sparse.log"
    echo "$lines" > "$work/sparse.lines"
}
[ -f "$work/dense.log" ] && [ "$(cat "$work/dense.lines" 2>/dev/null)" = "$dense_lines" ] || {
    echo "generating the dense log ($dense_lines lines, all matching)..." >&2
    "$xtask" log "$corpus" "$dense_lines" 1.0 "$work/dense.log"
    echo "$dense_lines" > "$work/dense.lines"
}
[ -f "$work/sparse-real.log" ] && [ "$(cat "$work/sparse-real.lines" 2>/dev/null)" = "$lines" ] || {
    echo "generating the sparse log with real noise ($lines lines, 1% matching)..." >&2
    "$xtask" log "$corpus" "$lines" 0.01 "$work/sparse-real.log" --noise real
    echo "$lines" > "$work/sparse-real.lines"
}
[ -f "$work/multi.log" ] && [ "$(cat "$work/multi.lines" 2>/dev/null)" = "$multi_lines" ] || {
    echo "generating the multi-system catalog and log ($multi_lines lines, all matching; checks every line)..." >&2
    "$xtask" multisystem "$work/multi-catalog" "$work/multi.log" "$multi_lines"
    echo "$multi_lines" > "$work/multi.lines"
}
"$xtask" patterns "$corpus" "$work/patterns.txt"
"$xtask" patterns "$work/multi-catalog" "$work/multi-patterns.txt"
"$xtask" patterns "$work/multi-catalog" "$work/multi-hyperscan.txt" --hyperscan

mb() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.1f", b / 1e6 }'; }
prefix() { # FILE MB -> FILE.MB with about MB megabytes of whole lines
    head -c "$(($2 * 1000000))" "$1" | sed '$d' > "$1.$2"
    echo "$1.$2"
}
microseconds() { # command... -> wall microseconds of one run (bash's clock: no process started)
    local start=${EPOCHREALTIME//[!0-9]/}
    "$@" >/dev/null 2>"$work/stderr" || true
    echo $((${EPOCHREALTIME//[!0-9]/} - start))
}
seconds() { # command... -> wall seconds, to the millisecond
    awk -v us="$(microseconds "$@")" 'BEGIN { printf "%.3f\n", us / 1e6 }'
}
median() { # command... -> the median of RUNS runs' wall seconds
    for _ in $(seq "$runs"); do seconds "$@"; done | sort -n | awk '{ t[NR] = $1 } END { print t[int((NR + 1) / 2)] }'
}
rate() { awk -v mb="$1" -v s="$2" 'BEGIN { printf "%.1f", (s > 0 ? mb / s : 0) }'; }

# The compiled-catalog cache of `--data` lives under the bench's work
# directory, so that every errcat run below reads its catalog warm.
export ERRCAT_CACHE_DIR="$work/errcat-cache"
summary=()
for kind in sparse sparse-real dense multi; do
    log=$work/$kind.log
    data=$corpus
    patterns=$work/patterns.txt
    hs_patterns=$work/patterns.txt
    errcat_log=$log
    if [ "$kind" = multi ]; then
        data=$work/multi-catalog
        patterns=$work/multi-patterns.txt
        hs_patterns=$work/multi-hyperscan.txt
        [ -z "$multi_mb" ] || errcat_log=$(prefix "$log" "$multi_mb")
    fi
    size=$(mb "$log")
    errcat_size=$(mb "$errcat_log")
    head=$(prefix "$log" "$slow_mb")
    head_size=$(mb "$head")
    small=$(prefix "$log" "$naive_mb")
    small_size=$(mb "$small")
    echo
    echo "== $kind: $log ($size MB)"
    hs_out=$(python3 "$root/bench/hyperscan_scan.py" "$hs_patterns" "$log" "$runs")
    echo "$hs_out" | head -n 1
    hs=$(echo "$hs_out" | awk '/^RESULT/ { print $2 }')
    hs_rate=$(rate "$size" "$hs")
    "$errcat" --data "$data" list >/dev/null 2>&1 || true # warm the catalog cache
    one=$(median "$errcat" --data "$data" scan --count --threads 1 "$errcat_log")
    all=$(median "$errcat" --data "$data" scan --count "$errcat_log")
    piped=$(median sh -c 'cat "$1" | "$2" --data "$3" scan --count' sh "$errcat_log" "$errcat" "$data")
    rg_s=$(seconds rg -c -f "$patterns" "$head")
    naive_s=$(seconds "$xtask" naive "$data" "$small")
    on=""
    [ "$errcat_log" = "$log" ] || on=" ($errcat_size MB)"
    printf "%-40s %9s %10s %12s\n" tool seconds "MB/s" "vs hyperscan"
    row() { printf "%-40s %9s %10s %12s\n" "$1" "$2" "$3" "$(awk -v a="$3" -v b="$hs_rate" 'BEGIN { printf "%.2fx", a / b }')"; }
    row "hyperscan (scan only, 1 core)" "$hs" "$hs_rate"
    row "errcat scan --count (1 thread)$on" "$one" "$(rate "$errcat_size" "$one")"
    row "errcat scan --count ($(nproc) threads)$on" "$all" "$(rate "$errcat_size" "$all")"
    row "cat log | errcat scan --count$on" "$piped" "$(rate "$errcat_size" "$piped")"
    row "rg -c -f patterns ($head_size MB)" "$rg_s" "$(rate "$head_size" "$rg_s")"
    row "naive RegexSet per line ($small_size MB)" "$naive_s" "$(rate "$small_size" "$naive_s")"
    summary+=("$(printf "%-12s %10s MB/s hyperscan %10s MB/s errcat (1 thread) %8s" "$kind" "$hs_rate" \
        "$(rate "$errcat_size" "$one")" "$(awk -v a="$(rate "$errcat_size" "$one")" -v b="$hs_rate" 'BEGIN { printf "%.2fx", a / b }')")")
done

echo
echo "== errcat (1 thread, whole process) against Hyperscan (scan only)"
printf "%s\n" "${summary[@]}"

echo
echo "== start-up (mean of 10 runs, each after a run of errcat --version)"
message=$(grep -m1 '\[ERR\]' "$work/sparse.log" | sed 's/^[^]]*] [^ ]* [^ ]* \[ERR\] //')
# Each timed run follows a run of `errcat --version`, and the difference of
# the two means is the start-up's cost: both are measured under the same
# load, which drifts on a shared machine. One untimed run first writes the
# dataset's compiled-catalog cache (warm), and `sync` has the kernel write it
# back before the timing, not during it.
startup() { # label command... -> a row: mean ms, and ms over --version
    local label=$1 version=0 run=0
    shift
    "$@" >/dev/null 2>&1 || true
    sync
    for _ in 1 2 3 4 5 6 7 8 9 10; do
        version=$((version + $(microseconds "$errcat" --version)))
        run=$((run + $(microseconds "$@")))
    done
    awk -v label="$label" -v run="$run" -v version="$version" \
        'BEGIN { printf "%-52s %8.1f ms (%+.1f ms; --version %.1f ms)\n", label, run / 1e4, (run - version) / 1e4, version / 1e4 }'
}
# The embedded seeds (three records), as before every dataset was embedded;
# then every embedded dataset (9,829 records).
# (bash passes an assignment before a function to the commands it runs)
ERRCAT_DATASET=seeds startup "errcat explain (embedded seeds)" "$errcat" explain "$message"
(unset ERRCAT_DATASET; startup "errcat explain (every embedded dataset)" "$errcat" explain "$message")
startup "errcat --data corpus explain (2,008 records, cached)" "$errcat" --data "$corpus" explain "$message"
# `--no-cache`: the cold load, every record file read, parsed and compiled.
startup "errcat --data corpus explain --no-cache" "$errcat" --no-cache --data "$corpus" explain "$message"
# Larger catalogs, cached: the Java corpus (5,110 records) when present, and
# 20,000 synthetic records.
kafka=$(dirname "$corpus")/kafka
# Files and directories modified in the last two seconds are not cached
# (racily clean): a dataset just generated waits that long before the run
# that writes its cache.
[ -d "$work/synth20000" ] || { "$xtask" synth 20000 "$work/synth20000" && sleep 2; }
for dir in "$kafka" "$work/synth20000"; do
    [ -d "$dir" ] || { echo "SKIPPED start-up on $dir: not found"; continue; }
    records=$(find "$dir" -name '*.json' | wc -l)
    startup "errcat --data $(basename "$dir") explain ($records records, cached)" \
        "$errcat" --data "$dir" explain "$message"
done
