#!/usr/bin/env bash
# Scan-engine benchmark, on the same inputs in one run: `errcat scan --count`
# (whole process: load, build, scan, classify, extract) against Hyperscan
# (scan-only, one block-mode call), ripgrep (`rg -c -f patterns`) and a naive
# Rust baseline (RegexSet per line), on a sparse and a dense nats-server style
# log built from the corpus; errcat also reads the log from a fast pipe
# (`cat log | errcat scan`, the path live input takes); then errcat's
# start-up. Prints times and ratios.
#
#   bench/compare.sh               # LINES=2000000 sparse lines, DENSE=200000 dense lines
#   LINES=200000 bench/compare.sh  # a quicker run
#
# Installs what it needs: the `hyperscan` package from PyPI, ripgrep from
# Debian's packages. Slow tools run on a prefix of each log (ripgrep: SLOW_MB,
# default 20 MB; the naive baseline: NAIVE_MB, default 2 MB) and are reported
# in MB/s like the others.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=${CORPUS:-$root/../shared/corpus/nats-server}
lines=${LINES:-2000000}
dense_lines=${DENSE:-200000}
slow_mb=${SLOW_MB:-20}
naive_mb=${NAIVE_MB:-2}
work=${WORK:-$root/target/bench}
[ -d "$corpus" ] || { echo "corpus not found at $corpus (set CORPUS=dir)" >&2; exit 2; }
mkdir -p "$work"

python3 -c "import hyperscan" 2>/dev/null || pip install -q hyperscan >&2
command -v rg >/dev/null || { apt-get update -qq >&2 && apt-get install -y -qq ripgrep >&2; }
[ -x /usr/bin/time ] || { apt-get update -qq >&2 && apt-get install -y -qq time >&2; }

echo "building (release)..." >&2
cargo build -q --release --manifest-path "$root/Cargo.toml" -p error-catalog -p xtask
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
"$xtask" patterns "$corpus" "$work/patterns.txt"

mb() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.1f", b / 1e6 }'; }
prefix() { # FILE MB -> FILE.MB with about MB megabytes of whole lines
    head -c "$(($2 * 1000000))" "$1" | sed '$d' > "$1.$2"
    echo "$1.$2"
}
seconds() { # command... -> wall seconds (GNU time)
    /usr/bin/time -f "%e" -o "$work/time" "$@" >/dev/null 2>"$work/stderr" || true
    tail -n 1 "$work/time"
}
rate() { awk -v mb="$1" -v s="$2" 'BEGIN { printf "%.1f", (s > 0 ? mb / s : 0) }'; }

for kind in sparse dense; do
    log=$work/$kind.log
    size=$(mb "$log")
    head=$(prefix "$log" "$slow_mb")
    head_size=$(mb "$head")
    small=$(prefix "$log" "$naive_mb")
    small_size=$(mb "$small")
    echo
    echo "== $kind: $log ($size MB)"
    hs_out=$(python3 "$root/bench/hyperscan_scan.py" "$work/patterns.txt" "$log")
    echo "$hs_out" | head -n 1
    hs=$(echo "$hs_out" | awk '/^RESULT/ { print $2 }')
    hs_rate=$(rate "$size" "$hs")
    one=$(seconds "$errcat" --data "$corpus" scan --count --threads 1 "$log")
    all=$(seconds "$errcat" --data "$corpus" scan --count "$log")
    piped=$(seconds sh -c 'cat "$1" | "$2" --data "$3" scan --count' sh "$log" "$errcat" "$corpus")
    rg_s=$(seconds rg -c -f "$work/patterns.txt" "$head")
    naive_s=$(seconds "$xtask" naive "$corpus" "$small")
    printf "%-36s %9s %10s %12s\n" tool seconds "MB/s" "vs hyperscan"
    row() { printf "%-36s %9s %10s %12s\n" "$1" "$2" "$3" "$(awk -v a="$3" -v b="$hs_rate" 'BEGIN { printf "%.2fx", a / b }')"; }
    row "hyperscan (scan only, 1 core)" "$hs" "$hs_rate"
    row "errcat scan --count (1 thread)" "$one" "$(rate "$size" "$one")"
    row "errcat scan --count ($(nproc) threads)" "$all" "$(rate "$size" "$all")"
    row "cat log | errcat scan --count" "$piped" "$(rate "$size" "$piped")"
    row "rg -c -f patterns ($head_size MB)" "$rg_s" "$(rate "$head_size" "$rg_s")"
    row "naive RegexSet per line ($small_size MB)" "$naive_s" "$(rate "$small_size" "$naive_s")"
done

echo
echo "== start-up (mean of 10 runs)"
message=$(grep -m1 '\[ERR\]' "$work/sparse.log" | sed 's/^[^]]*] [^ ]* [^ ]* \[ERR\] //')
mean() { # command... -> mean wall milliseconds of 10 runs
    local start end
    start=$(date +%s%N)
    for _ in 1 2 3 4 5 6 7 8 9 10; do "$@" >/dev/null 2>&1 || true; done
    end=$(date +%s%N)
    awk -v ns="$((end - start))" 'BEGIN { printf "%.1f", ns / 10 / 1e6 }'
}
version=$(mean "$errcat" --version)
explain_embedded=$(mean "$errcat" explain "$message")
# The compiled-catalog cache of `--data` lives under the bench's work
# directory; one run writes it, the timed runs read it (warm). `--no-cache`
# is the cold load: every record file read, parsed and compiled.
export ERRCAT_CACHE_DIR="$work/errcat-cache"
"$errcat" --data "$corpus" explain "$message" >/dev/null 2>&1 || true
explain_corpus=$(mean "$errcat" --data "$corpus" explain "$message")
explain_cold=$(mean "$errcat" --no-cache --data "$corpus" explain "$message")
above() { awk -v a="$1" -v b="$version" 'BEGIN { printf "%.1f", a - b }'; }
printf "%-52s %8s ms\n" "errcat --version" "$version"
printf "%-52s %8s ms\n" "errcat explain (embedded catalog)" "$explain_embedded"
printf "%-52s %8s ms (+%s ms)\n" "errcat --data corpus explain (2,008 records, cached)" "$explain_corpus" \
    "$(above "$explain_corpus")"
printf "%-52s %8s ms (+%s ms)\n" "errcat --data corpus explain --no-cache" "$explain_cold" "$(above "$explain_cold")"
