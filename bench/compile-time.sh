#!/usr/bin/env bash
# Compile time of a downstream crate that applies #[catalog] to the three seed
# records, the 2,008-record nats-server corpus, and N = 100, 1,000 and 5,000
# synthetic records (`cargo run -p xtask -- synth N DIR`; SIZES="100 1000"
# to choose). Debug build and `cargo check` of the crate alone, its
# dependencies already built; wall seconds, CPU seconds (user+sys, steadier
# than wall time on a shared machine) and peak RSS (GNU time).
#
#   bench/compile-time.sh                  # needs ../shared/corpus/nats-server
#   OPTIMIZE_MACRO=1 bench/compile-time.sh # with [profile.dev.build-override] opt-level = 3
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=${CORPUS:-$root/../shared/corpus/nats-server}
[ -d "$corpus" ] || { echo "corpus not found at $corpus (set CORPUS=dir)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "GNU time is needed: apt-get install time" >&2; exit 2; }

work=$(mktemp -d)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
declare -A dirs=([seeds]="$root/data/nats-io/nats-server" [corpus]="$corpus")
sizes=${SIZES-100 1000 5000}
cargo build -q --release --manifest-path "$root/Cargo.toml" -p xtask
for n in $sizes; do
    "$root/target/release/xtask" synth "$n" "$work/records-$n"
    dirs[synth$n]="$work/records-$n"
done
members=""
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
echo "building dependencies once..." >&2
cargo build -q -p seeds 2>/dev/null
cargo check -q -p seeds 2>/dev/null

measure() { # command... -> "seconds cpu_seconds peak_MiB"
    /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$@" >/dev/null 2>&1
    awk '{ printf "%.2f %.2f %.0f\n", $1, $2 + $3, $4 / 1024 }' "$work/time"
}
printf "%-8s %8s %9s %9s %10s %9s %9s %10s\n" crate records "debug s" "cpu s" "debug MiB" "check s" "cpu s" "check MiB"
for name in seeds corpus $(for n in $sizes; do echo "synth$n"; done); do
    [ -n "${dirs[$name]:-}" ] || continue
    records=$(find "$work/$name/data" -name '*.json' | wc -l)
    cargo clean -q -p "$name"
    read -r build_s build_cpu build_m < <(measure cargo build -p "$name")
    cargo clean -q -p "$name"
    read -r check_s check_cpu check_m < <(measure cargo check -p "$name")
    printf "%-8s %8s %9s %9s %10s %9s %9s %10s\n" "$name" "$records" "$build_s" "$build_cpu" "$build_m" "$check_s" "$check_cpu" "$check_m"
    eval "${name}_build=$build_s"
done
awk -v s="$seeds_build" -v c="$corpus_build" 'BEGIN { printf "corpus/seeds debug build ratio: %.1fx\n", c / s }'
# What a user meets first: a clean debug build of the crate with all its
# dependencies (error-catalog, the macro, regex, serde_json, syn, ...).
echo
printf "%-8s %22s %14s\n" crate "clean debug build s" "peak MiB"
for name in seeds corpus; do
    cargo clean -q
    read -r clean_s _ clean_m < <(measure cargo build -p "$name")
    printf "%-8s %22s %14s\n" "$name" "$clean_s" "$clean_m"
    eval "${name}_clean=$clean_s"
done
awk -v s="$seeds_clean" -v c="$corpus_clean" 'BEGIN { printf "corpus/seeds clean debug build ratio: %.2fx\n", c / s }'
