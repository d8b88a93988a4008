#!/usr/bin/env bash
# Builds the wheel of the Python package and runs its tests: the crate's
# fmt, clippy and unit tests, then pytest (the package, and Spark on a local
# session). Installs what it needs: Java 17 from Debian's packages if no
# `java`, and maturin, pytest, pyarrow, pyspark, pandas from the package
# index. The tests compare with errcat and xtask, built here in release
# mode, and read the repository's datasets.
#
#   bash bindings/python/run-tests.sh            # everything
#   bash bindings/python/run-tests.sh -k spark   # extra arguments go to pytest
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
manifest=bindings/python/Cargo.toml
# One target directory with the workspace: the dependencies are built once.
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$root/target}
# A Debian system Python refuses `pip install` without it.
export PIP_BREAK_SYSTEM_PACKAGES=1

command -v java >/dev/null || {
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jre-headless >/dev/null
}
python3 -m pip install -q --disable-pip-version-check maturin pytest pyarrow pyspark "pandas>=2.2,<3" numpy

cargo fmt --manifest-path "$manifest" -- --check
cargo clippy --manifest-path "$manifest" --all-targets -- -D warnings
cargo test --manifest-path "$manifest"

# errcat and xtask, which the tests compare with.
cargo build --release -p errcat -p xtask
rm -rf "$CARGO_TARGET_DIR/wheels"
(cd bindings/python && maturin build --release -o "$CARGO_TARGET_DIR/wheels")
python3 -m pip install -q --disable-pip-version-check --force-reinstall --no-deps "$CARGO_TARGET_DIR"/wheels/error_catalog-*.whl

# Tools or the corpus missing fail the tests instead of skipping them.
ERROR_CATALOG_REQUIRE=1 python3 -m pytest -p no:cacheprovider bindings/python/tests "$@"
