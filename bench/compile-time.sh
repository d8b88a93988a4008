#!/usr/bin/env bash
# Compile time of downstream crates that apply #[catalog], each in a fresh
# workspace with no `[profile]` section (what a user's crate gets: the macro
# and its dependencies unoptimised in a debug build), its dependencies
# already built. Wall seconds, CPU seconds (user+sys, steadier than wall time
# on a shared machine) and peak RSS (GNU time).
#
# First, issue 27's comparison: a rebuild of the crate after `touch
# src/lib.rs` (a debug `cargo build`, incremental as by default), for
# #[catalog] on the 2,008-record nats-server corpus and for the same records
# as a hand-written `thiserror` enum (`cargo run -p xtask -- thiserror DATA
# OUT`: a variant per record, `#[error("...")]` from its message, Display
# only); both crates depend on error-catalog and thiserror. REBUILD_RUNS
# rounds (default 7), alternating the two crates; the least-CPU run of each,
# their ratio (target: at most 1.5x) and each round's ratio.
#
# Then the scale table: #[catalog] on the three seed records, the corpus, and
# N = 100, 1,000, 5,000, 10,000 and 20,000 synthetic records (`cargo run -p
# xtask -- synth N DIR`; SIZES="100 1000" to choose). Debug build and `cargo
# check` of the crate alone after `cargo clean -p`. With 5,000 and 20,000
# among the sizes, the 20,000/5,000 ratios (issue 14's target: a debug build
# at most 4.5 times as long, under 4 GiB).
#
#   bench/compile-time.sh                  # needs datasets/nats-server
#   COMPARE_ONLY=1 bench/compile-time.sh   # only the rebuild comparison
#   SIZES= SKIP_CLEAN=1 bench/compile-time.sh  # the comparison, seeds and corpus
#   OPTIMIZE_MACRO=1 bench/compile-time.sh # with [profile.dev.build-override] opt-level = 3
#   PINNED=1 RUNS=1 SKIP_CLEAN=1 bench/compile-time.sh  # each dataset also with a names file
#                                          # (`errcat names`), and the ratio; RUNS:
#                                          # N rounds of every build (default 3),
#                                          # the run of least CPU time reported,
#                                          # and each round's ratio
#   KEEP=1 bench/compile-time.sh           # keep the temporary workspace (printed)
#
# Three rounds by default: on the 2-core development machine one build of the
# same crate varied by a quarter from run to run (the 20,000/5,000 ratio of
# single runs from 4.09x to 4.63x on the same code), so one round says little.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=${CORPUS:-$root/datasets/nats-server}
[ -d "$corpus" ] || { echo "corpus not found at $corpus (set CORPUS=dir)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "GNU time is needed: apt-get install time" >&2; exit 2; }

work=$(mktemp -d)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
declare -A dirs=([seeds]="$root/data/nats-io/nats-server" [corpus]="$corpus")
sizes=${SIZES-100 1000 5000 10000 20000}
runs=${RUNS:-3}
rebuild_runs=${REBUILD_RUNS:-7}
[ -z "${COMPARE_ONLY:-}" ] || sizes=""
cargo build -q --release --manifest-path "$root/Cargo.toml" -p xtask
for n in $sizes; do
    "$root/target/release/xtask" synth "$n" "$work/records-$n"
    dirs[synth$n]="$work/records-$n"
done
crates="seeds corpus $(for n in $sizes; do echo "synth$n"; done)"
if [ -n "${PINNED:-}" ]; then
    # The same records with a names file: `<name>_pinned`.
    cargo build -q --manifest-path "$root/Cargo.toml" -p errcat
    for name in $crates; do
        cp -r "${dirs[$name]}" "$work/pinned-$name"
        "$root/target/debug/errcat" names "$work/pinned-$name" >/dev/null
        dirs[${name}_pinned]="$work/pinned-$name"
    done
    crates=$(for name in $crates; do echo "$name ${name}_pinned"; done)
fi
members=""
# The rebuild comparison: the corpus under #[catalog], and as a thiserror enum.
for name in rebuild_catalog rebuild_thiserror; do
    mkdir -p "$work/$name/src"
    cat > "$work/$name/Cargo.toml" <<TOML
[package]
name = "$name"
version = "0.0.0"
edition = "2021"
[dependencies]
error-catalog = { path = "$root" }
thiserror = "2"
TOML
    members="$members\"$name\","
done
cp -r "$corpus" "$work/rebuild_catalog/data"
cat > "$work/rebuild_catalog/src/lib.rs" <<'RS'
#[error_catalog::catalog(path = "data")]
pub enum CatalogError {}
RS
"$root/target/release/xtask" thiserror "$corpus" "$work/rebuild_thiserror/src/lib.rs" 2>/dev/null
for name in "${!dirs[@]}"; do
    mkdir -p "$work/$name/src"
    cp -r "${dirs[$name]}" "$work/$name/data"
    cat > "$work/$name/Cargo.toml" <<TOML
[package]
name = "$name"
version = "0.0.0"
edition = "2021"
[dependencies]
error-catalog = { path = "$root" }
TOML
    cat > "$work/$name/src/lib.rs" <<'RS'
#[error_catalog::catalog(path = "data")]
pub enum CatalogError {}
pub fn classify(line: &str) -> Option<usize> {
    CatalogError::find(line).map(|e| e.kind().index())
}
RS
    members="$members\"$name\","
done
cat > "$work/Cargo.toml" <<TOML
[workspace]
members = [$members]
resolver = "2"
TOML
# A user's default profile runs the macro unoptimised; OPTIMIZE_MACRO=1 shows
# the effect of the documented `build-override` setting.
if [ -n "${OPTIMIZE_MACRO:-}" ]; then
    printf '[profile.dev.build-override]\nopt-level = 3\n' >> "$work/Cargo.toml"
fi
cd "$work"
[ -z "${KEEP:-}" ] || echo "workspace: $work" >&2
echo "building dependencies once..." >&2
cargo build -q -p seeds -p rebuild_catalog -p rebuild_thiserror 2>/dev/null
cargo check -q -p seeds 2>/dev/null

measure() { # command... -> "seconds cpu_seconds peak_MiB"
    /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$@" >/dev/null 2>&1
    awk '{ printf "%.2f %.2f %.0f\n", $1, $2 + $3, $4 / 1024 }' "$work/time"
}

# The rebuild comparison: REBUILD_RUNS rounds of `touch src/lib.rs` and a
# debug build of each crate, alternating.
declare -A rebuild_best
rebuild_ratios=""
for round in $(seq "$rebuild_runs"); do
    declare -A this_round=()
    for name in rebuild_catalog rebuild_thiserror; do
        touch "$work/$name/src/lib.rs"
        run=$(measure cargo build -p "$name")
        this_round[$name]=$run
        if [ -z "${rebuild_best[$name]:-}" ] || awk -v a="$run" -v b="${rebuild_best[$name]}" \
            'BEGIN { split(a, x, " "); split(b, y, " "); exit !(x[2] < y[2]) }'; then
            rebuild_best[$name]=$run
        fi
    done
    rebuild_ratios="$rebuild_ratios $(awk -v a="${this_round[rebuild_catalog]}" -v b="${this_round[rebuild_thiserror]}" \
        'BEGIN { split(a, x, " "); split(b, y, " "); printf "%.2f", x[2] / y[2] }')"
done
profile="no [profile] section"
[ -z "${OPTIMIZE_MACRO:-}" ] || profile="[profile.dev.build-override] opt-level = 3"
records=$(find "$work/rebuild_catalog/data" -name '*.json' | wc -l)
echo "Rebuild after \`touch src/lib.rs\`: \`cargo build -p CRATE\` (debug), $profile, $records records;"
echo "least-CPU run of $rebuild_runs rounds:"
printf "%-44s %9s %9s %9s\n" crate "wall s" "cpu s" "peak MiB"
read -r cat_s cat_cpu cat_m <<< "${rebuild_best[rebuild_catalog]}"
read -r te_s te_cpu te_m <<< "${rebuild_best[rebuild_thiserror]}"
printf "%-44s %9s %9s %9s\n" "rebuild_catalog (#[catalog(path = \"data\")])" "$cat_s" "$cat_cpu" "$cat_m"
printf "%-44s %9s %9s %9s\n" "rebuild_thiserror (#[derive(Debug, Error)])" "$te_s" "$te_cpu" "$te_m"
awk -v a="$cat_cpu" -v b="$te_cpu" -v r="$rebuild_ratios" 'BEGIN {
    printf "#[catalog] / thiserror, CPU: %.2fx (target: at most 1.5x); each round:%s\n", a / b, r
}'
[ -z "${COMPARE_ONLY:-}" ] || exit 0
echo

# RUNS rounds, each building and checking every crate once (so that a crate's
# runs are spread over the whole measurement rather than bunched, and the
# 5,000- and 20,000-record builds of one round ran side by side); each crate's
# run of least CPU time is reported, and the 20,000/5,000 ratio of each round.
declare -A best rounds
for round in $(seq "$runs"); do
    for name in $crates; do
        [ -n "${dirs[$name]:-}" ] || continue
        for command in build check; do
            cargo clean -q -p "$name"
            run=$(measure cargo "$command" -p "$name")
            if [ -z "${best[$name $command]:-}" ] || awk -v a="$run" -v b="${best[$name $command]}" \
                'BEGIN { split(a, x, " "); split(b, y, " "); exit !(x[2] < y[2]) }'; then
                best[$name $command]=$run
            fi
            rounds[$name $command $round]=$run
        done
    done
done
printf "%-15s %8s %9s %9s %10s %9s %9s %10s\n" crate records "debug s" "cpu s" "debug MiB" "check s" "cpu s" "check MiB"
for name in $crates; do
    [ -n "${dirs[$name]:-}" ] || continue
    records=$(find "$work/$name/data" -name '*.json' | wc -l)
    read -r build_s build_cpu build_m <<< "${best[$name build]}"
    read -r check_s check_cpu check_m <<< "${best[$name check]}"
    printf "%-15s %8s %9s %9s %10s %9s %9s %10s\n" "$name" "$records" "$build_s" "$build_cpu" "$build_m" "$check_s" "$check_cpu" "$check_m"
    eval "${name}_build=$build_s ${name}_build_cpu=$build_cpu ${name}_check=$check_s ${name}_check_cpu=$check_cpu"
    eval "${name}_build_m=$build_m ${name}_check_m=$check_m"
done
if [ -n "${synth5000_build:-}" ] && [ -n "${synth20000_build:-}" ]; then
    echo
    echo "20,000/5,000 records (target: debug build at most 4.5x, peak RSS under 4 GiB), least-CPU runs:"
    awk -v b="$synth5000_build" -v b2="$synth20000_build" -v bc="$synth5000_build_cpu" -v bc2="$synth20000_build_cpu" \
        -v c="$synth5000_check" -v c2="$synth20000_check" -v cc="$synth5000_check_cpu" -v cc2="$synth20000_check_cpu" \
        -v m="$synth20000_build_m" -v cm="$synth20000_check_m" 'BEGIN {
            printf "debug build ratio: %.2fx wall, %.2fx CPU; peak RSS %.2f GiB\n", b2 / b, bc2 / bc, m / 1024
            printf "cargo check ratio: %.2fx wall, %.2fx CPU; peak RSS %.2f GiB\n", c2 / c, cc2 / cc, cm / 1024
        }'
    if [ "$runs" -gt 1 ]; then
        ratios=$(for round in $(seq "$runs"); do
            awk -v a="${rounds[synth20000 build $round]}" -v b="${rounds[synth5000 build $round]}" \
                'BEGIN { split(a, x, " "); split(b, y, " "); printf "%.2f\n", x[1] / y[1] }'
        done | sort -n)
        echo "debug build ratio (wall) of each round: $(echo $ratios | sed 's/ /x, /g')x; median $(echo "$ratios" |
            awk '{ r[NR] = $1 } END { print r[int((NR + 1) / 2)] }')x"
    fi
fi
if [ -n "${PINNED:-}" ]; then
    echo
    echo "with a names file / without (CPU seconds):"
    for name in $crates; do
        case $name in *_pinned) continue ;; esac
        eval "b=\$${name}_build_cpu bp=\$${name}_pinned_build_cpu c=\$${name}_check_cpu cp=\$${name}_pinned_check_cpu"
        awk -v n="$name" -v b="$b" -v bp="$bp" -v c="$c" -v cp="$cp" \
            'BEGIN { printf "%-8s debug build %+.1f%%, check %+.1f%%\n", n, (bp / b - 1) * 100, (cp / c - 1) * 100 }'
    done
fi
awk -v s="$seeds_build" -v c="$corpus_build" 'BEGIN { printf "corpus/seeds debug build ratio: %.1fx\n", c / s }'
# What a user meets first: a clean debug build of the crate with all its
# dependencies (error-catalog, the macro, regex, serde_json, syn, ...).
# SKIP_CLEAN=1 leaves it out.
[ -z "${SKIP_CLEAN:-}" ] || exit 0
echo
printf "%-8s %22s %14s\n" crate "clean debug build s" "peak MiB"
for name in seeds corpus; do
    cargo clean -q
    read -r clean_s _ clean_m < <(measure cargo build -p "$name")
    printf "%-8s %22s %14s\n" "$name" "$clean_s" "$clean_m"
    eval "${name}_clean=$clean_s"
done
awk -v s="$seeds_clean" -v c="$corpus_clean" 'BEGIN { printf "corpus/seeds clean debug build ratio: %.2fx\n", c / s }'
